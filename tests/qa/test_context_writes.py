"""The question context across writes: an ingest adds its names to the lexicon (which then equals a fresh
build), nothing is rebuilt for it, and questions asked from many threads while another thread ingests are
answered from a committed state with their own query records."""

from __future__ import annotations

import threading
from collections.abc import Callable, Iterator
from pathlib import Path
from typing import Any

import pytest
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st
from rdflib import XSD, Literal, URIRef

import ont_platform.kg as kg_module
from ont_platform import InputError, KnowledgeGraph
from ont_platform.answer.contracts import OnchainAnswer
from ont_platform.qa.context import ReadWriteLock, build_context
from ont_platform.qa.lexicon import Lexicon
from ont_platform.testing import valid_payloads
from ont_platform.validation import RuleConfig

EXAMPLES = Path(__file__).resolve().parents[2] / "examples"
LENIENT = RuleConfig(id_prefix_severity="warning")
NEW = "0x" + "5" * 40


def _same(a: Lexicon, b: Lexicon) -> None:
    a.settle()  # labels left for the Korean analyser are part of what is compared
    b.settle()
    assert a.names == b.names
    assert a.max_name == b.max_name
    assert {k: v for k, v in a.terms.items() if v} == {k: v for k, v in b.terms.items() if v}
    assert {k: v for k, v in a.surface.items() if v} == {k: v for k, v in b.surface.items() if v}


def _fresh(kg: KnowledgeGraph, domain: str) -> Lexicon:
    return build_context(kg.store, kg.domain(domain), kg.limits).lexicon


# --- the lexicon after loads and ingests ----------------------------------------------------------------------


def test_loading_another_domain_keeps_the_first_domain_s_context() -> None:
    """A load adds a domain the graph did not hold; the other domains' lexicons read only their own nodes, so
    their contexts stay, and the new domain is asked without a stale list of loaded domains."""
    with KnowledgeGraph.open() as kg:
        kg.load(EXAMPLES / "onchain")
        question = "n_a1 에서 3-hop 안에 거래소 입금주소에 닿나요?"
        before = kg.ask(question).to_json()
        ctx = kg.context("onchain")
        kg.load(EXAMPLES / "kg")
        assert kg.context("onchain") is ctx
        _same(ctx.lexicon, _fresh(kg, "onchain"))
        assert kg.ask(question, domain="onchain").to_json() == before
        assert kg.domains() == ["kg", "onchain"]
        with pytest.raises(InputError, match="pass domain="):
            kg.ask(question)


@settings(max_examples=5, deadline=None, suppress_health_check=[HealthCheck.too_slow])
@given(payload=valid_payloads(domain="kg"))
def test_the_module_level_ingest_on_a_graph_keeps_its_state_current(payload: dict[str, Any]) -> None:
    """``ingest(kg, ...)`` with a KnowledgeGraph goes through the graph, so its loaded domains and lexicon follow."""
    from ont_platform.ingest.extraction import ingest

    with KnowledgeGraph.open() as kg:
        assert kg.domains() == []
        with pytest.raises(InputError, match="no dataset"):
            kg.ask("아무 질문")  # caches "no domains"
        report = ingest(kg, payload, domain="kg")
        assert report.accepted, report.as_dict()
        assert kg.domains() == ["kg"]  # not the stale empty list
        kg.ask("아무 질문")


def _renamed(payload: dict[str, Any], prefix: str) -> dict[str, Any]:
    """The payload with every entity and relation id (and entity label) prefixed, so that a later batch adds new
    nodes instead of re-typing (and being refused for) the ids of an earlier one, or being resolved to an
    earlier node of the same name (ont_platform.ingest.resolve)."""

    def tag(ident: str) -> str:  # keep the E_/R_ prefix the guard requires
        return ident[:2] + prefix + ident[2:]

    out = dict(payload)
    out["entities"] = [{**e, "id": tag(e["id"]), "label": prefix + e["label"]} for e in payload.get("entities", [])]
    out["relations"] = [
        {**r, "id": tag(r["id"]), "source_id": tag(r["source_id"]), "target_id": tag(r["target_id"])}
        for r in payload.get("relations", [])
    ]
    return out


