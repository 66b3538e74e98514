"""SHACL Core shapes compiled to Python: the bundled shapes for an ingest batch and its neighbours, and any
user's shapes through :func:`ont_platform.shacl.validate`.

pyshacl interprets the shapes graph anew for every focus node: about 1.5 ms a node, so a batch of 100 extracted
transfers (~500 resources with their evidence and chunks) costs close to a second before anything is written,
and copying the batch into an rdflib graph costs a quarter of that again. A shapes graph changes rarely, so it
is read once into plain Python objects here and evaluated over an indexed set of triples, which is two orders
of magnitude faster on such a graph.

The compiler takes SHACL Core as the W3C SHACL Recommendation defines it (https://www.w3.org/TR/shacl/): every
core constraint component, every kind of property path, every kind of target (implicit class targets
included), ``sh:deactivated``, severities and messages; the W3C SHACL Core test suite runs in
``tests/validation/test_w3c_core.py``. It also recognises the one SPARQL target of the bundled core shapes, the
plain-triple rule, by its exact query text and evaluates it in Python. A shapes graph with anything else
(SHACL-SPARQL constraints and targets, custom constraint components, SHACL-AF rules, recursive shapes, an
ill-formed path or parameter) is not compiled: :func:`compiled` returns ``None``, :class:`CompiledShapes`
raises :class:`Unsupported`, and the caller runs pyshacl, so a shapes graph is never checked less than pyshacl
checks it.

Meaning, where engines differ: a SHACL instance of a class is reached by ``rdf:type/rdfs:subClassOf*`` in the
data; ``sh:datatype`` wants the literal's own datatype (``xsd:string`` for a plain literal, ``rdf:langString``
for a tagged one) and a lexical form XML Schema accepts (``"1e3"^^xsd:decimal`` and ``"300"^^xsd:byte`` are
ill-formed); ranges and ``sh:lessThan`` use SPARQL's ``<`` (values it cannot compare fail, a date-time with a
time zone against one without included); patterns search the lexical form (or IRI) with XPath's flags.
Results are the W3C ones (focus node, path, value, source shape, component, severity, messages); a failed
``sh:node`` carries the nested shape's results as ``sh:detail``.
"""

from __future__ import annotations

import re
from calendar import monthrange
from collections import defaultdict
from collections.abc import Iterable, Iterator
from dataclasses import dataclass, field
from functools import cache
from typing import Any, NamedTuple

from pyshacl.rdfutil.stringify import stringify_node
from rdflib import OWL, RDF, RDFS, XSD, BNode, Graph, Literal, URIRef
from rdflib.namespace import SH
from rdflib.term import Node

from ont_platform.domains import Domain, get_domain
from ont_platform.ontology.shacl import Violation, shapes_graph
from ont_platform.validation.paths import Path, PathError, evaluate, parse_path
from ont_platform.validation.values import (
    NODE_KINDS,
    compare,
    compile_pattern,
    datatype_ok,
    default_message,
    in_range,
    lang_matches,
    node_kind_ok,
)

Triple = tuple[Node, Node, Node]

_ONT = "https://w3id.org/ont-platform/core#"
_PLAIN_TRIPLE_SELECT = (
    "SELECT ?this WHERE { ?this ont:source ?s ; ont:target ?t ; ont:kind ?k . "
    "FILTER (isIRI(?s) && isIRI(?t) && isIRI(?k)) FILTER NOT EXISTS { ?s ?k ?t } }"
)
"""The core shapes' SPARQL target (relations whose plain triple is missing), spacing collapsed."""

_SH = str(SH)
_IGNORED = frozenset(
    URIRef(_SH + name)
    for name in (
        "name",
        "description",
        "order",
        "group",
        "defaultValue",
        "declare",
        "prefixes",
        "message",
        "severity",
        "deactivated",
        "target",
        "targetClass",
        "targetSubjectsOf",
        "targetObjectsOf",
        "targetNode",
        "property",
        "path",
        "flags",
        "ignoredProperties",
        "qualifiedMinCount",
        "qualifiedMaxCount",
        "qualifiedValueShapesDisjoint",
    )
)
"""Predicates of a shape that are no constraint of their own (or are read with one)."""

