"""Ingest of extractions: all or nothing (in memory and on disk, reopened), SHACL on the batch and its
neighbourhood only, the mapping to the data model, conflicts with stored facts, re-asks."""

from __future__ import annotations

import copy
from pathlib import Path
from typing import Any

import pytest

from ont_platform import KnowledgeGraph
from ont_platform.errors import InputError, StoreError, ValidationFailed
from ont_platform.ingest import extraction
from ont_platform.ingest.extraction import ingest
from ont_platform.testing import ScriptedLLM
from ont_platform.validation import OntologyGuard, RuleConfig
from tests.validation.conftest import KG_PAYLOAD

EXAMPLES = Path(__file__).resolve().parents[2] / "examples"
PREFIXES = "PREFIX kg: <https://w3id.org/ont-platform/kg#> PREFIX ont: <https://w3id.org/ont-platform/core#> "
NODE = "<https://w3id.org/ont-platform/id/kg/node/{}>"
LENIENT = RuleConfig(id_prefix_severity="warning")


def _lines(kg: KnowledgeGraph) -> set[bytes]:
    return set(kg.dumps("nt").splitlines())


def _range_violation() -> dict[str, Any]:
    payload = copy.deepcopy(KG_PAYLOAD)
    payload["relations"].append({"id": "R_3", "source_id": "E_1", "predicate": "worksFor", "target_id": "E_3"})
    return payload


def test_accepted_extraction_is_written_as_the_data_model_says() -> None:
    with KnowledgeGraph.open() as kg:
        report = ingest(kg, KG_PAYLOAD, domain="kg")
        assert report.accepted and report.errors == [] and report.shacl == "passed"
        assert report.counts == {
            "entities": 3,
            "relations": 2,
            "chunks": 1,
            "evidence": 2,
            "triples": report.counts["triples"],
        }
        assert report.triples_added == len(kg) == report.counts["triples"]
        rows = kg.select(
            PREFIXES
            + """
            SELECT ?kind ?grounded ?text ?conf WHERE {
                ?r ont:id "R_1" ; a kg:TextRelation ; ont:source E1 ; ont:target E2 ;
                   ont:kind ?kind ; ont:grounded ?grounded ; ont:chunk ?c ; ont:confidence ?conf .
                ?c a ont:Chunk ; ont:text ?text .
                E1 kg:worksFor E2 .
                E1 ont:evidence ?e . ?e a ont:Evidence ; ont:sourceUrl ?url ; ont:offset 0 .
            }""".replace("E1", NODE.format("E_1")).replace("E2", NODE.format("E_2"))
        )
        assert len(rows) == 1
        row = rows[0]
        assert str(row["kind"]).endswith("#worksFor") and str(row["grounded"]) == "true"
        assert str(row["text"]) == "홍길동은 에이씨미에서 일한다."
        assert str(row["conf"]) == "0.8" and str(row["conf"].datatype).endswith("#decimal")  # type: ignore[union-attr]
        assert kg.domains() == ["kg"]
        again = ingest(kg, KG_PAYLOAD, domain="kg")
        assert again.accepted and again.triples_added == 0  # idempotent


@pytest.mark.parametrize("backend", ["oxigraph", "rdflib"])
def test_refused_extractions_change_nothing(backend: str) -> None:
    with KnowledgeGraph.open(backend=backend) as kg:  # type: ignore[arg-type]
        assert ingest(kg, KG_PAYLOAD, domain="kg").accepted
        before = _lines(kg)
        for bad in (
            _range_violation(),
            {"entities": "nope"},
            "{",
            {"entities": [{"id": "E_1", "label": "홍길동", "type": "individual", "ontology_class": "City"}]},
        ):
            report = ingest(kg, bad, domain="kg")
            assert not report.accepted and report.errors and report.triples_added == 0
            assert _lines(kg) == before


def test_shacl_failure_refuses_the_whole_batch() -> None:
    payload = {
        "entities": [
            {
                "id": "E_1",
                "label": "wallet",
                "type": "individual",
                "ontology_class": "Wallet",
                "attributes": {"addressNorm": "0x" + "a" * 40},
            },
            {"id": "E_2", "label": "deposit", "type": "individual", "ontology_class": "ExchangeDeposit"},
        ],
        "relations": [
            {
                "id": "R_1",
                "source_id": "E_1",
                "predicate": "transfer",
                "target_id": "E_2",
                "attributes": {"txHash": "0xaa1"},
            }
        ],
    }
    with KnowledgeGraph.open() as kg:
        report = ingest(kg, payload, domain="onchain")
        assert not report.accepted and report.shacl == "failed" and len(kg) == 0
        assert [(e.code, e.path) for e in report.errors] == [("shacl", "$.entities[1]")]
        payload["entities"][1]["attributes"] = {"addressNorm": "0x" + "b" * 40}
        assert ingest(kg, payload, domain="onchain").accepted


