"""SHACL property paths (https://www.w3.org/TR/shacl/#property-paths): read from a shapes graph, evaluated over
indexed triples, and written back into a validation report.

A path is a predicate IRI or a blank node: a well-formed RDF list is a sequence path, otherwise the node has
exactly one of ``sh:alternativePath`` (a list of two or more paths), ``sh:inversePath``, ``sh:zeroOrMorePath``, ``sh:oneOrMorePath``, ``sh:zeroOrOnePath``. A node that is a
list is read as a sequence even if it has other triples too (the W3C tests ``path-strange-001/002`` expect that).
"""

from __future__ import annotations

from collections.abc import Callable, Iterable
from dataclasses import dataclass
from typing import Protocol

from rdflib import RDF, BNode, Graph, URIRef
from rdflib.namespace import SH
from rdflib.term import Node


class PathError(ValueError):
    """A node of the shapes graph that is no well-formed SHACL path."""


class TripleIndex(Protocol):
    """What evaluating a path needs of the data: objects of ``s p ?o`` and subjects of ``?s p o``."""

    def objects(self, s: Node, p: Node) -> set[Node]: ...

    def subjects(self, p: Node, o: Node | None = None) -> set[Node]: ...


@dataclass(frozen=True, slots=True)
class Inverse:
    path: Path


@dataclass(frozen=True, slots=True)
class Sequence:
    parts: tuple[Path, ...]


@dataclass(frozen=True, slots=True)
class Alternative:
    parts: tuple[Path, ...]


@dataclass(frozen=True, slots=True)
class ZeroOrMore:
    path: Path


@dataclass(frozen=True, slots=True)
class OneOrMore:
    path: Path


@dataclass(frozen=True, slots=True)
class ZeroOrOne:
    path: Path


Path = URIRef | Inverse | Sequence | Alternative | ZeroOrMore | OneOrMore | ZeroOrOne
"""A parsed path: a predicate IRI, or one of the path expressions above."""

_UNARY: dict[URIRef, type[Inverse | ZeroOrMore | OneOrMore | ZeroOrOne]] = {
    URIRef(str(SH.inversePath)): Inverse,
    URIRef(str(SH.zeroOrMorePath)): ZeroOrMore,
    URIRef(str(SH.oneOrMorePath)): OneOrMore,
    URIRef(str(SH.zeroOrOnePath)): ZeroOrOne,
}
_ALTERNATIVE = URIRef(str(SH.alternativePath))
_FIRST, _REST, _NIL = URIRef(str(RDF.first)), URIRef(str(RDF.rest)), URIRef(str(RDF.nil))


def _list(g: Graph, node: Node) -> list[Node] | None:
    """The members of a well-formed RDF list, or None."""
    out: list[Node] = []
    seen: set[Node] = set()
    while node != _NIL:
        if node in seen or not isinstance(node, BNode):
            return None
        seen.add(node)
        firsts, rests = list(g.objects(node, _FIRST)), list(g.objects(node, _REST))
        if len(firsts) != 1 or len(rests) != 1:
            return None
        out.append(firsts[0])
        node = rests[0]
    return out


def parse_path(g: Graph, node: Node, _seen: frozenset[Node] = frozenset()) -> Path:
    """The path ``node`` denotes in the shapes graph ``g``; :class:`PathError` if it is not a well-formed one."""
    if isinstance(node, URIRef):
        return node
    if not isinstance(node, BNode):
        raise PathError(f"a path must be an IRI or a blank node, not {node!r}")
    if node in _seen:
        raise PathError("a path that contains itself")
    seen = _seen | {node}
    if (node, _FIRST, None) in g:
        members = _list(g, node)
        if members is None or len(members) < 2:
            raise PathError("a sequence path must be a list of at least two paths")
        return Sequence(tuple(parse_path(g, m, seen) for m in members))
    found: list[Path] = []
    for p, o in g.predicate_objects(node):
        if p == _ALTERNATIVE:
            members = _list(g, o)
            if members is None or len(members) < 2:
                raise PathError("sh:alternativePath must be a list of at least two paths")
            found.append(Alternative(tuple(parse_path(g, m, seen) for m in members)))
        elif p in _UNARY:
            found.append(_UNARY[URIRef(str(p))](parse_path(g, o, seen)))
    if len(found) != 1:
        raise PathError(f"a path node needs exactly one path property, found {len(found)}")
    return found[0]


