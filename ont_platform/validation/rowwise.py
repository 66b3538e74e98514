"""Every resource of a large load checked by the compiled shapes, one row at a time, in bounded memory.

Why not the whole batch at once: the compiled shapes hold their data as Python objects, ~40 µs and a few hundred
bytes a triple, so a million transfers (12M triples) would take minutes and gigabytes, and ten million would not
fit. Why not a sample: a violation in a row outside the sample goes unseen, and with a user's own shapes nobody
can say which constraint a sample covers.

What makes rows enough: a dataset loader writes each resource's own triples in one row (a node, an edge with its
attributes, a chunk, a page), and the only triples a row writes about another resource are a relation's plain
triple ``source kind target`` (the *foreign* predicates). The classes of the nodes a row points to are known to
the loader (its id-to-class maps). :meth:`~ont_platform.validation.shapes.CompiledShapes.row_plan` says which
shapes are exact on such rows: a shape that looks at a resource's own triples and at its values' classes is
checked on the resource's row; a shape on the subjects of a foreign predicate is checked on each row holding such
a triple, value by value. The others (a count over a relation's values, a look at the properties of the nodes a
value points to, objects-of targets...) are named, and the load checks them on a sample as before.

What makes it fast enough: rows that differ only in values every constraint judges alike are alike to the
shapes. Each value is reduced to what the constraints on its predicate say about it
(:meth:`~ont_platform.validation.shapes.CompiledShapes.value_key`); a resource's *signature* is its classes and,
per predicate, the multiset of its values' keys. The compiled shapes run on the first row of every signature
(and on any row with a blank node); a signature that produced no violation is remembered, and later rows with
it are done. Values are judged by the compiled shapes' own value checks, except:

- a plain string, which :meth:`~ont_platform.validation.shapes.CompiledShapes.plain_key` judges from its text
  without building a term, and a canonical integer, boolean or timestamp, which
  :meth:`~ont_platform.validation.shapes.CompiledShapes.typed_key` judges from its text (property tests hold
  both equal to the term-level verdict on every path of the bundled shapes and of shapes using every value
  check). A large load writes a new block number and timestamp in nearly every row: as terms, each was a miss
  of the key cache and cost more than the rest of the row.
- a node value, judged once per class set where no constraint looks at which node it is, and once for every
  node where no constraint reads its classes either (then its classes are not even looked up).

Rows are split into triples by one regular expression (a row it does not read whole goes to the compiled
shapes), and the caches hold keys and class sets, never nodes, so they stay small at any size of load.
"""

from __future__ import annotations

import re
from collections.abc import Callable, Iterable
from dataclasses import dataclass

import pyoxigraph as ox
from rdflib import RDF, URIRef
from rdflib.term import Node

from ont_platform.namespaces import ONT
from ont_platform.ontology.shacl import Violation
from ont_platform.storage._terms import from_oxigraph
from ont_platform.validation.shapes import CompiledShapes, RowPlan, Triples

FORGET_EVERY = 10_000
"""Rows between looks at the caches' sizes."""

MAX_REMEMBERED = 200_000
"""Clean signatures, and value keys, remembered at most; past that a cache starts again empty (the class sets and
predicates it also remembers are few)."""

_TYPE_REF = URIRef(str(RDF.type))
_TYPE_NT = f"<{RDF.type}>"
_SOURCE, _TARGET, _KIND = f"<{ONT.source}>", f"<{ONT.target}>", f"<{ONT.kind}>"
_ENDS = frozenset({_SOURCE, _TARGET, _KIND})
_XSD_STRING_SUFFIX = "^^<http://www.w3.org/2001/XMLSchema#string>"
_NO_CLASSES: frozenset[str] = frozenset()
_TRIPLE = re.compile(r"^(<[^ ]*>) (<[^ ]*>) (.+) \.$", re.MULTILINE)
"""One line of a row as (subject, predicate, object) text; a row with a line this does not read is left to the
compiled shapes whole."""


@dataclass
class RowStats:
    """What a row-by-row check covered."""

    rows: int = 0
    resources: int = 0
    """Resources checked (each row's own resources, and each subject of a foreign triple per row)."""
    triples: int = 0
    runs: int = 0
    """Times the compiled shapes ran (first rows of signatures, and rows with blank nodes)."""
    signatures: int = 0
    """Distinct clean signatures met."""