@pytest.mark.slow
@settings(max_examples=25, deadline=None, suppress_health_check=[HealthCheck.too_slow])
@given(domain=st.sampled_from(["kg", "onchain"]), data=st.data())
def test_the_lexicon_after_ingests_equals_a_fresh_build(domain: str, data: st.DataObject) -> None:
    with KnowledgeGraph.open() as kg:
        first = kg.ingest(data.draw(valid_payloads(domain=domain), label="first"), domain=domain)
        assert first.accepted, first.as_dict()
        kg.ask("아무 질문", domain=domain)  # builds the context
        ctx = kg.context(domain)
        for k in range(data.draw(st.integers(1, 3), label="ingests")):
            payload = _renamed(data.draw(valid_payloads(domain=domain), label=f"ingest {k}"), f"k{k}_")
            report = kg.ingest(payload, domain=domain)
            assert kg.context(domain) is ctx  # kept, not dropped
            assert report.accepted, report.as_dict()  # new ids: the batch is new nodes, the lexicon must grow
            _same(ctx.lexicon, _fresh(kg, domain))
            if report.accepted:
                for entity in payload["entities"]:
                    if entity["type"] == "individual":
                        assert entity["id"] in ctx.lexicon.nodes_named(entity["id"].casefold())


def test_names_shared_by_several_nodes() -> None:
    lex = Lexicon()
    lex.add_name("지갑 A", "n_2")
    lex.add_name("지갑A", "n_1")
    lex.add_name("지갑 A", "n_1")
    lex.add_name("W", "n_3")  # too short to be a name
    assert lex.nodes_named("지갑a") == ["n_1", "n_2"] and lex.nodes_named("w") == []
    assert lex.find_names("지갑 A 에서")[0][0].ref == "n_1"


def _batch() -> dict[str, Any]:
    """A new wallet sending to the dormant wallet D4, and D4 sending to a deposit address."""
    return {
        "entities": [
            {
                "id": "E_new",
                "label": "신규 지갑 N1",
                "type": "individual",
                "ontology_class": "Wallet",
                "attributes": {"addressNorm": NEW},
            },
            {"id": "n_d4", "label": "휴면 지갑 D4", "type": "individual", "ontology_class": "Wallet"},
            {"id": "n_ex2", "label": "거래소 Y 입금주소 1", "type": "individual", "ontology_class": "ExchangeDeposit"},
        ],
        "relations": [
            {
                "id": "R_n1",
                "source_id": "E_new",
                "predicate": "transfer",
                "target_id": "n_d4",
                "attributes": {"txHash": "0x" + "a" * 64},
                "evidence": [{"chunk_text": "N1 이 D4 로 보냈다."}],
            },
            {
                "id": "R_n2",
                "source_id": "n_d4",
                "predicate": "transfer",
                "target_id": "n_ex2",
                "attributes": {"txHash": "0x" + "b" * 64},
                "evidence": [{"chunk_text": "D4 가 거래소로 보냈다."}],
            },
        ],
    }


QUESTIONS = [
    "n_d4 에서 1-hop 안에 거래소 입금주소에 닿나요?",
    "E_new 에서 2-hop 안에 거래소 입금주소에 닿나요?",
    "신규 지갑 N1 에서 2-hop 안에 거래소 입금주소에 닿나요?",
    f"{NEW} 에서 3-hop 안에 거래소 입금주소에 닿나요?",
    "n_a1 에서 3-hop 안에 거래소 입금주소에 닿나요?",
    "n_w1 의 클래스는?",
]


@pytest.fixture
def onchain() -> Iterator[KnowledgeGraph]:
    kg = KnowledgeGraph.open()
    kg.load(EXAMPLES / "onchain")
    yield kg
    kg.close()


@pytest.fixture
def count_builds(monkeypatch: pytest.MonkeyPatch) -> Callable[[], list[str]]:
    """Call it to start recording the domains whose question context is built from scratch."""

    def start() -> list[str]:
        builds: list[str] = []
        real = kg_module.build_context

        def counting(*args: Any) -> Any:
            builds.append(args[1].name)
            return real(*args)

        monkeypatch.setattr(kg_module, "build_context", counting)
        return builds

    return start


