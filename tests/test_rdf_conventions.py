"""KnowledgeGraph speaks rdflib's Graph conventions: ``query`` result types, ``triples``, ``in``, ``iter``,
``serialize`` and ``clear``, on the embedded Oxigraph and the rdflib backends alike.

The remote backend gets one test of its own at the end, against an Oxigraph server on loopback: its blank node
labels are not stable between requests, so patterns naming a blank node are compared by structure there.
"""

from __future__ import annotations

import itertools
import json
import warnings
from collections.abc import Iterator
from pathlib import Path
from typing import Any

import pytest
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st
from rdflib import XSD, BNode, Graph, Literal, URIRef
from rdflib.compare import isomorphic
from rdflib.term import Node

from ont_platform import InputError, KnowledgeGraph, Limits, QueryError, QueryRefused
from ont_platform.kg import ResultGraph

BACKENDS = ["oxigraph", "rdflib"]
EX = "http://example.org/"
HYPOTHESIS = settings(max_examples=20, deadline=None, suppress_health_check=[HealthCheck.too_slow])

Triple = tuple[Node, Node, Node]

# -- random small graphs ---------------------------------------------------------------------------------------

_iris = st.sampled_from([URIRef(f"{EX}n{i}") for i in range(4)])
_bnodes = st.sampled_from([BNode(f"b{i}") for i in range(3)])
_predicates = st.sampled_from([URIRef(f"{EX}p{i}") for i in range(3)])
_literals = st.one_of(
    st.text(st.characters(categories=["L", "N"]), max_size=6).map(Literal),
    st.integers(-(10**20), 10**20).map(Literal),  # beyond int64: kept exactly
    st.sampled_from(["en", "ko"]).map(lambda lang: Literal("x", lang=lang)),
)
_triples = st.tuples(st.one_of(_iris, _bnodes), _predicates, st.one_of(_iris, _bnodes, _literals))
graphs = st.lists(_triples, min_size=1, max_size=12).map(lambda ts: _graph(ts))


def _graph(triples: list[Triple]) -> Graph:
    g = Graph()
    for t in triples:
        g.add(t)
    return g


def _parse(source: str | Path, fmt: str) -> Graph:
    """rdflib's own parser (its JSON-LD parser uses its deprecated ConjunctiveGraph inside: not ours to fix)."""
    with warnings.catch_warnings():
        warnings.filterwarnings("ignore", message="ConjunctiveGraph is deprecated", category=DeprecationWarning)
        if isinstance(source, Path):
            return Graph().parse(source, format=fmt)
        return Graph().parse(data=source, format=fmt)


def _open(backend: str, graph: Graph, limits: Limits | None = None) -> KnowledgeGraph:
    kg = KnowledgeGraph.open(backend=backend, limits=limits or Limits())  # type: ignore[arg-type]
    kg.store.add_ntriples(graph.serialize(format="nt"))
    return kg


def _patterns(triple: Triple) -> Iterator[tuple[Node | None, Node | None, Node | None]]:
    """The triple with every combination of its places made a wildcard."""
    for mask in itertools.product((False, True), repeat=3):
        yield tuple(None if wild else term for wild, term in zip(mask, triple, strict=True))  # type: ignore[misc]


def _matches(triple: Triple, pattern: tuple[Node | None, ...]) -> bool:
    return all(p is None or p == t for p, t in zip(pattern, triple, strict=True))


# -- triples, in, iter -----------------------------------------------------------------------------------------


@pytest.mark.parametrize("backend", BACKENDS)
@HYPOTHESIS
@given(graph=graphs, data=st.data())
def test_triples_and_in_agree_with_a_plain_filter(backend: str, graph: Graph, data: st.DataObject) -> None:
    with _open(backend, graph) as kg:
        stored = set(kg)  # blank node labels are the store's: compare against what it holds
        assert len(stored) == len(graph) == len(kg)
        assert isomorphic(_graph(list(stored)), graph)
        sample = data.draw(st.sampled_from(sorted(stored)))
        for pattern in _patterns(sample):
            expected = {t for t in stored if _matches(t, pattern)}
            assert set(kg.triples(pattern)) == expected, pattern
            assert (pattern in kg) is True
        absent = (URIRef(f"{EX}absent"), sample[1], sample[2])
        assert absent not in kg
        assert list(kg.triples(absent)) == []
        assert (None, URIRef(f"{EX}p9"), None) not in kg


