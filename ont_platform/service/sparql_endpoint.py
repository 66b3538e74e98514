"""The service's SPARQL 1.1 Protocol endpoint: read-only SELECT and ASK over a served graph.

A request is read as the protocol says (``GET ?query=``, a ``POST`` form with ``query=``, or a ``POST`` with an
``application/sparql-query`` body), answered in the format its ``Accept`` header asks for (SPARQL JSON by
default, SPARQL XML, CSV, TSV), and refused in plain words otherwise: an update is never run (403), nor is
anything the library's query inspection refuses (400). The query goes through the same two steps as
:meth:`~ont_platform.kg.KnowledgeGraph.select`, with the graph's own limits: :func:`inspect_query` (rdflib's
parser, in a worker killed at the time limit) and :class:`QueryRunner` (the store's killable worker, a row cap).
``KnowledgeGraph.select`` itself is not called because its rows cannot tell an ASK's ``{"result": true}`` from a
SELECT of ``?result``; the runner's outcome says which form ran.

This module knows nothing of FastAPI: it reads a request into a :class:`SparqlRequest`, runs it and writes the
answer, and raises :class:`ProtocolError` (an HTTP status, an error code and a message) for the route to send.
"""

from __future__ import annotations

from collections.abc import Callable, Mapping, Sequence
from dataclasses import dataclass, field
from typing import Literal, TypeVar
from urllib.parse import parse_qsl

from rdflib import BNode, Graph, Namespace, URIRef, Variable
from rdflib import Literal as RDFLiteral
from rdflib.namespace import RDF, XSD
from rdflib.query import Result
from rdflib.term import Identifier, Node

from ont_platform.errors import QueryError, QueryRefused, QueryTimeout, StoreError
from ont_platform.kg import KnowledgeGraph
from ont_platform.storage.remote import DEFAULT_GRAPH
from ont_platform.verify.query import InspectedQuery, QueryOutcome, QueryRunner, inspect_query

T = TypeVar("T")

Form = Literal["SELECT", "ASK"]
Format = Literal["json", "xml", "csv", "tsv"]

MEDIA_TYPES: dict[str, str] = {
    "json": "application/sparql-results+json",
    "xml": "application/sparql-results+xml",
    "csv": "text/csv; charset=utf-8",
    "tsv": "text/tab-separated-values; charset=utf-8",
}
"""The Content-Type of each result format."""

GraphFormat = Literal["turtle", "nt", "xml"]
GRAPH_MEDIA_TYPES: dict[str, str] = {
    "turtle": "text/turtle; charset=utf-8",
    "nt": "application/n-triples",
    "xml": "application/rdf+xml",
}
"""The Content-Type of each graph format (the answer of a CONSTRUCT or DESCRIBE)."""
_GRAPH_ACCEPTED: dict[str, GraphFormat] = {
    "text/turtle": "turtle",
    "application/x-turtle": "turtle",
    "application/n-triples": "nt",
    "text/plain": "nt",
    "application/rdf+xml": "xml",  # rdflib's SPARQLStore asks for it (with SPARQL XML results) by default
}

_ACCEPTED: dict[str, Format] = {
    "application/sparql-results+json": "json",
    "application/json": "json",
    "application/sparql-results+xml": "xml",
    "application/xml": "xml",
    "text/xml": "xml",
    "text/csv": "csv",
    "text/tab-separated-values": "tsv",
}
_FORMATS_OF: dict[str, tuple[Format, ...]] = {"SELECT": ("json", "xml", "csv", "tsv"), "ASK": ("json", "xml")}
"""CSV and TSV results are defined for SELECT only (SPARQL 1.1 Query Results CSV and TSV Formats, section 1)."""

MAX_FORM_FIELDS = 1000
"""Most fields a form body may have (a query, and the graphs it names)."""

GRAPH_NAME = DEFAULT_GRAPH
"""The name a request may give the served graph in ``default-graph-uri`` / ``named-graph-uri``: the graph a
``backend="remote"`` store works in by default, so this library's own remote backend can read the endpoint."""

SD = Namespace("http://www.w3.org/ns/sparql-service-description#")
FORMATS = Namespace("http://www.w3.org/ns/formats/")
VOID = Namespace("http://rdfs.org/ns/void#")
_FORMAT_IRIS = ("SPARQL_Results_JSON", "SPARQL_Results_XML", "SPARQL_Results_CSV", "SPARQL_Results_TSV")

_UPDATE_REFUSAL = "a SPARQL update"
"""How :func:`inspect_query` starts the reason it gives for an update (kept in step by a test)."""
_UNSUPPORTED_FORMS = ("a CONSTRUCT query", "a DESCRIBE query")