_PROPERTY_ONLY = frozenset(
    {"minCount", "maxCount", "uniqueLang", "lessThan", "lessThanOrEquals", "qualifiedValueShape"}
)
"""Parameters SHACL defines for property shapes only; on a node shape they are ignored, as pyshacl does."""

_PARAMETERS = frozenset(
    {
        "class",
        "datatype",
        "nodeKind",
        "minCount",
        "maxCount",
        "minExclusive",
        "minInclusive",
        "maxExclusive",
        "maxInclusive",
        "minLength",
        "maxLength",
        "pattern",
        "languageIn",
        "uniqueLang",
        "equals",
        "disjoint",
        "lessThan",
        "lessThanOrEquals",
        "not",
        "and",
        "or",
        "xone",
        "node",
        "property",
        "qualifiedValueShape",
        "closed",
        "hasValue",
        "in",
    }
)
"""The parameters of SHACL Core's constraint components: a node with one of them is a shape."""

_SINGLE = frozenset(
    {
        "datatype",
        "nodeKind",
        "minCount",
        "maxCount",
        "minExclusive",
        "minInclusive",
        "maxExclusive",
        "maxInclusive",
        "minLength",
        "maxLength",
        "languageIn",
        "uniqueLang",
        "closed",
        "in",
        "qualifiedValueShape",
    }
)
"""Parameters a shape may have one value of (SHACL's syntax rules); more make the shapes graph ill-formed, and
what that means is left to pyshacl."""

_COMPONENT_NAMES = {
    "qualifiedMin": "QualifiedMinCount",
    "qualifiedMax": "QualifiedMaxCount",
    "in": "In",
    "or": "Or",
    "and": "And",
    "not": "Not",
    "xone": "Xone",
    "node": "Node",
}
COMPONENTS: dict[str, URIRef] = {
    kind: URIRef(f"{_SH}{_COMPONENT_NAMES.get(kind, kind[0].upper() + kind[1:])}ConstraintComponent")
    for kind in (_PARAMETERS - {"property", "qualifiedValueShape"}) | {"qualifiedMin", "qualifiedMax"}
}
"""The constraint component IRI of each kind of check (``qualifiedMin`` / ``qualifiedMax``: the two counts of a
qualified value shape)."""

_TARGETS = (SH.targetClass, SH.targetSubjectsOf, SH.targetObjectsOf, SH.targetNode, SH.target)


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

    def outgoing(self, s: Node) -> Iterator[tuple[Node, set[Node]]]:
        """Each predicate of ``s`` with its objects (the index's own sets: do not change them)."""
        by_p = self._spo.get(s)
        if by_p is not None:
            for p, objects in by_p.items():
                if objects:
                    yield p, objects

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


# --- results ---------------------------------------------------------------------------------------------------


@dataclass(frozen=True, slots=True)
class ShaclResult:
    """One validation result, as a W3C validation report states it."""

    focus: Node
    shape: Node
    """The shape that produced it (``sh:sourceShape``), a node of the shapes graph."""
    component: URIRef
    severity: URIRef
    path: Path | None
    """``sh:resultPath``: the property shape's path, or for ``sh:closed`` the predicate at fault."""
    value: Node | None
    messages: tuple[Literal, ...]
    details: tuple[ShaclResult, ...] = ()
    """For ``sh:node``: the results of the value against the nested shape (``sh:detail``)."""


class _Hit(NamedTuple):
    """A result while validating (the shape as compiled; turned into a :class:`ShaclResult` at the end)."""

    focus: Node
    shape: _Shape
    kind: str
    arg: Any
    value: Node | None
    path: Path | None
    details: tuple[_Hit, ...]


# --- the compiled shapes -----------------------------------------------------------------------------------


_VIOLATION = URIRef(str(SH.Violation))


