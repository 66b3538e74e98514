"""Hostile input against every entry point: ``ask``, ``ont pages``, the CSV loader, ``import_rdf``, the
verifier and the HTTP API. Each input gets a contract answer or a clear refusal of the project's own error
types, the store is byte-for-byte unchanged, only the library's own read queries run, and each input costs
bounded work. The inputs are in :mod:`tests.hostile.corpus`.

Bounded work is counted, never timed (docs/architecture.md: no test depends on timing; a stopwatch here once
failed at 3.06 s and 8.70 s against 2 s on a loaded machine). Each entry point is held to the protections that
bound its cost, observed with :mod:`tests.hostile.meters`:

* ``ask``: a question over ``Limits.max_question_chars`` is refused by that limit before anything is read; every
  query a question runs goes to the store with the library's own deadline (``Limits.query_timeout_s``, at which
  the query worker is killed) and a ``LIMIT``; a question makes a bounded number of store reads and executes a
  bounded number of Python steps.
* the CSV loader: no dataset file is read more than :data:`READ_PASSES` times over, and a cell over
  ``Limits.max_cell_chars`` is refused at its line by that limit.
* ``import_rdf``: a document declaring a DTD reaches no parser; no document is parsed twice by one parser;
  N-Triples and Turtle go to pyoxigraph's linear parser only; a document pyoxigraph refuses builds no terms.
* ``verify_answer``: an answer or question over its size limit is refused before anything is read or run; a
  caller's query is parsed only in the worker the library kills at its deadline and runs under that deadline
  and a row cap; the checks' Python work grows with the answer's entries, not faster.
"""

from __future__ import annotations

import csv
import io
import json
import re
import shutil
import socket
from collections.abc import Iterator
from pathlib import Path
from typing import Any

import pytest
from fastapi.testclient import TestClient
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st
from rdflib import Graph, Literal

from ont_platform import DatasetError, InputError, KnowledgeGraph, RDFSyntaxError
from ont_platform.answer.contracts import (
    HopDecision,
    OnchainAnswer,
    PageFilterResult,
    schema_errors,
)
from ont_platform.cli.main import main
from ont_platform.domains import get_domain
from ont_platform.service.app import create_app
from ont_platform.sparql.inspect import MAX_QUERY_CHARS, shape
from ont_platform.verify import VerifyReport, inspect_query, verify_answer
from tests.hostile.corpus import (
    ANSWERS,
    BODIES,
    CELLS,
    CSV_FILES,
    QUESTIONS,
    RDF_FILES,
    AnswerCase,
    BodyCase,
    Raw,
    Text,
)
from tests.hostile.meters import (
    READ_PASSES,
    STEPS_PER_DOCUMENT,
    STEPS_PER_QUESTION,
    Deadlines,
    FileBytes,
    Parses,
    Reads,
    Steps,
    answer_budget,
    extent,
)

EXAMPLES = Path(__file__).resolve().parents[2] / "examples"
DOMAINS = ("onchain", "kg", "pages")
CONTRACT_TYPE = {"onchain": OnchainAnswer, "kg": HopDecision, "pages": PageFilterResult}
WRITE_WORDS = re.compile(r"\b(SERVICE|LOAD|DROP|INSERT|DELETE|CLEAR|CREATE|COPY|MOVE|ADD|FROM|GRAPH)\b", re.IGNORECASE)


def params(cases: list[Text], where: str) -> list[Any]:
    """One pytest param per case, marked xfail(strict) where the corpus records a known defect."""
    out = []
    for c in cases:
        reason = c.bug(where)
        marks = [pytest.mark.xfail(strict=True, reason=reason)] if reason else []
        out.append(pytest.param(c, id=c.id, marks=marks))
    return out


def raw_params(cases: list[Any]) -> list[Any]:
    return [
        pytest.param(c, id=c.id, marks=[pytest.mark.xfail(strict=True, reason=c.bug)] if c.bug else []) for c in cases
    ]


