"""Fuzzing where the existing property tests leave gaps: arbitrary JSON through the verifier and the guarded
ingest, mutated cells in every table of the CSV loader, and pasted code around page questions.

Every input must end in a result or in one of the project's own errors (:class:`OntError`), never another
exception type, with bounded work per input, and a refused write leaves the store as it was. The work is counted
(Python steps, bytes read of each file: tests/hostile/meters.py), not timed: a Hypothesis ``deadline`` failed on a
loaded machine, and no test depends on timing (docs/architecture.md). The structured-answer properties are in tests/verify/test_properties.py, the validators' in
tests/validation/test_properties.py, raw bytes into the CSV loader and free text into ``ask`` in
tests/hostile/test_hostile.py.
"""

from __future__ import annotations

import csv
import io
import json
import shutil
from collections.abc import Iterator
from pathlib import Path
from typing import Any

import pytest
from hypothesis import HealthCheck, example, given, settings
from hypothesis import strategies as st

from ont_platform import KnowledgeGraph
from ont_platform.errors import InputError, OntError
from ont_platform.verify import VerifyReport, verify_answer, verify_file
from tests.hostile.meters import (
    READ_PASSES,
    STEPS_PER_ANSWER,
    STEPS_PER_QUESTION,
    FileBytes,
    Steps,
    answer_budget,
)

EXAMPLES = Path(__file__).resolve().parents[2] / "examples"
STEPS_PER_INGEST = 1_000_000
"""Most Python steps one guarded ingest of a fuzzed payload may take: it checks a few entities and relations, which
takes at most about 20,000 steps now (400 payloads tried, the first of a process included)."""
_BASE = settings(
    deadline=None,  # work is counted in each test instead
    suppress_health_check=[HealthCheck.function_scoped_fixture, HealthCheck.too_slow, HealthCheck.data_too_large],
)


def fuzz(examples: int) -> settings:
    """The fuzzing settings with ``examples`` inputs."""
    return settings(_BASE, max_examples=examples)


@pytest.fixture(scope="module")
def graphs() -> Iterator[dict[str, KnowledgeGraph]]:
    """One graph per example domain, with its question context (and the Korean analyser) built already."""
    out = {}
    for domain in ("onchain", "kg", "pages"):
        kg = KnowledgeGraph.open()
        kg.load(EXAMPLES / domain)
        kg.ask("노출 100 이상 페이지" if domain == "pages" else "n_a1 에서 닿나요?", domain=domain)
        out[domain] = kg
    yield out
    for kg in out.values():
        kg.close()


# -- JSON values --------------------------------------------------------------------------------------------------

_scalars = st.one_of(
    st.none(),
    st.booleans(),
    st.integers(min_value=-(2**70), max_value=2**70),
    st.floats(allow_nan=True, allow_infinity=True),
    st.text(max_size=30),
    st.sampled_from(
        [
            "n_a1",
            "n_h1",
            "e1",
            "p_hong",
            "c_acme",
            "ch_11",
            "worksFor",
            "https://shop.example.com/p/1006",
            "impressions_30d >= 100",
            "0x" + "a" * 64,
        ]
    ),
)
_json = st.recursive(
    _scalars,
    lambda inner: st.one_of(st.lists(inner, max_size=5), st.dictionaries(st.text(max_size=12), inner, max_size=5)),
    max_leaves=25,
)

CONTRACT_FIELDS = {
    "onchain": ["q_id", "intent", "generated_query", "answer_ko", "path", "cited_nodes", "confidence", "grounding_ok"],
    "kg": ["query_id", "decision", "answer", "path", "factors", "reason", "evidence", "hedge"],
    "pages": ["question", "status", "parsed_filter", "columns_used", "matched", "count", "hedge"],
}
_ENUMS = {
    "intent": ["path_exists", "token_flow", "cluster_lookup", "label_lookup", "no_path", "maybe"],
    "confidence": ["low", "mid", "high"],
    "decision": ["answer", "refuse", "max_hops"],
    "status": ["ran", "clarify", "unsupported"],
}
_STEPS = {
    "onchain": st.fixed_dictionaries({"edge_id": _scalars, "tx_hash": _scalars, "from": _scalars, "to": _scalars}),
    "kg": st.fixed_dictionaries({"src": _scalars, "rel": _scalars, "dst": _scalars, "chunk_id": _scalars}),
    "pages": st.fixed_dictionaries({"url": _scalars, "evidence": _scalars}),
}


