"""Validate RDF data against SHACL shapes: ``pyshacl.validate``'s call, answered by the compiled checker.

>>> from rdflib import Graph
>>> data = Graph().parse(data='<urn:ex:a> a <urn:ex:Person> .', format="turtle")
>>> shapes = Graph().parse(data='''
...     @prefix sh: <http://www.w3.org/ns/shacl#> .
...     <urn:ex:PersonShape> a sh:NodeShape ; sh:targetClass <urn:ex:Person> ;
...         sh:property [ sh:path <urn:ex:name> ; sh:minCount 1 ] .''', format="turtle")
>>> conforms, report, text = validate(data, shapes)
>>> conforms, len(list(report.objects(None, SH.result)))
(False, 1)

The shapes are compiled once (:mod:`ont_platform.validation.shapes`: all of SHACL Core, as the W3C
Recommendation defines it) and evaluated in Python; pyshacl runs instead only for what the compiler does not
take — SHACL-SPARQL (``sh:sparql``, SPARQL targets, custom constraint components), SHACL-AF (rules), recursive
shapes, inference (``inference="rdfs"`` ...), a data graph with named graphs, and pyshacl's own options beyond
those below. :func:`why_not_compiled` says which way a call goes.

What the arguments mean here:

- ``data_graph``, ``shacl_graph``, ``ont_graph``: rdflib graphs, or RDF text (Turtle), or the path of a file
  (Turtle, N-Triples or JSON-LD, by its suffix). URLs are refused: nothing is fetched. Without
  ``shacl_graph`` the data graph holds the shapes too.
- ``ont_graph``: its class hierarchy (``rdfs:subClassOf``) is added to the data's, so that ``sh:class``,
  ``sh:targetClass`` and implicit class targets reach the instances of subclasses it declares; the data graph's
  own ``rdfs:subClassOf`` triples count as well, as SHACL says. The caller's graphs are never changed.
- ``abort_on_first``: stop at the first shape and focus node that gave a result of severity Violation.
- ``allow_warnings`` / ``allow_infos``: results of severity Warning and Info (or Info only) do not make the data
  non-conforming; they are still reported.
- ``focus_nodes``: validate only these nodes, against the shapes that target them (nested shapes still follow
  the values wherever they lead). ``use_shapes``: only these targeted shapes.

The report is a W3C ``sh:ValidationReport``: each result with ``sh:focusNode``, ``sh:resultPath`` (a copy of
a complex path), ``sh:value``, ``sh:sourceShape``, ``sh:sourceConstraintComponent``, ``sh:resultSeverity`` and
``sh:resultMessage`` (the shape's ``sh:message`` values, or a default per component); a failed ``sh:node``
nests the value's own results under ``sh:detail``.
"""

from __future__ import annotations

import re
from collections import OrderedDict
from collections.abc import Iterable, Sequence
from pathlib import Path
from threading import Lock
from typing import Any

from rdflib import RDF, RDFS, XSD, BNode, Dataset, Graph, Literal, URIRef
from rdflib.namespace import SH
from rdflib.term import Node

from ont_platform.errors import InputError
from ont_platform.validation.paths import path_text, write_path
from ont_platform.validation.shapes import CompiledShapes, ShaclResult, Triples, Unsupported

GraphInput = Graph | str | bytes | Path
"""A graph as :func:`validate` takes it: an rdflib graph, RDF text (Turtle), or the path of an RDF file."""

_HANDLED_OPTIONS = frozenset({"inplace", "max_validation_depth", "debug"})
"""pyshacl options that change nothing on the compiled path (it never changes the data graph, and refuses
recursive shapes, the only ones a depth limit concerns)."""

_SEVERITY_NAMES = {SH.Violation: "Violation", SH.Warning: "Warning", SH.Info: "Info"}
_CACHE_SIZE = 16
_cache: OrderedDict[frozenset[tuple[Node, Node, Node]], CompiledShapes | str] = OrderedDict()
_cache_lock = Lock()