def test_an_ingest_keeps_the_context_and_its_names_answer(
    onchain: KnowledgeGraph, count_builds: Callable[[], list[str]]
) -> None:
    before = onchain.ask(QUESTIONS[1]).to_json()
    assert before["path"] == [] and "그래프에 없는 노드" in before["answer_ko"]  # not a node yet
    builds = count_builds()
    assert onchain.ingest(_batch(), config=LENIENT).accepted
    for question in QUESTIONS[:4]:
        answer = onchain.ask(question).to_json()
        assert answer["intent"] == "path_exists" and answer["path"][-1]["to"] == "n_ex2", question
    assert builds == []  # the lexicon was extended, not rebuilt
    _same(onchain.context("onchain").lexicon, _fresh(onchain, "onchain"))
    refused = onchain.ingest(
        {"entities": [{"id": "E_new", "label": "x", "type": "individual", "ontology_class": "Mixer"}]}, config=LENIENT
    )
    assert not refused.accepted and builds == []


def test_import_rdf_drops_the_context(
    onchain: KnowledgeGraph, tmp_path: Path, count_builds: Callable[[], list[str]]
) -> None:
    onchain.ask(QUESTIONS[0])
    builds = count_builds()
    extra = tmp_path / "extra.nt"
    node = "https://w3id.org/ont-platform/id/onchain/node/n_imported"
    extra.write_text(
        f'<{node}> <https://w3id.org/ont-platform/core#id> "n_imported" .\n'
        f"<{node}> <http://www.w3.org/1999/02/22-rdf-syntax-ns#type> "
        "<https://w3id.org/ont-platform/onchain#Wallet> .\n",
        encoding="utf-8",
    )
    assert onchain.import_rdf(extra, check=False) == 2  # a wallet without an address: the shapes would refuse it
    assert "n_imported" in onchain.ask("n_imported 의 클래스는?").to_json()["cited_nodes"]
    assert builds == ["onchain"]


def test_each_question_has_its_own_query_record(onchain: KnowledgeGraph) -> None:
    answer, queries = onchain.trace(QUESTIONS[4])
    assert isinstance(answer, OnchainAnswer) and queries and answer.generated_query in queries
    again, second = onchain.trace(QUESTIONS[5])
    assert isinstance(again, OnchainAnswer) and second and again.generated_query in second
    assert not set(second) & set(queries) - {again.generated_query}
    assert onchain.context("onchain").queries == []  # the shared context records nothing


# --- threads ---------------------------------------------------------------------------------------------------


def _answers(kg: KnowledgeGraph) -> dict[str, tuple[dict[str, Any], list[str]]]:
    out = {}
    for q in QUESTIONS:
        answer, queries = kg.trace(q)
        out[q] = (answer.to_json(), queries)
    return out


def test_questions_during_an_ingest_see_the_state_before_or_after() -> None:
    with KnowledgeGraph.open() as before_kg, KnowledgeGraph.open() as after_kg:
        before_kg.load(EXAMPLES / "onchain")
        after_kg.load(EXAMPLES / "onchain")
        assert after_kg.ingest(_batch(), config=LENIENT).accepted
        before, after = _answers(before_kg), _answers(after_kg)
        expected_dump = set(after_kg.dumps("nt").splitlines())
    assert any(before[q] != after[q] for q in QUESTIONS)  # the write changes answers

    readers, rounds = 6, 8
    with KnowledgeGraph.open() as kg:
        kg.load(EXAMPLES / "onchain")
        kg.ask(QUESTIONS[0])  # the context exists before the write
        barrier = threading.Barrier(readers + 1)
        seen: list[tuple[str, dict[str, Any], list[str]]] = []
        errors: list[BaseException] = []
        reports: list[Any] = []

        def read(offset: int) -> None:
            try:
                barrier.wait()
                for k in range(rounds * len(QUESTIONS)):
                    question = QUESTIONS[(offset + k) % len(QUESTIONS)]
                    answer, queries = kg.trace(question)
                    seen.append((question, answer.to_json(), queries))
            except BaseException as exc:  # noqa: BLE001 - reported below
                errors.append(exc)

        def write() -> None:
            try:
                barrier.wait()
                reports.append(kg.ingest(_batch(), config=LENIENT))
            except BaseException as exc:  # noqa: BLE001 - reported below
                errors.append(exc)

        threads = [threading.Thread(target=read, args=(i,)) for i in range(readers)]
        threads.append(threading.Thread(target=write))
        for t in threads:
            t.start()
        for t in threads:
            t.join(timeout=300)
        assert not any(t.is_alive() for t in threads)
        assert errors == []
        assert len(reports) == 1 and reports[0].accepted
        assert len(seen) == readers * rounds * len(QUESTIONS)
        for question, answer, queries in seen:
            # the answer and exactly the queries that question runs alone, before or after the write
            assert (answer, queries) in (before[question], after[question]), question
        assert _answers(kg) == after  # no lost batch
        assert set(kg.dumps("nt").splitlines()) == expected_dump