class ProtocolError(Exception):
    """A request the endpoint does not answer: the HTTP ``status``, the error ``code`` and a ``message``."""

    def __init__(self, status: int, code: str, message: str) -> None:
        super().__init__(message)
        self.status = status
        self.code = code
        self.message = message


@dataclass(frozen=True)
class SparqlRequest:
    """A protocol request, read: the query text (``None``: none was given) and the dataset it names."""

    query: str | None
    default_graphs: tuple[str, ...] = field(default=())
    named_graphs: tuple[str, ...] = field(default=())


def read_request(
    method: str, content_type: str | None, params: Sequence[tuple[str, str]], body: bytes
) -> SparqlRequest:
    """Read a GET or POST of the SPARQL 1.1 Protocol (section 2.1) into a :class:`SparqlRequest`.

    ``params`` are the URL's query parameters; ``body`` the request body. Raises :class:`ProtocolError`: 403
    ``update_refused`` for an update (``update=``, ``application/sparql-update``), 415 for another body type,
    400 for a request that gives the query twice or cannot be decoded.
    """
    fields = list(params)
    kind = (content_type or "").split(";", 1)[0].strip().lower()
    body_query: str | None = None
    if method == "POST":
        if kind == "application/sparql-update":
            raise _update_refused()
        if kind == "application/x-www-form-urlencoded":
            try:
                fields += parse_qsl(_text(body), keep_blank_values=True, max_num_fields=MAX_FORM_FIELDS)
            except ValueError as exc:  # more fields than allowed
                raise ProtocolError(
                    400, "invalid_sparql_request", f"the form has more than {MAX_FORM_FIELDS} fields"
                ) from exc
        elif kind == "application/sparql-query":
            body_query = _text(body)
        elif body.strip() or kind:
            raise ProtocolError(
                415,
                "unsupported_media_type",
                f"a POST to the SPARQL endpoint is application/x-www-form-urlencoded (query=...) or "
                f"application/sparql-query, not {kind or 'a body without a Content-Type'}",
            )
    elif method != "GET":
        raise ProtocolError(405, "method_not_allowed", "the SPARQL endpoint answers GET and POST")
    names = [name for name, _ in fields]
    if "update" in names or "using-graph-uri" in names or "using-named-graph-uri" in names:
        raise _update_refused()
    queries = [value for name, value in fields if name == "query"]
    if body_query is not None:
        queries.append(body_query)
    if len(queries) > 1:
        raise ProtocolError(400, "invalid_sparql_request", "give the query once (one query parameter or one body)")
    return SparqlRequest(
        query=queries[0] if queries else None,
        default_graphs=tuple(v for n, v in fields if n == "default-graph-uri"),
        named_graphs=tuple(v for n, v in fields if n == "named-graph-uri"),
    )


def _text(body: bytes) -> str:
    try:
        return body.decode("utf-8")
    except UnicodeDecodeError as exc:
        raise ProtocolError(400, "invalid_sparql_request", "the request body is not UTF-8 text") from exc


def _update_refused() -> ProtocolError:
    return ProtocolError(
        403,
        "update_refused",
        "this SPARQL endpoint is read-only: updates (INSERT, DELETE, LOAD, "
        "CLEAR, ...) are refused; only SELECT and ASK queries are run",
    )


def check_dataset(request: SparqlRequest) -> None:
    """Refuse a request whose ``default-graph-uri`` / ``named-graph-uri`` names a graph this endpoint does not
    serve (400 ``dataset_refused``). The served graph is called :data:`GRAPH_NAME`; naming it changes nothing."""
    others = sorted({g for g in (*request.default_graphs, *request.named_graphs) if g != GRAPH_NAME})
    if others:
        raise ProtocolError(
            400,
            "dataset_refused",
            f"this endpoint serves one graph, <{GRAPH_NAME}>; <{others[0][:200]}> is not served here",
        )


def _preferred(accept: str, choose: Callable[[str], T | None]) -> T | None:
    """What ``choose`` makes of the media range of ``accept`` with the highest ``q`` among those it accepts (the
    earliest on a tie), or ``None``. A ``q`` that is not a number counts as 0 (not acceptable)."""
    best: tuple[float, T] | None = None
    for item in accept.split(","):
        media, *options = (part.strip() for part in item.split(";"))
        q = 1.0
        for option in options:
            key, _, value = option.partition("=")
            if key.strip().lower() == "q":
                try:
                    q = float(value)
                except ValueError:
                    q = 0.0
        chosen = choose(media.lower())
        if chosen is not None and q > 0 and (best is None or q > best[0]):
            best = (q, chosen)
    return best[1] if best is not None else None


