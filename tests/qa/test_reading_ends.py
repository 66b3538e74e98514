"""Where the named relations end short of the asked class.

A question that names the class its last relation lands on and then the asked class with no relation between
("홍길동이 다니는 회사의 나라는?") leaves the rest of the way to the ontology, as a class named at the front does;
one whose relation word itself says where it lands ("홍길동이 다니는 나라는?", "What city does Lee work in?")
is refused. Expected nodes are walked from the dataset's own edge table here, not written down.
"""

from __future__ import annotations

import csv
from collections.abc import Iterator

import pytest

from ont_platform import KnowledgeGraph
from ont_platform.resources import example_dataset

PLACE_STEPS = ("locatedIn", "partOf", "within")


def _edges() -> list[dict[str, str]]:
    with (example_dataset("kg") / "kg_edges.csv").open(encoding="utf-8") as fh:
        return list(csv.DictReader(fh))


def _classes() -> dict[str, str]:
    with (example_dataset("kg") / "kg_nodes.csv").open(encoding="utf-8") as fh:
        return {r["node_id"]: r["class"] for r in csv.DictReader(fh)}


def _place_of(node: str, cls: str) -> set[str]:
    """The places of class ``cls`` reached from ``node`` by place-containment edges, nearest first."""
    edges, classes = _edges(), _classes()
    here, seen = {node}, set()
    while here:
        hits = {n for n in here if classes.get(n) == cls}
        if hits:
            return hits
        seen |= here
        here = {e["dst"] for e in edges if e["src"] in here and e["rel"] in PLACE_STEPS} - seen
    return set()


def _employer(person: str) -> str:
    (company,) = {e["dst"] for e in _edges() if e["src"] == person and e["rel"] == "worksFor"}
    return company


@pytest.fixture(scope="module")
def kg() -> Iterator[KnowledgeGraph]:
    with KnowledgeGraph.open() as graph:
        graph.load(example_dataset("kg"))
        yield graph


@pytest.mark.parametrize(
    ("question", "person", "cls"),
    [
        ("홍길동이 다니는 회사의 나라는?", "p_hong", "Country"),
        ("Gilsun Hong works at some company. What city is that company in?", "p_gilsun", "City"),
    ],
)
def test_a_named_landing_class_lets_the_ontology_finish_the_chain(
    kg: KnowledgeGraph, question: str, person: str, cls: str
) -> None:
    expected = _place_of(_employer(person), cls)
    answer = kg.ask(question)
    assert answer.decision == "answer" and {answer.answer} == expected, answer.reason
    assert "*" in answer.reason  # the reading marks the part the ontology supplied


@pytest.mark.parametrize("question", ["홍길동이 다니는 나라는?", "What city does Minji Lee work in?"])
def test_a_relation_that_lands_elsewhere_than_asked_is_refused(kg: KnowledgeGraph, question: str) -> None:
    answer = kg.ask(question)
    assert answer.decision == "refuse" and answer.answer is None


def test_a_short_class_word_the_analyser_splits_is_still_the_asked_class(kg: KnowledgeGraph) -> None:
    """'나라는' at the end of a question is analysed as 나 + 이 + 라는 ("that is me"); read as the class word, or
    the question is answered as if it asked for the company."""
    answer = kg.ask("홍길동이 다니는 회사의 나라는?")
    assert answer.answer != _employer("p_hong")
    assert "[국가]" in answer.reason


def _acquirers(company: str) -> set[str]:
    return {e["src"] for e in _edges() if e["rel"] == "acquired" and e["dst"] == company}


@pytest.mark.parametrize("company", ["c_eps", "c_gamma"])
def test_an_object_particle_fixes_the_direction(kg: KnowledgeGraph, company: str) -> None:
    """'X를 인수한 회사' asks who acquired X. Both ends of acquired are companies, so only the particle says which
    way to walk; when nobody acquired X, the answer is a refusal, never the companies X acquired."""
    label = {"c_eps": "엡실론소프트", "c_gamma": "감마랩스"}[company]
    expected = _acquirers(company)
    answer = kg.ask(f"{label}를 인수한 회사가 있어?" if company == "c_gamma" else f"{label}를 인수한 회사는?")
    if expected:
        assert answer.decision == "answer" and set(answer.answer.split(", ")) == expected, answer.reason
    else:
        assert answer.decision == "refuse" and answer.answer is None, answer.reason


def _office(company: str) -> str:
    (place,) = {e["dst"] for e in _edges() if e["src"] == company and e["rel"] == "locatedIn"}
    return place


@pytest.mark.parametrize(
    "question",
    [
        "Where is the office of Beta Inc. located?",
        "I'd like to know where Beta Inc.'s office is.",
        "Where is Beta Inc. located?",
    ],
)
def test_words_of_one_relation_family_said_together_are_one_step(kg: KnowledgeGraph, question: str) -> None:
    """'where is', 'office' and 'located' all say where Beta is: one hop to its seat, not three (walking on to
    the country would answer a question nobody asked)."""
    answer = kg.ask(question)
    assert answer.decision == "answer" and answer.answer == _office("c_beta"), answer.reason
    assert len(answer.path) == 1


@pytest.fixture(scope="module")
def films() -> Iterator[KnowledgeGraph]:
    with KnowledgeGraph.open() as graph:
        graph.load(example_dataset("films"))
        yield graph


def _films_rows(name: str) -> list[dict[str, str]]:
    with (example_dataset("films") / name).open(encoding="utf-8") as fh:
        return list(csv.DictReader(fh))


