"""Dataset folders load all or nothing, and every refused row is named with its file and line."""

from __future__ import annotations

import csv
import shutil
from pathlib import Path

import pytest
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st
from rdflib import Graph
from rdflib.compare import isomorphic

from ont_platform import DatasetError, InputError, KnowledgeGraph
from ont_platform.ingest.addresses import checksum_address

EXAMPLES = Path(__file__).resolve().parents[2] / "examples"


def _copy(name: str, tmp: Path) -> Path:
    dst = tmp / name
    shutil.copytree(EXAMPLES / name, dst)
    return dst


def _rows(path: Path) -> list[dict[str, str]]:
    with path.open(encoding="utf-8", newline="") as fh:
        return list(csv.DictReader(fh))


def _write(path: Path, rows: list[dict[str, str]], columns: list[str] | None = None) -> None:
    cols = columns or list(rows[0])
    with path.open("w", encoding="utf-8", newline="") as fh:
        w = csv.DictWriter(fh, fieldnames=cols)
        w.writeheader()
        w.writerows(rows)


@pytest.mark.parametrize(
    "name,domain", [("onchain", "onchain"), ("kg", "kg"), ("pages", "pages"), ("onchain-real", "onchain")]
)
def test_examples_load(name: str, domain: str) -> None:
    with KnowledgeGraph.open() as kg:
        report = kg.load(EXAMPLES / name)
        assert report.domain == domain
        assert report.triples_added == len(kg) > 0
        assert kg.domains() == [domain]


def test_onchain_seed_facts_are_in_the_graph() -> None:
    with KnowledgeGraph.open() as kg:
        report = kg.load(EXAMPLES / "onchain")
        assert any("n_orphan" in str(w) for w in report.warnings)
        rows = kg.select("""
            PREFIX ont: <https://w3id.org/ont-platform/core#>
            PREFIX oc: <https://w3id.org/ont-platform/onchain#>
            SELECT ?cls ?norm WHERE { ?n ont:id "n_orphan" ; a ?cls OPTIONAL { ?n oc:addressNorm ?norm } }""")
        assert [(str(r["cls"]).rsplit("#")[-1], r["norm"]) for r in rows] == [("Unknown", None)]
        hops = kg.select("""
            PREFIX ont: <https://w3id.org/ont-platform/core#>
            PREFIX oc: <https://w3id.org/ont-platform/onchain#>
            SELECT ?tx WHERE { ?e ont:id "e1" ; oc:txHash ?tx ; ont:source/ont:id "n_a1" ; ont:target/ont:id "n_h1" .
                               ?a ont:id "n_a1" . ?b ont:id "n_h1" . ?a oc:transfer ?b }""")
        assert [str(r["tx"]) for r in hops] == ["0xaa1"]


def test_big_values_stay_exact() -> None:
    edges = _rows(EXAMPLES / "onchain" / "onchain_edges.csv")
    big = [r["value"] for r in edges if r.get("value") and int(r["value"]) > 2**63]
    assert big, "the example must hold a value above 2^63"
    with KnowledgeGraph.open() as kg:
        kg.load(EXAMPLES / "onchain")
        values = {
            str(r["v"]) for r in kg.select("SELECT ?v WHERE { ?e <https://w3id.org/ont-platform/onchain#value> ?v }")
        }
        assert set(big) <= values


def test_a_second_load_of_a_domain_is_incremental() -> None:
    """The same folder again adds nothing and counts every resource unchanged (tests/ingest/test_increments.py
    has the rest: added, replaced, refused)."""
    with KnowledgeGraph.open() as kg:
        first = kg.load(EXAMPLES / "kg")
        n = len(kg)
        again = kg.load(EXAMPLES / "kg")
        assert len(kg) == n and again.triples_added == 0 and again.added == 0
        assert again.unchanged == sum(first.counts.values()) + 1  # every row, and the dataset record
        kg.load(EXAMPLES / "pages")  # another domain is fine
        assert kg.domains() == ["kg", "pages"]


