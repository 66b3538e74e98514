"""Parsing and serialising RDF with rdflib, with every parser failure translated to RDFSyntaxError.

rdflib's parsers raise many exception types on broken input (SyntaxError, its own BadSyntax, ValueError,
JSONDecodeError, and even AssertionError, which vanishes under ``python -O``); callers see one.

Three things are not left to rdflib:

* **DTDs** (:func:`refuse_dtd`): a document whose prolog declares a DOCTYPE or ENTITY is refused before any
  parser sees it; the same words inside a literal or a JSON string are data.
* **N-Triples** are read with pyoxigraph's parser (:func:`_parse_ntriples`): rdflib's takes time quadratic in
  the length of a line.
* **JSON-LD that rdflib would drop without a word** (:func:`_check_jsonld`, :func:`_refuse_named_graphs`): an
  ``@id`` or ``@type`` that cannot be an IRI, a language tag with a space, triples in a named graph. Such a
  document is refused, naming the value.
"""

from __future__ import annotations

import codecs
import json
import logging
import re
import warnings
from dataclasses import dataclass, field

import pyoxigraph as ox
from rdflib import RDF, XSD, BNode, Graph, Literal, URIRef
from rdflib.term import Node

from ont_platform.errors import RDFSyntaxError
from ont_platform.rdf_terms import IRI_FORBIDDEN
from ont_platform.storage._terms import from_oxigraph
from ont_platform.storage.base import RdfFormat

_RDFLIB_NAMES = {
    RdfFormat.TURTLE: "turtle",
    RdfFormat.NTRIPLES: "nt",
    RdfFormat.JSONLD: "json-ld",
    RdfFormat.RDFXML: "xml",
    RdfFormat.NQUADS: "nquads",
    RdfFormat.TRIG: "trig",
}
_OX_PARSED = {
    RdfFormat.TURTLE: ox.RdfFormat.TURTLE,
    RdfFormat.NTRIPLES: ox.RdfFormat.N_TRIPLES,
    RdfFormat.RDFXML: ox.RdfFormat.RDF_XML,
    RdfFormat.NQUADS: ox.RdfFormat.N_QUADS,
    RdfFormat.TRIG: ox.RdfFormat.TRIG,
}
"""Formats read by pyoxigraph's parsers (linear, strict, no fetching); JSON-LD is read by rdflib."""

log = logging.getLogger(__name__)


def parse_graph(data: bytes, fmt: RdfFormat, graph: Graph | None = None, *, base: str | None = None) -> Graph:
    """Parse ``data`` into ``graph`` (a new Graph by default). Nothing is fetched: JSON-LD remote contexts are refused.
    ``base``: the IRI relative IRIs are resolved against (a file's own ``file:`` IRI); without one a relative IRI
    is refused.

    Raises :class:`RDFSyntaxError` for input that does not parse, that declares a DTD, and for JSON-LD that
    rdflib would partly drop without saying so (see :func:`_check_jsonld`).
    """
    refuse_dtd(data)
    target = Graph() if graph is None else graph
    if fmt in _OX_PARSED:
        _parse_ntriples(data, target, fmt, base)
    elif fmt is RdfFormat.JSONLD:
        _check_jsonld(data)
        scratch = Graph()  # its own store: triples rdflib puts in named graphs are found there and nowhere else
        _rdflib_parse(data, fmt, scratch, base)
        _refuse_named_graphs(scratch)
        if graph is None:
            target = scratch
        else:
            for t in scratch:
                target.add(t)
    else:
        _rdflib_parse(data, fmt, target, base)
    _refuse_bad_iris(target, fmt)
    return target


def _rdflib_parse(data: bytes, fmt: RdfFormat, target: Graph, base: str | None = None) -> None:
    try:
        with warnings.catch_warnings():
            # rdflib's own JSON-LD parser uses its deprecated ConjunctiveGraph internally; not the user's concern.
            warnings.filterwarnings("ignore", message="ConjunctiveGraph is deprecated", category=DeprecationWarning)
            target.parse(data=data, format=_RDFLIB_NAMES[fmt], publicID=base)
    except RDFSyntaxError:
        raise
    except (SyntaxError, ValueError, AssertionError, TypeError, KeyError, IndexError, AttributeError) as exc:
        raise RDFSyntaxError(f"cannot parse {fmt.value}: {type(exc).__name__}: {str(exc)[:300]}") from exc
    except Exception as exc:  # rdflib's BadSyntax and friends have no common base beyond Exception
        raise RDFSyntaxError(f"cannot parse {fmt.value}: {type(exc).__name__}: {str(exc)[:300]}") from exc


