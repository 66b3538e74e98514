"""The HTTP service: a thin FastAPI face over the library, and the admin page.

Routes (see docs/http-api.md): ``POST /api/v1/ask``, ``POST /api/v1/ask/trace``, ``POST /api/v1/verify``,
``GET /api/v1/nodes/{domain}/{id}``, ``GET /api/v1/domains``, ``POST /api/v1/extract/text``,
``POST /api/v1/extract/url``, the read-only SPARQL endpoint ``GET/POST /sparql`` (and ``/sparql/{domain}``),
``GET /health``, ``GET /openapi.json``, the route list at ``/docs`` and the admin page at ``/``. Every error is a JSON body
``{"error", "message", "details"?}``; a request the service cannot use gets a 4xx, never a 500.
"""

from __future__ import annotations

import asyncio
import logging
from collections.abc import AsyncIterator, Awaitable, Callable, Mapping, Sequence
from contextlib import asynccontextmanager
from importlib import resources
from pathlib import Path
from typing import Annotated, Any

from fastapi import Body, FastAPI, Query, Request
from fastapi.exceptions import RequestValidationError
from fastapi.responses import FileResponse, JSONResponse, Response
from fastapi.staticfiles import StaticFiles
from starlette.exceptions import HTTPException as StarletteHTTPException
from starlette.types import ASGIApp, Message, Receive, Scope, Send

from ont_platform.errors import (
    InputError,
    MissingDependency,
    OntError,
    QueryError,
    StoreError,
    ValidationFailed,
)
from ont_platform.kg import KnowledgeGraph
from ont_platform.redaction import SecretScrubber
from ont_platform.service import sparql_endpoint as sparql
from ont_platform.service.extract import (
    Document,
    Extractor,
    LexiconExtractor,
    LLMExtractor,
    guarded,
    read_html,
    read_text,
)
from ont_platform.service.fetch import AddressPolicy, Fetcher, FetchFailed, URLRefused
from ont_platform.service.graphs import Graphs, GraphSet, NotFound
from ont_platform.service.models import (
    AnswerBody,
    AskRequest,
    DomainInfo,
    ErrorBody,
    ExtractionBody,
    ExtractTextRequest,
    ExtractUrlRequest,
    NodeBody,
    TraceBody,
    VerifyBody,
    VerifyRequest,
)
from ont_platform.service.settings import ServiceSettings
from ont_platform.service.writes import WriteGate

log = logging.getLogger("ont_platform.service")

STATIC = Path(str(resources.files("ont_platform.service").joinpath("static")))
SECURITY_HEADERS = {
    "Content-Security-Policy": (
        "default-src 'none'; script-src 'self'; style-src 'self'; img-src 'self' data:; "
        "connect-src 'self'; base-uri 'none'; form-action 'self'; frame-ancestors 'none'"
    ),
    "X-Content-Type-Options": "nosniff",
    "Referrer-Policy": "no-referrer",
    "X-Frame-Options": "DENY",
}
ERRORS: dict[int | str, dict[str, Any]] = {
    code: {"model": ErrorBody, "description": why}
    for code, why in (
        (404, "unknown domain or node"),
        (413, "request body too large"),
        (422, "invalid request body or unusable input"),
        (503, "the store failed, an optional package is missing, or the service is busy (Retry-After)"),
    )
}
LLM_ERRORS: dict[int | str, dict[str, Any]] = {
    **ERRORS,
    502: {"model": ErrorBody, "description": "the LLM endpoint did not give a usable answer"},
    504: {"model": ErrorBody, "description": "the LLM endpoint was too slow"},
}
FETCH_ERRORS: dict[int | str, dict[str, Any]] = {
    **LLM_ERRORS,
    400: {
        "model": ErrorBody,
        "description": "URL refused (scheme, credentials, or a non-public address) or its host does not resolve",
    },
    502: {"model": ErrorBody, "description": "the site (or the LLM endpoint) did not give a usable answer"},
    504: {"model": ErrorBody, "description": "the site (or the LLM endpoint) was too slow"},
}


