"""The bundled SHACL shapes compiled to Python, for validating small graphs (an ingest batch and its neighbours).

pyshacl interprets the shapes graph anew for every focus node: about 1.5 ms a node, so a batch of 100 extracted
transfers (~500 resources with their evidence and chunks) costs close to a second before anything is written,
and copying the batch into an rdflib graph costs a quarter of that again. The shapes themselves are fixed
files, so they are read once into plain Python objects here and evaluated over an indexed set of triples,
which is two orders of magnitude faster on such a graph.

The compiler accepts the part of SHACL Core the bundled shapes use (targets by class and by subject of a
property, predicate paths, ``sh:property``, cardinality, value type, value range, string, ``sh:in``,
``sh:hasValue``, ``sh:node``, ``sh:not``, ``sh:or``, ``sh:and``, qualified value shapes) and the one SPARQL
target of the core shapes, the plain-triple rule, whose query text it recognises exactly and evaluates as
Python. A shapes graph with anything else (another SPARQL text, a complex path, ``sh:closed`` ...) is not
compiled: :func:`compiled` returns ``None`` and the caller runs pyshacl, so an edited shapes file is never
checked less than before. The semantics follow pyshacl's (``tests/validation/test_shapes.py`` compares the
two on generated graphs): a class test follows ``rdfs:subClassOf`` in the data, datatypes reject ill-typed
literals, ranges compare with pyshacl's own literal comparison, patterns search the lexical form.
"""

from __future__ import annotations

import re
from calendar import monthrange
from collections import defaultdict
from collections.abc import Iterable, Iterator
from dataclasses import dataclass, field
from datetime import date, datetime, time
from decimal import Decimal
from functools import cache
from typing import Any

from pyshacl.rdfutil.compare import compare_literal
from pyshacl.rdfutil.stringify import stringify_node
from rdflib import RDF, RDFS, XSD, BNode, Graph, Literal, URIRef
from rdflib.collection import Collection
from rdflib.namespace import SH
from rdflib.term import Node

from ont_platform.domains import Domain, get_domain
from ont_platform.ontology.shacl import Violation, shapes_graph

Triple = tuple[Node, Node, Node]

_ONT = "https://w3id.org/ont-platform/core#"
_PLAIN_TRIPLE_SELECT = (
    "SELECT ?this WHERE { ?this ont:source ?s ; ont:target ?t ; ont:kind ?k . "
    "FILTER (isIRI(?s) && isIRI(?t) && isIRI(?k)) FILTER NOT EXISTS { ?s ?k ?t } }"
)
"""The core shapes' SPARQL target (relations whose plain triple is missing), spacing collapsed."""

_IGNORED = {
    SH.name,
    SH.description,
    SH.order,
    SH.group,
    SH.declare,
    SH.prefixes,
    SH.message,
    SH.severity,
    SH.deactivated,
    SH.target,
    SH.targetClass,
    SH.targetSubjectsOf,
    SH.targetObjectsOf,
    SH.targetNode,
    SH.property,
    SH.path,
    SH.qualifiedMinCount,
    SH.qualifiedMaxCount,
    SH.qualifiedValueShapesDisjoint,
}
_SHAPE_LINKS = (SH.property, SH.node, SH.qualifiedValueShape, SH["not"])
_LIST_LINKS = (SH["or"], SH["and"])


class Unsupported(Exception):
    """The shapes use something the compiler does not evaluate; pyshacl must run them."""


# --- the data ----------------------------------------------------------------------------------------------


class Triples:
    """A set of triples indexed by subject and by predicate: the data a batch is validated on.

    It offers the handful of rdflib ``Graph`` methods the ingest path and the critic use (``add``, ``remove``,
    ``objects``, ``subjects``, ``value``, ``in``, ``len``, iteration) at a fraction of their cost: an rdflib
    in-memory graph spends ~50 µs on each ``add`` (events, contexts), which for a batch of 3,000 triples is
    more than the whole validation here.
    """

    def __init__(self, triples: Iterable[Triple] = ()) -> None:
        self._spo: dict[Node, dict[Node, set[Node]]] = defaultdict(lambda: defaultdict(set))
        self._pos: dict[Node, dict[Node, set[Node]]] = defaultdict(lambda: defaultdict(set))
        self._len = 0
        for t in triples:
            self.add(t)

    def add(self, triple: Triple) -> None:
        s, p, o = triple
        objects = self._spo[s][p]
        if o not in objects:
            objects.add(o)
            self._pos[p][o].add(s)
            self._len += 1

    def remove(self, triple: Triple) -> None:
        s, p, o = triple
        objects = self._spo.get(s, {}).get(p)
        if objects is not None and o in objects:
            objects.discard(o)
            self._pos[p][o].discard(s)
            self._len -= 1

    def objects(self, s: Node, p: Node) -> set[Node]:
        """The objects of ``s p ?o`` (a new set)."""
        by_p = self._spo.get(s)
        return set(by_p.get(p, ())) if by_p is not None else set()

    def subjects(self, p: Node, o: Node | None = None) -> set[Node]:
        """The subjects of ``?s p o``, or of ``?s p ?any`` when ``o`` is None (a new set)."""
        by_o = self._pos.get(p)
        if by_o is None:
            return set()
        if o is not None:
            return set(by_o.get(o, ()))
        return {s for subjects in by_o.values() for s in subjects}

    def value(self, s: Node, p: Node) -> Node | None:
        """One object of ``s p ?o``, or None."""
        return next(iter(self._spo.get(s, {}).get(p, ())), None)

    def __contains__(self, triple: object) -> bool:
        if not isinstance(triple, tuple) or len(triple) != 3:
            return False
        s, p, o = triple
        return o in self._spo.get(s, {}).get(p, ())

    def __iter__(self) -> Iterator[Triple]:
        for s, by_p in self._spo.items():
            for p, objects in by_p.items():
                for o in objects:
                    yield s, p, o

    def __len__(self) -> int:
        return self._len

    def graph(self) -> Graph:
        """An rdflib graph of the same triples (for pyshacl)."""
        g = Graph()
        for t in self:
            g.add(t)
        return g