@pytest.mark.parametrize(
    ("question", "start", "rel"),
    [
        ("파도 영화제는 어느 나라에서 열리나요?", "fe_vagues", "heldIn"),
        ("Which country is the Blue River Films studio based in?", "s_blueriver", "basedIn"),
    ],
)
def test_a_relation_continues_as_the_property_above_it(
    films: KnowledgeGraph, question: str, start: str, rel: str
) -> None:
    """heldIn (a festival's city) cannot follow itself, but within, the property above it, can: asked for a
    country, the walk goes on from the city along within, as "Which country is Acme in?" does in kg."""
    edges, nodes = _films_rows("kg_edges.csv"), {r["node_id"]: r["class"] for r in _films_rows("kg_nodes.csv")}
    (city,) = {e["dst"] for e in edges if e["src"] == start and e["rel"] == rel}
    countries = {
        e["dst"] for e in edges if e["src"] == city and e["rel"] == "locatedIn" and nodes[e["dst"]] == "Country"
    }
    answer = films.ask(question)
    assert answer.decision == "answer" and {answer.answer} == countries, answer.reason
    assert [h.rel for h in answer.path] == [rel, "locatedIn"]


def test_a_relation_with_no_place_above_it_is_not_extended(films: KnowledgeGraph) -> None:
    """bornIn reaches a city; nothing above it leads on, so a question for a country is refused."""
    answer = films.ask("Which country was Noah Miller born in?")
    assert answer.decision == "refuse" and answer.answer is None, answer.reason


@pytest.mark.parametrize("particle", ["랑", "하고", "와"])
def test_a_particle_glued_to_a_name_the_analyser_does_not_know_ends_the_name(
    films: KnowledgeGraph, particle: str
) -> None:
    """The analyser reads '모로랑' as one proper noun; the name 클레르 모로 still ends before the particle, and
    the particle is not an unread word."""
    edges = _films_rows("kg_edges.csv")
    partners = {e["dst"] for e in edges if e["src"] == "d_moreau" and e["rel"] == "collaboratedWith"} | {
        e["src"] for e in edges if e["dst"] == "d_moreau" and e["rel"] == "collaboratedWith"
    }
    answer = films.ask(f"클레르 모로{particle} 같이 작업한 감독은 누구니?")
    assert answer.decision == "answer" and set(answer.answer.split(", ")) <= partners, answer.reason


def test_a_name_inside_a_longer_word_is_still_no_name(kg: KnowledgeGraph) -> None:
    """'델타' inside '델타물싼' is not the company 델타: what follows it is no particle."""
    answer = kg.ask("델타물싼 어디 있어?")
    assert answer.decision == "refuse" and answer.answer is None


def test_a_dropped_object_particle_still_says_the_relation(films: KnowledgeGraph) -> None:
    """'호흡 맞춘' is the label '호흡을 맞춘' with the particle dropped, as casual Korean does; the other way round,
    '영화를 감독한' (a verb phrase) is never the class label '영화 감독'."""
    edges = _films_rows("kg_edges.csv")
    nodes = {r["node_id"]: r["class"] for r in _films_rows("kg_nodes.csv")}
    (eunbi,) = {r["node_id"] for r in _films_rows("kg_nodes.csv") if r["label"] == "강은비"}
    partners = {
        e["dst"] if e["src"] == eunbi else e["src"]
        for e in edges
        if e["rel"] == "collaboratedWith" and eunbi in (e["src"], e["dst"])
    }
    answer = films.ask("강은비랑 호흡 맞춘 배우 누구야?")
    assert answer.decision == "answer", answer.reason
    assert set(answer.answer.split(", ")) <= {p for p in partners if nodes[p] == "Actor"}
    verb = films.ask("서민제가 나온 영화를 감독한 사람은 어디 출신이에요?")
    assert [h.rel for h in verb.path][:2] == ["starring", "directedBy"], verb.reason


@pytest.mark.parametrize(
    "question", ["which companies are directly in South Korea", "Which continent is Tokyo directly part of?"]
)
def test_directly_with_one_relation_is_one_hop(kg: KnowledgeGraph, question: str) -> None:
    """'directly' with one relation limits the walk to that one hop: nothing is reached through a city or a
    country in between."""
    answer = kg.ask(question)
    assert answer.decision in ("refuse", "max_hops") and answer.answer is None, answer.reason
    assert len(answer.path) <= 1


def test_a_walk_back_along_its_own_edge_is_a_misreading(kg: KnowledgeGraph) -> None:
    """'…에 속한 곳은 어디 있어?': the final 있 read as a second place relation walks back along the edge it came
    by and "answers" with the start; that is refused, never answered."""
    answer = kg.ask("도시 중에 대한민국에 속한 곳은 어디어디 있어?")
    assert answer.answer != "pl_kr"
    assert answer.decision == "refuse" or set(answer.answer.split(", ")) == _cities_in("pl_kr"), answer.reason


def _cities_in(country: str) -> set[str]:
    classes = _classes()
    return {e["src"] for e in _edges() if e["dst"] == country and e["rel"] == "partOf" and classes[e["src"]] == "City"}


def test_a_relation_said_as_noun_and_verb_keeps_the_class_after_the_verb(kg: KnowledgeGraph) -> None:
    """'서울에 본사가 있는 회사': 본사 and 있는 are one step, landing on the class after the verb (회사): a
    foundation in Seoul is no company, so its staff are not in the answer."""
    classes = _classes()
    firms = {
        e["src"]
        for e in _edges()
        if e["dst"] == "pl_seoul" and e["rel"] == "locatedIn" and classes[e["src"]] == "Company"
    }
    staff = {e["src"] for e in _edges() if e["rel"] == "worksFor" and e["dst"] in firms}
    answer = kg.ask("서울에 본사가 있는 회사에 다니는 사람들은 누구인가요?")
    assert answer.decision == "answer" and set(answer.answer.split(", ")) <= staff, answer.reason