def evaluate(path: Path, data: TripleIndex, node: Node) -> set[Node]:
    """The value nodes of ``path`` from ``node`` (a new set)."""
    if isinstance(path, URIRef):
        return data.objects(node, path)
    return _step(path, data, {node}, False)


def _step(path: Path, data: TripleIndex, starts: set[Node], inverse: bool) -> set[Node]:
    """The nodes reached from any of ``starts`` over ``path`` (walked backwards when ``inverse``)."""
    if isinstance(path, URIRef):
        out: set[Node] = set()
        for s in starts:
            out |= data.subjects(path, s) if inverse else data.objects(s, path)
        return out
    if isinstance(path, Inverse):
        return _step(path.path, data, starts, not inverse)
    if isinstance(path, Sequence):
        current = starts
        for part in reversed(path.parts) if inverse else path.parts:
            if not current:
                break
            current = _step(part, data, current, inverse)
        return current
    if isinstance(path, Alternative):
        found: set[Node] = set()
        for part in path.parts:
            found |= _step(part, data, starts, inverse)
        return found
    if isinstance(path, ZeroOrOne):
        return set(starts) | _step(path.path, data, starts, inverse)
    # zero or more / one or more: breadth first over the closure
    reached: set[Node] = set(starts) if isinstance(path, ZeroOrMore) else set()
    frontier = set(starts)
    while frontier:
        frontier = _step(path.path, data, frontier, inverse) - reached
        reached |= frontier
    return reached


def predicates(path: Path) -> set[URIRef]:
    """Every predicate IRI the path mentions."""
    if isinstance(path, URIRef):
        return {path}
    if isinstance(path, (Sequence, Alternative)):
        out: set[URIRef] = set()
        for part in path.parts:
            out |= predicates(part)
        return out
    return predicates(path.path)


def path_text(path: Path, show: Callable[[Node], str] = lambda n: n.n3()) -> str:
    """``path`` in SPARQL's property path syntax (``^p``, ``p/q``, ``(p|q)``, ``p*``, ``p+``, ``p?``)."""
    if isinstance(path, URIRef):
        return show(path)
    if isinstance(path, Inverse):
        return "^" + path_text(path.path, show)
    if isinstance(path, Sequence):
        return "(" + "/".join(path_text(p, show) for p in path.parts) + ")"
    if isinstance(path, Alternative):
        return "(" + "|".join(path_text(p, show) for p in path.parts) + ")"
    suffix = "*" if isinstance(path, ZeroOrMore) else "+" if isinstance(path, OneOrMore) else "?"
    return path_text(path.path, show) + suffix


def write_path(path: Path, g: Graph) -> Node:
    """``path`` as RDF in ``g`` (fresh blank nodes for its structure); the node that denotes it."""
    if isinstance(path, URIRef):
        return path
    node = BNode()
    if isinstance(path, Sequence):
        _write_list([write_path(p, g) for p in path.parts], g, node)
    elif isinstance(path, Alternative):
        head = BNode()
        _write_list([write_path(p, g) for p in path.parts], g, head)
        g.add((node, _ALTERNATIVE, head))
    else:
        predicate = next(p for p, cls in _UNARY.items() if isinstance(path, cls))
        g.add((node, predicate, write_path(path.path, g)))
    return node


def _write_list(items: Iterable[Node], g: Graph, head: BNode) -> None:
    members = list(items)
    node: Node = head
    for i, item in enumerate(members):
        g.add((node, _FIRST, item))
        rest: Node = BNode() if i < len(members) - 1 else _NIL
        g.add((node, _REST, rest))
        node = rest


__all__ = [
    "Alternative",
    "Inverse",
    "OneOrMore",
    "Path",
    "PathError",
    "Sequence",
    "TripleIndex",
    "ZeroOrMore",
    "ZeroOrOne",
    "evaluate",
    "parse_path",
    "path_text",
    "predicates",
    "write_path",
]