# --- the compiled shapes -----------------------------------------------------------------------------------


@dataclass(eq=False)
class _Shape:
    node: Node
    path: URIRef | None = None
    message: str | None = None
    violation: bool = True
    deactivated: bool = False
    checks: list[tuple[str, Any]] = field(default_factory=list)
    properties: list[_Shape] = field(default_factory=list)
    target_classes: list[Node] = field(default_factory=list)
    target_subjects_of: list[Node] = field(default_factory=list)
    target_objects_of: list[Node] = field(default_factory=list)
    target_nodes: list[Node] = field(default_factory=list)
    plain_triple_target: bool = False

    @property
    def targeted(self) -> bool:
        return bool(
            self.target_classes
            or self.target_subjects_of
            or self.target_objects_of
            or self.target_nodes
            or self.plain_triple_target
        )


class CompiledShapes:
    """A shapes graph read into Python; :meth:`violations` validates a :class:`Triples` set."""

    def __init__(self, shapes: Graph) -> None:
        self._g = shapes
        self._shapes: dict[Node, _Shape] = {}
        self._building: set[Node] = set()
        roots = set(shapes.subjects(RDF.type, SH.NodeShape)) | set(shapes.subjects(RDF.type, SH.PropertyShape))
        for p in (SH.targetClass, SH.targetSubjectsOf, SH.targetObjectsOf, SH.targetNode, SH.target):
            roots |= set(shapes.subjects(p, None))
        for node in roots:
            if (node, RDF.type, RDFS.Class) in shapes or (
                node,
                RDF.type,
                URIRef("http://www.w3.org/2002/07/owl#Class"),
            ) in shapes:
                raise Unsupported("implicit class targets")
        self.targeted = [s for s in (self._shape(n) for n in sorted(roots, key=str)) if s.targeted]
        for shape in self.targeted:
            self._messages(shape)
        self.names = [_name(shapes, s.node) for s in self.targeted]
        """A name for each targeted shape (its IRI in prefixed form, or a description of a blank one)."""
        self._by_path: dict[Node, list[tuple[str, Any]]] = defaultdict(list)
        """The constraints on each path that look at one value at a time (and the value tests of qualified and
        hasValue constraints), for :meth:`value_key`."""
        for shape in self._shapes.values():
            if shape.path is not None:
                for check in shape.checks:
                    if check[0] not in ("minCount", "maxCount"):
                        self._by_path[shape.path].append(check)
        self._by_text: dict[str, list[tuple[str, Any]] | None] = {
            str(path): _text_checks(checks) for path, checks in self._by_path.items()
        }
        self._anonymous = {
            str(path)
            for path, checks in self._by_path.items()
            if not any(_identity(kind, arg, set()) for kind, arg in checks)
        }
        """Paths whose constraints judge a node value by its classes alone, never by which node it is."""
        self._classless = {
            str(path) for path, checks in self._by_path.items() if all(kind in _CLASSLESS for kind, _ in checks)
        }
        """Paths whose constraints never read the classes of a node value (kind, datatype, text, identity)."""
        self._typed_ops: dict[tuple[str, str], list[tuple[str, Any]] | None] = {}
        """(path, datatype) → the path's constraints as :meth:`typed_key` evaluates them (``None``: it cannot)."""

    def _messages(self, shape: _Shape) -> None:
        """Give every shape that can produce a result its message, or refuse the shapes.

        Reported are the targeted shapes, their property shapes and, as pyshacl does, the shapes an ``sh:node``
        value failed (pyshacl nests their results under the outer one with ``sh:detail``, and a report read
        result by result lists them too). A shape without ``sh:message`` gets pyshacl's generated text; that
        is reproduced for a qualified value shape only, anything else is left to pyshacl.
        """
        if shape.checks and shape.message is None:
            if len(shape.checks) != 1 or shape.checks[0][0] != "qualifiedValueShape":
                raise Unsupported(f"shape {shape.node} has constraints but no sh:message")
            inner, low, high = shape.checks[0][1]
            counts = (f" MinCount {low}" if low is not None else "") + (f" MaxCount {high}" if high is not None else "")
            shape.message = f"Focus node does not conform to shape{counts}: {stringify_node(self._g, inner.node)}"
        for prop in shape.properties:
            self._messages(prop)
        for kind, arg in shape.checks:
            if kind == "node" and arg.message is None:
                self._messages(arg)

    # -- row by row --

    def row_plan(self, foreign: Iterable[Node]) -> RowPlan:
        """Which targeted shapes a check of each row of a load on its own can evaluate exactly (see
        :mod:`ont_platform.validation.rowwise`), given the ``foreign`` predicates: those whose triples a row
        writes about another row's resource (a relation's plain triple ``source kind target``).

        A row holds one resource's own triples whole, and the classes of the nodes it points to are known from
        the load. So a shape targeted by class (or by the subject of an own property, or by the plain-triple
        rule) is exact on that resource's row unless it reads a foreign predicate there; a shape targeted by the
        subjects of a foreign predicate is exact on each row that holds such a triple if it reads there only the
        subject's classes and, value by value, that predicate (no count over it: the values are spread over
        rows). In both, what is read of the values' own nodes must be their classes. Anything else is checked
        on a sample, and named."""
        foreign = set(foreign)
        own: list[int] = []
        outer: list[int] = []
        sampled: dict[str, str] = {}
        for i, shape in enumerate(self.targeted):
            if shape.deactivated:
                continue
            name = self.names[i]
            if shape.target_objects_of or shape.target_nodes:
                sampled[name] = "targets the objects of a property or named nodes, which one row does not hold whole"
                continue
            reads = _reads(shape, "focus", set())
            if {p for level, p, _ in reads if level == "value"} - {_TYPE}:
                sampled[name] = "reads properties of the nodes its values point to, beyond their classes"
                continue
            at_focus = [(p, counted) for level, p, counted in reads if level == "focus"]
            by_foreign = [p for p in shape.target_subjects_of if p in foreign]
            by_own = bool(
                shape.target_classes
                or shape.plain_triple_target
                or [p for p in shape.target_subjects_of if p not in foreign]
            )
            if by_own and any(p in foreign for p, _ in at_focus):
                sampled[name] = "reads a relation's plain triples, which the rows of the relations hold"
                continue
            if by_foreign and any(p != _TYPE and (p not in foreign or counted) for p, counted in at_focus):
                sampled[name] = "targets the subjects of a relation and counts its values or reads other properties"
                continue
            if by_own:
                own.append(i)
            if by_foreign:
                outer.append(i)
        return RowPlan(tuple(own), tuple(outer), sampled)

    def value_key(self, path: Node, value: Node, types: Iterable[Node] = ()) -> tuple[bool, ...]:
        """What every value constraint on ``path`` says about ``value`` (whose node has the classes ``types``):
        two values with the same key are alike to every shape that reads them, so a row check can stand for
        all rows that differ only in such values."""
        checks = self._by_path.get(path)
        if not checks:
            return ()
        run = _Run(Triples((value, _TYPE, t) for t in types))
        out: list[bool] = []
        for kind, arg in checks:
            if kind == "hasValue":
                out.append(value == arg)
            elif kind == "qualifiedValueShape":
                out.append(run.conforms(arg[0], value))
            else:
                out.append(run._value_ok(kind, arg, value))
        return tuple(out)

    def judges_by_class(self, path: str) -> bool:
        """Whether :meth:`value_key` of an IRI value of ``path`` (its IRI text) depends only on the classes of
        the node, not on which node it is (no ``sh:in``, ``sh:hasValue``, pattern, length or range reaches the
        value itself), so one key stands for every node of those classes."""
        return path in self._anonymous or path not in self._by_text

    def ignores_classes(self, path: str) -> bool:
        """Whether :meth:`value_key` of a value of ``path`` (its IRI text) never depends on the classes of the
        value's node: a row check then need not look them up."""
        return path in self._classless or path not in self._by_text

    def plain_key(self, path: str, lexical: str) -> tuple[bool, ...] | None:
        """:meth:`value_key` of a plain string literal (``xsd:string``, no language tag) computed from its text
        alone, without building an rdflib term (a row check meets millions of them); ``None`` when a constraint
        on the path needs the term itself (a nested shape or a range), so :meth:`value_key` must answer."""
        if path not in self._by_text:
            return ()
        checks = self._by_text[path]
        return None if checks is None else _judge_text(checks, lexical)

    def typed_key(self, path: str, lexical: str, datatype: str) -> tuple[bool, ...] | None:
        """:meth:`value_key` of a typed literal (``xsd:integer``, ``xsd:boolean`` or ``xsd:dateTime``) computed from
        its text, without building an rdflib term: a large load writes a new block number or timestamp in almost
        every row, and building each as a term costs more than the rest of the row's check. Only a lexical form
        that is surely well typed and already canonical (so rdflib reads it unchanged) is judged here; ``None``
        for anything else, or when a constraint on the path needs the term, so :meth:`value_key` must answer."""
        if path not in self._by_text:
            return ()
        form = _CANONICAL.get(datatype)
        if form is None:
            return None
        ops = self._typed_ops.get((path, datatype), _UNSEEN)
        if ops is _UNSEEN:
            ops = self._typed_ops[(path, datatype)] = _text_checks(self._by_path[URIRef(path)], URIRef(datatype))
        if ops is None:
            return None
        found = form.fullmatch(lexical)
        if found is None:
            return None
        if datatype == _DATETIME_TEXT and int(found[3]) > monthrange(int(found[1]), int(found[2]))[1]:
            return None  # the 30th of February: rdflib must say it is ill-typed
        return _judge_text(ops, lexical)

    # -- reading the shapes graph --

    def _one(self, node: Node, p: URIRef) -> Node | None:
        values = list(self._g.objects(node, p))
        if len(values) > 1:
            raise Unsupported(f"several {p} on one shape")
        return values[0] if values else None

    def _shape(self, node: Node) -> _Shape:
        if node in self._shapes:
            return self._shapes[node]
        if node in self._building:
            raise Unsupported("recursive shapes")
        self._building.add(node)
        g = self._g
        shape = _Shape(node)
        path = self._one(node, SH.path)
        if path is not None:
            if not isinstance(path, URIRef):
                raise Unsupported("a path other than a predicate")
            shape.path = path
        message = list(g.objects(node, SH.message))
        if len(message) > 1:
            raise Unsupported("several messages on one shape")
        shape.message = str(message[0]) if message else None
        severity = self._one(node, SH.severity)
        shape.violation = severity in (None, SH.Violation)
        shape.deactivated = self._one(node, SH.deactivated) == Literal(True)
        shape.target_classes = list(g.objects(node, SH.targetClass))
        shape.target_subjects_of = list(g.objects(node, SH.targetSubjectsOf))
        shape.target_objects_of = list(g.objects(node, SH.targetObjectsOf))
        shape.target_nodes = list(g.objects(node, SH.targetNode))
        for target in g.objects(node, SH.target):
            if not self._is_plain_triple_target(target):
                raise Unsupported("a SPARQL or custom target other than the plain-triple rule")
            shape.plain_triple_target = True
        for p, o in sorted(g.predicate_objects(node), key=lambda po: (str(po[0]), str(po[1]))):
            if not str(p).startswith(str(SH)) or p in _IGNORED or p == RDF.type:
                continue
            shape.checks.append(self._check(node, p, o))
        for o in g.objects(node, SH.property):
            if shape.path is not None:
                raise Unsupported("sh:property inside a property shape")
            prop = self._shape(o)
            if prop.path is None:
                raise Unsupported("sh:property without sh:path")
            shape.properties.append(prop)
        counted = self._one(node, SH.qualifiedMinCount) is not None or self._one(node, SH.qualifiedMaxCount) is not None
        if counted and self._one(node, SH.qualifiedValueShape) is None:
            raise Unsupported("qualified counts without a qualified shape")
        self._building.discard(node)
        self._shapes[node] = shape
        return shape

    def _check(self, node: Node, p: Node, o: Node) -> tuple[str, Any]:
        """One constraint of ``node`` as (kind, parameter)."""
        name = str(p)[len(str(SH)) :]
        if name in ("minCount", "maxCount", "minLength", "maxLength"):
            if not isinstance(o, Literal) or not isinstance(o.value, int) or o.value < 0:
                raise Unsupported(f"sh:{name} {o!r}")
            return name, o.value
        if name in ("datatype", "class", "nodeKind"):
            if not isinstance(o, URIRef):
                raise Unsupported(f"sh:{name} {o!r}")
            return name, o
        if name in ("minInclusive", "maxInclusive", "minExclusive", "maxExclusive"):
            if not isinstance(o, Literal):
                raise Unsupported(f"sh:{name} {o!r}")
            return name, o
        if name == "pattern":
            if self._one(node, SH.flags) is not None:
                raise Unsupported("sh:flags")
            return name, re.compile(str(o))
        if name == "in":
            return name, frozenset(Collection(self._g, o))
        if name == "hasValue":
            return name, o
        if name in ("node", "not"):
            return name, self._shape(o)
        if name in ("or", "and"):
            return name, [self._shape(member) for member in Collection(self._g, o)]
        if name == "qualifiedValueShape":
            if self._one(node, SH.qualifiedValueShapesDisjoint) == Literal(True):
                raise Unsupported("sh:qualifiedValueShapesDisjoint")
            low, high = self._one(node, SH.qualifiedMinCount), self._one(node, SH.qualifiedMaxCount)
            return name, (self._shape(o), _count(low), _count(high))
        raise Unsupported(f"sh:{name}")

    def _is_plain_triple_target(self, target: Node) -> bool:
        g = self._g
        if (target, RDF.type, SH.SPARQLTarget) not in g:
            return False
        select = self._one(target, SH.select)
        if select is None or set(g.predicates(target, None)) - {RDF.type, SH.select, SH.prefixes}:
            return False
        prefixes = {
            str(g.value(decl, SH.prefix)): str(g.value(decl, SH.namespace))
            for src in g.objects(target, SH.prefixes)
            for decl in g.objects(src, SH.declare)
        }
        return " ".join(str(select).split()) == _PLAIN_TRIPLE_SELECT and prefixes.get("ont") == _ONT

    # -- validating --

    def violations(
        self,
        data: Triples,
        focus: Iterable[Node] | None = None,
        *,
        only: Iterable[int] | None = None,
        targets: Iterable[Node] | None = None,
    ) -> list[Violation]:
        """The results (severity Violation) of every targeted shape in ``data``, sorted and without duplicates;
        with ``focus``, only the results about those nodes; with ``only``, only the targeted shapes of those
        indexes (of :attr:`targeted`); with ``targets``, only the shapes' targets among those nodes (the results
        about the values they lead to included)."""
        wanted = set(focus) if focus is not None else None
        within = set(targets) if targets is not None else None
        chosen = [self.targeted[i] for i in sorted(set(only))] if only is not None else self.targeted
        run = _Run(data)
        out: set[Violation] = set()
        for shape in chosen:
            if shape.deactivated:
                continue
            for node in run.targets(shape):
                if within is not None and node not in within:
                    continue
                for at, path, message in run.results(shape, node):
                    if wanted is None or at in wanted:
                        out.add(
                            Violation(
                                focus=str(at),
                                path=str(path) if path is not None else None,
                                message=message,
                                severity="Violation",
                            )
                        )
        return sorted(out, key=lambda v: (v.focus, v.path or "", v.message))