def _parse_ntriples(data: bytes, target: Graph, fmt: RdfFormat = RdfFormat.NTRIPLES, base: str | None = None) -> None:
    """Read N-Triples (or Turtle, RDF/XML, N-Quads and TriG of the default graph) with pyoxigraph's parser into
    ``target``.

    Turtle too, so that both text formats keep lexical forms alike (rdflib's Turtle parser rewrites
    ``"...Z"^^xsd:dateTime`` as ``+00:00``) and a relative IRI is refused rather than resolved against the
    process's working directory.

    Not rdflib's: it re-matches its whole line buffer after every 2 KB it reads, so one long line costs time
    quadratic in its length (a 0.5 MB literal 2 s, 4 MB about two minutes); pyoxigraph's parser is linear
    (4 MB in 40 ms) and strict. Lexical forms are kept as written (``"0123"^^xsd:integer`` stays ``0123``), as
    the other backends keep them. Blank node labels get fresh blank nodes per document, as rdflib's own
    parser gives them, so two documents that both say ``_:b1`` do not share a node. RDF 1.2 terms (triple
    terms, base directions), which an rdflib Graph cannot hold faithfully, are refused.
    """
    bnodes: dict[str, BNode] = {}

    def term(value: object) -> Node:
        if isinstance(value, ox.BlankNode):
            node = bnodes.get(value.value)
            if node is None:
                node = bnodes[value.value] = BNode()
            return node
        if isinstance(value, ox.Literal) and value.direction is not None:
            raise RDFSyntaxError(
                f"cannot parse ntriples: the literal {str(value)[:200]} has a base direction "
                "(RDF 1.2), which this backend cannot hold"
            )
        converted = from_oxigraph(value) if not isinstance(value, ox.Triple) else None
        if converted is None:
            raise RDFSyntaxError(
                f"cannot parse ntriples: {str(value)[:200]} is an RDF 1.2 triple term, which this backend cannot hold"
            )
        return converted

    ox_format = _OX_PARSED[fmt]
    try:
        # the whole document is parsed before any term is converted: a syntax error at its end is found at the
        # parser's speed (a 50,000-deep Turtle collection: 0.08 s), not after building rdflib terms for all the
        # triples before it (1.5 s)
        quads = list(ox.parse(data, format=ox_format, base_iri=base))
    except (SyntaxError, ValueError, UnicodeError) as exc:
        raise RDFSyntaxError(f"cannot parse {fmt.value}: {str(exc)[:300]}") from exc
    for quad in quads:
        if not isinstance(quad.graph_name, ox.DefaultGraph):
            raise RDFSyntaxError(
                f"cannot parse {fmt.value}: a quad in the named graph {str(quad.graph_name)[:200]}; this store holds "
                "one graph: give the triples of the default graph"
            )
        target.add((term(quad.subject), term(quad.predicate), term(quad.object)))


def _refuse_bad_iris(graph: Graph, fmt: RdfFormat) -> None:
    """rdflib's parsers accept IRIs such as ``http://a}b`` that its own serialisers then refuse with a bare
    Exception, so a store holding one could never be exported again: refuse them here, as Oxigraph does."""
    for triple in graph:
        for term in triple:
            if isinstance(term, URIRef) and IRI_FORBIDDEN.search(term):
                raise RDFSyntaxError(f"cannot parse {fmt.value}: not a valid IRI: {str(term)[:200]!r}")


def serialize_graph(graph: Graph, fmt: RdfFormat) -> bytes:
    """Serialise a Graph to bytes. The store holds one graph, its default one: as N-Quads that is N-Triples
    text (a quad without a graph name is a triple's line), as TriG it is Turtle (a TriG document of the default
    graph only); rdflib would instead put the triples in a named graph of the Graph's own identifier."""
    if fmt is RdfFormat.JSONLD:
        return _expanded_jsonld(graph)
    name = {RdfFormat.NQUADS: "nt", RdfFormat.TRIG: "turtle"}.get(fmt, _RDFLIB_NAMES[fmt])
    out = graph.serialize(format=name, encoding="utf-8")
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
            # "@type" holds IRIs, every other key value objects: one dict type cannot say which key holds which
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


# -- DTDs -------------------------------------------------------------------------------------------------------

_DTD = re.compile(rb"<!\s*(?:DOCTYPE|ENTITY)", re.IGNORECASE)
_SPACE = re.compile(rb"\s*")
_SKIPPED = ((b"<?", b"?>"), (b"<!--", b"-->"), (b"#", b"\n"))
"""What may come before a DOCTYPE: an XML declaration or processing instruction, an XML comment, and (not XML,
but harmless to step over) a Turtle / N-Triples comment line."""


