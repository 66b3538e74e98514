"""Loading more folders of a domain the store holds: added, unchanged, replaced, or refused whole.

The property test builds folders from random parts of the bundled kg example (some rows changed), loads them in
sequence in ``strict`` or ``upsert`` mode, and checks the store after every step against a model in plain
Python: a dict of rows by id, updated by the rules the docs state.
"""

from __future__ import annotations

import csv
from pathlib import Path

import pytest
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st
from rdflib import RDFS

from ont_platform import KnowledgeGraph
from ont_platform.errors import DatasetError, InputError
from ont_platform.namespaces import ONT, mint
from ont_platform.resources import example_dataset

KG = example_dataset("kg")
TABLES = ("kg_nodes.csv", "kg_edges.csv", "kg_chunks.csv")


def _rows(name: str) -> list[dict[str, str]]:
    with (KG / name).open(encoding="utf-8", newline="") as fh:
        return list(csv.DictReader(fh))


NODES, EDGES, CHUNKS = (_rows(t) for t in TABLES)
_LABEL = RDFS.label
KEYS = {"kg_nodes.csv": "node_id", "kg_edges.csv": "edge_id", "kg_chunks.csv": "chunk_id"}


def _write(folder: Path, rows: dict[str, list[dict[str, str]]]) -> Path:
    folder.mkdir(parents=True)
    for name, table in rows.items():
        fields = list((NODES if name == "kg_nodes.csv" else EDGES if name == "kg_edges.csv" else CHUNKS)[0])
        with (folder / name).open("w", encoding="utf-8", newline="") as fh:
            w = csv.DictWriter(fh, fieldnames=fields)
            w.writeheader()
            w.writerows(table)
    return folder


@st.composite
def folders(draw: st.DrawFn) -> dict[str, list[dict[str, str]]]:
    """A self-contained folder: some edges with their nodes and chunks, some more nodes, a few values changed
    (a label, an alias list, a grounded flag) or a link changed (an edge's chunk)."""
    edges = draw(st.lists(st.sampled_from(EDGES), max_size=6, unique_by=lambda e: e["edge_id"]))
    extra = draw(st.lists(st.sampled_from(NODES), max_size=4, unique_by=lambda n: n["node_id"]))
    by_id = {n["node_id"]: n for n in NODES}
    chunks = {c["chunk_id"]: c for c in CHUNKS}
    nodes = {n["node_id"]: dict(n) for n in extra}
    for e in edges:
        for end in (e["src"], e["dst"]):
            nodes.setdefault(end, dict(by_id[end]))
    edge_rows = [dict(e) for e in edges]
    for n in nodes.values():
        if draw(st.integers(0, 9)) == 0:
            n["label"] = n["label"] + "2"
        elif draw(st.integers(0, 9)) == 0:
            n["aliases"] = ""
    for e in edge_rows:
        if draw(st.integers(0, 9)) == 0 and e["chunk_id"]:  # grounded=true needs a chunk
            e["grounded"] = "false" if e["grounded"] == "true" else "true"
        elif draw(st.integers(0, 9)) == 0 and e["chunk_id"]:  # a link changed: refused even by upsert
            e["chunk_id"] = draw(st.sampled_from([c["chunk_id"] for c in CHUNKS if c["chunk_id"] != e["chunk_id"]]))
    used = {e["chunk_id"] for e in edge_rows if e.get("chunk_id")}
    return {
        "kg_nodes.csv": list(nodes.values()),
        "kg_edges.csv": edge_rows,
        "kg_chunks.csv": [chunks[c] for c in sorted(used) if c in chunks],
    }


LINKS = {"kg_nodes.csv": ("class",), "kg_edges.csv": ("src", "rel", "dst", "chunk_id"), "kg_chunks.csv": ()}


def _expect(model: dict[tuple[str, str], dict[str, str]], folder: dict[str, list[dict[str, str]]], mode: str) -> bool:
    """Apply the documented rules to the model; False when the load must be refused (model untouched)."""
    new = {(name, r[KEYS[name]]): r for name, rows in folder.items() for r in rows}
    for key, row in new.items():
        old = model.get(key)
        if old is None or _same(old, row):
            continue
        if mode == "strict" or any(old[f] != row[f] for f in LINKS[key[0]]):
            return False
    model.update(new)
    return True


def _same(a: dict[str, str], b: dict[str, str]) -> bool:
    def norm(r: dict[str, str]) -> dict[str, object]:
        return {
            k: (set(filter(None, v.split("|"))) if k == "aliases" else v.lower() if k == "grounded" else v)
            for k, v in r.items()
        }

    return norm(a) == norm(b)


@pytest.mark.slow
@settings(max_examples=25, deadline=None, suppress_health_check=[HealthCheck.function_scoped_fixture])
@given(steps=st.lists(st.tuples(folders(), st.sampled_from(["strict", "upsert"])), min_size=1, max_size=4))
def test_a_sequence_of_loads_keeps_the_store_equal_to_the_model(
    tmp_path_factory: pytest.TempPathFactory, steps: list
) -> None:
    base = tmp_path_factory.mktemp("loads")
    model: dict[tuple[str, str], dict[str, str]] = {}
    with KnowledgeGraph.open() as kg:
        for i, (folder, mode) in enumerate(steps):
            if not folder["kg_nodes.csv"]:
                continue  # a folder with no node is not a dataset
            path = _write(base / f"f{i}", folder)
            size = len(kg)
            ok = _expect(model, folder, mode)
            if ok:
                kg.load(path, mode=mode)
            else:
                with pytest.raises(DatasetError):
                    kg.load(path, mode=mode)
                assert len(kg) == size  # refused whole: nothing changed
            # the store holds exactly the model's nodes, labels and edges
            for (name, key), row in model.items():
                if name == "kg_nodes.csv":
                    labels = {str(o) for _, _, o in kg.triples((mint("kg", "node", key), _LABEL, None))}
                    assert labels == {row["label"]}
            stored_edges = {str(s).rsplit("/", 1)[-1] for s, _, _ in kg.triples((None, ONT.source, None))}
            assert stored_edges == {key for name, key in model if name == "kg_edges.csv"}