@dataclass(frozen=True)
class RowPlan:
    """What :meth:`CompiledShapes.row_plan` found: indexes of the targeted shapes checked on each resource's
    own row, of those checked on the rows that hold a foreign triple about their focus, and the shapes that
    only a sample can check, with the reason."""

    own: tuple[int, ...]
    foreign: tuple[int, ...]
    sampled: dict[str, str]


_COUNTS = frozenset({"minCount", "maxCount", "qualifiedValueShape", "hasValue"})
"""Constraints that look at all the values of a path together."""


def _inner(kind: str, arg: Any) -> list[_Shape]:
    if kind in ("node", "not"):
        return [arg]
    if kind in ("or", "and"):
        return list(arg)
    if kind == "qualifiedValueShape":
        return [arg[0]]
    return []


def _reads(shape: _Shape, level: str, seen: set[tuple[int, str]]) -> set[tuple[str, Node, bool]]:
    """The paths a shape reads, as (level, path, counted): ``level`` is ``"focus"`` for the node the shape is
    evaluated at and ``"value"`` for nodes reached through values; ``counted`` when a constraint looks at all
    the values of the path together."""
    if (id(shape), level) in seen:
        return set()
    seen.add((id(shape), level))
    out: set[tuple[str, Node, bool]] = set()
    inner_level = level
    if shape.path is not None:
        out.add((level, shape.path, any(kind in _COUNTS for kind, _ in shape.checks)))
        inner_level = "value"
    for kind, arg in shape.checks:
        for inner in _inner(kind, arg):
            out |= _reads(inner, inner_level, seen)
    for prop in shape.properties:
        out |= _reads(prop, level, seen)
    return out