class RowChecker:
    """Check rows of N-Triples (one resource's own triples, plus foreign triples) as a load streams them.

    Rows are read as pyoxigraph terms and compared as plain strings; rdflib terms are built only for what
    the compiled shapes must see (a value of a type other than plain string, or a row whose signature is new)."""

    def __init__(
        self,
        shapes: CompiledShapes,
        foreign: Iterable[Node],
        types_of: Callable[[str], frozenset[str] | None],
        plan: RowPlan | None = None,
    ) -> None:
        """``types_of`` gives the classes (IRIs) of a node of the load by its IRI, or None for an IRI the load
        does not hold."""
        self.shapes = shapes
        self._foreign_iris = frozenset(str(p) for p in foreign)
        self.foreign = frozenset(f"<{p}>" for p in self._foreign_iris)
        """The foreign predicates as N-Triples text (rows are compared as text)."""
        self.plan = plan if plan is not None else shapes.row_plan([URIRef(p) for p in self._foreign_iris])
        self._types_of = types_of
        self._clean: set[tuple[object, ...]] = set()
        self._keys: dict[tuple[str, object, frozenset[str]], tuple[bool, ...]] = {}
        self._class_text: dict[frozenset[str], frozenset[str]] = {}
        self._iri_mode: dict[str, tuple[bool, bool]] = {}
        """Per predicate (N-Triples text): whether a node value is judged by its classes only, by no classes."""
        self.stats = RowStats()
        self.violations: list[Violation] = []

    def add(self, text: str) -> None:
        """Check one row's N-Triples (one triple a line); its violations join :attr:`violations`."""
        self._row(text)
        if self.stats.rows % FORGET_EVERY == 0:
            for cache in (self._clean, self._keys):
                if len(cache) > MAX_REMEMBERED:
                    cache.clear()

    def finish(self) -> list[Violation]:
        """Every violation found, sorted."""
        return sorted(set(self.violations), key=lambda v: (v.focus, v.path or "", v.message))

    def _types(self, node: str, row_types: dict[str, set[str]]) -> frozenset[str]:
        """The classes of a node (N-Triples text): from this row when it types the node, else the load's."""
        if node in row_types:
            return frozenset(row_types[node])
        known = self._types_of(node[1:-1]) if node[0] == "<" else None
        if not known:
            return frozenset()
        # one set of class texts per set of classes: a large load points at millions of nodes, a handful of classes
        found = self._class_text.get(known)
        if found is None:
            found = self._class_text[known] = frozenset(f"<{c}>" for c in known)
        return found

    def _key(self, p: str, o: str, row_types: dict[str, set[str]]) -> tuple[bool, ...]:
        """What the constraints on ``p`` say about the value ``o`` (both N-Triples text)."""
        if o[0] == '"':
            end = o.rfind('"')
            body, suffix = o[1:end], o[end + 1 :]
            if "\\" not in body:
                if not suffix or suffix == _XSD_STRING_SUFFIX:
                    fast = self.shapes.plain_key(p[1:-1], body)
                elif suffix[:3] == "^^<" and suffix[-1] == ">":
                    fast = self.shapes.typed_key(p[1:-1], body, suffix[3:-1])
                else:
                    fast = None
                if fast is not None:
                    return fast
            k: tuple[str, str, frozenset[str]] = (p, o, frozenset())
        else:
            # a node is judged by its classes on most paths (one key per class set, not per node), and on some by
            # its kind alone (one key for every node)
            mode = self._iri_mode.get(p)
            if mode is None:
                path = p[1:-1]
                mode = self._iri_mode[p] = (self.shapes.judges_by_class(path), self.shapes.ignores_classes(path))
            by_class, classless = mode
            named = o[0] == "<"
            k = (
                p,
                "" if named and by_class else o,
                _NO_CLASSES if named and classless else self._types(o, row_types),
            )
        found = self._keys.get(k)
        if found is None:
            term = _term(o)
            found = self._keys[k] = self.shapes.value_key(URIRef(p[1:-1]), term, [_term(c) for c in k[2]])
        return found

    def _row(self, text: str) -> None:
        stats = self.stats
        stats.rows += 1
        if text[:1] != "<" or "_:" in text:
            self._fallback(text)  # a blank node (or text that looks like one): the compiled shapes decide
            return
        triples = _TRIPLE.findall(text)
        if len(triples) != text.count("\n") or text[-1] != "\n":
            self._fallback(text)  # a line written otherwise: the compiled shapes decide
            return
        stats.triples += len(triples)
        own: dict[str, list[tuple[str, str]]] = {}
        outer: dict[str, list[tuple[str, str]]] = {}
        row_types: dict[str, set[str]] = {}
        present: set[tuple[str, str, str]] = set()
        foreign = self.foreign
        unique = set(triples)
        for triple in unique if len(unique) != len(triples) else triples:  # a triple written twice is one
            subject, p, o = triple
            if p in foreign:
                outer.setdefault(subject, []).append((p, o))
                present.add(triple)
            else:
                own.setdefault(subject, []).append((p, o))
                if p == _TYPE_NT:
                    row_types.setdefault(subject, set()).add(o)
        clean = self._clean
        for subject, mine in own.items():
            stats.resources += 1
            signature = self._signature("own", subject, mine, row_types, present)
            if signature not in clean:
                self._run(self.plan.own, text, subject, None, signature)
        for subject, theirs in outer.items():
            stats.resources += 1
            signature = self._signature("foreign", subject, theirs, row_types, present)
            if signature not in clean:
                self._run(self.plan.foreign, text, subject, self.foreign, signature)

    def _fallback(self, text: str) -> None:
        """A row the plain reading does not take: every subject checked by the compiled shapes, no signature."""
        subjects: dict[str, bool] = {}
        for q in ox.parse(text.encode("utf-8"), format=ox.RdfFormat.N_TRIPLES):
            key = str(q.subject)
            subjects[key] = subjects.get(key, False) or q.predicate.value not in self._foreign_iris
        for subject, has_own in subjects.items():
            self.stats.resources += 1
            if has_own:
                self._run(self.plan.own, text, subject, None, None)
            self._run(self.plan.foreign, text, subject, self.foreign, None)

    def _signature(
        self,
        kind: str,
        subject: str,
        mine: list[tuple[str, str]],
        row_types: dict[str, set[str]],
        present: set[tuple[str, str, str]],
    ) -> tuple[object, ...]:
        """The resource's classes and, per predicate, its values' keys (a multiset), and whether the plain
        triple of a relation resource is in the row."""
        values: list[tuple[str, tuple[bool, ...]]] = []
        ends: dict[str, str] = {}
        key = self._key
        for p, o in mine:
            values.append((p, key(p, o, row_types)))
            if p in _ENDS:
                ends[p] = o
        values.sort()
        plain = None
        if len(ends) == 3:
            plain = (ends[_SOURCE], ends[_KIND], ends[_TARGET]) in present
        classes = frozenset(row_types.get(subject, ())) if kind == "own" else self._types(subject, {})
        return (kind, classes, tuple(values), plain)

    def _run(
        self,
        only: tuple[int, ...],
        text: str,
        subject: str,
        foreign: frozenset[str] | None,
        signature: tuple[object, ...] | None,
    ) -> None:
        """The compiled shapes on this row (with the classes of the nodes it points to, and of the subject),
        ``subject`` the only target; with ``foreign``, only the subject's triples of those predicates. A clean
        result makes the signature known."""
        if not only:
            return
        data = Triples()
        typed: set[str] = set()
        objects: set[str] = set()
        target: Node | None = None
        for q in ox.parse(text.encode("utf-8"), format=ox.RdfFormat.N_TRIPLES):
            key = str(q.subject)
            if foreign is not None and (key != subject or str(q.predicate) not in foreign):
                continue
            s, p, o = from_oxigraph(q.subject), from_oxigraph(q.predicate), from_oxigraph(q.object)
            assert s is not None and p is not None and o is not None
            data.add((s, p, o))
            if key == subject:
                target = s
            if str(q.predicate) == _TYPE_NT:
                typed.add(key)
            if isinstance(q.object, ox.NamedNode):
                objects.add(str(q.object))
        for node in objects | {subject}:
            if node not in typed:
                for c in self._types(node, {}):
                    data.add((_term(node), _TYPE_REF, _term(c)))
        self.stats.runs += 1
        found = self.shapes.violations(data, only=only, targets=[target if target is not None else _term(subject)])
        if found:
            self.violations.extend(found)
        elif signature is not None:
            self._clean.add(signature)
            self.stats.signatures += 1


def _term(text: str) -> Node:
    """An rdflib term from its N-Triples text (pyoxigraph reads it, so escapes and datatypes are exact)."""
    if text.startswith("<") and text.endswith(">") and ">" not in text[1:-1]:
        return URIRef(text[1:-1])
    quad = next(iter(ox.parse(f"<urn:x:s> <urn:x:p> {text} .".encode(), format=ox.RdfFormat.N_TRIPLES)))
    term = from_oxigraph(quad.object)
    assert term is not None
    return term
