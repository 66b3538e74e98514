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

_IGNORED = {SH.name, SH.description, SH.order, SH.group, SH.declare, SH.prefixes, SH.message, SH.severity,
            SH.deactivated, SH.target, SH.targetClass, SH.targetSubjectsOf, SH.targetObjectsOf, SH.targetNode,
            SH.property, SH.path, SH.qualifiedMinCount, SH.qualifiedMaxCount, SH.qualifiedValueShapesDisjoint}
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
        return bool(self.target_classes or self.target_subjects_of or self.target_objects_of or self.target_nodes
                    or self.plain_triple_target)


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
            if (node, RDF.type, RDFS.Class) in shapes or (node, RDF.type, URIRef(
                    "http://www.w3.org/2002/07/owl#Class")) in shapes:
                raise Unsupported("implicit class targets")
        self.targeted = [s for s in (self._shape(n) for n in sorted(roots, key=str)) if s.targeted]
        for shape in self.targeted:
            self._messages(shape)

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
        name = str(p)[len(str(SH)):]
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
        prefixes = {str(g.value(decl, SH.prefix)): str(g.value(decl, SH.namespace))
                    for src in g.objects(target, SH.prefixes) for decl in g.objects(src, SH.declare)}
        return " ".join(str(select).split()) == _PLAIN_TRIPLE_SELECT and prefixes.get("ont") == _ONT

    # -- validating --

    def violations(self, data: Triples, focus: Iterable[Node] | None = None) -> list[Violation]:
        """The results (severity Violation) of every targeted shape in ``data``, sorted and without duplicates;
        with ``focus``, only the results about those nodes."""
        wanted = set(focus) if focus is not None else None
        run = _Run(data)
        out: set[Violation] = set()
        for shape in self.targeted:
            if shape.deactivated:
                continue
            for node in run.targets(shape):
                for at, path, message in run.results(shape, node):
                    if wanted is None or at in wanted:
                        out.add(Violation(focus=str(at), path=str(path) if path is not None else None,
                                          message=message, severity="Violation"))
        return sorted(out, key=lambda v: (v.focus, v.path or "", v.message))


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

    def targets(self, shape: _Shape) -> set[Node]:
        data = self.data
        nodes: set[Node] = set(shape.target_nodes)
        if shape.target_classes:
            wanted = set(shape.target_classes)
            for node in data.subjects(_TYPE):
                if self.classes(node) & wanted:
                    nodes.add(node)
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
            return len(values) >= arg
        if kind == "maxCount":
            return len(values) <= arg
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
    _XSD_STRING: (str, bytes), _LANG_STRING: (str, bytes), XSD.integer: int, XSD.float: float,
    XSD.decimal: Decimal, XSD.boolean: bool, XSD.date: date, XSD.time: time, XSD.dateTime: datetime,
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
        cmp = compare_literal(v, bound)
    except (TypeError, NotImplementedError):
        return False
    return {"minInclusive": cmp >= 0, "maxInclusive": cmp <= 0, "minExclusive": cmp > 0,
            "maxExclusive": cmp < 0}[kind]


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


__all__ = ["CompiledShapes", "Triples", "Unsupported", "compiled"]
