"""The fourth example, examples/films: a domain the library has no code for, loaded and asked through the public
path a user takes (a folder with its own ontology.ttl and shapes.ttl)."""

from __future__ import annotations

import csv
import json
import shutil
from collections.abc import Iterator
from pathlib import Path

import pytest

from ont_platform import KnowledgeGraph
from ont_platform.answer.contracts import schema_errors
from ont_platform.cli.main import main
from ont_platform.domains import forget_domain
from ont_platform.evaluate import evaluate_gold
from ont_platform.verify import Verifier

FILMS = Path(__file__).resolve().parent.parent.parent / "examples" / "films"
QUESTIONS = [
    json.loads(line) for line in (FILMS / "questions.jsonl").read_text(encoding="utf-8").splitlines() if line.strip()
]


@pytest.fixture(scope="module")
def films() -> Iterator[KnowledgeGraph]:
    with KnowledgeGraph.open() as kg:
        kg.load(FILMS)
        yield kg


def test_the_folder_is_its_own_domain_named_by_its_ontology(films: KnowledgeGraph) -> None:
    assert films.domains() == ["films"]
    spec = films.domain("films")
    assert spec.family == "entities" and not spec.bundled
    assert {"directedBy", "starring", "bornIn", "collaboratedWith"} <= set(spec.ontology.relations)


@pytest.mark.parametrize("item", QUESTIONS, ids=[q["id"] for q in QUESTIONS])
def test_films_questions(films: KnowledgeGraph, item: dict) -> None:
    got = films.ask(item["question"], qid=item["id"]).to_json()
    assert schema_errors(got, "hop_decision") == []
    want = item["expected"]
    assert (got["decision"], got["answer"], got["factors"]) == (want["decision"], want["answer"], want["factors"]), got[
        "reason"
    ]
    assert [(h["src"], h["rel"], h["dst"]) for h in got["path"]] == [
        (h["src"], h["rel"], h["dst"]) for h in want["path"]
    ]


def test_every_films_answer_verifies(films: KnowledgeGraph) -> None:
    report = evaluate_gold(films, FILMS / "questions.jsonl")
    assert report.to_json()["overall"]["accuracy"] == 1.0
    assert all(item.verified for item in report.items)


def test_a_wrong_class_answer_is_rejected_by_verify(films: KnowledgeGraph) -> None:
    question = "한지우 감독은 어느 나라 출신인가요?"  # bornIn reaches a city
    got = films.ask(question).to_json()
    assert got["decision"] == "refuse"
    forged = {
        **got,
        "decision": "answer",
        "answer": got["path"][-1]["dst"] if got["path"] else "c_garam",
        "factors": [],
        "hedge": None,
    }
    with Verifier(films) as verifier:
        report = verifier.verify(forged, question=question)
    assert not report.ok
    assert any(f.check == "asked_class" for f in report.failures)


def test_adding_a_relation_is_a_change_to_ontology_and_data_only(tmp_path: Path) -> None:
    folder = tmp_path / "films"
    shutil.copytree(FILMS, folder)
    onto = folder / "ontology.ttl"
    onto.write_text(
        onto.read_text(encoding="utf-8")
        + """
film:scoredBy
    a owl:ObjectProperty ;
    rdfs:domain film:Film ;
    rdfs:range film:Person ;
    rdfs:label "음악 담당"@ko , "music by"@en ;
    skos:altLabel "음악을 맡은"@ko , "scored by"@en , "composer"@en ;
    rdfs:comment "The person who wrote the film's score."@en .
""",
        encoding="utf-8",
    )
    with (folder / "kg_nodes.csv").open("a", encoding="utf-8") as f:
        f.write("p_composer,Person,오세린,Serin Oh\n")
    with (folder / "kg_chunks.csv").open("a", encoding="utf-8") as f:
        f.write("ch_score,종이새의 음악은 오세린이 맡았다.\n")
    with (folder / "kg_edges.csv").open("a", encoding="utf-8") as f:
        f.write("e_score,f_paper,scoredBy,p_composer,ch_score,true\n")
    forget_domain("films")
    try:
        with KnowledgeGraph.open() as kg:
            kg.load(folder)
            got = kg.ask("종이새의 음악을 맡은 사람은 누구예요?").to_json()
            assert (got["decision"], got["answer"]) == ("answer", "p_composer"), got["reason"]
            english = kg.ask("Who is the composer of Paper Birds?").to_json()
            assert (english["decision"], english["answer"]) == ("answer", "p_composer"), english["reason"]
    finally:
        forget_domain("films")