@pytest.mark.parametrize(
    "dataset,file,column,index,value,reason",
    [
        ("onchain", "onchain_nodes.csv", "onto_class", 0, "Exchange Deposit", "unknown class"),
        ("onchain", "onchain_nodes.csv", "node_id", 1, "n_a1", "duplicate node_id"),
        ("onchain", "onchain_edges.csv", "rel", 0, "sends", "unknown rel"),
        ("onchain", "onchain_edges.csv", "to", 0, "n_nowhere", "unknown node"),
        ("onchain", "onchain_edges.csv", "tx_hash", 0, "", "tx_hash missing"),
        ("onchain", "onchain_edges.csv", "tx_hash", 0, "0xnothex", "tx_hash not 0x"),
        ("onchain", "onchain_edges.csv", "value", 0, "1.5e18", "whole number"),
        ("onchain", "onchain_edges.csv", "timestamp", 0, "yesterday", "timestamp"),
        ("kg", "kg_nodes.csv", "class", 0, "Human", "unknown class"),
        ("kg", "kg_nodes.csv", "label", 0, "", "label is required"),
        ("kg", "kg_nodes.csv", "label", 0, "x" * 501, "longer than 500"),
        ("kg", "kg_edges.csv", "grounded", 0, "maybe", "grounded must be"),
        ("kg", "kg_edges.csv", "chunk_id", 0, "ch_missing", "not in kg_chunks.csv"),
        ("kg", "kg_edges.csv", "dst", 0, "p_hong", "itself"),
        ("kg", "kg_edges.csv", "src", 0, "c_beta", "domain"),
        ("pages", "pages.csv", "impressions_30d", 0, "many", "must be integer"),
        ("pages", "pages.csv", "url", 1, "not a url", "not an http"),
    ],
)
def test_broken_row_is_named_and_nothing_loads(
    tmp_path: Path, dataset: str, file: str, column: str, index: int, value: str, reason: str
) -> None:
    folder = _copy(dataset, tmp_path)
    rows = _rows(folder / file)
    rows[index][column] = value
    _write(folder / file, rows)
    with KnowledgeGraph.open() as kg:
        with pytest.raises(DatasetError) as info:
            kg.load(folder)
        assert len(kg) == 0
    problems = [p for p in info.value.problems if reason in p.reason]
    assert problems, info.value.problems
    assert problems[0].file == file and problems[0].line == index + 2


def test_wrong_checksum_makes_the_node_unknown_with_a_warning(tmp_path: Path) -> None:
    folder = _copy("onchain", tmp_path)
    rows = _rows(folder / "onchain_nodes.csv")
    target = next(r for r in rows if r["node_id"] == "n_d4")
    good = checksum_address(target["address"].lower())
    flipped = good[:-1] + (good[-1].swapcase() if good[-1].isalpha() else "a")
    target["address"] = flipped if flipped != good else good.replace(good[2], "F", 1)
    _write(folder / "onchain_nodes.csv", rows)
    with KnowledgeGraph.open() as kg:
        report = kg.load(folder)
        assert any("n_d4" in str(w) for w in report.warnings)
        cls = kg.select('SELECT ?c WHERE { ?n <https://w3id.org/ont-platform/core#id> "n_d4" ; a ?c }')
        assert [str(r["c"]).rsplit("#")[-1] for r in cls] == ["Unknown"]


def test_missing_column_and_folder_errors(tmp_path: Path) -> None:
    folder = _copy("kg", tmp_path)
    (folder / "kg_chunks.csv").write_text("chunk_id\nch_1\n", encoding="utf-8")
    with KnowledgeGraph.open() as kg, pytest.raises(DatasetError, match="missing required column"):
        kg.load(folder)
    with KnowledgeGraph.open() as kg, pytest.raises(InputError, match="not a dataset folder"):
        kg.load(tmp_path / "nothing-here")
    (tmp_path / "empty").mkdir()
    with KnowledgeGraph.open() as kg, pytest.raises(InputError, match="found none"):
        kg.load(tmp_path / "empty")


def test_non_utf8_and_ragged_rows(tmp_path: Path) -> None:
    folder = _copy("pages", tmp_path)
    (folder / "pages.csv").write_bytes("url,impressions_30d\nhttps://a.example/\xff,1\n".encode("latin-1"))
    with KnowledgeGraph.open() as kg, pytest.raises(DatasetError, match="not UTF-8"):
        kg.load(folder)
    (folder / "pages.csv").write_text("url,impressions_30d\nhttps://a.example/,1,2\n", encoding="utf-8")
    with KnowledgeGraph.open() as kg, pytest.raises(DatasetError, match="pages.csv:2: 3 cells"):
        kg.load(folder)


@pytest.mark.parametrize("fmt", ["ttl", "nt", "jsonld"])
@pytest.mark.parametrize("name", ["onchain", "kg", "pages"])
def test_export_import_round_trip(tmp_path: Path, fmt: str, name: str) -> None:
    with KnowledgeGraph.open() as kg:
        kg.load(EXAMPLES / name)
        out = kg.export(tmp_path / f"g.{fmt}")
        original = kg.dumps("nt")
    for backend in ("oxigraph", "rdflib"):
        with KnowledgeGraph.open(backend=backend) as again:
            assert again.import_rdf(out) == len(Graph().parse(data=original, format="nt"))
            a = Graph().parse(data=original, format="nt")
            b = Graph().parse(data=again.dumps("nt"), format="nt")
            assert isomorphic(a, b)