def negotiate(accept: str | None, form: Form) -> Format:
    """The result format for an ``Accept`` header: the acceptable one with the highest ``q`` (the earliest on a
    tie); SPARQL JSON when the header is missing or accepts anything. Raises 406 ``not_acceptable``."""
    offered = _FORMATS_OF[form]
    if accept is None or not accept.strip():
        return "json"

    def choose(media: str) -> Format | None:
        if media in ("*/*", "application/*"):
            return "json"
        found = ("csv" if "csv" in offered else None) if media == "text/*" else _ACCEPTED.get(media)
        return found if found in offered else None

    best: Format | None = _preferred(accept, choose)
    if best is None:
        names = ", ".join(MEDIA_TYPES[f].split(";")[0] for f in offered)
        raise ProtocolError(
            406, "not_acceptable", f"{form} results can be sent as {names}; the Accept header allows none of them"
        )
    return best


def negotiate_graph(accept: str | None) -> GraphFormat:
    """The graph format for an ``Accept`` header (highest ``q``, earliest on a tie); Turtle when the header is
    missing or accepts anything. Raises 406 ``not_acceptable``."""
    if accept is None or not accept.strip():
        return "turtle"
    best: GraphFormat | None = _preferred(
        accept, lambda media: "turtle" if media in ("*/*", "text/*", "application/*") else _GRAPH_ACCEPTED.get(media)
    )
    if best is None:
        raise ProtocolError(
            406,
            "not_acceptable",
            "graph results can be sent as text/turtle, application/n-triples "
            "or application/rdf+xml; the Accept header allows none of them",
        )
    return best


def run_graph(kg: KnowledgeGraph, text: str) -> Graph:
    """A CONSTRUCT or DESCRIBE through :meth:`KnowledgeGraph.query` (checked, timed and capped as there: it runs
    as a SELECT and the graph is filled in here). Raises :class:`ProtocolError`."""
    try:
        result = kg.query(text)
    except QueryError as exc:
        raise _refusal(exc) from exc
    except StoreError as exc:
        raise ProtocolError(503, "store_unavailable", str(exc)) from exc
    if not isinstance(result, Graph):  # the inspector said CONSTRUCT/DESCRIBE; kg.query agrees or this is a bug
        raise ProtocolError(400, "query_refused", "expected a CONSTRUCT or DESCRIBE query")
    return result


def serialize_graph(graph: Graph, fmt: GraphFormat) -> bytes:
    """The graph as Turtle (with the project's prefixes), N-Triples or RDF/XML."""
    out = graph.serialize(format=fmt, encoding="utf-8")
    return out if isinstance(out, bytes) else b""


def choose_graph(
    graphs: Sequence[KnowledgeGraph], domains: Sequence[str], holds: Mapping[str, KnowledgeGraph]
) -> KnowledgeGraph:
    """The graph ``/sparql`` answers over: the first of ``graphs`` that holds every loaded domain. When the
    domains are spread over several graphs there is none (a query cannot join across stores): 404, naming
    ``/sparql/{domain}``."""
    for kg in graphs:
        if all(holds.get(d) is kg for d in domains):
            return kg
    if not graphs:
        raise ProtocolError(404, "not_found", "no dataset is loaded")
    raise ProtocolError(
        404,
        "not_found",
        f"the loaded domains are held by {len(graphs)} separate graphs; ask one "
        f"of them at /sparql/{{domain}} ({', '.join(domains)})",
    )


def inspect(kg: KnowledgeGraph, text: str) -> InspectedQuery:
    """Check ``text`` as :meth:`KnowledgeGraph.select` does, within the graph's time limit
    (``limits.query_timeout_s``). Raises :class:`ProtocolError` with the reason."""
    try:
        return inspect_query(text, timeout=kg.limits.query_timeout_s)
    except QueryError as exc:
        raise _refusal(exc) from exc


def run(kg: KnowledgeGraph, checked: InspectedQuery) -> QueryOutcome:
    """Run an inspected query on ``kg`` with the graph's time limit and row cap (``limits.query_timeout_s``,
    ``limits.max_result_rows``), as :meth:`KnowledgeGraph.select` does. Raises :class:`ProtocolError`."""
    try:
        with QueryRunner(kg.store, timeout=kg.limits.query_timeout_s, max_rows=kg.limits.max_result_rows) as runner:
            return runner.run(checked)
    except QueryError as exc:
        raise _refusal(exc) from exc
    except StoreError as exc:
        raise ProtocolError(503, "store_unavailable", str(exc)) from exc


