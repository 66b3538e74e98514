"""SHACL row by row (validation/rowwise.py): on every dataset it finds exactly what the compiled shapes find on
the whole batch as one graph; the shortcuts it takes (a plain string judged from its text, a node judged by its
classes, one run per signature) agree with the compiled shapes' own verdicts; shapes one row cannot decide are
named and checked on a sample; and a fault in the last row of a large load is caught by the default pass."""

from __future__ import annotations

import csv
import itertools
import re
import uuid
from pathlib import Path

import pytest
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st
from rdflib import RDF, Literal, URIRef
from rdflib.namespace import SH

from ont_platform import KnowledgeGraph
from ont_platform.domains import Domain, forget_domain, get_domain, register_domain
from ont_platform.errors import DatasetError
from ont_platform.ingest.datasets import FULL_SHACL_MAX_TRIPLES
from ont_platform.ontology.shacl import shapes_graph
from ont_platform.validation.shapes import compiled

ROOT = Path(__file__).resolve().parents[2]
_counter = itertools.count()
LABEL_CHARS = "abcxyz_09 AZ-"


def _write_domain(folder: Path, name: str, *, count_over_relation: bool = False) -> str:
    """A user domain of three classes and two relations whose shapes row checks cannot see coming: a label
    pattern and length, a chunk length, a class on a relation's values other than its range, a datatype."""
    ns = f"https://example.org/{name}#"
    folder.mkdir(parents=True)
    (folder / "ontology.ttl").write_text(
        f"""@prefix x: <{ns}> .
@prefix owl: <http://www.w3.org/2002/07/owl#> .
@prefix rdfs: <http://www.w3.org/2000/01/rdf-schema#> .
<https://example.org/{name}> a owl:Ontology ; <https://w3id.org/ont-platform/core#domainName> "{name}" .
x:Ka a owl:Class ; rdfs:label "기관"@ko , "agency"@en .
x:Kb a owl:Class ; rdfs:label "부서"@ko , "office"@en .
x:Kc a owl:Class ; rdfs:subClassOf x:Kb ; rdfs:label "창고"@ko , "depot"@en .
x:runs a owl:ObjectProperty ; rdfs:domain x:Ka ; rdfs:range x:Kb ; rdfs:label "운영"@ko , "runs"@en .
x:feeds a owl:ObjectProperty ; rdfs:domain x:Kb ; rdfs:range x:Kb ; rdfs:label "공급"@ko , "feeds"@en .
""",
        encoding="utf-8",
    )
    extra = (
        (
            "x:Busy a sh:NodeShape ; sh:targetClass x:Ka ; sh:property [ sh:path x:runs ; sh:maxCount 2 ; "
            'sh:message "runs at most two" ] .\n'
        )
        if count_over_relation
        else ""
    )
    (folder / "shapes.ttl").write_text(
        f"""@prefix sh: <http://www.w3.org/ns/shacl#> .
@prefix x: <{ns}> .
@prefix rdfs: <http://www.w3.org/2000/01/rdf-schema#> .
@prefix ont: <https://w3id.org/ont-platform/core#> .
x:Named a sh:NodeShape ; sh:targetClass x:Ka , x:Kb , x:Kc ;
  sh:property [ sh:path rdfs:label ; sh:pattern "^[a-z_0-9]+$" ; sh:maxLength 6 ;
                sh:message "a label is 1 to 6 lower-case letters, digits or _" ] .
x:Short a sh:NodeShape ; sh:targetClass ont:Chunk ;
  sh:property [ sh:path ont:text ; sh:maxLength 30 ; sh:message "a chunk holds at most 30 characters" ] .
x:RunsDepots a sh:NodeShape ; sh:targetSubjectsOf x:runs ;
  sh:property [ sh:path x:runs ; sh:class x:Kc ; sh:message "an agency runs depots only" ] .
x:Grounded a sh:NodeShape ; sh:targetSubjectsOf ont:grounded ;
  sh:property [ sh:path ont:grounded ; sh:in ( true ) ; sh:message "every relation here is grounded" ] .
{extra}""",
        encoding="utf-8",
    )
    return ns