_IDENTITY = frozenset(
    {
        "in",
        "hasValue",
        "pattern",
        "minLength",
        "maxLength",
        "minInclusive",
        "maxInclusive",
        "minExclusive",
        "maxExclusive",
    }
)
"""Constraints whose verdict on a value depends on which term it is, beyond its kind and classes."""


_CLASSLESS = frozenset(
    {
        "nodeKind",
        "datatype",
        "pattern",
        "minLength",
        "maxLength",
        "in",
        "hasValue",
        "minInclusive",
        "maxInclusive",
        "minExclusive",
        "maxExclusive",
    }
)
"""Value checks that read a value as a term, never the classes of its node."""


def _identity(kind: str, arg: Any, seen: set[int]) -> bool:
    """Whether the check ``kind``/``arg`` on a value can depend on the value's identity: directly, or through
    a shape evaluated on the value itself (its property shapes read the value's own triples, which a row
    check supplies as its classes only)."""
    if kind in _IDENTITY:
        return True
    for inner in _inner(kind, arg):
        if id(inner) in seen:
            continue
        seen.add(id(inner))
        if inner.path is None and any(_identity(k, a, seen) for k, a in inner.checks):
            return True
    return False


def _judge_text(checks: list[tuple[str, Any]], lexical: str) -> tuple[bool, ...]:
    """Value constraints prepared by :func:`_text_checks`, on a literal's text:
    ``fixed`` verdicts, patterns, lengths, ``plain`` members of ``sh:in`` / ``sh:hasValue``, integer ranges."""
    out: list[bool] = []
    for kind, arg in checks:
        if kind == "fixed":
            out.append(arg)
        elif kind == "pattern":
            out.append(arg.search(lexical) is not None)
        elif kind == "minLength":
            out.append(len(lexical) >= arg)
        elif kind == "maxLength":
            out.append(len(lexical) <= arg)
        elif kind == "plain":
            out.append(lexical in arg)
        elif kind == "minInclusive":
            out.append(int(lexical) >= arg)
        elif kind == "maxInclusive":
            out.append(int(lexical) <= arg)
        elif kind == "minExclusive":
            out.append(int(lexical) > arg)
        else:  # "maxExclusive"
            out.append(int(lexical) < arg)
    return tuple(out)