def _refusal(exc: QueryError) -> ProtocolError:
    reason = str(exc)
    if isinstance(exc, QueryTimeout):
        return ProtocolError(503, "query_timeout", reason)
    if isinstance(exc, QueryRefused):
        if reason.startswith(_UPDATE_REFUSAL):
            return _update_refused()
        if reason.startswith(_UNSUPPORTED_FORMS):
            form = reason.split()[1]
            return ProtocolError(
                400, "not_supported", f"{form} queries are not supported yet: only SELECT and ASK are run here"
            )
        return ProtocolError(400, "query_refused", reason)
    if isinstance(exc, StoreError):  # a remote store's error is both
        return ProtocolError(503, "store_unavailable", reason)
    return ProtocolError(400, "query_failed", reason)


def variables(outcome: QueryOutcome) -> list[str]:
    """The variables of a SELECT's rows, in order of first appearance. An empty result has none: the runner
    reports no projection when no row came back."""
    seen: dict[str, None] = {}
    for row in outcome.rows:
        for name in row:
            seen.setdefault(name, None)
    return list(seen)


def serialize(outcome: QueryOutcome, fmt: Format) -> bytes:
    """The outcome in a SPARQL result format: rdflib's serializers for JSON, XML and CSV; TSV is written here
    (rdflib 7.6 parses TSV results but has no serializer for them)."""
    names = variables(outcome)
    if fmt == "tsv":
        return _tsv(names, outcome.rows)
    result = Result(outcome.form)
    if outcome.form == "ASK":
        result.askAnswer = bool(outcome.boolean)
    else:
        result.vars = [Variable(n) for n in names]
        # a bound value is a URIRef, BNode or Literal (an Identifier); an unbound one is None, left out
        result.bindings = [
            {Variable(k): v for k, v in row.items() if isinstance(v, Identifier)} for row in outcome.rows
        ]
    out = result.serialize(format=fmt, encoding="utf-8")
    return out if isinstance(out, bytes) else b""


def _tsv(names: list[str], rows: list[dict[str, Node | None]]) -> bytes:
    lines = ["\t".join(f"?{n}" for n in names)]
    lines += ["\t".join(_tsv_term(row.get(n)) for n in names) for row in rows]
    return ("\n".join(lines) + "\n").encode("utf-8")


_TSV_ESCAPES = str.maketrans({"\\": "\\\\", '"': '\\"', "\n": "\\n", "\r": "\\r", "\t": "\\t"})


def _tsv_term(term: Node | None) -> str:
    """One term as the TSV format writes it (Turtle syntax, on one line)."""
    if term is None:
        return ""
    if isinstance(term, URIRef):
        return f"<{term}>"
    if isinstance(term, BNode):
        return f"_:{term}"
    if isinstance(term, RDFLiteral):
        text = f'"{str(term).translate(_TSV_ESCAPES)}"'
        if term.language:
            return f"{text}@{term.language}"
        if term.datatype is not None and term.datatype != XSD.string:
            return f"{text}^^<{term.datatype}>"
        return text
    return str(term)


def service_description(endpoint: str, triples: int | None) -> bytes:
    """A SPARQL 1.1 Service Description of the endpoint at ``endpoint``, as Turtle: its URL, the language
    (SPARQL 1.1 Query only) and the result formats; with ``triples``, the size of its default graph."""
    g = Graph()
    g.bind("sd", SD)
    g.bind("format", FORMATS)
    g.bind("void", VOID)
    service, dataset, graph = BNode(), BNode(), BNode()
    g.add((service, RDF.type, SD.Service))
    g.add((service, SD.endpoint, URIRef(endpoint)))
    g.add((service, SD.supportedLanguage, SD.SPARQL11Query))
    for name in _FORMAT_IRIS:
        g.add((service, SD.resultFormat, FORMATS[name]))
    g.add((service, SD.defaultDataset, dataset))
    g.add((dataset, RDF.type, SD.Dataset))
    g.add((dataset, SD.defaultGraph, graph))
    g.add((graph, RDF.type, SD.Graph))
    if triples is not None:
        g.add((graph, VOID.triples, RDFLiteral(triples)))
    return g.serialize(format="turtle", encoding="utf-8")


__all__ = [
    "GRAPH_MEDIA_TYPES",
    "GRAPH_NAME",
    "MEDIA_TYPES",
    "ProtocolError",
    "SparqlRequest",
    "check_dataset",
    "choose_graph",
    "inspect",
    "negotiate",
    "negotiate_graph",
    "read_request",
    "run",
    "run_graph",
    "serialize",
    "serialize_graph",
    "service_description",
    "variables",
]