@pytest.mark.parametrize("backend", BACKENDS)
def test_triples_refuses_what_it_cannot_match_and_what_it_would_cut(backend: str) -> None:
    graph = _graph([(URIRef(f"{EX}s"), URIRef(f"{EX}p"), Literal(i)) for i in range(5)])
    with _open(backend, graph, Limits(max_result_rows=3)) as kg:
        with pytest.raises(QueryError, match="more than 3 triples"):
            kg.triples((None, None, None))
        assert len(list(kg.triples((None, None, Literal(2))))) == 1
        assert len(list(kg)) == 5  # the whole graph, as serialize: no row cap
        with pytest.raises(InputError):
            kg.triples((Literal("a literal subject"), None, None))
        with pytest.raises(InputError):
            kg.triples((URIRef("http://a b"), None, None))  # cannot be written into SPARQL safely
        assert "not a triple" not in kg


# -- serialize -------------------------------------------------------------------------------------------------


@pytest.mark.parametrize("backend", BACKENDS)
@pytest.mark.parametrize(
    ("fmt", "rdflib_format"), [("turtle", "turtle"), ("nt", "nt"), ("json-ld", "json-ld"), ("xml", "xml")]
)
@HYPOTHESIS
@given(graph=graphs)
def test_serialize_then_parse_gives_the_same_graph(backend: str, fmt: str, rdflib_format: str, graph: Graph) -> None:
    with _open(backend, graph) as kg:
        text = kg.serialize(format=fmt)
        assert isinstance(text, str)
        assert isomorphic(_parse(text, rdflib_format), graph)


@pytest.mark.parametrize("backend", BACKENDS)
def test_serialize_writes_a_file_and_the_aliases_still_work(backend: str, tmp_path: Path) -> None:
    oc = "https://w3id.org/ont-platform/onchain#"
    big = Literal("340282366920938463463374607431768211456", datatype=XSD.integer)
    graph = _graph(
        [
            (URIRef(f"{EX}t1"), URIRef(f"{oc}amount"), big),
            (URIRef(f"{EX}t1"), URIRef("http://www.w3.org/1999/02/22-rdf-syntax-ns#type"), URIRef(f"{oc}Transfer")),
        ]
    )
    with _open(backend, graph) as kg:
        written = kg.serialize(tmp_path / "g.jsonld", format="json-ld")
        assert written == tmp_path / "g.jsonld"
        document = json.loads(written.read_text(encoding="utf-8"))
        assert document["@context"]["oc"] == oc
        node = document["@graph"][0]
        assert node["@type"] == ["oc:Transfer"] and "oc:amount" in node
        assert node["oc:amount"][0]["@value"] == "340282366920938463463374607431768211456"  # exact, a string
        assert isomorphic(_parse(written, "json-ld"), graph)
        assert kg.export(tmp_path / "g.ttl") == tmp_path / "g.ttl"
        assert isomorphic(_parse(tmp_path / "g.ttl", "turtle"), graph)
        kg.export(tmp_path / "g.rdf")
        assert isomorphic(_parse(tmp_path / "g.rdf", "xml"), graph)
        assert kg.dumps("nt") == kg.serialize(format="nt").encode("utf-8")  # type: ignore[union-attr]
        with pytest.raises(InputError, match="unknown RDF format"):
            kg.serialize(format="n3")


# -- query -----------------------------------------------------------------------------------------------------