# -- fixtures ---------------------------------------------------------------------------------------------------


@pytest.fixture(scope="module")
def graphs() -> Iterator[dict[str, KnowledgeGraph]]:
    opened = {}
    for d in DOMAINS:
        kg = KnowledgeGraph.open()
        kg.load(EXAMPLES / d)
        kg.ask("노출 페이지" if d == "pages" else "n_a1", domain=d)  # build the context (and the tokenizer) once
        opened[d] = kg
    yield opened
    for kg in opened.values():
        kg.close()


@pytest.fixture
def no_network(monkeypatch: pytest.MonkeyPatch) -> list[object]:
    """Record (and refuse) every name lookup and connection, loopback included."""
    attempts: list[object] = []

    def lookup(*args: object, **kwargs: object) -> Any:
        attempts.append(("getaddrinfo", args[:2]))
        raise OSError("name lookups are refused in this test")

    def connect(self: socket.socket, address: object) -> None:
        attempts.append(("connect", address))
        raise OSError("connections are refused in this test")

    monkeypatch.setattr(socket, "getaddrinfo", lookup)
    monkeypatch.setattr(socket.socket, "connect", connect)
    return attempts


# -- checks -----------------------------------------------------------------------------------------------------


def check_queries(queries: list[str], case: Text) -> None:
    """Every executed query is one of ours: a bounded read that parses, with no hostile fragment in it, and a
    SELECT caps its rows with a LIMIT."""
    for q in queries:
        checked = inspect_query(q)  # raises QueryRefused for anything but a bounded SELECT/ASK read
        assert checked.form in ("SELECT", "ASK")
        assert checked.form == "ASK" or shape(q).trailing_limit is not None, f"no LIMIT on the rows read:\n{q}"
        assert not WRITE_WORDS.search(q.replace("ORDER BY", "")), q
        for marker in case.markers:
            assert marker not in q, f"hostile fragment {marker!r} reached SPARQL:\n{q}"


def check_answer(result: object, domain: str, case: Text) -> None:
    assert isinstance(result, CONTRACT_TYPE[domain]), type(result)
    doc = result.to_json()  # type: ignore[attr-defined]
    assert schema_errors(doc, get_domain(domain).contract) == []
    if domain == "pages" and doc["status"] == "ran":
        # every value of a filter that ran must come from the question's own words, not from markup or code
        for value in re.findall(r"[0-9][0-9.\-]*", doc["parsed_filter"] or ""):
            for m in re.finditer(re.escape(value), case.text):
                before = case.text[max(0, m.start() - 1) : m.start()]
                assert before not in ("(", "[", "{", "<", "="), f"{doc['parsed_filter']!r} read from code in the text"
    if domain == "onchain":
        for marker in case.markers:
            assert marker not in doc["generated_query"]


# -- (a) ask ----------------------------------------------------------------------------------------------------


def _ask_params() -> list[Any]:
    out = []
    for domain in DOMAINS:
        for p in params(QUESTIONS, f"ask:{domain}"):
            out.append(pytest.param(domain, *p.values, id=f"{domain}-{p.id}", marks=p.marks))
    return out