@dataclass(eq=False)
class _Shape:
    node: Node
    path: URIRef | None = None
    """The predicate, when the shape's path is one (what the row-by-row checks read)."""
    walk: Path | None = None
    """The path of a property shape, any kind (None: a node shape)."""
    messages: tuple[Literal, ...] = ()
    message: str | None = None
    """The first message, as :class:`Violation` reports it."""
    severity: URIRef = _VIOLATION
    deactivated: bool = False
    checks: list[tuple[str, Any]] = field(default_factory=list)
    properties: list[_Shape] = field(default_factory=list)
    target_classes: list[Node] = field(default_factory=list)
    target_subjects_of: list[Node] = field(default_factory=list)
    target_objects_of: list[Node] = field(default_factory=list)
    target_nodes: list[Node] = field(default_factory=list)
    plain_triple_target: bool = False

    @property
    def violation(self) -> bool:
        return self.severity == _VIOLATION

    @property
    def targeted(self) -> bool:
        return bool(
            self.target_classes
            or self.target_subjects_of
            or self.target_objects_of
            or self.target_nodes
            or self.plain_triple_target
        )


def _instances(g: Graph, classes: Iterable[Node]) -> set[Node]:
    """The SHACL instances in ``g`` of any of ``classes``: nodes with an ``rdf:type`` that is one of them or a
    subclass (``rdfs:subClassOf*`` in ``g``)."""
    todo = list(classes)
    seen = set(todo)
    while todo:
        for sub in g.subjects(RDFS.subClassOf, todo.pop()):
            if sub not in seen:
                seen.add(sub)
                todo.append(sub)
    out: set[Node] = set()
    for cls in seen:
        out |= set(g.subjects(RDF.type, cls))
    return out