@st.composite
def tables(draw: st.DrawFn) -> tuple[dict[str, tuple[str, str]], list[tuple[str, str, str, str, bool]]]:
    nodes = {
        f"n{i}": (draw(st.sampled_from(["Ka", "Kb", "Kc"])), draw(st.text(LABEL_CHARS, min_size=1, max_size=8)))
        for i in range(draw(st.integers(2, 12)))
    }
    ranges = {"runs": ("Ka", ("Kb", "Kc")), "feeds": (("Kb", "Kc"), ("Kb", "Kc"))}
    edges = []
    for j in range(draw(st.integers(0, 16))):
        rel = draw(st.sampled_from(["runs", "feeds"]))
        dom, rng = ranges[rel]
        srcs = [n for n, (c, _) in nodes.items() if c in dom]
        dsts = [n for n, (c, _) in nodes.items() if c in rng]
        if not srcs or not dsts:
            continue
        src, dst = draw(st.sampled_from(srcs)), draw(st.sampled_from(dsts))
        if src != dst:
            edges.append((f"e{j}", src, rel, dst, draw(st.booleans())))
    return nodes, edges


def _write_tables(
    folder: Path, nodes: dict[str, tuple[str, str]], edges: list[tuple[str, str, str, str, bool]], texts: list[str]
) -> None:
    with (folder / "kg_nodes.csv").open("w", newline="", encoding="utf-8") as f:
        out = csv.writer(f)
        out.writerow(["node_id", "class", "label", "aliases"])
        for n, (c, label) in nodes.items():
            out.writerow([n, c, label, ""])
    with (folder / "kg_edges.csv").open("w", newline="", encoding="utf-8") as f:
        out = csv.writer(f)
        out.writerow(["edge_id", "src", "rel", "dst", "chunk_id", "grounded"])
        for eid, s, r, d, grounded in edges:
            out.writerow([eid, s, r, d, f"c_{eid}", "true" if grounded else "false"])
    with (folder / "kg_chunks.csv").open("w", newline="", encoding="utf-8") as f:
        out = csv.writer(f)
        out.writerow(["chunk_id", "text"])
        for (eid, *_), text in zip(edges, itertools.cycle(texts or ["글"]), strict=False):
            out.writerow([f"c_{eid}", text])


def _register(folder: Path) -> Domain:
    spec = Domain.from_files(None, folder / "ontology.ttl", folder / "shapes.ttl", check=False)
    register_domain(spec)
    return spec


def _outcome(folder: Path, shacl: str) -> tuple[bool, set[str]]:
    """Whether the load was accepted, and the problems named when it was not."""
    with KnowledgeGraph.open() as kg:
        try:
            kg.load(folder, shacl=shacl)
        except DatasetError as exc:
            assert len(kg) == 0
            return False, {str(p) for p in exc.problems}
        return True, set()


@settings(max_examples=30, deadline=None, suppress_health_check=[HealthCheck.function_scoped_fixture])
@given(data=tables(), texts=st.lists(st.text("가나다 abc", min_size=1, max_size=40), max_size=4))
def test_rows_find_what_the_whole_batch_finds(tmp_path_factory: pytest.TempPathFactory, data, texts) -> None:  # type: ignore[no-untyped-def]
    name = f"rowgen{next(_counter)}-{uuid.uuid4().hex[:6]}"
    folder = tmp_path_factory.mktemp("rows") / name
    _write_domain(folder, name)
    nodes, edges = data
    _write_tables(folder, nodes, edges, texts)
    spec = _register(folder)
    try:
        shapes = compiled(spec)
        assert shapes is not None and not shapes.row_plan(r.iri for r in spec.ontology.relations.values()).sampled
        (whole_ok, whole), (rows_ok, rows) = _outcome(folder, "full"), _outcome(folder, "rows")
        assert whole_ok == rows_ok
        # A folder with a bad row is refused before the one-graph pass runs; the rows have been checked by the
        # shapes as they went, so they may name more. Without bad rows both name the same.
        assert whole <= rows
        if rows - whole:
            assert any(not _by_shapes(p) for p in whole), (whole, rows)
        else:
            assert whole == rows
    finally:
        forget_domain(spec.name)


