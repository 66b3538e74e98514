"""Parsing and serialising RDF with rdflib, with every parser failure translated to RDFSyntaxError.

rdflib's parsers raise many exception types on broken input (SyntaxError, its own BadSyntax, ValueError,
JSONDecodeError, and even AssertionError, which vanishes under ``python -O``); callers see one.
"""

from __future__ import annotations

import json
import warnings

from rdflib import RDF, XSD, BNode, Graph, Literal, URIRef

from ont_platform.errors import RDFSyntaxError
from ont_platform.rdf_terms import IRI_FORBIDDEN
from ont_platform.storage._guards import refuse_dtd
from ont_platform.storage.base import RdfFormat

_RDFLIB_NAMES = {RdfFormat.TURTLE: "turtle", RdfFormat.NTRIPLES: "nt", RdfFormat.JSONLD: "json-ld"}


def parse_graph(data: bytes, fmt: RdfFormat, graph: Graph | None = None) -> Graph:
    """Parse ``data`` into ``graph`` (a new Graph by default). Nothing is fetched: JSON-LD remote contexts are refused."""
    refuse_dtd(data)
    target = Graph() if graph is None else graph
    if fmt is RdfFormat.JSONLD:
        _refuse_remote_context(data)
    try:
        with warnings.catch_warnings():
            # rdflib's own JSON-LD parser uses its deprecated ConjunctiveGraph internally; not the user's concern.
            warnings.filterwarnings("ignore", message="ConjunctiveGraph is deprecated", category=DeprecationWarning)
            target.parse(data=data, format=_RDFLIB_NAMES[fmt])
    except RDFSyntaxError:
        raise
    except (SyntaxError, ValueError, AssertionError, TypeError, KeyError, IndexError, AttributeError) as exc:
        raise RDFSyntaxError(f"cannot parse {fmt.value}: {type(exc).__name__}: {str(exc)[:300]}") from exc
    except Exception as exc:  # rdflib's BadSyntax and friends have no common base beyond Exception
        raise RDFSyntaxError(f"cannot parse {fmt.value}: {type(exc).__name__}: {str(exc)[:300]}") from exc
    _refuse_bad_iris(target, fmt)
    return target


def _refuse_bad_iris(graph: Graph, fmt: RdfFormat) -> None:
    """rdflib's parsers accept IRIs such as ``http://a}b`` that its own serialisers then refuse with a bare
    Exception, so a store holding one could never be exported again: refuse them here, as Oxigraph does."""
    for triple in graph:
        for term in triple:
            if isinstance(term, URIRef) and IRI_FORBIDDEN.search(term):
                raise RDFSyntaxError(f"cannot parse {fmt.value}: not a valid IRI: {str(term)[:200]!r}")


def serialize_graph(graph: Graph, fmt: RdfFormat) -> bytes:
    """Serialise a Graph to bytes."""
    if fmt is RdfFormat.JSONLD:
        return _expanded_jsonld(graph)
    out = graph.serialize(format=_RDFLIB_NAMES[fmt], encoding="utf-8")
    return out if isinstance(out, bytes) else out.encode("utf-8")


def convert(data: bytes, src: RdfFormat, dst: RdfFormat) -> bytes:
    """Re-serialise RDF text from one format to another."""
    return serialize_graph(parse_graph(data, src), dst)


def _expanded_jsonld(graph: Graph) -> bytes:
    """Expanded JSON-LD with every literal as a string ``@value``.

    rdflib 7's JSON-LD serializer always turns xsd:integer, xsd:double and xsd:boolean literals into JSON
    numbers (its ``use_native_types`` option is read as a one-element tuple, which is always true); a wei value
    above 2^64 then fails to serialise, and a double loses its lexical form. Expanded form with string values
    keeps every literal exactly and is read back by any JSON-LD processor.
    """
    nodes: dict[str, dict[str, list[dict[str, str]]]] = {}

    def ref(term: object) -> str:
        return f"_:{term}" if isinstance(term, BNode) else str(term)

    for s, p, o in sorted(graph, key=lambda t: (str(t[0]), str(t[1]), str(t[2]))):
        node = nodes.setdefault(ref(s), {})
        if p == RDF.type and not isinstance(o, Literal):
            node.setdefault("@type", []).append(ref(o))  # type: ignore[arg-type]
            continue
        if isinstance(o, Literal):
            value: dict[str, str] = {"@value": str(o)}
            if o.language:
                value["@language"] = o.language
            elif o.datatype is not None and str(o.datatype) != str(XSD.string):
                value["@type"] = str(o.datatype)
        else:
            value = {"@id": ref(o)}
        node.setdefault(str(p), []).append(value)
    doc = [{"@id": node_id, **props} for node_id, props in nodes.items()]
    return json.dumps(doc, ensure_ascii=False, indent=1).encode("utf-8")


def _refuse_remote_context(data: bytes) -> None:
    """A JSON-LD ``@context`` given as a URL would make rdflib fetch it; only inline contexts are accepted."""
    try:
        doc = json.loads(data)
    except (json.JSONDecodeError, UnicodeDecodeError) as exc:
        raise RDFSyntaxError(f"cannot parse json-ld: {exc}") from exc
    except RecursionError as exc:
        raise RDFSyntaxError("cannot parse json-ld: nested too deeply") from exc

    def walk(node: object) -> None:
        if isinstance(node, dict):
            ctx = node.get("@context")
            items = ctx if isinstance(ctx, list) else [ctx]
            if any(isinstance(c, str) for c in items):
                raise RDFSyntaxError("JSON-LD with a remote @context is refused (it would be fetched); inline it")
            if any(isinstance(c, dict) and "@import" in c for c in items):
                raise RDFSyntaxError("JSON-LD @import is refused (it would be fetched); inline the context")
            for v in node.values():
                walk(v)
        elif isinstance(node, list):
            for v in node:
                walk(v)

    try:
        walk(doc)
    except RecursionError as exc:
        raise RDFSyntaxError("cannot parse json-ld: nested too deeply") from exc