def test_on_disk_store_reopens_with_exactly_what_was_committed(tmp_path: Path) -> None:
    path = tmp_path / "store"
    with KnowledgeGraph.open(path) as kg:
        assert ingest(kg, KG_PAYLOAD, domain="kg").accepted
        committed = _lines(kg)
        assert not ingest(kg, _range_violation(), domain="kg").accepted
    with KnowledgeGraph.open(path) as kg:
        assert _lines(kg) == committed
        second = copy.deepcopy(KG_PAYLOAD)
        for e in second["entities"]:
            e["id"] = e["id"].replace("E_", "E_2")
        for r in second["relations"]:
            r["id"] = r["id"].replace("R_", "R_2")
            r["source_id"] = r["source_id"].replace("E_", "E_2")
            r["target_id"] = r["target_id"].replace("E_", "E_2")
        assert ingest(kg, second, domain="kg").accepted
        committed = _lines(kg)
    with KnowledgeGraph.open(path) as kg:
        assert _lines(kg) == committed and len(kg) == len(committed)


def test_a_failing_commit_leaves_the_store_as_it_was(monkeypatch: pytest.MonkeyPatch) -> None:
    with KnowledgeGraph.open() as kg:
        kg.load(EXAMPLES / "kg")
        before = _lines(kg)

        def fail(data: str) -> None:
            raise StoreError("disk full")

        monkeypatch.setattr(kg.store, "add_ntriples", fail)
        with pytest.raises(StoreError):
            ingest(kg, KG_PAYLOAD, domain="kg")
        assert _lines(kg) == before


def test_shacl_runs_on_the_batch_and_its_neighbourhood_only(monkeypatch: pytest.MonkeyPatch) -> None:
    seen: list[tuple[int, set[str]]] = []
    real = extraction.shacl_violations

    def spy(data: Any, domain: str, focus: Any) -> Any:
        seen.append((len(data), {str(f) for f in focus}))
        return real(data, domain, focus)

    monkeypatch.setattr(extraction, "shacl_violations", spy)
    with KnowledgeGraph.open() as kg:
        kg.load(EXAMPLES / "kg")
        filler = "".join(f'<urn:filler:{i}> <urn:p> "{i}" .\n' for i in range(5000))
        kg.store.add_ntriples(filler)
        payload = {
            "entities": [
                {"id": "p_hong", "label": "홍길동", "type": "individual", "ontology_class": "Person"},
                {"id": "E_9", "label": "베타 랩스", "type": "individual", "ontology_class": "Company"},
            ],
            "relations": [{"id": "R_9", "source_id": "p_hong", "predicate": "worksFor", "target_id": "E_9"}],
        }
        report = ingest(kg, payload, domain="kg", config=LENIENT)
        assert report.accepted, report.as_dict()
        size, focus = seen[0]
        assert size < 40 and len(kg) > 5000
        assert focus == {
            "https://w3id.org/ont-platform/id/kg/node/p_hong",
            "https://w3id.org/ont-platform/id/kg/node/E_9",
            "https://w3id.org/ont-platform/id/kg/edge/R_9",
        }


def test_existing_resources_are_extended_not_contradicted() -> None:
    with KnowledgeGraph.open() as kg:
        kg.load(EXAMPLES / "kg")
        guard = OntologyGuard("lightweight", ontology="kg", config=LENIENT)
        same = {
            "entities": [
                {"id": "p_hong", "label": "홍길동", "type": "individual", "ontology_class": "Person", "confidence": 0.3}
            ]
        }
        report = ingest(kg, same, guard=guard, domain="kg")
        assert report.accepted
        clash = copy.deepcopy(same)
        clash["entities"][0]["ontology_class"] = "City"
        before = _lines(kg)
        report = ingest(kg, clash, guard=guard, domain="kg")
        assert not report.accepted and [e.code for e in report.errors] == ["class_conflict"]
        again = copy.deepcopy(same)
        again["entities"][0]["confidence"] = 0.9
        report = ingest(kg, again, guard=guard, domain="kg")
        assert report.accepted and "existing_value_kept" in {w.code for w in report.warnings}
        assert _lines(kg) == before


def test_ontology_candidates_are_not_written() -> None:
    payload = copy.deepcopy(KG_PAYLOAD)
    payload["entities"].append({"id": "E_9", "label": "스타트업", "type": "class"})
    with KnowledgeGraph.open() as kg:
        report = ingest(kg, payload, domain="kg")
        assert report.accepted and report.counts["entities"] == 3
        assert "not_an_individual" in {w.code for w in report.warnings}
        payload["relations"].append({"id": "R_9", "source_id": "E_2", "predicate": "acquired", "target_id": "E_9"})
        before = _lines(kg)
        report = ingest(kg, payload, domain="kg")
        assert not report.accepted and ("not_an_individual", "$.relations[2].target_id") in {
            (e.code, e.path) for e in report.errors
        }
        assert _lines(kg) == before