def test_the_lock_lets_readers_share_and_a_writer_wait() -> None:
    lock = ReadWriteLock()
    inside: list[str] = []
    reading, release = threading.Event(), threading.Event()

    def reader() -> None:
        with lock.reading():
            inside.append("reader")
            reading.set()
            release.wait(10)

    def writer() -> None:
        with lock.writing():
            inside.append("writer")

    r = threading.Thread(target=reader)
    r.start()
    assert reading.wait(10)
    with lock.reading():  # a second reader shares it
        inside.append("second reader")
    w = threading.Thread(target=writer)
    w.start()
    w.join(0.2)
    assert w.is_alive() and inside == ["reader", "second reader"]  # the writer waits for the reader
    release.set()
    r.join(10)
    w.join(10)
    assert inside == ["reader", "second reader", "writer"]


_LABELS = st.sampled_from(
    [Literal("지갑 A"), Literal("Wallet", lang="en"), Literal("0x" + "1" * 40), Literal("7", datatype=XSD.integer)]
)


@settings(max_examples=60, deadline=None)
@given(
    facts=st.lists(
        st.tuples(
            st.integers(0, 3),
            st.sampled_from(["id", "label", "alt", "norm", "kind", "text", "iri-label"]),
            _LABELS,
        ),
        max_size=14,
    )
)
def test_names_from_the_triples_are_the_names_the_store_gives(facts: list[tuple[int, str, Literal]]) -> None:
    """``name_rows`` (an ingest's names, from the triples it read and wrote) gives the rows of the names query on a
    store holding those triples, or says it cannot (``None``); nodes of another domain's prefix are left out."""
    from rdflib import RDFS, SKOS

    from ont_platform.namespaces import OC, ONT, mint
    from ont_platform.qa.context import name_rows
    from ont_platform.qa.space import names_query
    from ont_platform.storage import open_store
    from ont_platform.validation.facts import nt_term

    nodes = [URIRef(str(mint("onchain", "node", f"n{i}"))) for i in range(3)] + [URIRef("urn:x:other")]
    predicate = {"id": ONT.id, "label": RDFS.label, "alt": SKOS.altLabel, "norm": OC.addressNorm}
    triples = []
    for n, kind, value in facts:
        if kind == "kind":
            triples.append((nodes[n], ONT.kind, OC.transfer))
        elif kind == "text":
            triples.append((nodes[n], ONT.text, value))
        elif kind == "iri-label":
            triples.append((nodes[n], RDFS.label, URIRef("urn:x:label")))
        else:
            triples.append((nodes[n], predicate[kind], value))
    store = open_store("oxigraph")
    store.add_ntriples("".join(f"{nt_term(s)} {nt_term(p)} {nt_term(o)} .\n" for s, p, o in triples))
    rows = name_rows("onchain", nodes, triples)
    stored = {(r[0], r[1]) for r in store.iter_values(names_query("onchain", 1000, nodes))}
    if rows is None:
        assert any(
            not isinstance(o, Literal) or o.datatype is not None
            for _, p, o in triples
            if p in (ONT.id, *predicate.values())
        )
    else:
        assert set(rows) == stored