SPARQL_ERRORS: dict[int | str, dict[str, Any]] = {
    code: {"model": ErrorBody, "description": why}
    for code, why in (
        (
            400,
            "the query was refused (query_refused, with the reason), failed, is not supported yet (CONSTRUCT, "
            "DESCRIBE), names another graph, or the request gives no query",
        ),
        (403, "an update: the endpoint is read-only"),
        (404, "the domain is not loaded, or the domains are held by separate graphs (ask /sparql/{domain})"),
        (406, "no result format the Accept header allows"),
        (413, "request body too large"),
        (415, "a POST body that is neither a form nor application/sparql-query"),
        (503, "the query ran out of time (query_timeout), the store failed, or the service is busy"),
    )
}
SPARQL_RESULTS = {
    "content": {
        media.split(";")[0]: {} for media in (*sparql.MEDIA_TYPES.values(), *sparql.GRAPH_MEDIA_TYPES.values())
    },
    "description": "the results (SELECT, ASK), the graph (CONSTRUCT, DESCRIBE), or the service description (no query)",
}
SPARQL_OPENAPI: dict[str, Any] = {
    "parameters": [
        {
            "name": "query",
            "in": "query",
            "required": False,
            "schema": {"type": "string"},
            "description": "a SELECT, ASK, CONSTRUCT or DESCRIBE query; without one, GET answers the service "
            "description (Turtle)",
        },
        {
            "name": "default-graph-uri",
            "in": "query",
            "required": False,
            "schema": {"type": "string"},
            "description": f"may only name the served graph, <{sparql.GRAPH_NAME}>",
        },
    ],
    "requestBody": {
        "required": False,
        "content": {
            "application/x-www-form-urlencoded": {
                "schema": {"type": "object", "properties": {"query": {"type": "string"}}}
            },
            "application/sparql-query": {"schema": {"type": "string"}},
        },
    },
}


def _configured_secrets(settings: ServiceSettings, graph_set: GraphSet) -> list[str]:
    """Every secret the service was configured with: the LLM API key and each remote store's credentials."""
    found = [settings.llm.api_key] if settings.llm is not None and settings.llm.api_key else []
    for kg in graph_set.graphs:
        found.extend(kg.store.redacted)  # a remote store's header values and URL credentials
    return found


def error(status: int, code: str, message: str, details: list[dict[str, Any]] | None = None) -> JSONResponse:
    body: dict[str, Any] = {"error": code, "message": message}
    if details is not None:
        body["details"] = details
    return JSONResponse(body, status_code=status)


def status_of(exc: OntError) -> tuple[int, str]:
    """The HTTP status and error code of a library error."""
    if isinstance(exc, NotFound):
        return 404, "not_found"
    if isinstance(exc, URLRefused):
        return 400, "url_refused"
    if isinstance(exc, FetchFailed):
        if exc.code == "unresolvable":
            return 400, "url_unresolvable"
        return (504, "fetch_timeout") if exc.code == "timeout" else (502, f"fetch_{exc.code}")
    if isinstance(exc, ValidationFailed):
        return 422, "validation_failed"
    if isinstance(exc, InputError):
        return 422, "invalid_input"
    if isinstance(exc, QueryError):
        return 422, "query_failed"
    if isinstance(exc, MissingDependency):
        return 503, "missing_dependency"
    if isinstance(exc, StoreError):
        return 503, "store_unavailable"
    return 500, "internal"


class BodyLimit:
    """Refuse request bodies over ``max_bytes`` with 413, whether or not they declare a Content-Length.

    The body is read here (at most ``max_bytes``) before the route sees it, so an oversized body is refused
    before anything parses it.
    """

    def __init__(self, app: ASGIApp, max_bytes: int) -> None:
        self.app = app
        self.max_bytes = max_bytes

    async def __call__(self, scope: Scope, receive: Receive, send: Send) -> None:
        if scope["type"] != "http":
            await self.app(scope, receive, send)
            return
        declared = dict(scope.get("headers") or []).get(b"content-length", b"")
        if declared.isdigit() and int(declared) > self.max_bytes:
            await self._refuse(scope, receive, send)
            return
        chunks: list[bytes] = []
        size = 0
        while True:
            message = await receive()
            if message["type"] != "http.request":
                await self.app(scope, _replay([message], receive), send)
                return
            chunk = message.get("body", b"")
            size += len(chunk)
            if size > self.max_bytes:
                await self._refuse(scope, receive, send)
                return
            chunks.append(chunk)
            if not message.get("more_body", False):
                break
        body: Message = {"type": "http.request", "body": b"".join(chunks), "more_body": False}
        await self.app(scope, _replay([body], receive), send)

    async def _refuse(self, scope: Scope, receive: Receive, send: Send) -> None:
        response = error(413, "body_too_large", f"the request body is over {self.max_bytes} bytes")
        await response(scope, receive, send)