_DATETIME_TEXT = str(XSD.dateTime)
_CANONICAL: dict[str, re.Pattern[str]] = {
    str(XSD.integer): re.compile(r"0|-?[1-9][0-9]*"),
    str(XSD.boolean): re.compile(r"true|false"),
    # whole seconds, a real month and hour, a day checked against the month: what rdflib reads unchanged
    _DATETIME_TEXT: re.compile(
        r"([1-9][0-9]{3})-(0[1-9]|1[0-2])-(0[1-9]|[12][0-9]|3[01])T(?:[01][0-9]|2[0-3]):[0-5][0-9]:[0-5][0-9]"
        r"(?:Z|[+-](?:0[0-9]|1[0-3]):[0-5][0-9])?"
    ),
}
"""Lexical forms of a datatype that are surely well typed and that rdflib keeps as written (its normalising
would turn ``+7`` or ``007`` into ``7``, ``1`` into ``true``), for :meth:`CompiledShapes.typed_key`."""
_UNSEEN: Any = object()


def _text_checks(checks: list[tuple[str, Any]], datatype: URIRef | None = None) -> list[tuple[str, Any]] | None:
    """The value constraints of one path as :func:`_judge_text` evaluates them on the text of a literal: a plain
    string (``datatype`` None), or a well-typed literal of ``datatype`` in the canonical form
    :meth:`CompiledShapes.typed_key` accepts. Each gives what the term-level check gives for such a literal;
    ``None`` if one needs the term. The text of a plain string, or of an integer or boolean in canonical form,
    is what patterns, lengths and ``sh:in`` read; a timestamp is judged by its datatype and kind only."""
    textual = datatype in (None, XSD.integer, XSD.boolean)
    own = (_XSD_STRING if datatype is None else datatype, _RDFS_LITERAL) + (
        () if datatype is None else (_RDFS_DATATYPE,)
    )
    out: list[tuple[str, Any]] = []
    for kind, arg in checks:
        if kind == "datatype":  # of its own datatype (a plain string: xsd:string), an rdfs:Literal; typed: a datatype
            out.append(("fixed", arg in own))
        elif kind == "nodeKind":
            out.append(("fixed", _node_kind_ok(Literal("x"), arg)))
        elif kind == "class":
            out.append(("fixed", False))  # a literal is an instance of no class
        elif kind in ("pattern", "minLength", "maxLength") and textual:
            out.append((kind, arg))
        elif kind in ("in", "hasValue") and textual:
            members = arg if kind == "in" else (arg,)
            # rdflib's term equality: the same datatype (none for a plain string), no language, the same text
            out.append(
                (
                    "plain",
                    frozenset(
                        str(m) for m in members if isinstance(m, Literal) and m.datatype == datatype and not m.language
                    ),
                )
            )
        elif (
            kind in ("minInclusive", "maxInclusive", "minExclusive", "maxExclusive")
            and datatype == XSD.integer
            and isinstance(arg, Literal)
            and arg.datatype == XSD.integer
            and type(arg.value) is int
        ):
            out.append((kind, arg.value))
        else:
            return None
    return out


