"""Loading an inventory with boolean, text and rank columns and a predicate dictionary: what is stored, and
bad rows refused as a whole with file:line (nothing of the dataset is loaded)."""

from __future__ import annotations

from pathlib import Path

import pytest
from rdflib import Literal
from rdflib.namespace import XSD

from ont_platform import KnowledgeGraph
from ont_platform.errors import DatasetError
from ont_platform.namespaces import PG
from tests.qa.test_pages_features import COLUMNS_CSV, PREDICATES_CSV, feature_rows, write_inventory

ROWS = feature_rows()


def test_column_types_are_stored_as_their_datatypes(tmp_path: Path) -> None:
    with KnowledgeGraph.open() as kg:
        kg.load(write_inventory(tmp_path, ROWS))
        rows = kg.select("""PREFIX pg: <https://w3id.org/ont-platform/pages#>
            SELECT ?type ?rank WHERE {
              pg:avg_position pg:columnType ?type OPTIONAL { pg:avg_position pg:rankLike ?rank } }""")
        assert [(str(r["type"]), str(r["rank"])) for r in rows] == [("decimal", "true")]
        flags = kg.select("""PREFIX pg: <https://w3id.org/ont-platform/pages#>
            SELECT DISTINCT ?v WHERE { ?p pg:indexable ?v }""")
        assert {r["v"] for r in flags} == {Literal(v, datatype=XSD.boolean) for v in ("true", "false")}
        titles = kg.select("""PREFIX pg: <https://w3id.org/ont-platform/pages#>
            SELECT DISTINCT ?v WHERE { ?p pg:title ?v }""")
        assert Literal("It's a sale") in {r["v"] for r in titles}
        # two rows of one phrase are two resources: neither value nor column is mixed up
        preds = kg.select("""PREFIX pg: <https://w3id.org/ont-platform/pages#>
            SELECT ?v ?a WHERE { ?p a pg:VaguePredicate ; pg:phrase "높은" ; pg:value ?v ; pg:appliesTo ?a }""")
        assert sorted((str(r["a"]), str(r["v"])) for r in preds) == [("ctr_30d", "0.05"), ("impressions_30d", "5000")]
        noindex = kg.select("""PREFIX pg: <https://w3id.org/ont-platform/pages#>
            SELECT ?v WHERE { ?p a pg:VaguePredicate ; pg:phrase "noindex" ; pg:value ?v }""")
        assert [r["v"] for r in noindex] == [Literal("false", datatype=XSD.boolean)]


BAD_PREDICATES = [
    ("낮은,~,3,clicks_30d", "needs a phrase and an op"),
    ("없는,=,0,nope", "unknown column 'nope'"),
    ("높은,>=,many,clicks_30d", "value must be a number or true/false"),
    ("오래된,older_than_days,1.5,updated_at", "whole number of days"),
    ("오래된,older_than_days,-3,updated_at", "whole number of days"),
    ("오래된,older_than_days,30,clicks_30d", "does not fit clicks_30d"),
    ("noindex,>,false,indexable", "needs = or !="),
    ("noindex,=,false,clicks_30d", "does not fit clicks_30d"),
    ("세일,=,1,title", "does not fit title"),
    ("높은,>=,NaN,", "value must be a number"),
]


@pytest.mark.parametrize(("row", "reason"), BAD_PREDICATES, ids=[r for r, _ in BAD_PREDICATES])
def test_a_bad_predicate_row_is_refused_with_its_line(tmp_path: Path, row: str, reason: str) -> None:
    folder = write_inventory(tmp_path, ROWS, predicates=PREDICATES_CSV + row + "\n")
    line = PREDICATES_CSV.count("\n") + 1
    with KnowledgeGraph.open() as kg:
        before = kg.dumps("nt")
        with pytest.raises(DatasetError, match=f"predicates.csv:{line}: .*{reason}"):
            kg.load(folder)
        assert kg.dumps("nt") == before
        assert kg.domains() == []


@pytest.mark.parametrize(
    ("cell", "column"), [("yes", "indexable"), ("1", "indexable"), ("maybe", "indexable"), ("third", "avg_position")]
)
def test_a_bad_cell_is_refused_with_its_line(tmp_path: Path, cell: str, column: str) -> None:
    rows = [dict(r) for r in ROWS]
    rows[6][column] = cell
    folder = write_inventory(tmp_path, rows)
    with KnowledgeGraph.open() as kg, pytest.raises(DatasetError, match=f"pages.csv:8: {column} must be"):
        kg.load(folder)


def test_an_unknown_column_type_is_refused(tmp_path: Path) -> None:
    folder = write_inventory(tmp_path, ROWS, columns=COLUMNS_CSV + "tags,태그,,list\n")
    with KnowledgeGraph.open() as kg, pytest.raises(DatasetError, match="columns.csv:6: type must be integer, decimal"):
        kg.load(folder)


def test_boolean_cells_are_read_case_blind(tmp_path: Path) -> None:
    rows = [dict(r) for r in ROWS]
    rows[0][PG.indexable.split("#")[-1]] = "False"
    with KnowledgeGraph.open() as kg:
        kg.load(write_inventory(tmp_path, rows))
        result = kg.ask("색인되지 않은 페이지").to_json()
        assert rows[0]["url"] in {m["url"] for m in result["matched"]}