def refuse_dtd(data: bytes) -> None:
    """Refuse RDF text whose prolog declares a DOCTYPE or ENTITY.

    An entity bomb of a few hundred bytes costs rdflib's RDF/XML parser minutes and pyoxigraph's about a
    gigabyte, and an external entity reads local files; no format we accept needs a DTD. A DTD can only
    stand at the start of a document, after an XML declaration, processing instructions, comments and white
    space; that prolog is what is looked at. ``"<!DOCTYPE html>"`` inside a Turtle literal or a JSON string
    is data, not a declaration, and passes. A UTF-16 or UTF-32 document (told by its byte order mark or its
    zero bytes) is read as such.

    >>> refuse_dtd(b'<urn:a> <urn:p> "<!DOCTYPE html>" .')
    >>> refuse_dtd(b'<?xml version="1.0"?>\\n<!-- x --><!DOCTYPE r [<!ENTITY a "a">]><r/>')
    Traceback (most recent call last):
    ...
    ont_platform.errors.RDFSyntaxError: RDF input declares a DOCTYPE or ENTITY; refused before parsing
    """
    if _prolog_declares_dtd(_as_utf8(data)):
        raise RDFSyntaxError("RDF input declares a DOCTYPE or ENTITY; refused before parsing")


def _as_utf8(data: bytes) -> bytes:
    """``data`` re-encoded as UTF-8 when it is UTF-16 or UTF-32, else unchanged (no copy)."""
    encoding = json.detect_encoding(data[:4])
    if encoding in ("utf-8", "utf-8-sig"):
        return data
    return data.decode(encoding, errors="replace").encode("utf-8")


def _prolog_declares_dtd(text: bytes) -> bool:
    pos = len(codecs.BOM_UTF8) if text.startswith(codecs.BOM_UTF8) else 0
    end = len(text)
    while pos < end:
        match = _SPACE.match(text, pos)
        pos = match.end() if match else pos
        for opening, closing in _SKIPPED:
            if text.startswith(opening, pos):
                close = text.find(closing, pos + len(opening))
                if close < 0:
                    return False  # the rest is one comment or instruction: no declaration follows
                pos = close + len(closing)
                break
        else:
            return _DTD.match(text, pos) is not None
    return False


# -- JSON-LD ----------------------------------------------------------------------------------------------------


@dataclass
class _Terms:
    """What the ``@context`` objects of one document define, gathered from all of them.

    Gathered document-wide rather than scope by scope: a term defined in any context counts as defined
    everywhere. That can only let a problem pass unreported, never refuse a good document.
    """

    names: set[str] = field(default_factory=set)
    id_keys: set[str] = field(default_factory=lambda: {"@id"})
    type_keys: set[str] = field(default_factory=lambda: {"@type"})
    language_keys: set[str] = field(default_factory=lambda: {"@language"})
    iri_valued: set[str] = field(default_factory=set)
    """Terms whose string values are node references (``"@type": "@id"`` or ``"@vocab"``)."""
    maps: set[str] = field(default_factory=set)
    """Terms with a language, index, id or type container: the keys of their values are not terms."""
    vocab: bool = False


_ALIASES = {"@id": "id_keys", "@type": "type_keys", "@language": "language_keys"}
_MAP_CONTAINERS = {"@language", "@index", "@id", "@type"}
_IGNORED_SHOWN = 10


def _check_jsonld(data: bytes) -> None:
    """Refuse JSON-LD that would fetch something, or that rdflib would partly drop without a word.

    * A remote ``@context`` (a URL) or an ``@import`` would be fetched; only inline contexts are accepted.
    * rdflib drops a node whose ``@id`` contains a space (or cannot be resolved), with every triple it is
      part of, and a type or reference likewise; it keeps other characters no IRI may hold, giving a store
      that cannot be exported. Every ``@id`` (and alias), ``@type`` value and reference through a term typed
      ``@id``/``@vocab`` is therefore checked against the characters no IRI may contain, and the first bad
      one is named in the :class:`RDFSyntaxError`.
    * A language tag with a space: rdflib drops the literal.

    Keys that no context defines (no ``@vocab`` either) are dropped by every JSON-LD processor, as the
    standard says; they are logged (a warning naming them) rather than refused.
    """
    try:
        doc = json.loads(data)
    except (json.JSONDecodeError, UnicodeDecodeError) as exc:
        raise RDFSyntaxError(f"cannot parse json-ld: {exc}") from exc
    except RecursionError as exc:
        raise RDFSyntaxError("cannot parse json-ld: nested too deeply") from exc
    terms = _Terms()
    ignored: dict[str, None] = {}
    try:
        _walk_contexts(doc, terms)
        _walk_nodes(doc, terms, ignored)
    except RecursionError as exc:
        raise RDFSyntaxError("cannot parse json-ld: nested too deeply") from exc
    if ignored:
        names = list(ignored)
        log.warning(
            "JSON-LD keys that no @context defines were ignored (JSON-LD drops them): %s%s",
            ", ".join(repr(n[:100]) for n in names[:_IGNORED_SHOWN]),
            f" and {len(names) - _IGNORED_SHOWN} more" if len(names) > _IGNORED_SHOWN else "",
        )