def traced(kg: KnowledgeGraph, text: str, domain: str) -> tuple[object, list[str], InputError | None]:
    """``kg.trace`` of one question, held to the bounds on a question's work: (answer or None, the queries it
    ran, the InputError that refused it or None)."""
    limits = kg.limits
    result: object = None
    queries: list[str] = []
    refused: InputError | None = None
    with Reads(kg.store) as reads, Steps(STEPS_PER_QUESTION) as steps:
        try:
            result, queries = kg.trace(text, domain=domain)
        except InputError as exc:
            refused = exc
    if len(text) > limits.max_question_chars:
        # refused by the length limit before the text was read: nothing was asked of the store
        assert refused is not None and f"over the limit of {limits.max_question_chars}" in str(refused), refused
        assert reads.reads == [], reads.reads
    # every query the answer ran went to the store with the library's deadline: the worker running it is killed
    # there, so a query costs at most that whatever the text made of it
    deadline = {r.query: r.timeout for r in reads.reads if r.method in ("select", "ask")}
    for q in queries:
        assert deadline.get(q) == limits.query_timeout_s, f"ran with time limit {deadline.get(q)}:\n{q}"
    # a walk reads at most two lists per hop level (the edges, then the classes reached); the rest of a question
    # takes about a dozen reads (its names, their classes, the path query, labels). The corpus needs at most 8.
    most_reads = 2 * limits.max_hops + 12
    assert len(reads.reads) <= most_reads, [r.query[-200:] for r in reads.reads]
    assert steps.count <= STEPS_PER_QUESTION, f"{steps.count} Python steps for one question of {len(text)} characters"
    return result, queries, refused


@pytest.mark.parametrize(("domain", "case"), _ask_params())
def test_ask_hostile(graphs: dict[str, KnowledgeGraph], domain: str, case: Text) -> None:
    kg = graphs[domain]
    before = kg.dumps("nt")
    result, queries, _ = traced(kg, case.text, domain)
    if result is not None:
        check_answer(result, domain, case)
    check_queries(queries, case)
    assert kg.dumps("nt") == before


# -- (b) ont pages ------------------------------------------------------------------------------------------------


def _run_cli(argv: list[str], capsys: pytest.CaptureFixture[str]) -> int:
    try:
        code = main(argv)
    except SystemExit as exc:  # argparse refusing an argument
        code = int(exc.code or 0)
    out, err = capsys.readouterr()
    assert "Traceback" not in out + err
    return code


PAGES_PATHS = [
    "../../etc/passwd",
    "%2e%2e/%2e%2e/etc/passwd",
    "/etc/passwd",
    "/etc",
    "/",
    "/dev/null",
    "/proc/self/environ",
    "examples/pages\x00.csv",
    "\x00",
    "..",
    "~/pages.csv",
    "nonexistent/../x.csv",
    "/etc/passwd\x00.csv",
    "C:\\Windows\\win.ini",
    "file:///etc/passwd",
    "-",
    "--json",
    "a" * 5000,
]


PAGES_PATH_PARAMS = [pytest.param(p, id=str(i)) for i, p in enumerate(PAGES_PATHS)]


@pytest.mark.parametrize("inventory", PAGES_PATH_PARAMS)
def test_ont_pages_hostile_inventory_paths(inventory: str, capsys: pytest.CaptureFixture[str]) -> None:
    code = _run_cli(["pages", "노출 100 이상 페이지", "--inventory", inventory], capsys)
    assert code == 2  # none of these is a page inventory: refused as unusable input, nothing read as one


_CLI_CHOSEN = [
    c
    for c in QUESTIONS
    if c.id.startswith(("inj-pages", "xss", "path", "ctl", "bidi", "zw", "num", "long-1001", "long-100k", "lone"))
]


@pytest.mark.parametrize("case", params(_CLI_CHOSEN, "pages-cli"))
def test_ont_pages_hostile_questions(case: Text, capsys: pytest.CaptureFixture[str]) -> None:
    try:
        code = main(["pages", case.text, "--inventory", str(EXAMPLES / "pages"), "--json"])
    except SystemExit as exc:
        code = int(exc.code or 0)
    out, err = capsys.readouterr()
    assert "Traceback" not in out + err
    assert code in (0, 1, 2)
    if code == 0:
        check_answer(PageFilterResult.model_validate(json.loads(out)), "pages", case)