def test_a_conflict_names_the_file_line_and_field(tmp_path: Path) -> None:
    changed = [dict(n) for n in NODES]
    changed[0]["label"] = changed[0]["label"] + " (renamed)"
    folder = _write(
        tmp_path / "c",
        {"kg_nodes.csv": changed, "kg_edges.csv": [dict(e) for e in EDGES], "kg_chunks.csv": [dict(c) for c in CHUNKS]},
    )
    with KnowledgeGraph.open() as kg:
        kg.load(KG)
        size = len(kg)
        with pytest.raises(DatasetError) as err:
            kg.load(folder)
        assert "kg_nodes.csv:2" in str(err.value) and "label" in str(err.value) and "upsert" in str(err.value)
        assert len(kg) == size
        report = kg.load(folder, mode="upsert")
        assert (report.added, report.replaced) == (0, 1)
        assert report.unchanged == len(NODES) + len(EDGES) + len(CHUNKS)  # the dataset record, less the node
        labels = {str(o) for _, _, o in kg.triples((mint("kg", "node", NODES[0]["node_id"]), _LABEL, None))}
        assert labels == {changed[0]["label"]}


def test_a_bad_mode_is_an_input_error() -> None:
    from ont_platform.errors import InputError

    with KnowledgeGraph.open() as kg:
        with pytest.raises(InputError):
            kg.load(KG, mode="merge")
        assert len(kg) == 0


STEP = st.one_of(
    st.tuples(st.just("load"), folders(), st.sampled_from(["strict", "upsert"])),
    st.tuples(st.just("ingest"), st.sampled_from(EDGES), st.sampled_from(["worksFor", "locatedIn"])),
    st.tuples(st.just("retract"), st.sampled_from(EDGES), st.just("")),
)


@settings(max_examples=20, deadline=None, suppress_health_check=[HealthCheck.function_scoped_fixture])
@given(steps=st.lists(STEP, min_size=1, max_size=5))
def test_loads_ingests_and_retractions_keep_the_live_edges_equal_to_the_model(
    tmp_path_factory: pytest.TempPathFactory, steps: list
) -> None:
    """After every step the store's live relations (and node labels) are the model's; a refused step changes
    nothing. Ingests add a relation between two nodes of an earlier row (linked by id), retractions take back a
    relation of the model, a load merges a folder (a retracted id in it is a conflict: its stored description
    differs)."""
    base = tmp_path_factory.mktemp("mixed")
    by_id = {n["node_id"]: n for n in NODES}
    model: dict[tuple[str, str], dict[str, str]] = {}
    live: set[str] = set()
    dead: set[str] = set()
    with KnowledgeGraph.open() as kg:
        kg.load(KG)  # the whole example first: ingests and retractions have something to work on
        model.update(
            {
                (name, r[KEYS[name]]): r
                for name, rows in (("kg_nodes.csv", NODES), ("kg_edges.csv", EDGES), ("kg_chunks.csv", CHUNKS))
                for r in rows
            }
        )
        live |= {e["edge_id"] for e in EDGES}
        for i, (kind, arg, extra) in enumerate(steps):
            before = sorted(kg)
            if kind == "load":
                if not arg["kg_nodes.csv"]:
                    continue
                path = _write(base / f"f{i}", arg)
                if {e["edge_id"] for e in arg["kg_edges.csv"]} & dead or not _expect(dict(model), arg, extra):
                    with pytest.raises(DatasetError):
                        kg.load(path, mode=extra)
                    assert sorted(kg) == before
                else:
                    _expect(model, arg, extra)
                    kg.load(path, mode=extra)
                    live |= {e["edge_id"] for e in arg["kg_edges.csv"]}
            elif kind == "ingest":  # a relation from an edge's source to its target, under a new id
                src, dst = by_id[arg["src"]], by_id[arg["dst"]]
                payload = {
                    "entities": [
                        {
                            "id": "E_" + src["node_id"],
                            "label": src["label"],
                            "type": "individual",
                            "ontology_class": src["class"],
                        },
                        {
                            "id": "E_" + dst["node_id"],
                            "label": dst["label"],
                            "type": "individual",
                            "ontology_class": dst["class"],
                        },
                    ],
                    "relations": [
                        {
                            "id": f"R_{i}",
                            "source_id": "E_" + src["node_id"],
                            "predicate": extra,
                            "target_id": "E_" + dst["node_id"],
                            "evidence": {"chunk_text": f"{src['label']} {dst['label']}"},
                        }
                    ],
                }
                report = kg.ingest(payload, domain="kg")
                if report.accepted:
                    live.add(f"R_{i}")
                else:  # the relation does not fit the two classes (domain/range): refused whole
                    assert sorted(kg) == before
            else:
                if arg["edge_id"] in dead:
                    with pytest.raises(InputError):
                        kg.retract([arg["edge_id"]], reason="review")
                    assert sorted(kg) == before
                else:
                    kg.retract([arg["edge_id"]], reason="review")
                    live.discard(arg["edge_id"])
                    dead.add(arg["edge_id"])
            stored = {str(s).rsplit("/", 1)[-1] for s, _, _ in kg.triples((None, ONT.source, None))}
            assert stored == live
            for (name, key), row in model.items():
                if name == "kg_nodes.csv":
                    labels = {str(o) for _, _, o in kg.triples((mint("kg", "node", key), _LABEL, None))}
                    assert row["label"] in labels