class CompiledShapes:
    """A shapes graph read into Python; :meth:`results` and :meth:`violations` validate a :class:`Triples` set."""

    def __init__(self, shapes: Graph) -> None:
        self._g = shapes
        self._shapes: dict[Node, _Shape] = {}
        g = shapes
        if (None, RDF.type, SH.ConstraintComponent) in g or (None, SH.parameter, None) in g:
            raise Unsupported("custom constraint components (SHACL-SPARQL)")
        typed = _instances(g, (SH.NodeShape, SH.PropertyShape))
        roots: set[Node] = set()
        for p in _TARGETS:
            roots |= {s for s in g.subjects(p, None) if not isinstance(s, Literal)}
        # implicit class targets: a shape that is also a class (owl:Class counts as a subclass of rdfs:Class)
        classes = _instances(g, (RDFS.Class, OWL.Class))
        if classes:
            shapes_by_parameter = {s for s in classes for p in g.predicates(s, None) if _parameter(p)}
            roots |= classes & (typed | shapes_by_parameter | roots)
        self._classes = classes
        self.targeted = [s for s in (self._shape(n) for n in sorted(roots, key=_order)) if s.targeted]
        self._refuse_recursion()
        self.names = [_name(shapes, s.node) for s in self.targeted]
        """A name for each targeted shape (its IRI in prefixed form, or a description of a blank one)."""
        self._by_path: dict[Node, list[tuple[str, Any]]] = defaultdict(list)
        """The constraints on each predicate path that look at one value at a time (and the value tests of
        qualified and hasValue constraints), for :meth:`value_key`."""
        for shape in self._shapes.values():
            if shape.path is not None:
                for check in shape.checks:
                    if check[0] not in _NOT_PER_VALUE:
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

    def _refuse_recursion(self) -> None:
        """SHACL leaves validation with recursive shapes undefined: such shapes go to pyshacl."""
        state: dict[int, int] = {}  # 1: on the current walk, 2: done

        def visit(shape: _Shape) -> None:
            state[id(shape)] = 1
            for inner in _references(shape):
                mark = state.get(id(inner))
                if mark == 1:
                    raise Unsupported(f"recursive shapes ({_name(self._g, inner.node)})")
                if mark is None:
                    visit(inner)
            state[id(shape)] = 2

        for shape in self._shapes.values():
            if id(shape) not in state:
                visit(shape)

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
        on a sample, and named: so are shapes whose verdict a row's signature does not decide (paths other than
        a predicate, closed shapes, comparisons between properties, unique languages)."""
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
            beyond = _beyond_rows(shape, set())
            if beyond:
                sampled[name] = beyond
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
                out.append(run.qualifies(arg, value))
            else:
                out.append(run.value_ok(kind, arg, value))
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
            raise Unsupported(f"several {_name(self._g, p)} on one shape")
        return values[0] if values else None

    def _shape(self, node: Node) -> _Shape:
        """The shape at ``node``, compiled once (references to shapes still being compiled are allowed here;
        :meth:`_refuse_recursion` refuses cycles afterwards)."""
        if node in self._shapes:
            return self._shapes[node]
        if isinstance(node, Literal):
            raise Unsupported(f"a literal as a shape: {node!r}")
        g = self._g
        shape = self._shapes[node] = _Shape(node)
        path = self._one(node, SH.path)
        if path is not None:
            try:
                shape.walk = parse_path(g, path)
            except PathError as exc:
                raise Unsupported(f"the path of {_name(g, node)}: {exc}") from exc
            if isinstance(shape.walk, URIRef):
                shape.path = shape.walk
        shape.messages = tuple(sorted((m for m in g.objects(node, SH.message) if isinstance(m, Literal)), key=str))
        shape.message = str(shape.messages[0]) if shape.messages else None
        severity = self._one(node, SH.severity)
        if severity is not None and not isinstance(severity, URIRef):
            raise Unsupported(f"sh:severity {severity!r}")
        shape.severity = URIRef(str(severity)) if severity is not None else _VIOLATION
        shape.deactivated = self._one(node, SH.deactivated) == Literal(True)
        shape.target_classes = list(g.objects(node, SH.targetClass))
        if node in self._classes:
            shape.target_classes.append(node)
        shape.target_subjects_of = list(g.objects(node, SH.targetSubjectsOf))
        shape.target_objects_of = list(g.objects(node, SH.targetObjectsOf))
        shape.target_nodes = list(g.objects(node, SH.targetNode))
        for target in g.objects(node, SH.target):
            if not self._is_plain_triple_target(target):
                raise Unsupported("a SPARQL or custom target other than the plain-triple rule")
            shape.plain_triple_target = True
        for p, o in sorted(g.predicate_objects(node), key=lambda po: (str(po[0]), str(po[1]))):
            if not str(p).startswith(_SH) or p in _IGNORED:
                continue
            name = str(p)[len(_SH) :]
            if name not in _PARAMETERS:
                raise Unsupported(f"sh:{name}")
            if name in _SINGLE:
                self._one(node, URIRef(str(p)))
            if name in _PROPERTY_ONLY and shape.walk is None:
                continue
            shape.checks.append(self._check(node, name, o, shape))
        for o in sorted(g.objects(node, SH.property), key=_order):
            prop = self._shape(o)
            if self._one(o, SH.path) is None:
                raise Unsupported("sh:property without sh:path")
            shape.properties.append(prop)
        return shape

    def _check(self, node: Node, name: str, o: Node, shape: _Shape) -> tuple[str, Any]:
        """One constraint of ``node`` as (kind, parameter)."""
        g = self._g
        if name in ("minCount", "maxCount", "minLength", "maxLength"):
            if not isinstance(o, Literal) or not isinstance(o.value, int) or isinstance(o.value, bool) or o.value < 0:
                raise Unsupported(f"sh:{name} {o!r}")
            return name, o.value
        if name in ("datatype", "class", "nodeKind", "equals", "disjoint", "lessThan", "lessThanOrEquals"):
            if not isinstance(o, URIRef) or (name == "nodeKind" and o not in NODE_KINDS):
                raise Unsupported(f"sh:{name} {o!r}")
            return name, URIRef(str(o))
        if name in ("minInclusive", "maxInclusive", "minExclusive", "maxExclusive"):
            if not isinstance(o, Literal):
                raise Unsupported(f"sh:{name} {o!r}")
            return name, o
        if name == "pattern":
            flags = self._one(node, SH.flags)
            if not isinstance(o, Literal) or (flags is not None and not isinstance(flags, Literal)):
                raise Unsupported("sh:pattern or sh:flags not a literal")
            try:
                return name, compile_pattern(str(o), str(flags) if flags is not None else "")
            except ValueError as exc:
                raise Unsupported(str(exc)) from exc
        if name == "languageIn":
            ranges = self._members(o, name)
            if not all(isinstance(r, Literal) for r in ranges):
                raise Unsupported("sh:languageIn with a member that is no literal")
            return name, tuple(str(r).lower() for r in ranges)
        if name in ("uniqueLang", "closed"):
            if not isinstance(o, Literal) or not isinstance(o.value, bool):
                raise Unsupported(f"sh:{name} {o!r}")
            if name == "uniqueLang":
                return name, o == Literal(True)
            allowed: set[Node] = set()
            for prop in g.objects(node, SH.property):
                allowed |= {p for p in g.objects(prop, SH.path) if isinstance(p, URIRef)}
            ignored = self._one(node, SH.ignoredProperties)
            if ignored is not None:
                allowed |= set(self._members(ignored, "ignoredProperties"))
            return name, (frozenset(allowed) if o == Literal(True) else None)
        if name == "in":
            return name, frozenset(self._members(o, name))
        if name == "hasValue":
            return name, o
        if name in ("node", "not"):
            return name, self._shape(o)
        if name in ("or", "and", "xone"):
            return name, [self._shape(member) for member in self._members(o, name)]
        # qualifiedValueShape
        low, high = self._one(node, SH.qualifiedMinCount), self._one(node, SH.qualifiedMaxCount)
        siblings: list[_Shape] = []
        if self._one(node, SH.qualifiedValueShapesDisjoint) == Literal(True):
            others: set[Node] = set()
            for parent in g.subjects(SH.property, node):
                for sibling in g.objects(parent, SH.property):
                    others |= set(g.objects(sibling, SH.qualifiedValueShape))
            siblings = [self._shape(s) for s in sorted(others - {o}, key=_order)]
        return name, (self._shape(o), _count(low), _count(high), siblings)

    def _members(self, head: Node, name: str) -> list[Node]:
        members: list[Node] = []
        node = head
        seen: set[Node] = set()
        while node != RDF.nil:
            firsts, rests = list(self._g.objects(node, RDF.first)), list(self._g.objects(node, RDF.rest))
            if node in seen or len(firsts) != 1 or len(rests) != 1:
                raise Unsupported(f"sh:{name} is no well-formed list")
            seen.add(node)
            members.append(firsts[0])
            node = rests[0]
        return members

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

    def results(
        self,
        data: Triples,
        *,
        only: Iterable[int] | None = None,
        targets: Iterable[Node] | None = None,
        abort_on_first: bool = False,
    ) -> list[ShaclResult]:
        """The validation results of every targeted shape in ``data`` (every severity, in no particular order;
        two equal results are two results, as a report lists them); with ``only``, of the targeted shapes of
        those indexes (of :attr:`targeted`); with ``targets``, only for focus nodes among those nodes. With
        ``abort_on_first``, stop after the first shape and focus node that gave a result of severity Violation."""
        g = self._g
        return [_public(hit, g) for hit in self._hits(data, only, targets, abort_on_first, ordered=True)]

    def _hits(
        self,
        data: Triples,
        only: Iterable[int] | None,
        targets: Iterable[Node] | None,
        abort_on_first: bool = False,
        *,
        ordered: bool = False,
    ) -> list[_Hit]:
        """The results of the chosen shapes; with ``ordered``, each shape's focus nodes are taken in a fixed order
        (a report, and where ``abort_on_first`` stops, do not depend on hashing)."""
        within = set(targets) if targets is not None else None
        chosen = [self.targeted[i] for i in sorted(set(only))] if only is not None else self.targeted
        run = _Run(data)
        out: list[_Hit] = []
        for shape in chosen:
            if shape.deactivated:
                continue
            found = run.targets(shape)
            for node in sorted(found, key=_order) if ordered else found:
                if within is not None and node not in within:
                    continue
                before = len(out)
                run.validate(shape, node, out)
                if abort_on_first and any(h.shape.violation for h in out[before:]):
                    return out
        return out

    def violations(
        self,
        data: Triples,
        focus: Iterable[Node] | None = None,
        *,
        only: Iterable[int] | None = None,
        targets: Iterable[Node] | None = None,
    ) -> list[Violation]:
        """The results of severity Violation in ``data`` as the loaders and the critic report them — each
        (focus, path, message) once, sorted, the results nested under a failed ``sh:node`` included (as a
        pyshacl report read result by result lists them); with ``focus``, only the results about those nodes;
        ``only`` and ``targets`` as for :meth:`results`."""
        wanted = set(focus) if focus is not None else None
        out: set[Violation] = set()
        todo = self._hits(data, only, targets)
        while todo:
            hit = todo.pop()
            todo.extend(hit.details)
            shape = hit.shape
            if not shape.violation or (wanted is not None and hit.focus not in wanted):
                continue
            path = hit.path if isinstance(hit.path, URIRef) else None
            message = shape.message if shape.message is not None else self._default(hit.kind, hit.arg)
            out.add(
                Violation(
                    focus=str(hit.focus),
                    path=str(path) if path is not None else None,
                    message=message,
                    severity="Violation",
                )
            )
        return sorted(out, key=lambda v: (v.focus, v.path or "", v.message))

    def _default(self, kind: str, arg: Any) -> str:
        return _default_text(kind, arg, self._g)


def _default_text(kind: str, arg: Any, g: Graph) -> str:
    """The message of a result whose shape has none. A qualified count gets the text pyshacl gives it (the
    bundled shapes rely on that text; their other shapes all have messages)."""
    if kind in ("qualifiedMin", "qualifiedMax"):
        inner, low, high, _ = arg
        counts = (f" MinCount {low}" if low is not None else "") + (f" MaxCount {high}" if high is not None else "")
        return f"Focus node does not conform to shape{counts}: {stringify_node(g, inner.node)}"
    return default_message(kind, arg)


def _public(hit: _Hit, g: Graph) -> ShaclResult:
    shape = hit.shape
    messages = shape.messages or (Literal(_default_text(hit.kind, hit.arg, g)),)
    return ShaclResult(
        focus=hit.focus,
        shape=shape.node,
        component=COMPONENTS[hit.kind],
        severity=shape.severity,
        path=hit.path,
        value=hit.value,
        messages=messages,
        details=tuple(_public(d, g) for d in hit.details),
    )


def _order(node: Node) -> tuple[str, str]:
    return (type(node).__name__, str(node))


def _parameter(p: Node) -> bool:
    return str(p).startswith(_SH) and str(p)[len(_SH) :] in _PARAMETERS


def _references(shape: _Shape) -> list[_Shape]:
    """The shapes ``shape`` validates its focus or value nodes against."""
    out = list(shape.properties)
    for kind, arg in shape.checks:
        out += _inner(kind, arg)
    return out


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


_NOT_PER_VALUE = frozenset(
    {"minCount", "maxCount", "uniqueLang", "equals", "disjoint", "lessThan", "lessThanOrEquals", "closed"}
)
"""Constraints with no verdict on one value alone (left out of :meth:`CompiledShapes.value_key`)."""


def _inner(kind: str, arg: Any) -> list[_Shape]:
    """The shapes a constraint validates values against (a qualified value shape's siblings included)."""
    if kind in ("node", "not"):
        return [arg]
    if kind in ("or", "and", "xone"):
        return list(arg)
    if kind == "qualifiedValueShape":
        return [arg[0], *arg[3]]
    return []


def _beyond_rows(shape: _Shape, seen: set[int]) -> str:
    """Why a row's signature cannot decide ``shape`` (``""`` when it can): what it or a shape it reaches reads
    beyond each value on its own and the count of a predicate's values."""
    if id(shape) in seen:
        return ""
    seen.add(id(shape))
    if shape.walk is not None and shape.path is None:
        return "has a path other than a predicate"
    for kind, arg in shape.checks:
        if kind == "closed" and arg is not None:
            return "is closed (reads every property of its nodes)"
        if kind in ("equals", "disjoint", "lessThan", "lessThanOrEquals"):
            return "compares the values of two properties"
        if kind == "uniqueLang" and arg:
            return "compares the language tags of its values"
        for inner in _inner(kind, arg):
            why = _beyond_rows(inner, seen)
            if why:
                return why
    for prop in shape.properties:
        why = _beyond_rows(prop, seen)
        if why:
            return why
    return ""


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
    for prop in shape.properties:  # a property shape's own property shapes apply to its values
        out |= _reads(prop, inner_level, seen)
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
        "languageIn",
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
        "languageIn",
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
    own = _XSD_STRING if datatype is None else datatype
    out: list[tuple[str, Any]] = []
    for kind, arg in checks:
        if kind == "datatype":  # its own datatype only (a plain string: xsd:string); the form is well typed
            out.append(("fixed", arg == own))
        elif kind == "nodeKind":
            out.append(("fixed", node_kind_ok(Literal("x"), arg)))
        elif kind in ("class", "languageIn"):
            out.append(("fixed", False))  # a literal is an instance of no class; these have no language tag
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
    if not isinstance(value, Literal) or not isinstance(value.value, int) or isinstance(value.value, bool):
        raise Unsupported(f"count {value!r}")
    return value.value


# Plain URIRefs for the terms validation touches per value: an attribute of rdflib's DefinedNamespace
# costs microseconds per access.
_TYPE = URIRef(str(RDF.type))
_SUBCLASS = URIRef(str(RDFS.subClassOf))
_XSD_STRING = URIRef(str(XSD.string))


class _Run:
    """One validation: the data and what has been worked out about it (class closures, conformance)."""

    def __init__(self, data: Triples) -> None:
        self.data = data
        self._supers: dict[Node, set[Node]] = {}
        self._conforms: dict[tuple[int, Node], bool] = {}
        self._members: dict[Node, set[Node]] | None = None

    # -- classes and targets --

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

    # -- shapes --

    def values(self, shape: _Shape, focus: Node) -> list[Node]:
        """The value nodes of ``shape`` at ``focus``: the focus itself for a node shape, else the path's values."""
        if shape.path is not None:
            by_p = self.data._spo.get(focus)
            return list(by_p.get(shape.path, ())) if by_p is not None else []
        if shape.walk is None:
            return [focus]
        return list(evaluate(shape.walk, self.data, focus))

    def validate(self, shape: _Shape, focus: Node, out: list[_Hit] | None) -> bool:
        """Validate ``focus`` against ``shape``: whether there is any result (of any severity). Each result is
        added to ``out``; with ``out`` None the first one ends the walk."""
        if shape.deactivated:
            return False
        values = self.values(shape, focus)
        failed = False
        for kind, arg in shape.checks:
            if self._constraint(shape, kind, arg, focus, values, out):
                if out is None:
                    return True
                failed = True
        for prop in shape.properties:
            for v in values:
                if out is None:
                    if not self.conforms(prop, v):
                        return True
                elif self.validate(prop, v, out):
                    failed = True
        return failed

    def conforms(self, shape: _Shape, node: Node) -> bool:
        """Whether ``node`` conforms to ``shape`` (no result of any severity), as sh:node, sh:not ... ask."""
        key = (id(shape), node)
        found = self._conforms.get(key)
        if found is None:
            found = self._conforms[key] = not self.validate(shape, node, None)
        return found

    def qualifies(self, arg: tuple[_Shape, int | None, int | None, list[_Shape]], v: Node) -> bool:
        """Whether ``v`` counts for a qualified value shape: it conforms to it and to none of its siblings."""
        inner, _, _, siblings = arg
        return self.conforms(inner, v) and not any(self.conforms(s, v) for s in siblings)

    def _constraint(
        self, shape: _Shape, kind: str, arg: Any, focus: Node, values: list[Node], out: list[_Hit] | None
    ) -> bool:
        """Evaluate one constraint at ``focus`` with its value nodes; whether it gave a result (see :meth:`validate`
        for ``out``)."""
        path = shape.walk
        if kind in _PER_VALUE:
            failed = False
            for v in values:
                if not self.value_ok(kind, arg, v):
                    if out is None:
                        return True
                    failed = True
                    details: tuple[_Hit, ...] = ()
                    if kind == "node":
                        nested: list[_Hit] = []
                        self.validate(arg, v, nested)
                        details = tuple(nested)
                    out.append(_Hit(focus, shape, kind, arg, v, path, details))
            return failed
        found: list[tuple[str, Node | None, Path | None]] = []
        if kind == "minCount":
            if len(values) < arg:
                found.append((kind, None, path))
        elif kind == "maxCount":
            if len(values) > arg:
                found.append((kind, None, path))
        elif kind == "hasValue":
            if arg not in values:
                found.append((kind, None, path))
        elif kind == "qualifiedValueShape":
            _, low, high, _ = arg
            n = sum(1 for v in values if self.qualifies(arg, v))
            if low is not None and n < low:
                found.append(("qualifiedMin", None, path))
            if high is not None and n > high:
                found.append(("qualifiedMax", None, path))
        elif kind == "uniqueLang":
            if arg:
                tags: dict[str, int] = {}
                for v in values:
                    if isinstance(v, Literal) and v.language:
                        tag = v.language.lower()
                        tags[tag] = tags.get(tag, 0) + 1
                found += [(kind, None, path) for tag, n in sorted(tags.items()) if n > 1]
        elif kind in ("equals", "disjoint"):
            others = self.data.objects(focus, arg)
            if kind == "equals":
                found += [(kind, v, path) for v in values if v not in others]
                mine = set(values)
                found += [(kind, o, path) for o in sorted(others, key=_order) if o not in mine]
            else:
                found += [(kind, v, path) for v in values if v in others]
        elif kind in ("lessThan", "lessThanOrEquals"):
            others = self.data.objects(focus, arg)
            for v in values:
                for o in sorted(others, key=_order):
                    cmp = compare(v, o)
                    if cmp is None or cmp > 0 or (cmp == 0 and kind == "lessThan"):
                        found.append((kind, v, path))
        elif kind == "closed":
            if arg is not None:
                for v in values:
                    for p, objects in self.data.outgoing(v):
                        if p not in arg:
                            found += [(kind, o, URIRef(str(p))) for o in sorted(objects, key=_order)]
        else:  # pragma: no cover - refused when compiling
            raise Unsupported(kind)
        if found and out is not None:
            for which, value, at in found:
                out.append(_Hit(focus, shape, which, arg, value, at, ()))
        return bool(found)

    def value_ok(self, kind: str, arg: Any, v: Node) -> bool:
        """Whether the value ``v`` passes a constraint that judges each value on its own."""
        if kind == "datatype":
            return datatype_ok(v, arg)
        if kind == "class":
            return not isinstance(v, Literal) and arg in self.classes(v)
        if kind == "nodeKind":
            return node_kind_ok(v, arg)
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
        if kind == "xone":
            return sum(1 for s in arg if self.conforms(s, v)) == 1
        if kind == "pattern":
            return not isinstance(v, BNode) and arg.search(str(v)) is not None
        if kind == "minLength":
            return not isinstance(v, BNode) and len(str(v)) >= arg
        if kind == "maxLength":
            return not isinstance(v, BNode) and len(str(v)) <= arg
        if kind == "languageIn":
            return isinstance(v, Literal) and lang_matches(v.language or "", arg)
        if kind in ("minInclusive", "maxInclusive", "minExclusive", "maxExclusive"):
            return in_range(kind, arg, v)
        raise Unsupported(kind)  # pragma: no cover - refused when compiling


_PER_VALUE = frozenset(
    {
        "datatype",
        "class",
        "nodeKind",
        "in",
        "node",
        "not",
        "or",
        "and",
        "xone",
        "pattern",
        "minLength",
        "maxLength",
        "languageIn",
        "minInclusive",
        "maxInclusive",
        "minExclusive",
        "maxExclusive",
    }
)
"""Constraints that judge each value node on its own (one result per failing value, with it as ``sh:value``)."""


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
    for p in _TARGETS:
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


__all__ = [
    "COMPONENTS",
    "CompiledShapes",
    "RowPlan",
    "ShaclResult",
    "Triples",
    "Unsupported",
    "compiled",
    "not_compiled",
]