@pytest.mark.parametrize("raw", [r for r in CSV_FILES if r.suffix == "pages.csv"], ids=lambda r: r.id)
def test_ont_pages_hostile_lone_csv(raw: Raw, tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    path = tmp_path / "inventory.csv"
    path.write_bytes(raw.data)
    assert _run_cli(["pages", "노출 1 이상 페이지", "--inventory", str(path)], capsys) in (0, 1, 2)


# -- (c) the CSV loader -------------------------------------------------------------------------------------------


def _rewrite_cell(csv_path: Path, column: str, value: str) -> int:
    """Put ``value`` into ``column`` of the first data row; returns that row's line number (header is 1)."""
    with csv_path.open(encoding="utf-8", newline="") as fh:
        rows = list(csv.DictReader(fh))
        fieldnames = list(rows[0].keys())
    rows[0][column] = value
    buf = io.StringIO(newline="")
    # every cell quoted, so a line break inside a hostile value stays inside its cell, as in any valid CSV
    writer = csv.DictWriter(buf, fieldnames=fieldnames, lineterminator="\n", quoting=csv.QUOTE_ALL)
    writer.writeheader()
    writer.writerows(rows)
    csv_path.write_text(buf.getvalue(), encoding="utf-8", newline="")
    return 2


@pytest.fixture(scope="module")
def baseline_nt() -> bytes:
    """A store that already holds the pages dataset: loads of other domains must not disturb it."""
    with KnowledgeGraph.open() as kg:
        kg.load(EXAMPLES / "pages")
        return kg.dumps("nt")


def _store_with(baseline: bytes) -> KnowledgeGraph:
    kg = KnowledgeGraph.open()
    kg.store.add_ntriples(baseline.decode("utf-8"))
    return kg


def _literals(nt: bytes) -> set[str]:
    g = Graph()
    g.parse(data=nt, format="nt")
    return {str(o) for o in g.objects() if isinstance(o, Literal)}


CELL_TARGETS = [("kg", "kg_chunks.csv", "text"), ("onchain", "onchain_nodes.csv", "label")]


def _cell_params() -> list[Any]:
    out = []
    for target in CELL_TARGETS:
        for p in params(CELLS, f"cell:{target[1]}"):
            out.append(pytest.param(*p.values, target, id=f"{p.id}-{target[1]}", marks=p.marks))
    return out


@pytest.mark.parametrize(("case", "target"), _cell_params())
def test_csv_hostile_cell(case: Text, target: tuple[str, str, str], tmp_path: Path, baseline_nt: bytes) -> None:
    domain, table, column = target
    folder = tmp_path / domain
    shutil.copytree(EXAMPLES / domain, folder)
    line = _rewrite_cell(folder / table, column, case.text)
    kg = _store_with(baseline_nt)
    before = kg.dumps("nt")
    over = len(case.text) > kg.limits.max_cell_chars
    try:
        with FileBytes() as files:
            try:
                kg.load(folder)
            except DatasetError as exc:
                assert kg.dumps("nt") == before, "a refused dataset changed the store"
                # a row problem names the file and the row's line; a file-level one (NUL bytes) the file alone
                assert any(p.file.endswith(table) and p.line in (line, None) for p in exc.problems), exc.problems
                if over:  # refused by the cell limit, at the cell's line
                    assert any(
                        p.file.endswith(table) and p.line == line and "over the limit" in p.reason for p in exc.problems
                    ), exc.problems
            else:
                assert not over, f"a cell of {len(case.text)} characters was loaded"
                # loaded: the text is kept as a literal, exactly but for the documented trim of surrounding
                # whitespace (formula text stays text)
                assert case.text.strip() in _literals(kg.dumps("nt")), "the cell was not stored as a literal"
                assert domain in kg.domains()
        check_passes(files)
    finally:
        kg.close()


def check_passes(files: FileBytes) -> None:
    """The loader read no dataset file more than READ_PASSES times over (bytes read against the file's size): its
    work is linear in the bytes it was given."""
    assert files.read, "the loader read no dataset file"
    for path, times in files.passes().items():
        assert times <= READ_PASSES, f"{path.name} ({path.stat().st_size} bytes) was read {times:.2f} times over"


def _domain_of(table: str) -> str:
    if table.startswith("onchain"):
        return "onchain"
    return "pages" if table in ("pages.csv",) else "kg"


@pytest.mark.parametrize("raw", raw_params(CSV_FILES))
def test_csv_hostile_file(raw: Raw, tmp_path: Path, baseline_nt: bytes) -> None:
    domain = "kg" if raw.suffix == "meta.json" else _domain_of(raw.suffix)
    folder = tmp_path / domain
    shutil.copytree(EXAMPLES / domain, folder)
    (folder / raw.suffix).write_bytes(raw.data)
    # pages datasets cannot join a store holding pages: use an empty store for them
    baseline = b"" if domain == "pages" else baseline_nt
    kg = _store_with(baseline) if baseline else KnowledgeGraph.open()
    before = kg.dumps("nt")
    try:
        with FileBytes() as files:
            try:
                kg.load(folder)
            except DatasetError as exc:
                assert kg.dumps("nt") == before
                assert all(p.file for p in exc.problems)
                assert any(p.file.endswith(raw.suffix) or p.line is not None for p in exc.problems), exc.problems
        check_passes(files)
    finally:
        kg.close()


# -- (d) import_rdf -----------------------------------------------------------------------------------------------


DTD = re.compile(rb"\s*(?:<\?.*?\?>\s*)?<!\s*(?:DOCTYPE|ENTITY)", re.IGNORECASE | re.DOTALL)
"""A document that starts by declaring a DTD, as the corpus's entity bombs and external entities do."""


@pytest.mark.parametrize("raw", raw_params(RDF_FILES))
def test_import_rdf_hostile(
    raw: Raw, tmp_path: Path, graphs: dict[str, KnowledgeGraph], no_network: list[object]
) -> None:
    kg = graphs["onchain"]
    before = kg.dumps("nt")
    path = tmp_path / f"input{raw.suffix}"
    path.write_bytes(raw.data)
    # pyoxigraph's parser is linear; rdflib's N-Triples reader re-scans its line buffer (quadratic in a line)
    linear_only = raw.suffix in (".nt", ".ttl")
    with (
        Parses(forbid=("rdflib",) if linear_only else ()) as parses,
        Steps(STEPS_PER_DOCUMENT) as steps,
        pytest.raises(InputError) as info,
    ):
        kg.import_rdf(path)
    assert type(info.value) in (InputError, RDFSyntaxError)
    assert kg.dumps("nt") == before
    assert no_network == [], f"the parser reached for the network: {no_network}"
    if DTD.match(raw.data):
        # an entity bomb or an external entity: refused before any parser saw a byte of it
        assert parses.calls == [], parses.calls
    # each parser reads the document once at most: the JSON check and rdflib's JSON-LD reader, or pyoxigraph
    used = [c.parser for c in parses.calls]
    assert len(used) == len(set(used)) and all(c.size <= len(raw.data) for c in parses.calls), parses.calls
    if linear_only:
        assert used in ([], ["pyoxigraph"]), parses.calls
    if any(c.parser == "pyoxigraph" and c.failed for c in parses.calls):
        # a document pyoxigraph refused (at its end, say) built no rdflib term before the refusal
        assert parses.terms == 0, f"{parses.terms} terms built from a document that does not parse"
    assert steps.count <= STEPS_PER_DOCUMENT, f"{steps.count} Python steps for a document of {len(raw.data)} bytes"


# -- (e) verify_answer --------------------------------------------------------------------------------------------


def _graph_for(answer: object, graphs: dict[str, KnowledgeGraph]) -> KnowledgeGraph:
    if isinstance(answer, dict) and "query_id" in answer:
        return graphs["kg"]
    if isinstance(answer, dict) and "status" in answer:
        return graphs["pages"]
    return graphs["onchain"]


@pytest.mark.parametrize("case", raw_params(ANSWERS))
def test_verify_hostile_answer(case: AnswerCase, graphs: dict[str, KnowledgeGraph], no_network: list[object]) -> None:
    kg = _graph_for(case.answer, graphs)
    limits = kg.limits
    before = kg.dumps("nt")
    depth, most, entries = extent(case.answer)
    oversized = isinstance(case.answer, dict) and (depth > limits.max_answer_depth or most > limits.max_answer_items)
    long_question = case.question is not None and len(case.question) > limits.max_question_chars
    budget = answer_budget(case.answer)
    report: VerifyReport | None = None
    with Reads(kg.store) as reads, Deadlines() as deadlines, Steps(budget) as steps:
        try:
            report = verify_answer(kg, case.answer, question=case.question)
        except InputError as exc:
            assert long_question and f"over the limit of {limits.max_question_chars}" in str(exc), exc
    if report is not None:
        assert isinstance(report, VerifyReport)
        assert report.ok is False
        json.dumps(report.to_json())
    assert kg.dumps("nt") == before
    assert no_network == []
    if long_question:
        assert report is None, "a question over the length limit was read"
    if oversized:
        assert report is not None and {f.check for f in report.failures} == {"limits"}, report
    if long_question or oversized:
        # refused by a size limit before anything was read or run
        assert reads.reads == [] and deadlines.sent == [] and deadlines.parsed_here == 0
    # a caller's query is parsed only in the worker the library kills at its deadline, never here, where nothing
    # could stop it; and it runs under that deadline and a row cap
    assert deadlines.parsed_here == 0, "an answer's query was parsed without a time limit"
    assert all(s.limit == limits.query_timeout_s for s in deadlines.sent), deadlines.sent
    for r in reads.reads:
        if r.untrusted:
            assert r.timeout == limits.query_timeout_s and r.max_rows == limits.max_result_rows, r
        else:  # the library's own reads cap their rows with a LIMIT
            assert shape(r.query).trailing_limit is not None, r
    for s in deadlines.sent:
        if len(s.query) > MAX_QUERY_CHARS:  # and one over the length limit is refused for it, not parsed
            assert report is not None and any(
                f.check == "query" and f"over the limit of {MAX_QUERY_CHARS}" in f.detail for f in report.failures
            ), report
    assert steps.count <= budget, f"{steps.count} Python steps for an answer of {entries} list entries"


# -- (f) the HTTP API ---------------------------------------------------------------------------------------------


@pytest.fixture(scope="module")
def client() -> Iterator[TestClient]:
    with TestClient(create_app(), raise_server_exceptions=False) as c:
        yield c


def check_response(response: Any) -> None:
    assert response.status_code < 500, (response.status_code, response.text[:500])
    body = response.json()
    if response.status_code >= 400:
        assert isinstance(body, dict) and {"error", "message"} <= body.keys(), body


def _http_ask_params() -> list[Any]:
    out = []
    small = [c for c in QUESTIONS if len(c.text) < 1_000_000]
    for domain in DOMAINS:
        for p in params(small, f"http-ask:{domain}"):
            out.append(pytest.param(domain, *p.values, id=f"{domain}-{p.id}", marks=p.marks))
    return out


@pytest.mark.parametrize(("domain", "case"), _http_ask_params())
def test_http_ask_hostile(client: TestClient, domain: str, case: Text) -> None:
    for route in ("/api/v1/ask", "/api/v1/ask/trace"):
        body = json.dumps({"domain": domain, "question": case.text, "id": case.text[:200] or "x"}).encode()
        response = client.post(route, content=body, headers={"Content-Type": "application/json"})
        check_response(response)
        if route.endswith("trace") and response.status_code == 200:
            check_queries(response.json()["queries"], case)
            check_answer(CONTRACT_TYPE[domain].model_validate(response.json()["answer"]), domain, case)


def test_http_verify_hostile_answers(client: TestClient) -> None:
    for case in ANSWERS:
        try:
            body = json.dumps({"answer": case.answer, "question": case.question}).encode()
        except (RecursionError, ValueError):
            continue  # too deep to encode here; the raw deep bodies cover it
        check_response(client.post("/api/v1/verify", content=body, headers={"Content-Type": "application/json"}))


def test_http_extract_text_hostile(client: TestClient) -> None:
    for case in [*CELLS, *QUESTIONS]:
        if len(case.text) > 1_000_000:
            continue
        body = json.dumps({"text": case.text, "url": "../../etc/passwd"}).encode()
        check_response(client.post("/api/v1/extract/text", content=body, headers={"Content-Type": "application/json"}))


@pytest.mark.parametrize("case", BODIES, ids=lambda c: c.id)
def test_http_hostile_bodies(client: TestClient, case: BodyCase) -> None:
    headers = {"Content-Type": case.content_type, **case.extra}
    check_response(client.post(case.route, content=case.body, headers=headers))


@pytest.mark.parametrize(
    "node",
    [
        "../../etc/passwd",
        "%2e%2e%2f%2e%2e%2fetc%2fpasswd",
        "n_a1> . <urn:x",
        "n_a1%00",
        "\u202en_a1",
        "x" * 5000,
        "n_a1%22%20%7D%20DROP%20ALL",
    ],
)
def test_http_node_hostile_ids(client: TestClient, node: str) -> None:
    check_response(client.get(f"/api/v1/nodes/onchain/{node}"))


# -- fuzzing ------------------------------------------------------------------------------------------------------

_QUESTION_TEXT = st.lists(
    st.one_of(
        st.characters(min_codepoint=0xAC00, max_codepoint=0xD7A3),  # Hangul syllables
        st.characters(min_codepoint=0x20, max_codepoint=0x7E),  # printable ASCII
        st.characters(min_codepoint=0x00, max_codepoint=0x1F),  # C0 controls
        st.sampled_from(
            list("\u200b\u200d\u202e\u2066\ufeff\u3000")
            + ["노출", "클릭", "페이지", "n_a1", "hop", "홍길동", "이상", "0", "100", "(", ")"]
        ),
        st.characters(codec="utf-8"),
    ),
    max_size=60,
).map("".join)


@pytest.mark.parametrize("domain", DOMAINS)
@settings(max_examples=120, deadline=None, suppress_health_check=[HealthCheck.function_scoped_fixture])
@given(text=_QUESTION_TEXT)
def test_fuzz_question_parser(graphs: dict[str, KnowledgeGraph], domain: str, text: str) -> None:
    kg = graphs[domain]
    result, queries, refused = traced(kg, text, domain)  # work counted there, not timed (no Hypothesis deadline)
    if refused is not None:
        return
    assert isinstance(result, CONTRACT_TYPE[domain])
    assert schema_errors(result.to_json(), get_domain(domain).contract) == []
    check_queries(queries, Text("fuzz", text))


@pytest.mark.parametrize("table", ["kg_chunks.csv", "pages.csv"])
@settings(max_examples=60, deadline=None, suppress_health_check=[HealthCheck.function_scoped_fixture])
@given(
    data=st.one_of(
        st.binary(max_size=2000),
        st.text(max_size=500).map(lambda t: ("chunk_id,text\nch_11," + t + "\n").encode("utf-8", "surrogatepass")),
    )
)
def test_fuzz_csv_loader(table: str, data: bytes, tmp_path_factory: pytest.TempPathFactory) -> None:
    domain = "pages" if table == "pages.csv" else "kg"
    folder = tmp_path_factory.mktemp("fuzz") / domain
    shutil.copytree(EXAMPLES / domain, folder)
    (folder / table).write_bytes(data)
    with KnowledgeGraph.open() as kg, FileBytes() as files:  # work counted by check_passes, not timed
        try:
            kg.load(folder)
        except DatasetError:
            assert len(kg) == 0
        except InputError:
            assert len(kg) == 0
    check_passes(files)