@st.composite
def answers(draw: st.DrawFn, domain: str) -> dict[str, Any]:
    """A contract-shaped object whose every field may hold any JSON value: mostly plausible, often not."""
    out: dict[str, Any] = {}
    for name in CONTRACT_FIELDS[domain]:
        if draw(st.integers(0, 9)) == 0:
            continue  # a missing field
        if name in _ENUMS:
            out[name] = draw(st.one_of(st.sampled_from(_ENUMS[name]), _json))
        elif name in ("path", "matched"):
            step = _STEPS["pages" if name == "matched" else domain]
            out[name] = draw(st.one_of(st.lists(step, max_size=6), _json))
        else:
            out[name] = draw(_json)
    if draw(st.booleans()):
        out.update(draw(st.dictionaries(st.text(max_size=8), _json, max_size=2)))
    return out


@pytest.mark.parametrize("domain", ["onchain", "kg", "pages"])
@fuzz(60)
@given(data=st.data())
def test_verifier_on_any_json(graphs: dict[str, KnowledgeGraph], domain: str, data: st.DataObject) -> None:
    kg = graphs[domain]
    answer = data.draw(st.one_of(answers(domain), _json), label="answer")
    question = data.draw(st.one_of(st.none(), st.text(max_size=80)), label="question")
    try:
        with Steps(answer_budget(answer)):
            report = verify_answer(kg, answer, question=question)
    except InputError:
        return  # an unusable question (lone surrogate, blank): refused, as ask refuses it
    assert isinstance(report, VerifyReport)
    doc = report.to_json()
    json.dumps(doc)
    assert doc["ok"] is (doc["failures"] == [])


@fuzz(30)
@given(lines=st.lists(st.one_of(st.binary(max_size=200), _json.map(lambda v: json.dumps(v).encode())), max_size=8))
def test_verify_file_on_any_lines(
    graphs: dict[str, KnowledgeGraph], lines: list[bytes], tmp_path_factory: pytest.TempPathFactory
) -> None:
    path = tmp_path_factory.mktemp("answers") / "answers.jsonl"
    path.write_bytes(b"\n".join(line.replace(b"\n", b" ") for line in lines))
    try:
        with Steps(STEPS_PER_ANSWER * (len(lines) + 1)):  # each line is at most 25 JSON values
            reports = verify_file(graphs["onchain"], path)
    except InputError:
        return  # not UTF-8, or otherwise unreadable as a file
    assert all(isinstance(r, VerifyReport) for r in reports)


# -- the guarded ingest -------------------------------------------------------------------------------------------

_ENTITY = st.fixed_dictionaries(
    {
        "id": st.one_of(st.sampled_from(["E_1", "E_2", "E_3"]), _scalars),
        "label": st.one_of(st.sampled_from(["홍길동", "에이크미", "서울"]), _scalars),
    },
    optional={
        "type": st.one_of(st.just("individual"), _scalars),
        "ontology_class": st.one_of(st.sampled_from(["Person", "Company", "Place", "Nope"]), _scalars),
        "confidence": _scalars,
        "evidence": _json,
    },
)
_RELATION = st.fixed_dictionaries(
    {
        "id": st.one_of(st.sampled_from(["R_1", "R_2"]), _scalars),
        "source_id": st.one_of(st.sampled_from(["E_1", "E_2", "E_3"]), _scalars),
        "predicate": st.one_of(st.sampled_from(["worksFor", "locatedIn", "foundedBy", "nope"]), _scalars),
        "target_id": st.one_of(st.sampled_from(["E_1", "E_2", "E_3"]), _scalars),
    },
    optional={
        "evidence": st.one_of(st.fixed_dictionaries({"chunk_text": st.text(max_size=40)}), _json),
        "confidence": _scalars,
    },
)
_PAYLOADS = st.one_of(
    st.fixed_dictionaries({"entities": st.lists(_ENTITY, max_size=4), "relations": st.lists(_RELATION, max_size=3)}),
    st.fixed_dictionaries({"entities": _json, "relations": _json}),
    _json,
)


@fuzz(80)
@given(payload=_PAYLOADS, as_text=st.booleans())
def test_guarded_ingest_on_any_payload(graphs: dict[str, KnowledgeGraph], payload: Any, as_text: bool) -> None:
    kg = graphs["kg"]
    before = kg.dumps("nt")
    given_payload = json.dumps(payload) if as_text else payload
    try:
        with Steps(STEPS_PER_INGEST):
            report = kg.ingest(given_payload, domain="kg")
    except OntError:
        assert kg.dumps("nt") == before, "a refused ingest changed the store"
        return
    if not report.accepted:
        assert report.errors, "refused without a reason"
        assert kg.dumps("nt") == before, "a refused ingest changed the store"
    else:
        kg.store.clear()  # keep the next input's store the same as this one's
        kg.store.add_ntriples(before.decode("utf-8"))
        kg._invalidate()