@pytest.mark.slow
@pytest.mark.parametrize("backend", BACKENDS)
@HYPOTHESIS
@given(graph=graphs)
def test_query_forms_give_rdflib_result_types_and_construct_matches_rdflib(backend: str, graph: Graph) -> None:
    construct = (
        f"PREFIX ex: <{EX}> CONSTRUCT {{ ?s ex:back ?o . ?s ex:via [ ex:p ?p ] }} "
        "WHERE { ?s ?p ?o FILTER(?p != ex:p2) }"
    )
    with _open(backend, graph) as kg:
        assert kg.query("ASK { ?s ?p ?o }") is True
        assert kg.query(f"ASK {{ <{EX}absent> ?p ?o }}") is False
        rows = kg.query("SELECT ?s ?o WHERE { ?s ?p ?o }")
        assert isinstance(rows, list) and not rows.truncated  # type: ignore[union-attr]
        assert len(rows) == len(graph)  # type: ignore[arg-type]
        mine = kg.query(construct)
        assert isinstance(mine, ResultGraph) and not mine.truncated
        theirs = graph.query(construct).graph
        assert theirs is not None and isomorphic(mine, theirs)
        short = kg.query(f"CONSTRUCT WHERE {{ ?s <{EX}p0> ?o }}")
        assert isomorphic(short, _graph([t for t in graph if t[1] == URIRef(f"{EX}p0")]))  # type: ignore[arg-type]


@pytest.mark.parametrize("backend", BACKENDS)
def test_construct_is_cut_at_the_row_limit_and_says_so(backend: str) -> None:
    graph = _graph([(URIRef(f"{EX}s{i}"), URIRef(f"{EX}p"), Literal(i)) for i in range(5)])
    with _open(backend, graph, Limits(max_result_rows=3)) as kg:
        cut = kg.query("CONSTRUCT { ?s ?p ?o } WHERE { ?s ?p ?o }")
        assert isinstance(cut, ResultGraph) and len(cut) == 3 and cut.truncated
        whole = kg.query("CONSTRUCT { ?s ?p ?o } WHERE { ?s ?p ?o } LIMIT 2")
        assert len(whole) == 2 and not whole.truncated  # type: ignore[union-attr]


@pytest.mark.parametrize("backend", BACKENDS)
def test_describe_gives_the_concise_bounded_description(backend: str) -> None:
    a, b, p, q = (URIRef(f"{EX}{n}") for n in ("a", "b", "p", "q"))
    inner = BNode()
    graph = _graph([(a, p, b), (a, q, inner), (inner, p, Literal("deep")), (b, p, a)])
    with _open(backend, graph) as kg:
        described = kg.query(f"PREFIX ex: <{EX}> DESCRIBE ex:a")
        assert isinstance(described, Graph)
        assert isomorphic(described, _graph([(a, p, b), (a, q, inner), (inner, p, Literal("deep"))]))
        both = kg.query(f"DESCRIBE ?x WHERE {{ ?x <{EX}p> ?y }}")
        assert len(both) == 4  # type: ignore[arg-type]


REFUSED = [
    "CONSTRUCT { ?s ?p ?o } WHERE { SERVICE <http://example.org/sparql> { ?s ?p ?o } }",
    "CONSTRUCT { ?s ?p ?o } FROM <http://example.org/g> WHERE { ?s ?p ?o }",
    "CONSTRUCT { ?s ?p ?o } WHERE { GRAPH ?g { ?s ?p ?o } }",
    "CONSTRUCT { ?s ?p ?o } WHERE { ?s <urn:p>+ ?o }",
    "CONSTRUCT WHERE { ?s <urn:p>* ?o }",
    "DESCRIBE ?s WHERE { SERVICE <http://example.org/sparql> { ?s ?p ?o } }",
    "DESCRIBE <urn:a> FROM <http://example.org/g>",
    "CONSTRUCT { ?s ?p ?o } WHERE { ?s ?p ?o } ; DROP ALL",
    "CONSTRUCT { ?s ?p ?o ",
    'CONSTRUCT { ?s ?p "}" } WHERE { ?s ?p ?o . SERVICE <http://example.org/sparql> { ?s ?p ?o } }',
    "PREFIX construct: <urn:x:> INSERT DATA { construct:a construct:b construct:c }",
    "DROP ALL",
]