class Admission:
    """Let at most ``max_active`` API requests work at once; up to ``max_waiting`` more wait for a turn, each at
    most ``wait_s`` seconds; any other gets 503 ``busy`` with ``Retry-After`` at once.

    Requests do not serialise on each other inside the service (see :mod:`ont_platform.service.graphs`), so
    this is the one place load is shed: a flood of slow or hostile requests fills its share of turns and is
    then refused, and the requests already admitted keep their pace. The API (``/api/...``) and the SPARQL
    endpoint (``/sparql...``) are counted; the admin page, its static files, ``/health`` and the documents
    are not.
    """

    def __init__(self, app: ASGIApp, max_active: int, max_waiting: int, wait_s: float) -> None:
        self.app = app
        self.max_active = max_active
        self.max_waiting = max_waiting
        self.wait_s = wait_s
        self._turns: asyncio.Semaphore | None = None
        self._waiting = 0

    async def __call__(self, scope: Scope, receive: Receive, send: Send) -> None:
        if scope["type"] != "http" or not _counted(str(scope.get("path", ""))):
            await self.app(scope, receive, send)
            return
        if self._turns is None:
            self._turns = asyncio.Semaphore(self.max_active)
        turns = self._turns
        if turns.locked() and self._waiting >= self.max_waiting:
            await self._busy(scope, receive, send, "too many requests are waiting")
            return
        self._waiting += 1
        try:
            await asyncio.wait_for(turns.acquire(), self.wait_s)
        except TimeoutError:
            await self._busy(scope, receive, send, f"no turn came within {self.wait_s:g} s")
            return
        finally:
            self._waiting -= 1
        try:
            await self.app(scope, receive, send)
        finally:
            turns.release()

    async def _busy(self, scope: Scope, receive: Receive, send: Send, why: str) -> None:
        response = error(503, "busy", f"the service is busy ({why}); try again shortly")
        response.headers["Retry-After"] = "1"
        await response(scope, receive, send)


def _counted(path: str) -> bool:
    """Whether a request to ``path`` takes one of :class:`Admission`'s turns: the API and the SPARQL endpoint."""
    return path.startswith("/api/") or path == "/sparql" or path.startswith("/sparql/")


def _replay(messages: list[Message], receive: Receive) -> Receive:
    pending = list(messages)

    async def replay() -> Message:
        if pending:
            return pending.pop(0)
        return await receive()

    return replay


def _issues(exc: RequestValidationError) -> tuple[str, list[dict[str, Any]]]:
    details = []
    for err in exc.errors():
        loc = [str(p) for p in err.get("loc", ())]
        details.append({"loc": loc, "msg": str(err.get("msg", "")), "type": str(err.get("type", ""))})
    if any(d["type"] == "json_invalid" for d in details):
        return "the request body is not valid JSON", details
    if any(d["loc"] == ["body"] for d in details):
        return "the request body must be a JSON object (Content-Type: application/json)", details
    shown = "; ".join(
        f"{'.'.join(d['loc'][1:] if d['loc'][:1] == ['body'] else d['loc']) or 'body'}: {d['msg']}" for d in details[:5]
    )
    more = f" (and {len(details) - 5} more)" if len(details) > 5 else ""
    return f"invalid request: {shown}{more}", details