SHAPE_MESSAGES = ("a label is 1 to", "a chunk holds", "an agency runs", "every relation here")


def _by_shapes(problem: str) -> bool:
    return any(m in problem for m in SHAPE_MESSAGES)


def _paths() -> list[tuple[str, URIRef]]:
    out = []
    for domain in ("onchain", "kg", "pages"):
        for path in sorted(set(shapes_graph(domain).objects(None, SH.path)), key=str):
            if isinstance(path, URIRef):
                out.append((domain, path))
    return out


@settings(max_examples=300, deadline=None)
@given(
    path=st.sampled_from(_paths()),
    text=st.text(max_size=60)
    | st.from_regex(r"0x[0-9a-f]{1,64}", fullmatch=True)
    | st.from_regex(r"[0-9]{1,30}", fullmatch=True),
)
def test_a_plain_string_is_judged_from_its_text_as_the_shapes_judge_the_literal(path, text) -> None:  # type: ignore[no-untyped-def]
    domain, p = path
    shapes = compiled(domain)
    assert shapes is not None
    fast = shapes.plain_key(str(p), text)
    if fast is not None:
        assert fast == shapes.value_key(p, Literal(text))


_TYPED_SHAPES = """@prefix sh: <http://www.w3.org/ns/shacl#> .
@prefix xsd: <http://www.w3.org/2001/XMLSchema#> .
@prefix x: <https://example.org/typed#> .
x:S a sh:NodeShape ; sh:targetClass x:K ;
  sh:property [ sh:path x:n ; sh:datatype xsd:integer ; sh:minInclusive 3 ; sh:maxExclusive 40 ; sh:message "n" ] ,
    [ sh:path x:m ; sh:pattern "^-?[0-9]{2}$" ; sh:maxLength 3 ; sh:minLength 2 ; sh:message "m" ] ,
    [ sh:path x:k ; sh:in ( 1 7 "7" true ) ; sh:nodeKind sh:Literal ; sh:message "k" ] ,
    [ sh:path x:b ; sh:hasValue false ; sh:datatype xsd:boolean ; sh:message "b" ] ,
    [ sh:path x:t ; sh:datatype xsd:dateTime ; sh:nodeKind sh:IRIOrLiteral ; sh:message "t" ] ,
    [ sh:path x:u ; sh:datatype xsd:dateTime ; sh:minInclusive "2020-01-01T00:00:00Z"^^xsd:dateTime ;
      sh:message "u" ] ,
    [ sh:path x:d ; sh:minInclusive 2.5 ; sh:class x:K ; sh:message "d" ] .
"""


def _typed_paths() -> list[tuple[object, URIRef]]:
    from rdflib import Graph

    from ont_platform.validation.shapes import CompiledShapes

    mine = CompiledShapes(Graph().parse(data=_TYPED_SHAPES, format="turtle"))
    paths: list[tuple[object, URIRef]] = [(d, p) for d, p in _paths()]
    return paths + [(mine, URIRef(f"https://example.org/typed#{n}")) for n in "nmkbtud"]


_XSD = "http://www.w3.org/2001/XMLSchema#"
_TYPED_PATHS = _typed_paths()


_TRICKY = ["true", "false", "1", "0", "-0", "00", "07", "+7", "-7", "39", "40", "TRUE", " 7", "2024-02-29T12:00:00Z"]