def test_on_disk_store_keeps_a_load(tmp_path: Path) -> None:
    with KnowledgeGraph.open(tmp_path / "db") as kg:
        kg.load(EXAMPLES / "kg")
        n = len(kg)
    with KnowledgeGraph.open(tmp_path / "db") as kg:
        assert len(kg) == n and kg.domains() == ["kg"]


# --- property tests -------------------------------------------------------------------------------------------

_ids = st.from_regex(r"[a-z][a-z0-9_]{0,8}", fullmatch=True)
_addr = st.binary(min_size=20, max_size=20).map(lambda b: "0x" + b.hex())
_classes = st.sampled_from(["Wallet", "ExchangeDeposit", "ExchangeHotWallet", "Mixer", "Bridge", "Contract"])


@st.composite
def onchain_tables(draw: st.DrawFn) -> tuple[list[dict[str, str]], list[dict[str, str]]]:
    ids = draw(st.lists(_ids, min_size=1, max_size=12, unique=True))
    addrs = draw(st.lists(_addr, min_size=len(ids), max_size=len(ids), unique=True))
    nodes = [
        {"node_id": i, "address": a, "onto_class": draw(_classes), "label": ""} for i, a in zip(ids, addrs, strict=True)
    ]
    edges = []
    for k in range(draw(st.integers(0, 20))):
        a, b = draw(st.sampled_from(ids)), draw(st.sampled_from(ids))
        value = str(draw(st.integers(0, 10**30)))
        edges.append(
            {
                "edge_id": f"e{k}",
                "rel": "transfer",
                "from": a,
                "to": b,
                "tx_hash": "0x" + draw(st.binary(min_size=32, max_size=32)).hex(),
                "value": value,
                "token": "ETH",
                "block_number": "",
                "timestamp": "",
            }
        )
    return nodes, edges


_EDGE_COLS = ["edge_id", "rel", "from", "to", "tx_hash", "value", "token", "block_number", "timestamp"]


@pytest.mark.slow
@settings(max_examples=40, deadline=None, suppress_health_check=[HealthCheck.function_scoped_fixture])
@given(tables=onchain_tables())
def test_random_valid_tables_load_exactly(
    tmp_path_factory: pytest.TempPathFactory, tables: tuple[list[dict[str, str]], list[dict[str, str]]]
) -> None:
    nodes, edges = tables
    folder = tmp_path_factory.mktemp("ds")
    _write(folder / "onchain_nodes.csv", nodes, ["node_id", "address", "onto_class", "label"])
    _write(folder / "onchain_edges.csv", edges, _EDGE_COLS)
    with KnowledgeGraph.open() as kg:
        report = kg.load(folder)
        assert report.counts == {"nodes": len(nodes), "edges": len(edges)}
        values = sorted(
            str(r["v"]) for r in kg.select("SELECT ?e ?v WHERE { ?e <https://w3id.org/ont-platform/onchain#value> ?v }")
        )
        assert values == sorted(e["value"] for e in edges)


_junk = st.text(st.characters(blacklist_categories=("Cs",)), max_size=30)


@settings(max_examples=60, deadline=None, suppress_health_check=[HealthCheck.function_scoped_fixture])
@given(tables=onchain_tables(), which=st.sampled_from(["nodes", "edges"]), junk=_junk, data=st.data())
def test_random_broken_cells_never_half_load(
    tmp_path_factory: pytest.TempPathFactory,
    tables: tuple[list[dict[str, str]], list[dict[str, str]]],
    which: str,
    junk: str,
    data: st.DataObject,
) -> None:
    nodes, edges = tables
    rows = nodes if which == "nodes" or not edges else edges
    row = data.draw(st.sampled_from(rows))
    column = data.draw(st.sampled_from(sorted(row)))
    row[column] = junk
    folder = tmp_path_factory.mktemp("ds")
    _write(folder / "onchain_nodes.csv", nodes, ["node_id", "address", "onto_class", "label"])
    _write(folder / "onchain_edges.csv", edges, _EDGE_COLS)
    with KnowledgeGraph.open() as kg:
        try:
            kg.load(folder)
        except DatasetError as exc:
            assert len(kg) == 0
            assert all(p.file in ("onchain_nodes.csv", "onchain_edges.csv") for p in exc.problems)
        else:
            assert len(kg) > 0
