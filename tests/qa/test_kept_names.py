"""Node names kept beside an on-disk store (qa/names.py): after any sequence of writes, reopenings and read-only
views, the names a question is read with are exactly a fresh read of the store at that moment; a process that
opens the store reads none of them when nothing changed; anything the library did not follow makes the next
process rebuild them, never use the old ones."""

from __future__ import annotations

from pathlib import Path
from typing import Any

import pytest
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from ont_platform import KnowledgeGraph
from ont_platform.namespaces import mint
from ont_platform.qa.names import KeptNames, Names, compact_pairs, folder_for
from ont_platform.qa.space import names_query
from ont_platform.validation import RuleConfig

EXAMPLES = Path(__file__).resolve().parents[2] / "examples"
LENIENT = RuleConfig(id_prefix_severity="warning")
QUESTION = "n_a1 에서 3-hop 안에 거래소 입금주소에 닿나요?"


def _content(names: Names) -> dict[str, list[str]]:
    return names.as_dict()


def _fresh(kg: KnowledgeGraph, domain: str = "onchain") -> dict[str, list[str]]:
    """The names a build from the store now gives, in memory."""
    names = Names()
    for key, node_id in compact_pairs(kg.store.iter_values(names_query(domain, kg.limits.max_names))):
        names.add(key, node_id)
    return _content(names)


def _bases(kg: KnowledgeGraph, domain: str = "onchain") -> list[str]:
    folder = folder_for(kg.store, domain)
    assert folder is not None
    return sorted(p.name for p in folder.glob("base-*.sqlite")) if folder.is_dir() else []


def _batch(k: int, label: str) -> dict[str, Any]:
    new = f"w_new{k}"
    return {
        "entities": [
            {"id": "n_a1", "label": "지갑 A1", "type": "individual", "ontology_class": "Wallet"},
            {
                "id": new,
                "label": label,
                "type": "individual",
                "ontology_class": "Wallet",
                "attributes": {"addressNorm": "0xab" + f"{k:038x}"},
            },
        ],
        "relations": [
            {
                "id": f"R_{k}",
                "source_id": "n_a1",
                "predicate": "transfer",
                "target_id": new,
                "attributes": {"txHash": "0x" + f"{k:04x}".rjust(64, "0")},
                "evidence": [{"chunk_text": f"n_a1 가 {new} 로 보냈다."}],
            }
        ],
    }


STEPS = st.lists(
    st.sampled_from(["ask", "ingest", "reopen", "update", "load_other", "read_only", "retract"]), min_size=1, max_size=7
)


@settings(max_examples=12, deadline=None, suppress_health_check=[HealthCheck.function_scoped_fixture])
@given(
    steps=STEPS, labels=st.lists(st.text("가나다라마바사abcXYZ_ 0123", min_size=2, max_size=8), min_size=7, max_size=7)
)
def test_kept_names_are_a_fresh_read_after_any_writes(
    tmp_path_factory: pytest.TempPathFactory, steps: list[str], labels: list[str]
) -> None:
    path = tmp_path_factory.mktemp("kept") / "graph.db"
    kg = KnowledgeGraph.open(path)
    kg.load(EXAMPLES / "onchain", shacl=False)
    other_loaded = retracted = False
    try:
        for k, step in enumerate(steps):
            if step == "ask":
                kg.ask(QUESTION, domain="onchain")
            elif step == "ingest":
                report = kg.ingest(_batch(k, labels[k]), domain="onchain", config=LENIENT)
                assert report.accepted, report.as_dict()
            elif step == "reopen":
                kg.close()
                kg = KnowledgeGraph.open(path)
            elif step == "update":  # a write the question contexts are not told about
                node = mint("onchain", "node", "n_h1")
                kg.store.update(f'INSERT DATA {{ <{node}> <http://www.w3.org/2000/01/rdf-schema#label> "갱신{k}" }}')
                kg.close()
                kg = KnowledgeGraph.open(path)
            elif step == "load_other" and not other_loaded:
                kg.load(EXAMPLES / "kg", shacl=False)
                other_loaded = True
            elif step == "retract" and not retracted:
                kg.retract(node_ids=["n_w9"], reason="test", domain="onchain")
                retracted = True
            elif step == "read_only":
                with KnowledgeGraph.open(path, read_only=True) as view:
                    assert _content(view.context("onchain").lexicon.names) == _fresh(view)
            names = kg.context("onchain").lexicon.names
            assert isinstance(names, KeptNames)
            assert _content(names) == _fresh(kg)
    finally:
        kg.close()


def test_opening_again_reads_no_names_when_nothing_changed(tmp_path: Path) -> None:
    path = tmp_path / "graph.db"
    with KnowledgeGraph.open(path) as kg:
        kg.load(EXAMPLES / "onchain", shacl=False)
        expected = kg.ask(QUESTION).to_json()
        built = _bases(kg)
    assert len(built) == 1
    with KnowledgeGraph.open(path) as kg:
        reads: list[str] = []
        real = kg.store.iter_values

        def counted(query: str) -> Any:
            reads.append(query)
            return real(query)

        kg.store.iter_values = counted  # type: ignore[method-assign]
        assert kg.ask(QUESTION).to_json() == expected
        assert reads == [] and _bases(kg) == built
        kg.ingest(_batch(1, "새 지갑"), domain="onchain", config=LENIENT)  # followed: a delta, no rebuild
        assert "새지갑" in kg.context("onchain").lexicon.names
    with KnowledgeGraph.open(path) as kg:
        assert _bases(kg) == built
        assert kg.context("onchain").lexicon.nodes_named("새지갑") == ["w_new1"]
        assert _content(kg.context("onchain").lexicon.names) == _fresh(kg)


def test_a_write_not_followed_makes_the_next_process_rebuild(tmp_path: Path) -> None:
    path = tmp_path / "graph.db"
    with KnowledgeGraph.open(path) as kg:
        kg.load(EXAMPLES / "onchain", shacl=False)
        kg.ask(QUESTION)
        built = _bases(kg)
        node = mint("onchain", "node", "n_h1")
        kg.store.update(f'INSERT DATA {{ <{node}> <http://www.w3.org/2004/02/skos/core#altLabel> "숨은이름" }}')
    with KnowledgeGraph.open(path) as kg:
        assert kg.context("onchain").lexicon.nodes_named("숨은이름") == ["n_h1"]
        assert _bases(kg) != built


def test_a_reader_sees_the_names_of_its_own_moment(tmp_path: Path) -> None:
    path = tmp_path / "graph.db"
    kg = KnowledgeGraph.open(path)
    try:
        kg.load(EXAMPLES / "onchain", shacl=False)
        kg.ask(QUESTION)
        with KnowledgeGraph.open(path, read_only=True) as early:
            kg.ingest(_batch(2, "나중 지갑"), domain="onchain", config=LENIENT)
            assert kg.context("onchain").lexicon.nodes_named("나중지갑") == ["w_new2"]
            assert early.context("onchain").lexicon.nodes_named("나중지갑") == []  # not in its view of the store
            assert _content(early.context("onchain").lexicon.names) == _fresh(early)
        with KnowledgeGraph.open(path, read_only=True) as late:
            assert late.context("onchain").lexicon.nodes_named("나중지갑") == ["w_new2"]
    finally:
        kg.close()