def _name(g: Graph, node: Node) -> str:
    if isinstance(node, URIRef):
        try:
            return g.namespace_manager.normalizeUri(node)
        except Exception:  # an IRI rdflib cannot shorten is shown whole
            return str(node)
    return stringify_node(g, node)


def _count(value: Node | None) -> int | None:
    if value is None:
        return None
    if not isinstance(value, Literal) or not isinstance(value.value, int):
        raise Unsupported(f"count {value!r}")
    return value.value


_STRINGS = (None, URIRef(str(RDF.langString)), URIRef(str(XSD.string)))


# Plain URIRefs for the terms validation touches per value: an attribute of rdflib's DefinedNamespace
# costs microseconds per access.
_TYPE = URIRef(str(RDF.type))
_SUBCLASS = URIRef(str(RDFS.subClassOf))
_RDFS_LITERAL = URIRef(str(RDFS.Literal))
_RDFS_DATATYPE = URIRef(str(RDFS.Datatype))
_XSD_STRING = URIRef(str(XSD.string))
_LANG_STRING = URIRef(str(RDF.langString))
_BNODE_OR_LITERAL = URIRef(str(SH.BlankNodeOrLiteral))
_BNODE_OR_IRI = URIRef(str(SH.BlankNodeOrIRI))
_IRI_OR_LITERAL = URIRef(str(SH.IRIOrLiteral))
_BNODE_KIND = URIRef(str(SH.BlankNode))
_LITERAL_KIND = URIRef(str(SH.Literal))
_IRI_KIND = URIRef(str(SH.IRI))