def _walk_contexts(node: object, terms: _Terms) -> None:
    """Every ``@context`` anywhere (nodes, and term definitions' scoped contexts): refuse remote ones, gather
    the terms of the rest."""
    if isinstance(node, dict):
        if "@context" in node:
            ctx = node["@context"]
            for c in ctx if isinstance(ctx, list) else [ctx]:
                if isinstance(c, str):
                    raise RDFSyntaxError("JSON-LD with a remote @context is refused (it would be fetched); inline it")
                if isinstance(c, dict):
                    if "@import" in c:
                        raise RDFSyntaxError("JSON-LD @import is refused (it would be fetched); inline the context")
                    _gather_terms(c, terms)
        for v in node.values():
            _walk_contexts(v, terms)
    elif isinstance(node, list):
        for v in node:
            _walk_contexts(v, terms)


def _gather_terms(ctx: dict[str, object], terms: _Terms) -> None:
    for name, definition in ctx.items():
        if name == "@vocab":
            terms.vocab = terms.vocab or bool(definition)
            continue
        if name.startswith("@"):
            continue
        terms.names.add(name)
        target = definition.get("@id") if isinstance(definition, dict) else definition
        if isinstance(target, str) and target in _ALIASES:
            getattr(terms, _ALIASES[target]).add(name)
        if isinstance(definition, dict):
            if definition.get("@type") in ("@id", "@vocab"):
                terms.iri_valued.add(name)
            container = definition.get("@container")
            containers = container if isinstance(container, list) else [container]
            if any(c in _MAP_CONTAINERS for c in containers if isinstance(c, str)):
                terms.maps.add(name)


def _walk_nodes(node: object, terms: _Terms, ignored: dict[str, None]) -> None:
    if isinstance(node, list):
        for v in node:
            _walk_nodes(v, terms, ignored)
        return
    if not isinstance(node, dict):
        return
    for key, value in node.items():
        if key == "@context":
            continue
        if key in terms.id_keys:
            if isinstance(value, str):
                _check_iri(value, key)
        elif key in terms.type_keys:
            for v in _strings(value):
                if not v.startswith("@") and v not in terms.names:
                    _check_iri(v, key)
        elif key in terms.language_keys:
            if isinstance(value, str) and re.search(r"\s", value):
                raise RDFSyntaxError(
                    f"JSON-LD language tag {value[:100]!r} contains white space; rdflib would "
                    "drop the literal without a word, so the document is refused"
                )
        elif key in terms.iri_valued:
            for v in _strings(value):
                if v not in terms.names:
                    _check_iri(v, key)
        elif not key.startswith("@") and ":" not in key and key not in terms.names and not terms.vocab:
            ignored.setdefault(key)
        if key in terms.maps and isinstance(value, dict):
            for v in value.values():  # a map's keys are languages, indexes or ids, not terms
                _walk_nodes(v, terms, ignored)
        else:
            _walk_nodes(value, terms, ignored)


def _strings(value: object) -> list[str]:
    if isinstance(value, str):
        return [value]
    if isinstance(value, list):
        return [v for v in value if isinstance(v, str)]
    return []


def _check_iri(value: str, key: str) -> None:
    bad = IRI_FORBIDDEN.search(value)
    if bad is None:
        return
    char = bad.group()
    what = (
        "a space"
        if char == " "
        else f"the character {char!r}"
        if char.isprintable()
        else f"the control character U+{ord(char):04X}"
    )
    raise RDFSyntaxError(
        f"JSON-LD {key} {value[:200]!r} is not a valid IRI (it contains {what}); rdflib would drop it and every "
        "triple it is part of without a word, so the document is refused"
    )


def _refuse_named_graphs(scratch: Graph) -> None:
    """rdflib puts the triples of a node with both ``@id`` and ``@graph`` in a named graph, which a Graph does
    not show: they would vanish. A store holds one graph, so such a document is refused, naming the graphs."""
    named: dict[str, int] = {}
    for ctx in scratch.store.contexts():
        identifier = getattr(ctx, "identifier", ctx)
        if identifier != scratch.identifier:
            count = sum(1 for _ in scratch.store.triples((None, None, None), context=ctx))
            if count:
                named[str(identifier)] = count
    if named:
        shown = ", ".join(f"{name[:100]!r} ({n} triple(s))" for name, n in list(named.items())[:5])
        raise RDFSyntaxError(
            f"JSON-LD puts triples in named graphs: {shown}; a store holds one graph, so the document is "
            "refused (remove the @id of the node holding @graph to load its triples into the graph)"
        )