# -- the CSV loader: every table, mutated cells -------------------------------------------------------------------

_CELL = st.one_of(
    st.text(max_size=40),
    st.sampled_from(
        [
            "",
            " ",
            "n_a1",
            "p_hong",
            "e1",
            "ch_11",
            "Person",
            "transfer",
            "worksFor",
            "true",
            "false",
            "0x" + "f" * 40,
            "-1",
            "1e309",
            "NaN",
            "2026-02-30",
            "=cmd|' /C calc'!A0",
            "\u202e",
            "a\x00b",
            "99999999999999999999999",
            "https://shop.example.com/p/1006",
            "|||",
            '"""',
            "\r\n",
        ]
    ),
)
_TABLES = [
    ("onchain", "onchain_nodes.csv"),
    ("onchain", "onchain_edges.csv"),
    ("kg", "kg_nodes.csv"),
    ("kg", "kg_edges.csv"),
    ("kg", "kg_chunks.csv"),
    ("pages", "pages.csv"),
]


def _read(path: Path) -> tuple[list[str], list[list[str]]]:
    with path.open(encoding="utf-8", newline="") as fh:
        rows = list(csv.reader(fh))
    return rows[0], rows[1:]


@pytest.mark.parametrize(("domain", "table"), _TABLES, ids=[t for _, t in _TABLES])
@fuzz(25)
@given(data=st.data())
def test_csv_loader_on_mutated_cells(
    domain: str, table: str, data: st.DataObject, tmp_path_factory: pytest.TempPathFactory
) -> None:
    folder = tmp_path_factory.mktemp("fuzz") / domain
    shutil.copytree(EXAMPLES / domain, folder)
    header, rows = _read(folder / table)
    for _ in range(data.draw(st.integers(1, 4), label="mutations")):
        r = data.draw(st.integers(0, len(rows) - 1), label="row")
        c = data.draw(st.integers(0, len(header) - 1), label="column")
        rows[r][c] = data.draw(_CELL, label="cell")
    buf = io.StringIO(newline="")
    csv.writer(buf, lineterminator="\n").writerows([header, *rows])
    (folder / table).write_text(buf.getvalue(), encoding="utf-8", newline="")
    with KnowledgeGraph.open() as kg, FileBytes() as files:
        try:
            report = kg.load(folder)
        except InputError:  # DatasetError names every problem; the store stays empty
            assert len(kg) == 0
            report = None
        if report is not None:
            assert report.domain == domain and kg.domains() == [domain]
    # the loader's work is linear in the files: none was read more than READ_PASSES times over
    assert files.read and max(files.passes().values()) <= READ_PASSES, files.passes()


# -- page questions with pasted code --------------------------------------------------------------------------------

_IDENT = st.from_regex(r"[a-z_][a-z0-9_]{0,6}", fullmatch=True).filter(
    lambda s: s not in ("or", "and", "k", "not", "over", "under", "above", "below", "to")
)
_CODE = st.one_of(
    st.builds(lambda n, i, v: f"{n}[{i}] = {v};", _IDENT, st.integers(0, 999), st.integers(0, 99_999)),
    st.builds(lambda n, v: f"{n}({v})", _IDENT, st.integers(0, 99_999)),
    st.builds(lambda n, v: f"let {n} = {v};", _IDENT, st.integers(0, 99_999)),
    st.builds(lambda o, a, v: f"{o}.{a}({v})", _IDENT, _IDENT, st.integers(0, 99_999)),
)
_ASKS = st.sampled_from(
    ["노출 클릭 페이지", "노출 100 이상 페이지", "클릭 0 인 페이지", "노출은 꽤 되는데 클릭이 하나도 없는 페이지"]
)


@fuzz(60)
@given(code=st.lists(_CODE, min_size=1, max_size=3), ask=_ASKS, before=st.booleans())
@example(code=["_[0] = 0;", "let ctr = 0;"], ask="노출 100 이상 페이지", before=False)  # a declared column alias
def test_digits_of_pasted_code_never_become_filter_values(
    graphs: dict[str, KnowledgeGraph], code: list[str], ask: str, before: bool
) -> None:
    pasted = " ".join(code)
    question = f"{pasted} {ask}" if before else f"{ask} {pasted}"
    kg = graphs["pages"]
    with Steps(STEPS_PER_QUESTION):
        result = kg.ask(question, domain="pages").to_json()
    if result["status"] == "ran":  # code may make the reader ask back, never change the conditions
        assert result["parsed_filter"] == kg.ask(ask, domain="pages").to_json()["parsed_filter"], question