class _Run:
    """One validation: the data and what has been worked out about it (class closures, conformance)."""

    def __init__(self, data: Triples) -> None:
        self.data = data
        self._supers: dict[Node, set[Node]] = {}
        self._conforms: dict[tuple[int, Node], bool] = {}
        self._members: dict[Node, set[Node]] | None = None

    def classes(self, node: Node) -> set[Node]:
        """The classes of ``node``: its rdf:type values and their rdfs:subClassOf ancestors in the data."""
        out: set[Node] = set()
        for cls in self.data.objects(node, _TYPE):
            out |= self._closure(cls)
        return out

    def _closure(self, cls: Node) -> set[Node]:
        if cls not in self._supers:
            seen, todo = {cls}, [cls]
            while todo:
                for sup in self.data.objects(todo.pop(), _SUBCLASS):
                    if sup not in seen:
                        seen.add(sup)
                        todo.append(sup)
            self._supers[cls] = seen
        return self._supers[cls]

    def _class_members(self) -> dict[Node, set[Node]]:
        """Every class (subclass closure included) with the typed nodes in it: built once a run, so that each
        shape with ``sh:targetClass`` looks its targets up rather than testing every typed node again."""
        if self._members is None:
            members: dict[Node, set[Node]] = {}
            for node in self.data.subjects(_TYPE):
                for cls in self.classes(node):
                    members.setdefault(cls, set()).add(node)
            self._members = members
        return self._members

    def targets(self, shape: _Shape) -> set[Node]:
        data = self.data
        nodes: set[Node] = set(shape.target_nodes)
        if shape.target_classes:
            members = self._class_members()
            for cls in shape.target_classes:
                nodes |= members.get(cls, set())
        for p in shape.target_subjects_of:
            nodes |= data.subjects(p)
        for p in shape.target_objects_of:
            nodes |= {o for s in data.subjects(p) for o in data.objects(s, p)}
        if shape.plain_triple_target:
            source, target, kind = URIRef(_ONT + "source"), URIRef(_ONT + "target"), URIRef(_ONT + "kind")
            for rel in data.subjects(kind):
                for s in data.objects(rel, source):
                    for t in data.objects(rel, target):
                        for k in data.objects(rel, kind):
                            if all(isinstance(x, URIRef) for x in (s, t, k)) and (s, k, t) not in data:
                                nodes.add(rel)
        return nodes

    def results(self, shape: _Shape, focus: Node) -> Iterator[tuple[Node, URIRef | None, str]]:
        """(focus, path, message) of each failing constraint of ``shape`` and its property shapes at ``focus``,
        and of the shapes an ``sh:node`` value failed (at that value), of severity Violation."""
        if shape.deactivated:
            return
        values = list(self.data.objects(focus, shape.path)) if shape.path is not None else [focus]
        failed = False
        details: list[tuple[_Shape, Node]] = []
        for kind, arg in shape.checks:
            if kind == "node":
                bad = [v for v in values if not self.conforms(arg, v)]
                details += [(arg, v) for v in bad]
                failed = failed or bool(bad)
            elif not self._check(kind, arg, focus, values):
                failed = True
        if failed and shape.violation:
            yield focus, shape.path, str(shape.message)
        for inner, value in details:
            yield from self.results(inner, value)
        for prop in shape.properties:
            yield from self.results(prop, focus)

    def conforms(self, shape: _Shape, node: Node) -> bool:
        """Whether ``node`` conforms to ``shape`` (no result of any severity), as sh:node, sh:not ... ask."""
        if shape.deactivated:
            return True
        key = (id(shape), node)
        if key not in self._conforms:
            if shape.path is not None:
                ok = self._property_ok(shape, node)
            else:
                ok = all(self._check(kind, arg, node, [node]) for kind, arg in shape.checks)
            self._conforms[key] = ok and all(self.conforms(p, node) for p in shape.properties)
        return self._conforms[key]

    def _property_ok(self, shape: _Shape, focus: Node) -> bool:
        assert shape.path is not None
        values = list(self.data.objects(focus, shape.path))
        return all(self._check(kind, arg, focus, values) for kind, arg in shape.checks)

    def _check(self, kind: str, arg: Any, focus: Node, values: list[Node]) -> bool:
        if kind == "minCount":
            return len(values) >= int(arg)
        if kind == "maxCount":
            return len(values) <= int(arg)
        if kind == "hasValue":
            return arg in values
        if kind == "qualifiedValueShape":
            inner, low, high = arg
            n = sum(1 for v in values if self.conforms(inner, v))
            return (low is None or n >= low) and (high is None or n <= high)
        return all(self._value_ok(kind, arg, v) for v in values)

    def _value_ok(self, kind: str, arg: Any, v: Node) -> bool:
        if kind == "datatype":
            return _datatype_ok(v, arg)
        if kind == "class":
            return not isinstance(v, Literal) and arg in self.classes(v)
        if kind == "nodeKind":
            return _node_kind_ok(v, arg)
        if kind == "in":
            return v in arg
        if kind == "node":
            return self.conforms(arg, v)
        if kind == "not":
            return not self.conforms(arg, v)
        if kind == "or":
            return any(self.conforms(s, v) for s in arg)
        if kind == "and":
            return all(self.conforms(s, v) for s in arg)
        if kind == "pattern":
            return not isinstance(v, BNode) and arg.search(_string(v)) is not None
        if kind == "minLength":
            return arg == 0 or (not isinstance(v, BNode) and len(_string(v)) >= arg)
        if kind == "maxLength":
            return not isinstance(v, BNode) and len(_string(v)) <= arg
        if kind in ("minInclusive", "maxInclusive", "minExclusive", "maxExclusive"):
            return _in_range(kind, arg, v)
        raise Unsupported(kind)  # pragma: no cover - refused when compiling