@pytest.mark.slow
def test_cli_load_ask_verify_and_eval_work_on_the_folder(tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    question = QUESTIONS[0]["question"]
    assert main(["ask", "--data", str(FILMS), "--json", question]) == 0
    answer = json.loads(capsys.readouterr().out)
    assert answer["decision"] == QUESTIONS[0]["expected"]["decision"]
    answers = tmp_path / "answers.jsonl"
    answers.write_text(
        json.dumps({**answer, "query_id": QUESTIONS[0]["id"]}, ensure_ascii=False) + "\n", encoding="utf-8"
    )
    batch = tmp_path / "batch.jsonl"
    batch.write_text(
        "".join(
            json.dumps({"id": q["id"], "question": q["question"]}, ensure_ascii=False) + "\n" for q in QUESTIONS[:5]
        ),
        encoding="utf-8",
    )
    assert main(["ask", "--data", str(FILMS), "--batch", str(batch)]) == 0
    lines = [json.loads(x) for x in capsys.readouterr().out.splitlines() if x.strip()]
    assert [x["query_id"] for x in lines] == [q["id"] for q in QUESTIONS[:5]]
    assert main(["verify", str(answers), "--data", str(FILMS)]) == 0
    capsys.readouterr()
    assert main(["eval", "gold", str(FILMS / "questions.jsonl"), "--data", str(FILMS)]) == 0
    assert "films:answer" in capsys.readouterr().out


def test_the_service_lists_asks_and_verifies_a_users_domain(films: KnowledgeGraph) -> None:
    from fastapi.testclient import TestClient

    from ont_platform.service.app import create_app

    item = QUESTIONS[0]
    with TestClient(create_app([films], examples={"films": [item["question"]]})) as client:
        listed = client.get("/api/v1/domains").json()
        assert [(d["domain"], d["family"], d["contract"]) for d in listed] == [("films", "entities", "hop_decision")]
        assert listed[0]["examples"] == [item["question"]]
        got = client.post("/api/v1/ask", json={"domain": "films", "question": item["question"], "id": item["id"]})
        assert got.status_code == 200
        answer = got.json()
        assert answer["decision"] == item["expected"]["decision"]
        report = client.post("/api/v1/verify", json={"answer": answer, "question": item["question"]}).json()
        assert report["ok"], report
        node = item["expected"]["path"][0]["src"]
        facts = client.get(f"/api/v1/nodes/films/{node}").json()
        assert facts["classes"] and facts["label"]


def test_cli_validate_checks_an_extraction_against_the_folders_ontology(
    tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    good = {
        "entities": [
            {"id": "E_1", "label": "종이새", "type": "individual", "ontology_class": "Film"},
            {"id": "E_2", "label": "오세린", "type": "individual", "ontology_class": "Director"},
        ],
        "relations": [{"id": "R_1", "source_id": "E_1", "predicate": "directedBy", "target_id": "E_2"}],
    }
    path = tmp_path / "x.json"
    path.write_text(json.dumps(good, ensure_ascii=False), encoding="utf-8")
    assert main(["validate", str(path), "--data", str(FILMS)]) == 0
    bad = {**good, "relations": [{**good["relations"][0], "predicate": "boughtBy"}]}
    path.write_text(json.dumps(bad, ensure_ascii=False), encoding="utf-8")
    assert main(["validate", str(path), "--data", str(FILMS)]) == 1
    out = json.loads(capsys.readouterr().out.splitlines()[-1])
    assert [e["code"] for e in out["validation_errors"]] == ["unknown_predicate"]


def _walk(start: str, *steps: str) -> set[str]:
    """Where a chain of stored relations leads in the films tables; ``^p`` walks ``p`` backwards."""
    with (FILMS / "kg_edges.csv").open(encoding="utf-8") as fh:
        edges = list(csv.DictReader(fh))
    here = {start}
    for step in steps:
        back, prop = step.startswith("^"), step.lstrip("^")
        here = {
            (e["src"] if back else e["dst"])
            for e in edges
            if e["rel"] == prop and (e["dst"] if back else e["src"]) in here
        }
    return here


@pytest.mark.parametrize(
    ("question", "start", "chain"),
    [
        # 영화인 (a Person label) is analysed as 영화 + the copula; it must not make every 영화 also mean Person.
        ("윤혜진이 참여한 영화는 뭐예요?", "a_hyejin", ("^starring",)),
        # the letters of 영화제 (Festival) run across "영화 제목"; a word for the answer's name is no relation.
        ("키무라 레이 감독이 연출한 영화 제목 알려줘", "d_kimura", ("^directedBy",)),
        ("What is the name of the city where Han Jiwoo was born?", "d_han", ("bornIn",)),
        ("한지우가 태어난 도시 이름이 뭐야?", "d_han", ("bornIn",)),
    ],
)
def test_words_that_once_misled_the_class_reading(
    films: KnowledgeGraph, question: str, start: str, chain: tuple[str, ...]
) -> None:
    expected = _walk(start, *chain)
    assert len(expected) == 1
    answer = films.ask(question)
    assert (answer.decision, {answer.answer}) == ("answer", expected), answer.reason


@pytest.mark.parametrize(
    ("question", "start", "chain"),
    [
        # English names the first class before the start ("the director of X"): the chain goes there first
        ("Where was the director of Winter Station born?", "f_winter", ("directedBy", "bornIn")),
        ("What city is the studio behind Winter Station based in?", "f_winter", ("producedBy", "basedIn")),
        # the class before the copula says what the start is, not where the relation lands
        ("청하는 어느 나라에 있는 도시야?", "c_cheongha", ("locatedIn",)),
    ],
)
def test_class_words_around_the_start(films: KnowledgeGraph, question: str, start: str, chain: tuple[str, ...]) -> None:
    expected = _walk(start, *chain)
    assert len(expected) == 1
    answer = films.ask(question)
    assert (answer.decision, {answer.answer}) == ("answer", expected), answer.reason