@pytest.mark.parametrize("backend", BACKENDS)
@pytest.mark.parametrize("text", REFUSED)
def test_query_refuses_what_select_refuses_in_every_form(backend: str, text: str) -> None:
    graph = _graph([(URIRef("urn:a"), URIRef("urn:p"), URIRef("urn:b"))])
    with _open(backend, graph) as kg, pytest.raises(QueryRefused):
        kg.query(text)
    with _open(backend, graph) as kg:
        assert len(kg) == 1


@pytest.mark.parametrize("backend", BACKENDS)
def test_a_template_brace_inside_a_string_or_comment_is_not_taken_for_the_end(backend: str) -> None:
    graph = _graph([(URIRef("urn:a"), URIRef("urn:p"), URIRef("urn:b"))])
    with _open(backend, graph) as kg:
        out = kg.query(
            '# CONSTRUCT { }\nPREFIX e: <urn:e:>\nCONSTRUCT { ?s e:note "} WHERE {" # }\n } WHERE { ?s ?p ?o }'
        )
        assert list(out) == [(URIRef("urn:a"), URIRef("urn:e:note"), Literal("} WHERE {"))]  # type: ignore[call-overload]


# -- clear -----------------------------------------------------------------------------------------------------


@pytest.mark.parametrize("backend", BACKENDS)
def test_clear_removes_everything_and_what_was_derived(backend: str) -> None:
    examples = Path(__file__).resolve().parents[1] / "examples"
    with KnowledgeGraph.open(backend=backend) as kg:  # type: ignore[arg-type]
        kg.load(examples / "kg", shacl=False)
        assert kg.ask("홍길동이 다니는 회사는?").to_json()["answer"] == "c_acme"
        kg.clear()
        assert len(kg) == 0 and list(kg) == [] and kg.domains() == []
        with pytest.raises(InputError, match="no dataset"):
            kg.ask("홍길동이 다니는 회사는?")
        kg.load(examples / "kg", shacl=False)  # the same domain again: nothing remembers the first load
        assert kg.ask("홍길동이 다니는 회사는?").to_json()["answer"] == "c_acme"


# -- the remote backend, against a real SPARQL server ------------------------------------------------------------


@pytest.mark.remote
@HYPOTHESIS
@given(graph=graphs)
def test_the_remote_backend_follows_the_same_conventions(oxigraph_endpoint: Any, graph: Graph) -> None:
    """``triples``/``in``/``len``/``iter``, ``serialize`` and ``query`` over ``backend="remote"`` (an Oxigraph
    server on loopback, started by the session) agree with the graph put into it, as on the embedded stores."""
    kg = KnowledgeGraph.open(
        backend="remote", endpoint=oxigraph_endpoint.query_url, update_endpoint=oxigraph_endpoint.update_url
    )
    try:
        kg.clear()
        kg.store.add_ntriples(graph.serialize(format="nt"))
        assert len(kg) == len(graph)
        assert isomorphic(_graph(list(kg)), graph)
        for triple in graph:
            if any(isinstance(t, BNode) for t in triple):
                continue  # a blank node's label is the store's own: matched by structure above
            for pattern in _patterns(triple):
                got = set(kg.triples(pattern))
                assert triple in got and all(_matches(t, pattern) for t in got)
            assert triple in kg
        assert isomorphic(_parse(kg.serialize(format="nt"), "nt"), graph)
        assert kg.query("ASK { ?s ?p ?o }") is True
        constructed = kg.query("CONSTRUCT { ?s ?p ?o } WHERE { ?s ?p ?o }")
        assert isinstance(constructed, ResultGraph) and isomorphic(constructed, graph)
    finally:
        kg.clear()
        kg.close()