def create_app(
    graphs: Graphs | GraphSet | None = None,
    settings: ServiceSettings | None = None,
    *,
    examples: Mapping[str, Sequence[str]] | None = None,
    fetcher: Fetcher | None = None,
    llm_transport: Any = None,
) -> FastAPI:
    """The FastAPI application over ``graphs`` (default: the three bundled example datasets, in memory).

    ``examples`` are sample questions per domain for the admin page. ``fetcher`` replaces the guarded URL
    fetcher built from ``settings`` (tests give one with a fake resolver); ``llm_transport`` replaces the LLM
    extractor's network (an ``httpx`` transport).
    """
    settings = settings or ServiceSettings()
    owned = None
    if graphs is None:
        owned, examples = _bundled_examples(examples)
        graphs = owned
    graph_set = (
        graphs
        if isinstance(graphs, GraphSet)
        else GraphSet(graphs, examples=examples, verify_max_rows=settings.verify_max_rows)
    )
    fetcher = fetcher or Fetcher(AddressPolicy(settings.allow_private_urls, settings.allowed_networks), settings.fetch)
    gate = WriteGate(settings.api_token, settings.write_rate_per_min)
    lexicons: dict[str, LexiconExtractor] = {}

    redact = SecretScrubber(_configured_secrets(settings, graph_set))
    log.addFilter(redact)

    @asynccontextmanager
    async def lifespan(_: FastAPI) -> AsyncIterator[None]:
        try:
            yield
        finally:
            log.removeFilter(redact)
            graph_set.close()
            if owned is not None:
                owned.close()

    from ont_platform import __version__

    app = FastAPI(
        title="ont_platform",
        version=__version__,
        lifespan=lifespan,
        docs_url=None,
        redoc_url=None,
        description="Knowledge graphs kept true to an OWL ontology: grounded answers, verification, and "
        "guarded extraction. The admin page is at /.",
    )
    app.state.graphs = graph_set
    app.state.settings = settings
    app.state.fetcher = fetcher

    # -- errors ----------------------------------------------------------------------------------------------

    @app.exception_handler(RequestValidationError)
    async def _invalid(_: Request, exc: RequestValidationError) -> JSONResponse:
        message, details = _issues(exc)
        return error(422, "invalid_request", message, details)

    @app.exception_handler(StarletteHTTPException)
    async def _http(_: Request, exc: StarletteHTTPException) -> Response:
        code = {
            400: "invalid_body",
            401: "unauthorized",
            403: "read_only",
            404: "not_found",
            405: "method_not_allowed",
            429: "rate_limited",
        }.get(exc.status_code, "http_error")
        message = str(exc.detail)
        if exc.status_code == 400:  # raised by the framework while decoding the body, before any route runs
            message = "the request body cannot be read as JSON (not UTF-8, malformed, or nested too deeply)"
        response = error(exc.status_code, code, message)
        for name, value in (exc.headers or {}).items():
            response.headers[name] = value
        return response

    @app.exception_handler(OntError)
    async def _ont(_: Request, exc: OntError) -> JSONResponse:
        status, code = status_of(exc)
        if status >= 500:
            log.error("request failed: %s: %s", type(exc).__name__, exc, exc_info=exc)
        return error(status, code, str(exc))

    @app.exception_handler(Exception)
    async def _bug(_: Request, exc: Exception) -> JSONResponse:
        log.error("unexpected error: %s", type(exc).__name__, exc_info=exc)
        return error(500, "internal", "internal error; the server log has the details")

    @app.middleware("http")
    async def _headers(request: Request, call_next: Callable[[Request], Awaitable[Response]]) -> Response:
        response = await call_next(request)
        for name, value in SECURITY_HEADERS.items():
            response.headers.setdefault(name, value)
        return response

    # The last added runs first: a body is read (and refused when too large) before the request asks for a turn.
    app.add_middleware(
        Admission, max_active=settings.max_active, max_waiting=settings.max_waiting, wait_s=settings.wait_s
    )
    app.add_middleware(BodyLimit, max_bytes=settings.max_body_bytes)

    # -- questions -------------------------------------------------------------------------------------------

    @app.get(
        "/api/v1/domains",
        response_model=list[DomainInfo],
        tags=["questions"],
        summary="the loaded domains, their answer contracts and sample questions",
    )
    def domains() -> list[dict[str, Any]]:
        return graph_set.describe()

    @app.post(
        "/api/v1/ask",
        response_model=AnswerBody,
        response_model_by_alias=True,
        responses=ERRORS,
        tags=["questions"],
        summary="answer a question with the domain's contract: a path and its evidence, or an honest refusal",
    )
    def ask(request: AskRequest) -> JSONResponse:
        traced = graph_set.ask(request.domain, request.question, request.id)
        return JSONResponse(traced.answer.to_json())

    @app.post(
        "/api/v1/ask/trace",
        response_model=TraceBody,
        responses=ERRORS,
        tags=["questions"],
        summary="the same answer, with every SPARQL query that ran to produce it",
    )
    def ask_trace(request: AskRequest) -> JSONResponse:
        traced = graph_set.ask(request.domain, request.question, request.id)
        return JSONResponse({"answer": traced.answer.to_json(), "queries": traced.queries})

    @app.post(
        "/api/v1/verify",
        response_model=VerifyBody,
        responses=ERRORS,
        tags=["questions"],
        summary="check an answer (ours or an LLM's) against the graph: schema, citations, path, query",
    )
    def verify(request: VerifyRequest) -> dict[str, Any]:
        return graph_set.verify(request.answer, request.question).to_json()

    @app.get(
        "/api/v1/nodes/{domain}/{node_id:path}",
        response_model=NodeBody,
        responses=ERRORS,
        tags=["questions"],
        summary="what the graph says about one node: classes, label, address",
    )
    def node(domain: str, node_id: str) -> dict[str, Any]:
        if not node_id:
            raise NotFound("give a node id: /api/v1/nodes/{domain}/{id}")
        return graph_set.node(domain, node_id)

    # -- SPARQL and health ------------------------------------------------------------------------------------

    async def answer_sparql(request: Request, pick: Callable[[], KnowledgeGraph]) -> Response:
        """One SPARQL 1.1 Protocol request over the graph ``pick`` gives (see sparql_endpoint.py)."""
        try:
            body = await request.body() if request.method == "POST" else b""
            asked = sparql.read_request(
                request.method, request.headers.get("content-type"), request.query_params.multi_items(), body
            )
            sparql.check_dataset(asked)
            kg = pick()
            if asked.query is None:
                if request.method == "POST":
                    raise sparql.ProtocolError(
                        400,
                        "query_missing",
                        "give a query: the form field query=..., or an application/sparql-query body",
                    )
                endpoint = str(request.url.replace(query=""))
                return Response(sparql.service_description(endpoint, None), media_type="text/turtle; charset=utf-8")
            try:
                checked = await asyncio.to_thread(sparql.inspect, kg, asked.query)
            except sparql.ProtocolError as refused:
                if refused.code != "not_supported":
                    raise
                # CONSTRUCT or DESCRIBE: run through kg.query (checked and bounded the same way), sent as a graph
                graph_fmt = sparql.negotiate_graph(request.headers.get("accept"))
                graph = await asyncio.to_thread(sparql.run_graph, kg, asked.query)
                content = await asyncio.to_thread(sparql.serialize_graph, graph, graph_fmt)
                headers = {"Vary": "Accept"}
                if getattr(graph, "truncated", False):
                    headers["X-SPARQL-MaxRows"] = str(kg.limits.max_result_rows)
                return Response(content, media_type=sparql.GRAPH_MEDIA_TYPES[graph_fmt], headers=headers)
            fmt = sparql.negotiate(request.headers.get("accept"), checked.form)
            outcome = await asyncio.to_thread(sparql.run, kg, checked)
            content = await asyncio.to_thread(sparql.serialize, outcome, fmt)
        except sparql.ProtocolError as exc:
            return error(exc.status, exc.code, exc.message)
        headers = {"Vary": "Accept"}
        if outcome.truncated:  # Virtuoso's header: clients (this library's remote store) know rows were cut
            headers["X-SPARQL-MaxRows"] = str(kg.limits.max_result_rows)
        return Response(content, media_type=sparql.MEDIA_TYPES[fmt], headers=headers)

    def whole_graph() -> KnowledgeGraph:
        return sparql.choose_graph(
            graph_set.graphs, graph_set.domains(), {d: graph_set.graph(d) for d in graph_set.domains()}
        )

    def domain_graph(domain: str) -> Callable[[], KnowledgeGraph]:
        def pick() -> KnowledgeGraph:
            try:
                return graph_set.graph(domain)
            except NotFound as exc:
                raise sparql.ProtocolError(404, "not_found", str(exc)) from exc

        return pick

    async def sparql_all(request: Request) -> Response:
        return await answer_sparql(request, whole_graph)

    async def sparql_domain(request: Request, domain: str) -> Response:
        return await answer_sparql(request, domain_graph(domain))

    for method in ("GET", "POST"):  # one route per method: each gets its own operation in /openapi.json
        app.add_api_route(
            "/sparql",
            sparql_all,
            methods=[method],
            operation_id=f"sparql_{method.lower()}",
            tags=["sparql"],
            responses={200: SPARQL_RESULTS, **SPARQL_ERRORS},
            openapi_extra=SPARQL_OPENAPI,
            summary="SPARQL 1.1 Protocol, read-only: SELECT, ASK, CONSTRUCT and DESCRIBE over the served "
            "graph, checked and bounded like KnowledgeGraph.query; without a query, the service "
            "description",
        )
        app.add_api_route(
            "/sparql/{domain}",
            sparql_domain,
            methods=[method],
            operation_id=f"sparql_domain_{method.lower()}",
            tags=["sparql"],
            responses={200: SPARQL_RESULTS, **SPARQL_ERRORS},
            openapi_extra=SPARQL_OPENAPI,
            summary="the same, over the graph holding one domain (for domains kept in separate graphs)",
        )

    @app.get(
        "/health",
        tags=["service"],
        responses=ERRORS,
        summary="liveness: the loaded domains and the number of triples served",
    )
    def health() -> dict[str, Any]:
        return {"status": "ok", "domains": graph_set.domains(), "triples": sum(len(kg) for kg in graph_set.graphs)}

    # -- extraction ------------------------------------------------------------------------------------------

    def pick_domain(requested: str | None) -> str:
        if requested is not None:
            return requested
        loaded = graph_set.domains()
        grounded = [d for d in loaded if graph_set.graph(d).domain(d).has_chunks]
        if grounded:  # text is read into entities and relations grounded in it; the first such domain, by name
            return grounded[0]
        if loaded:
            return loaded[0]
        raise NotFound("no dataset is loaded; name a domain")

    def pick_extractor(requested: str | None, domain: str) -> Extractor:
        wanted = requested or ("llm" if settings.llm is not None else "lexicon")
        if wanted == "llm":
            if settings.llm is None:
                raise InputError(
                    "no LLM endpoint is configured (set ONT_LLM_BASE_URL and ONT_LLM_MODEL); use the lexicon extractor"
                )
            return LLMExtractor(settings.llm, graph_set.graph(domain).domain(domain).ontology, transport=llm_transport)
        context = graph_set.context(domain)
        known = lexicons.get(domain)
        if known is None or known.ctx is not context:  # first use, or the graph was written since
            known = lexicons[domain] = LexiconExtractor(context, time_limit_s=settings.extract_time_s)
        return known

    async def extract(doc: Document, domain: str | None, extractor_name: str | None) -> dict[str, Any]:
        chosen = pick_domain(domain)
        extractor = await asyncio.to_thread(pick_extractor, extractor_name, chosen)
        attempt = await asyncio.to_thread(extractor.extract, doc)
        max_reasks = settings.llm.max_reasks if settings.llm is not None else 0
        return await guarded(
            doc, attempt, domain=chosen, extractor=extractor.name, validator=settings.validator, max_reasks=max_reasks
        )

    @app.post(
        "/api/v1/extract/text",
        response_model=ExtractionBody,
        responses=LLM_ERRORS,
        tags=["extraction"],
        summary="entities and relations in a text, checked by the ontology guard",
    )
    async def extract_text(request: ExtractTextRequest) -> dict[str, Any]:
        doc = read_text(request.text, request.url, max_chars=settings.max_text_chars)
        return await extract(doc, request.domain, request.extractor)

    async def write(client: str, payload: Any, domain: str | None, kind: str) -> tuple[dict[str, Any], int]:
        """Guard, resolve and write one extraction into its domain's graph for a ``client`` the gate let
        through, and record the write: the ingest report, and 200 (written) or 422 (refused whole)."""
        chosen = pick_domain(domain)
        kg = graph_set.graph(chosen)
        report = await asyncio.to_thread(kg.ingest, payload, domain=chosen)
        body = report.as_dict()
        body["write"] = await asyncio.to_thread(gate.record, kg.store, chosen, client, kind, body)
        return body, 200 if report.accepted else 422

    @app.post(
        "/api/v1/ingest",
        responses=ERRORS,
        tags=["writes"],
        summary="write an extraction (entities and relations) into the graph: guarded, resolved against "
        "the stored nodes, all or nothing; needs the API token",
    )
    async def ingest(
        request: Request,
        payload: Annotated[dict[str, Any], Body()],
        domain: Annotated[str | None, Query(max_length=40)] = None,
    ) -> JSONResponse:
        body, status = await write(gate.admit(request), payload, domain, "ingest")
        return JSONResponse(body, status_code=status)

    @app.get("/api/v1/writes", tags=["writes"], summary="the reports of the last writes, newest last")
    def writes() -> dict[str, Any]:
        return {"writable": gate.writable, "writes": list(gate.recent)}

    @app.post(
        "/api/v1/extract/url",
        response_model=ExtractionBody,
        responses=FETCH_ERRORS,
        tags=["extraction"],
        summary="fetch a page (public addresses only, bounded in size and time), read its main text with "
        "trafilatura, and extract from it",
    )
    async def extract_url(
        raw: Request,
        request: Annotated[ExtractUrlRequest | None, Body()] = None,
        url: Annotated[
            str | None,
            Query(max_length=2048, description="the page, as in seed 001's POST /api/v1/extract/url?url=..."),
        ] = None,
        ingest: Annotated[bool, Query(description="also write what was extracted (needs the API token)")] = False,
    ) -> Any:
        if request is not None and url is not None and request.url != url:
            raise InputError("give the URL once: in the body or in the query, not both")
        target = request.url if request is not None else url
        if target is None:
            raise InputError('give the page as {"url": "https://..."} (or ?url=...)')
        client = gate.admit(raw) if ingest else None  # before any fetch: no token, no work
        page = await asyncio.to_thread(fetcher.fetch, target)
        doc = await asyncio.to_thread(read_html, page.text(), page.final_url, max_chars=settings.max_text_chars)
        if page.redirects:
            doc.warn(
                "redirected", f"the page was fetched from {page.final_url} after {len(page.redirects)} redirect(s)"
            )
        body = await extract(doc, request.domain if request else None, request.extractor if request else None)
        body["url"] = page.url
        if client is None:
            return body
        payload = {"entities": body["entities"], "relations": body["relations"], "source_url": page.url}
        report, status = await write(client, payload, body["domain"], "extract_url")
        return JSONResponse({"extraction": body, "ingest": report}, status_code=status)

    # -- the admin page --------------------------------------------------------------------------------------

    @app.get("/", include_in_schema=False)
    def index() -> FileResponse:
        return FileResponse(STATIC / "index.html", media_type="text/html; charset=utf-8")

    @app.get("/docs", include_in_schema=False)
    def docs() -> FileResponse:  # the routes of /openapi.json, drawn by /static/docs.js: nothing from elsewhere
        return FileResponse(STATIC / "docs.html", media_type="text/html; charset=utf-8")

    app.mount("/static", StaticFiles(directory=STATIC), name="static")
    return app


def _bundled_examples(examples: Mapping[str, Sequence[str]] | None) -> tuple[Any, Mapping[str, Sequence[str]]]:
    """The three bundled example datasets in one in-memory graph, and their sample questions."""
    from ont_platform.demo import DEMO_DATASETS, demo_questions
    from ont_platform.kg import KnowledgeGraph
    from ont_platform.resources import example_dataset

    kg = KnowledgeGraph.open()
    found: dict[str, list[str]] = {}
    for name in DEMO_DATASETS:
        report = kg.load(example_dataset(name))
        found[report.domain] = [q["question"] for q in demo_questions(name)]
    return kg, examples if examples is not None else found


__all__ = ["SECURITY_HEADERS", "Admission", "create_app", "status_of"]