def validate(
    data_graph: GraphInput,
    shacl_graph: GraphInput | None = None,
    ont_graph: GraphInput | None = None,
    *,
    inference: str | None = None,
    abort_on_first: bool = False,
    allow_infos: bool = False,
    allow_warnings: bool = False,
    advanced: bool = False,
    focus_nodes: Sequence[URIRef | str] | None = None,
    use_shapes: Sequence[URIRef | str] | None = None,
    **kwargs: Any,
) -> tuple[bool, Graph, str]:
    """Validate ``data_graph`` against ``shacl_graph``: ``(conforms, report graph, report text)``, as
    ``pyshacl.validate`` returns them (see the module's text for each argument)."""
    data = _graph(data_graph, "data_graph")
    shapes = _graph(shacl_graph, "shacl_graph") if shacl_graph is not None else data
    ontology = _graph(ont_graph, "ont_graph") if ont_graph is not None else None
    compiled = _compiled_for(data, shapes, inference, kwargs)
    if isinstance(compiled, str):
        return _pyshacl(
            data,
            shapes,
            ontology,
            inference=inference,
            abort_on_first=abort_on_first,
            allow_infos=allow_infos,
            allow_warnings=allow_warnings,
            advanced=advanced,
            focus_nodes=focus_nodes,
            use_shapes=use_shapes,
            **kwargs,
        )
    triples = Triples(data)
    if ontology is not None:
        for s, _, o in ontology.triples((None, RDFS.subClassOf, None)):
            triples.add((s, RDFS.subClassOf, o))
    only = None
    if use_shapes is not None:
        wanted = {_node(s) for s in use_shapes}
        only = [i for i, shape in enumerate(compiled.targeted) if shape.node in wanted]
    targets = [_node(n) for n in focus_nodes] if focus_nodes is not None else None
    results = compiled.results(triples, only=only, targets=targets, abort_on_first=abort_on_first)
    ignored = {SH.Info} if allow_infos else set()
    if allow_warnings:
        ignored |= {SH.Info, SH.Warning}
    conforms = all(r.severity in ignored for r in results)
    report = report_graph(conforms, results)
    return conforms, report, report_text(conforms, results, shapes)


def why_not_compiled(
    shacl_graph: GraphInput, data_graph: GraphInput | None = None, *, inference: str | None = None, **options: Any
) -> str | None:
    """Why :func:`validate` with these arguments would run pyshacl, or None when the compiled checker answers."""
    shapes = _graph(shacl_graph, "shacl_graph")
    data = _graph(data_graph, "data_graph") if data_graph is not None else Graph()
    found = _compiled_for(data, shapes, inference, options)
    return found if isinstance(found, str) else None


def _compiled_for(data: Graph, shapes: Graph, inference: str | None, options: dict[str, Any]) -> CompiledShapes | str:
    if inference not in (None, "none"):
        return f"inference={inference!r}: pyshacl expands the data graph first"
    unknown = sorted(set(options) - _HANDLED_OPTIONS)
    if unknown:
        return f"pyshacl's own option(s) {', '.join(unknown)}"
    if isinstance(data, Dataset) or hasattr(data, "contexts"):
        return "a data graph with named graphs"
    return _compile(shapes)


def _compile(shapes: Graph) -> CompiledShapes | str:
    """The compiled shapes of ``shapes`` (kept for the last few shapes graphs, by content), or why not."""
    key = frozenset(shapes)
    with _cache_lock:
        found = _cache.get(key)
        if found is not None:
            _cache.move_to_end(key)
            return found
    try:
        made: CompiledShapes | str = CompiledShapes(shapes)
    except Unsupported as exc:
        made = f"the shapes use what the compiler does not take: {exc}"
    with _cache_lock:
        _cache[key] = made
        while len(_cache) > _CACHE_SIZE:
            _cache.popitem(last=False)
    return made


def _pyshacl(data: Graph, shapes: Graph, ontology: Graph | None, **options: Any) -> tuple[bool, Graph, str]:
    from pyshacl import validate as pyshacl_validate  # only here: the compiled path needs no pyshacl run

    copy = Graph()  # pyshacl adds axioms of its own to the shapes graph it is handed: not to the caller's
    for t in shapes:
        copy.add(t)
    if data is shapes and not options.get("inplace"):
        data = copy
    conforms, report, text = pyshacl_validate(data, shacl_graph=copy, ont_graph=ontology, **options)
    if not isinstance(report, Graph):  # pyshacl returns text in some output modes; a graph was asked for
        raise InputError("pyshacl returned no report graph for these options")
    return bool(conforms), report, str(text)