@settings(max_examples=300, deadline=None)
@given(
    datatype=st.sampled_from(["integer", "boolean", "dateTime", "decimal", "string"]),
    text=st.text(max_size=30)
    | st.from_regex(r"[-+]?[0-9]{1,25}", fullmatch=True)
    | st.sampled_from(_TRICKY)
    | st.from_regex(
        r"[0-9]{4}-[0-9]{2}-[0-9]{2}T[0-9]{2}:[0-9]{2}:[0-9]{2}(\\.[0-9]{1,3})?(Z|[+-][0-9]{2}:[0-9]{2})?",
        fullmatch=True,
    )
    | st.datetimes().map(lambda d: d.strftime("%Y-%m-%dT%H:%M:%SZ")),
)
def test_a_typed_literal_is_judged_from_its_text_as_the_shapes_judge_the_term(datatype, text) -> None:  # type: ignore[no-untyped-def]
    """On every path of the bundled shapes and of shapes with every value check on integers and booleans."""
    dt = _XSD + datatype
    for where, p in _TYPED_PATHS:
        shapes = compiled(where) if isinstance(where, str) else where
        assert shapes is not None
        fast = shapes.typed_key(str(p), text, dt)
        if fast is not None:
            assert fast == shapes.value_key(p, Literal(text, datatype=URIRef(dt))), (p, text, dt)


def test_typed_literals_a_row_check_meets_are_judged_from_their_text() -> None:
    """The block numbers and timestamps of a transfer row, and the flags of a relation, take the text route."""
    onchain, kg = compiled("onchain"), compiled("kg")
    assert onchain is not None and kg is not None
    ns, core = "https://w3id.org/ont-platform/onchain#", "https://w3id.org/ont-platform/core#"
    assert onchain.typed_key(ns + "blockNumber", "15000000", _XSD + "integer") == (True, True)
    assert onchain.typed_key(ns + "blockNumber", "-1", _XSD + "integer") == (True, False)
    assert onchain.typed_key(ns + "timestamp", "2022-08-08T23:06:40Z", _XSD + "dateTime") == (True,)
    assert onchain.typed_key(ns + "timestamp", "2022-02-30T23:06:40Z", _XSD + "dateTime") is None
    assert kg.typed_key(core + "grounded", "true", _XSD + "boolean") == (True, True)


@settings(max_examples=200, deadline=None)
@given(
    path=st.sampled_from(_paths()),
    a=st.integers(0, 10**6),
    b=st.integers(0, 10**6),
    classes=st.sets(st.sampled_from(["Wallet", "Mixer", "ExchangeDeposit", "Person", "Company", "Chunk"]), max_size=2),
)
def test_a_node_is_judged_by_its_classes_where_the_shapes_say_so(path, a, b, classes) -> None:  # type: ignore[no-untyped-def]
    domain, p = path
    shapes = compiled(domain)
    assert shapes is not None
    if not shapes.judges_by_class(str(p)):
        return
    types = [URIRef(f"https://w3id.org/ont-platform/onchain#{c}") for c in sorted(classes)]
    one, other = URIRef(f"https://example.org/n/{a}"), URIRef(f"https://example.org/m/{b}")
    assert shapes.value_key(p, one, types) == shapes.value_key(p, other, types)


def test_shapes_one_row_cannot_decide_are_named_and_sampled(tmp_path: Path) -> None:
    name = f"rowcount{uuid.uuid4().hex[:6]}"
    folder = tmp_path / name
    _write_domain(folder, name, count_over_relation=True)
    nodes = {"a0": ("Ka", "a0"), **{f"d{i}": ("Kc", f"d{i}") for i in range(3)}}
    edges = [(f"e{i}", "a0", "runs", f"d{i}", True) for i in range(3)]  # three: over the count
    _write_tables(folder, nodes, edges, ["글"])
    spec = _register(folder)
    try:
        with KnowledgeGraph.open() as kg:
            with pytest.raises(DatasetError, match="runs at most two"):
                kg.load(folder, shacl="rows")  # the sample holds every resource of so small a batch
        with KnowledgeGraph.open() as kg:
            edges_ok = edges[:2]
            _write_tables(folder, nodes, edges_ok, ["글"])
            report = kg.load(folder, shacl="rows")
            assert report.shacl.mode == "rows"
            assert [line for line in report.shacl.sampled_shapes if "Busy" in line] == [
                "x:Busy: reads a relation's plain triples, which the rows of the relations hold"
            ]
            assert report.shacl.sample_resources > 0
    finally:
        forget_domain(spec.name)