def test_reask_before_ingest_writes_the_corrected_output() -> None:
    bad = copy.deepcopy(KG_PAYLOAD)
    bad["entities"][0]["ontology_class"] = "City"
    llm = ScriptedLLM([KG_PAYLOAD])
    with KnowledgeGraph.open() as kg:
        report = ingest(kg, bad, guard=OntologyGuard("lightweight", ontology="kg", llm=llm), domain="kg")
        assert report.accepted and report.validation is not None and report.validation.attempts == 2
        rows = kg.select(f"SELECT ?c WHERE {{ {NODE.format('E_1')} a ?c }}")
        assert [str(r["c"]).rsplit("#", 1)[-1] for r in rows] == ["Person"]


def test_ingest_with_the_critic_as_guard() -> None:
    with KnowledgeGraph.open() as kg:
        report = ingest(kg, KG_PAYLOAD, guard=OntologyGuard("ontocast", ontology="kg", store=kg), domain="kg")
        assert report.accepted and report.validation is not None and report.validation.score == 1.0


def test_strict_guard_raises_and_changes_nothing() -> None:
    with KnowledgeGraph.open() as kg:
        with pytest.raises(ValidationFailed):
            ingest(kg, _range_violation(), guard=OntologyGuard("lightweight", strict=True, ontology="kg"))
        assert len(kg) == 0


def test_wrong_domain_or_guard_is_an_input_error() -> None:
    with KnowledgeGraph.open() as kg:
        with pytest.raises(InputError):
            ingest(kg, KG_PAYLOAD, domain="nowhere")
        with pytest.raises(InputError):
            ingest(kg, KG_PAYLOAD, guard=OntologyGuard("lightweight", ontology="onchain"), domain="kg")
        with pytest.raises(InputError):
            ingest(object(), KG_PAYLOAD)
        report = ingest(kg, KG_PAYLOAD, guard=OntologyGuard("lightweight"), domain="kg")  # ontology added by ingest
        assert report.accepted


def test_domain_comes_from_the_guard_or_the_stored_dataset() -> None:
    wallet = {
        "entities": [
            {
                "id": "E_1",
                "label": "wallet",
                "type": "individual",
                "ontology_class": "Wallet",
                "attributes": {"addressNorm": "0x" + "c" * 40},
            }
        ]
    }
    with KnowledgeGraph.open() as kg:
        kg.load(EXAMPLES / "onchain")
        report = ingest(kg, wallet)
        assert report.accepted and report.domain == "onchain"
    with KnowledgeGraph.open() as kg:
        assert ingest(kg, wallet, guard=OntologyGuard("lightweight", ontology="onchain")).domain == "onchain"
    with KnowledgeGraph.open() as kg:
        assert ingest(kg, KG_PAYLOAD).domain == "kg"  # an empty store: the default


def _renamed(payload: dict[str, Any], tag: int, *, entities: bool) -> dict[str, Any]:
    """The payload with new ids for its relations (stored entities and links, new relation resources), and with
    ``entities`` new ids and labels for its entities too (a batch of its own)."""
    out = copy.deepcopy(payload)
    if entities:
        for e in out["entities"]:
            e["id"], e["label"] = f"{e['id']}0{tag}", f"{e['label']} (batch {tag})"
    for r in out["relations"]:
        r["id"] = f"{r['id']}0{tag}"
        if entities:
            r["source_id"], r["target_id"] = f"{r['source_id']}0{tag}", f"{r['target_id']}0{tag}"
    return out


@pytest.mark.parametrize("domain", ["onchain", "kg"])
def test_triples_added_counts_what_the_store_took_in(domain: str) -> None:
    """``triples_added`` is what the store grew by, whether the batch is new, seen before, partly new (stored
    entities, new relations), or checked before another write came in (the count is then looked up whole)."""
    from hypothesis import HealthCheck, given, settings
    from hypothesis import strategies as st

    from ont_platform.testing import valid_payloads

    kinds = st.sampled_from(["new", "again", "more", "late new", "late again", "late more"])

    @settings(max_examples=25, deadline=None, suppress_health_check=[HealthCheck.too_slow])
    @given(first=valid_payloads(domain), other=valid_payloads(domain), steps=st.lists(kinds, min_size=1, max_size=4))
    def check(first: dict[str, Any], other: dict[str, Any], steps: list[str]) -> None:
        with KnowledgeGraph.open() as kg:
            seen = [first]
            assert ingest(kg, first, domain=domain, config=LENIENT).accepted
            for n, how in enumerate(steps, start=1):
                payload = (
                    _renamed(other, n, entities=True)
                    if how.endswith("new")
                    else _renamed(seen[-1], n, entities=False)
                    if how.endswith("more")
                    else seen[-1]
                )
                before = len(kg)
                if how.startswith("late"):  # checked, then another write, then committed
                    pending = extraction.check_extraction(kg, payload, domain=domain, config=LENIENT)
                    kg.store.add_ntriples(f'<urn:x:a> <urn:x:b> "{n}" .\n')
                    before = len(kg)
                    report = pending.commit() if pending.ready else pending.report
                else:
                    report = ingest(kg, payload, domain=domain, config=LENIENT)
                assert report.accepted, (how, report.errors)
                seen.append(payload)
                assert report.triples_added == len(kg) - before, how

    check()