def _graph(value: GraphInput, what: str) -> Graph:
    if isinstance(value, Graph):
        return value
    from ont_platform.storage.base import RdfFormat
    from ont_platform.storage.rdf_io import parse_graph

    if isinstance(value, Path) or (isinstance(value, str) and "\n" not in value and _looks_like_a_path(value)):
        path = Path(value)
        if not path.is_file():
            raise InputError(f"{what}: no such file {str(path)!r}")
        return parse_graph(path.read_bytes(), RdfFormat.parse(path.suffix or "ttl"))
    if isinstance(value, str) and re.match(r"\s*[a-z][a-z0-9+.-]*://", value, re.IGNORECASE):
        raise InputError(f"{what}: a URL; nothing is fetched here, read it into a graph first")
    if isinstance(value, (str, bytes)):
        return parse_graph(value.encode("utf-8") if isinstance(value, str) else value, RdfFormat.TURTLE)
    raise InputError(f"{what}: an rdflib Graph, RDF text or a file path, not {type(value).__name__}")


def _looks_like_a_path(text: str) -> bool:
    return bool(text) and not re.match(r"\s*[a-z][a-z0-9+.-]*://", text, re.IGNORECASE) and Path(text).suffix != ""


def _node(value: URIRef | str) -> Node:
    return value if isinstance(value, Node) else URIRef(value)


# --- the report -------------------------------------------------------------------------------------------------


def report_graph(conforms: bool, results: Iterable[ShaclResult]) -> Graph:
    """A W3C validation report of ``results``."""
    g = Graph()
    g.bind("sh", SH)
    report = BNode()
    g.add((report, RDF.type, SH.ValidationReport))
    g.add((report, SH.conforms, Literal(conforms, datatype=XSD.boolean)))
    for result in results:
        _write(g, result, report, SH.result)
    return g


def _write(g: Graph, result: ShaclResult, parent: Node, link: URIRef) -> None:
    node = BNode()
    g.add((parent, link, node))
    g.add((node, RDF.type, SH.ValidationResult))
    g.add((node, SH.focusNode, result.focus))
    if result.path is not None:
        g.add((node, SH.resultPath, write_path(result.path, g)))
    if result.value is not None:
        g.add((node, SH.value, result.value))
    g.add((node, SH.sourceShape, result.shape))
    g.add((node, SH.sourceConstraintComponent, result.component))
    g.add((node, SH.resultSeverity, result.severity))
    for message in result.messages:
        g.add((node, SH.resultMessage, message))
    for detail in result.details:
        _write(g, detail, node, SH.detail)


def report_text(conforms: bool, results: Sequence[ShaclResult], shapes: Graph | None = None) -> str:
    """The report as text, one block per result (nested results indented under theirs)."""
    names = shapes.namespace_manager if shapes is not None else Graph().namespace_manager

    def show(node: Node | None) -> str:
        if node is None:
            return "-"
        if isinstance(node, URIRef):
            try:
                return names.normalizeUri(node)
            except Exception:  # an IRI rdflib cannot shorten is shown whole
                return f"<{node}>"
        return node.n3()

    lines = ["SHACL validation report", f"Conforms: {conforms}", f"Results: {len(results)}"]

    def block(result: ShaclResult, indent: str) -> None:
        severity = _SEVERITY_NAMES.get(result.severity, show(result.severity))
        component = str(result.component).removeprefix(str(SH))
        lines.append(f"{indent}{severity}: {component}")
        lines.append(f"{indent}  focus node:   {show(result.focus)}")
        if result.path is not None:
            lines.append(f"{indent}  path:         {path_text(result.path, show)}")
        if result.value is not None:
            lines.append(f"{indent}  value:        {show(result.value)}")
        lines.append(f"{indent}  source shape: {show(result.shape)}")
        for message in result.messages:
            lines.append(f"{indent}  message:      {message}")
        for detail in result.details:
            block(detail, indent + "    ")

    for result in results:
        block(result, "")
    return "\n".join(lines) + "\n"


__all__ = ["GraphInput", "report_graph", "report_text", "validate", "why_not_compiled"]
