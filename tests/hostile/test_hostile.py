"""Hostile input against every entry point: ``ask``, ``ont pages``, the CSV loader, ``import_rdf``, the
verifier and the HTTP API. Each input gets a contract answer or a clear refusal of the project's own error
types, the store is byte-for-byte unchanged, only the library's own read queries run, and each input costs a
bounded time. The inputs are in :mod:`tests.hostile.corpus`.
"""

from __future__ import annotations

import csv
import io
import json
import re
import shutil
import socket
import time
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

EXAMPLES = Path(__file__).resolve().parents[2] / "examples"
DOMAINS = ("onchain", "kg", "pages")
CONTRACT_TYPE = {"onchain": OnchainAnswer, "kg": HopDecision, "pages": PageFilterResult}
SECONDS = 2.0
"""Most time any single hostile input may cost."""
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
    """Every executed query is one of ours: a bounded read that parses, with no hostile fragment in it."""
    for q in queries:
        checked = inspect_query(q)  # raises QueryRefused for anything but a bounded SELECT/ASK read
        assert checked.form in ("SELECT", "ASK")
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


@pytest.mark.parametrize(("domain", "case"), _ask_params())
def test_ask_hostile(graphs: dict[str, KnowledgeGraph], domain: str, case: Text) -> None:
    kg = graphs[domain]
    before = kg.dumps("nt")
    started = time.perf_counter()
    queries: list[str] = []
    try:
        result, queries = kg.trace(case.text, domain=domain)
    except InputError:
        result = None
    elapsed = time.perf_counter() - started
    if result is not None:
        check_answer(result, domain, case)
    check_queries(queries, case)
    assert elapsed < SECONDS, f"{elapsed:.2f} s"
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
    try:
        started = time.perf_counter()
        try:
            kg.load(folder)
        except DatasetError as exc:
            assert kg.dumps("nt") == before, "a refused dataset changed the store"
            # a row problem names the file and the row's line; a file-level one (NUL bytes) the file alone
            assert any(p.file.endswith(table) and p.line in (line, None) for p in exc.problems), exc.problems
        else:
            # loaded: the text is kept as a literal, exactly but for the documented trim of surrounding
            # whitespace (formula text stays text)
            assert case.text.strip() in _literals(kg.dumps("nt")), "the cell was not stored as a literal"
            assert domain in kg.domains()
        assert time.perf_counter() - started < SECONDS * 2
    finally:
        kg.close()


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
        started = time.perf_counter()
        try:
            kg.load(folder)
        except DatasetError as exc:
            assert kg.dumps("nt") == before
            assert all(p.file for p in exc.problems)
            assert any(p.file.endswith(raw.suffix) or p.line is not None for p in exc.problems), exc.problems
        assert time.perf_counter() - started < SECONDS * 2
    finally:
        kg.close()


# -- (d) import_rdf -----------------------------------------------------------------------------------------------


@pytest.mark.parametrize("raw", raw_params(RDF_FILES))
def test_import_rdf_hostile(
    raw: Raw, tmp_path: Path, graphs: dict[str, KnowledgeGraph], no_network: list[object]
) -> None:
    kg = graphs["onchain"]
    before = kg.dumps("nt")
    path = tmp_path / f"input{raw.suffix}"
    path.write_bytes(raw.data)
    started = time.perf_counter()
    with pytest.raises(InputError) as info:
        kg.import_rdf(path)
    elapsed = time.perf_counter() - started
    assert type(info.value) in (InputError, RDFSyntaxError)
    assert kg.dumps("nt") == before
    assert elapsed < SECONDS, f"{elapsed:.2f} s"
    assert no_network == [], f"the parser reached for the network: {no_network}"


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
    before = kg.dumps("nt")
    started = time.perf_counter()
    try:
        report = verify_answer(kg, case.answer, question=case.question)
    except InputError:
        report = None
    elapsed = time.perf_counter() - started
    if report is not None:
        assert isinstance(report, VerifyReport)
        assert report.ok is False
        json.dumps(report.to_json())
    assert kg.dumps("nt") == before
    assert elapsed < SECONDS, f"{elapsed:.2f} s"
    assert no_network == []


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
@settings(max_examples=120, deadline=SECONDS * 1000, suppress_health_check=[HealthCheck.function_scoped_fixture])
@given(text=_QUESTION_TEXT)
def test_fuzz_question_parser(graphs: dict[str, KnowledgeGraph], domain: str, text: str) -> None:
    kg = graphs[domain]
    try:
        result, queries = kg.trace(text, domain=domain)
    except InputError:
        return
    assert isinstance(result, CONTRACT_TYPE[domain])
    assert schema_errors(result.to_json(), get_domain(domain).contract) == []
    check_queries(queries, Text("fuzz", text))


@pytest.mark.parametrize("table", ["kg_chunks.csv", "pages.csv"])
@settings(max_examples=60, deadline=SECONDS * 1000, suppress_health_check=[HealthCheck.function_scoped_fixture])
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
    with KnowledgeGraph.open() as kg:
        try:
            kg.load(folder)
        except DatasetError:
            assert len(kg) == 0
        except InputError:
            assert len(kg) == 0