def test_a_fault_in_the_last_row_of_a_large_load_is_caught_by_default(tmp_path: Path) -> None:
    name = f"rowlast{uuid.uuid4().hex[:6]}"
    folder = tmp_path / name
    _write_domain(folder, name)
    n = 1500  # ~15,000 triples with the edges and chunks: above the one-graph pass, so rows decide
    nodes = {f"k{i}": ("Kc", f"k{i}") for i in range(n)}
    edges = [(f"e{i}", f"k{i}", "feeds", f"k{(i + 1) % n}", True) for i in range(n)]
    _write_tables(folder, nodes, edges, ["짧은 글"])
    lines = (folder / "kg_edges.csv").read_text(encoding="utf-8").splitlines()
    spec = _register(folder)
    try:
        with KnowledgeGraph.open() as kg:
            report = kg.load(folder)
            assert report.shacl.mode == "rows" and report.shacl.triples > FULL_SHACL_MAX_TRIPLES
            assert report.shacl.sampled_shapes == ()
        last = lines[-1].split(",")
        last[-1] = "false"  # the last relation is not grounded: only the shapes forbid that
        (folder / "kg_edges.csv").write_text("\n".join([*lines[:-1], ",".join(last)]) + "\n", encoding="utf-8")
        with KnowledgeGraph.open() as kg:
            with pytest.raises(DatasetError) as caught:
                kg.load(folder)
            assert len(kg) == 0
            problems = [str(p) for p in caught.value.problems]
            assert len(problems) == 1 and "every relation here is grounded" in problems[0]
            assert re.search(rf"kg_edges.csv.*\b{len(lines)}\b", problems[0]), problems[0]  # its file and line
    finally:
        forget_domain(spec.name)


def test_the_bundled_shapes_are_all_checked_row_by_row() -> None:
    for domain in ("onchain", "kg", "pages"):
        shapes = compiled(domain)
        assert shapes is not None
        plan = shapes.row_plan(r.iri for r in get_domain(domain).ontology.relations.values())
        assert plan.sampled == {}
        assert {*plan.own, *plan.foreign} == set(range(len(shapes.targeted)))


def test_a_node_is_judged_without_its_classes_where_no_constraint_reads_them() -> None:
    """Every path that says it ignores a node value's classes gives one key for every pair of class sets."""
    names = ["onchain#Wallet", "onchain#Mixer", "core#Chunk", "core#Evidence", "kg#Person", "kg#Company"]
    classes = [URIRef(f"https://w3id.org/ont-platform/{n}") for n in names] + [URIRef("https://example.org/typed#K")]
    sets = [[], *([c] for c in classes), classes[:3], classes[3:]]
    node = URIRef("https://example.org/n/1")
    ignoring = 0
    for where, p in _TYPED_PATHS:
        shapes = compiled(where) if isinstance(where, str) else where
        assert shapes is not None
        if shapes.ignores_classes(str(p)):
            ignoring += 1
            assert len({shapes.value_key(p, node, types) for types in sets}) == 1, p
    assert ignoring > 10


def test_which_paths_read_the_classes_of_their_values() -> None:
    onchain = compiled("onchain")
    assert onchain is not None
    core = "https://w3id.org/ont-platform/core#"
    assert onchain.ignores_classes(core + "source") and onchain.ignores_classes(core + "kind")
    assert not onchain.ignores_classes(core + "evidence")  # sh:class
    assert not onchain.ignores_classes(str(RDF.type))  # qualified value shapes