def _string(v: Node) -> str:
    if isinstance(v, Literal) and v.value is not None and v.datatype in _STRINGS:
        return str(v.value)
    return str(v)


def _datatype_ok(v: Node, dt: URIRef) -> bool:
    if not isinstance(v, Literal):
        return False
    if v.datatype == dt:
        return getattr(v, "ill_typed", None) is not True and _value_fits(v, dt)
    if dt == _RDFS_LITERAL:
        return True
    if dt == _RDFS_DATATYPE and v.datatype:
        return True
    if v.datatype is None and v.language is None and dt == _XSD_STRING:
        return _value_fits(v, dt)
    if dt == _LANG_STRING and v.language:
        return _value_fits(v, dt)
    return False


_PYTHON_TYPES: dict[URIRef, type | tuple[type, ...]] = {
    _XSD_STRING: (str, bytes),
    _LANG_STRING: (str, bytes),
    XSD.integer: int,
    XSD.float: float,
    XSD.decimal: Decimal,
    XSD.boolean: bool,
    XSD.date: date,
    XSD.time: time,
    XSD.dateTime: datetime,
}


def _value_fits(v: Literal, dt: URIRef) -> bool:
    wanted = _PYTHON_TYPES.get(dt)
    return True if wanted is None else isinstance(v.value, wanted)


def _node_kind_ok(v: Node, kind: URIRef) -> bool:
    if isinstance(v, BNode):
        return kind in (_BNODE_KIND, _BNODE_OR_LITERAL, _BNODE_OR_IRI)
    if isinstance(v, Literal):
        return kind in (_LITERAL_KIND, _BNODE_OR_LITERAL, _IRI_OR_LITERAL)
    return kind in (_IRI_KIND, _IRI_OR_LITERAL, _BNODE_OR_IRI)


def _in_range(kind: str, bound: Literal, v: Node) -> bool:
    if not isinstance(v, Literal):
        return False
    if isinstance(bound.value, str) != isinstance(v.value, str):
        return False
    try:
        cmp = int(compare_literal(v, bound))  # type: ignore[no-untyped-call]  # pyshacl's helper has no annotations
    except (TypeError, NotImplementedError):
        return False
    return {"minInclusive": cmp >= 0, "maxInclusive": cmp <= 0, "minExclusive": cmp > 0, "maxExclusive": cmp < 0}[kind]


def not_compiled(domain: str | Domain) -> tuple[str, list[str]]:
    """Why a domain's shapes do not compile, and the names of its targeted shapes (for a report that must say
    which shapes only a sample checks); ``("", [])`` when they compile."""
    spec = get_domain(domain)
    if _compiled(spec) is not None:
        return "", []
    g = shapes_graph(spec)
    try:
        CompiledShapes(g)
    except Unsupported as exc:
        why = str(exc)
    else:  # pragma: no cover - compiled() said it does not compile
        why = "unsupported"
    roots: set[Node] = set()
    for p in (SH.targetClass, SH.targetSubjectsOf, SH.targetObjectsOf, SH.targetNode, SH.target):
        roots |= set(g.subjects(p, None))
    return why, sorted(_name(g, n) for n in roots)


def compiled(domain: str | Domain) -> CompiledShapes | None:
    """The core and ``domain`` shapes compiled once per domain, or None when they use something the compiler
    does not evaluate (then pyshacl runs them)."""
    return _compiled(get_domain(domain))


@cache
def _compiled(spec: Domain) -> CompiledShapes | None:
    try:
        return CompiledShapes(shapes_graph(spec))
    except Unsupported:
        return None


__all__ = ["CompiledShapes", "RowPlan", "Triples", "Unsupported", "compiled", "not_compiled"]
