"""The notebooks in ``examples/notebooks`` run top to bottom, offline, show what they promise, and are stored with
the outputs a fresh run gives.

Each notebook is executed once per test session by ``examples/notebooks/execute.py`` (the script behind
``make notebooks``): nbclient, a fresh IPython kernel running this interpreter, the notebook's own folder as the
working directory (as Jupyter does), and the same normalisation as the stored files. The checks read the outputs
of the cells tagged in the notebook's metadata and compare them with the ontology files and the datasets' tables
and ``questions.jsonl``; and the stored outputs are compared with the fresh ones, so a notebook that was not run
again after a change fails here.
"""

from __future__ import annotations

import ast
import base64
import copy
import csv
import importlib.util
import json
import re
import shutil
from collections import Counter
from pathlib import Path
from typing import Any

import nbformat  # the test extra installs nbclient, nbformat, ipykernel and matplotlib
import pytest

ROOT = Path(__file__).resolve().parents[2]
NOTEBOOKS = ROOT / "examples" / "notebooks"
KG_DATA = ROOT / "examples" / "kg"


def _runner() -> Any:
    spec = importlib.util.spec_from_file_location("notebook_runner", NOTEBOOKS / "execute.py")
    assert spec is not None and spec.loader is not None
    module = importlib.util.module_from_spec(spec)
    spec.loader.exec_module(module)
    return module


RUNNER = _runner()
FIXTURES = {"explore_ontology.ipynb": "explore", "onchain_real.ipynb": "onchain_real", "kg_people.ipynb": "kg_people"}


def execute(name: str) -> Any:
    """Run a notebook from its own folder; nbclient raises CellExecutionError on the first failing cell."""
    return RUNNER.execute(NOTEBOOKS / name)


def tagged(nb: Any, tag: str) -> Any:
    cells = [c for c in nb.cells if tag in c.metadata.get("tags", [])]
    assert len(cells) == 1, f"expected one cell tagged {tag!r}, found {len(cells)}"
    return cells[0]


def text(cell: Any) -> str:
    """Everything a cell printed or displayed as text.

    Stream outputs are joined exactly as the kernel wrote them: it may flush one ``print`` as two stream
    messages (it did, on a loaded machine), and a separator between them would split the line. Displayed values
    end their own line."""
    out_text = ""
    for out in cell.outputs:
        if out.output_type == "stream":
            out_text += out.text
        elif out.output_type in ("display_data", "execute_result"):
            if out_text and not out_text.endswith("\n"):
                out_text += "\n"
            out_text += out.data.get("text/plain", "") + "\n"
    return out_text


def pngs(cell: Any) -> list[bytes]:
    return [
        base64.b64decode(out.data["image/png"])
        for out in cell.outputs
        if out.output_type in ("display_data", "execute_result") and "image/png" in out.data
    ]


def assert_ran_cleanly(nb: Any) -> None:
    for cell in nb.cells:
        if cell.cell_type != "code":
            continue
        assert cell.execution_count is not None, cell.source[:80]
        for out in cell.outputs:
            assert out.output_type != "error", f"{out.get('ename')}: {out.get('evalue')}"
            if out.output_type == "stream":
                assert out.name == "stdout", f"the cell wrote to stderr: {out.text[:500]}"


def test_every_notebook_is_executed_by_these_tests() -> None:
    assert sorted(p.name for p in RUNNER.notebooks()) == sorted(FIXTURES)


@pytest.mark.parametrize("name", sorted(FIXTURES))
def test_notebooks_are_stored_run_and_normalised(name: str) -> None:
    """Stored with outputs, as ``make notebooks`` writes them: counts 1, 2, 3 …, no timing or interpreter version."""
    stored = nbformat.read(NOTEBOOKS / name, as_version=4)
    nbformat.validate(stored)
    counts = [c.execution_count for c in stored.cells if c.cell_type == "code"]
    assert counts == list(range(1, len(counts) + 1)), f"{name} is not stored as run: run `make notebooks`"
    again = RUNNER.normalise(copy.deepcopy(stored))
    assert nbformat.writes(again) == nbformat.writes(stored), f"{name} was saved unnormalised: run `make notebooks`"


def shown(cell: Any) -> list[tuple[Any, ...]]:
    """What a cell shows, as compared between the stored notebook and a fresh run: stream text and the text and
    HTML of displayed values exactly; of images, only which kinds are there."""
    out: list[tuple[Any, ...]] = []
    for o in cell.outputs:
        if o.output_type == "stream":
            out.append(("stream", o.name, o.text))
        elif o.output_type in ("display_data", "execute_result"):
            out.append(
                (
                    o.output_type,
                    o.data.get("text/plain"),
                    o.data.get("text/html"),
                    sorted(k for k in o.data if k.startswith("image/")),
                )
            )
        else:
            out.append((o.output_type, o.get("ename"), o.get("evalue")))
    return out


@pytest.mark.notebook  # runs it: the fixture is taken by name below
@pytest.mark.parametrize("name", sorted(FIXTURES))
def test_stored_outputs_are_those_of_a_fresh_run(name: str, request: pytest.FixtureRequest) -> None:
    fresh = request.getfixturevalue(FIXTURES[name])
    stored = nbformat.read(NOTEBOOKS / name, as_version=4)
    assert [c.source for c in stored.cells] == [c.source for c in fresh.cells]
    for old, new in zip(stored.cells, fresh.cells, strict=True):
        if old.cell_type != "code":
            continue
        if new.outputs:
            assert old.outputs, f"{name}: cell {old.id} is stored without its outputs: run `make notebooks`"
        assert shown(old) == shown(new), f"{name}: cell {old.id} shows something else now: run `make notebooks`"
        for out in old.outputs:
            if "image/png" in out.get("data", {}):
                assert base64.b64decode(out.data["image/png"]).startswith(b"\x89PNG\r\n\x1a\n"), old.id


@pytest.fixture(scope="module")
def explore() -> Any:
    assert shutil.which("java"), "HermiT (the reasoner run in the notebook) needs Java on the PATH"
    return execute("explore_ontology.ipynb")


@pytest.fixture(scope="module")
def onchain_real() -> Any:
    return execute("onchain_real.ipynb")


@pytest.fixture(scope="module")
def kg_people() -> Any:
    return execute("kg_people.ipynb")


# ---------------------------------------------------------------------------------------------------------
# explore_ontology.ipynb


def test_explore_ontology_runs_top_to_bottom(explore: Any) -> None:
    assert_ran_cleanly(explore)


def test_explore_ontology_lists_classes_with_both_labels(explore: Any) -> None:
    out = text(tagged(explore, "class-labels"))
    assert "onchain: 14 entity classes, 2 relation classes" in out
    assert "oc:ExchangeDeposit | entity | 거래소 입금주소 | exchange deposit address" in out
    assert "kg:Person | entity | 사람 | person" in out
    assert "pg:WebPage | entity | 페이지 | web page" in out
    row = next(line for line in out.splitlines() if line.startswith("oc:Mixer |"))
    assert "텀블러" in row and "tumbler" in row  # synonyms from skos:altLabel in both languages
    rel = text(tagged(explore, "relations"))
    assert "kg | worksFor | kg:worksFor | 근무 | works for | kg:Person | kg:Organization | observed" in rel
    assert "onchain | same_entity | oc:sameEntity" in rel and "inferred | symmetric" in rel


def test_explore_ontology_draws_the_hierarchy(explore: Any) -> None:
    lines = text(tagged(explore, "hierarchy")).splitlines()
    depth = {
        line.strip().split()[0]: len(line) - len(line.lstrip())
        for line in lines
        if line.strip() and not line.startswith("==")
    }
    assert depth["oc:Address"] < depth["oc:Exchange"] < depth["oc:ExchangeDeposit"]
    assert depth["oc:Contract"] < depth["oc:DeFiContract"] < depth["oc:Dex"]
    assert depth["kg:Organization"] < depth["kg:Company"]


def test_explore_ontology_pictures_the_hierarchy_as_png(explore: Any) -> None:
    from ont_platform.domains import load_domain

    cell = tagged(explore, "hierarchy-picture")
    images = pngs(cell)
    assert len(images) == 1 and images[0].startswith(b"\x89PNG\r\n\x1a\n") and len(images[0]) > 20000
    onto = load_domain("onchain")
    drawn = int(re.search(r"onchain: (\d+) classes drawn", text(cell)).group(1))  # type: ignore[union-attr]
    assert drawn >= len(onto.classes) + len(onto.relation_classes) + 2  # and the core's Entity and Relation


def test_explore_ontology_shows_the_alignment(explore: Any) -> None:
    out = text(tagged(explore, "alignment"))
    assert "EthOn | oc:Contract | rdfs:subClassOf | ethon:ContractAccount" in out
    assert "EthOn | oc:Address ⊓ ∃ oc:addressNorm.xsd:string | rdfs:subClassOf | ethon:Account" in out
    assert "EthOn | oc:txHash | skos:closeMatch | ethon:txHash" in out
    assert "GraphSense | oc:Mixer | skos:closeMatch | gs:mixing_service | Mixing as a Service" in out
    assert "GraphSense | oc:ExchangeHotWallet | skos:broadMatch | gs:hot_wallet" in out
    assert "ethon:ContractAccount | rdfs:subClassOf" not in out  # EthOn's own axiom is not a mapping


def test_explore_ontology_reasoner_finds_every_file_consistent_offline(explore: Any) -> None:
    out = text(tagged(explore, "reasoner"))
    for stem in ("core", "onchain", "onchain-alignment", "kg", "pages", "graphsense-concepts"):
        assert f"\n{stem} | consistent | 0\n" in out
    assert "URL fetch attempts: 0" in out
    ethon = text(tagged(explore, "ethon"))
    assert "ethon:ContractAccount ⊒ oc:Contract, oc:DeFiContract, oc:Dex, oc:LendingPool, oc:TokenContract" in ethon
    account = next(line for line in ethon.splitlines() if line.startswith("ethon:Account ⊒"))
    assert "oc:Wallet" in account and "oc:Exchange" in account and "oc:Unknown" not in account
    assert "oc:Unknown is an ethon:Account: False" in ethon
    controls = text(tagged(explore, "controls"))
    assert "unsatisfiable: ['oc:Wallet']" in controls
    assert "HermiT reports the ontology inconsistent" in controls
    assert "URL fetch attempts: 0" in controls


def test_explore_ontology_shapes_accept_the_good_graph_and_name_each_fault(explore: Any) -> None:
    assert "0 violations -> conforms" in text(tagged(explore, "shacl-good"))
    rows = [line.split(" | ") for line in text(tagged(explore, "shacl-broken")).splitlines() if " | " in line]
    found = {(r[0], r[1]) for r in rows[1:]}
    assert ("id:kg/node/p_hong", "kg:worksFor") in found  # a person working for a city: range
    assert ("id:kg/edge/r01", "ont:confidence") in found  # 1.7
    assert ("id:kg/edge/r01", "-") in found  # grounded without a chunk
    assert ("id:kg/edge/r02", "ont:kind") in found  # no plain triple beside the resource
    assert ("id:kg/node/pl_seoul", "rdfs:label") in found  # blank label
    assert all(r[2].strip() for r in rows[1:])  # every violation has a message


# ---------------------------------------------------------------------------------------------------------
# onchain_real.ipynb


def gold() -> dict[str, dict[str, Any]]:
    lines = (ROOT / "examples" / "onchain-real" / "questions.jsonl").read_text(encoding="utf-8").splitlines()
    return {item["id"]: item for item in map(json.loads, filter(None, lines))}


def test_onchain_real_runs_top_to_bottom(onchain_real: Any) -> None:
    assert_ran_cleanly(onchain_real)


def test_onchain_real_loads_the_whole_dataset(onchain_real: Any) -> None:
    out = text(tagged(onchain_real, "load"))
    assert "nodes: 1459, edges: 1485" in out
    assert "triples in the store: 22022" in out
    assert "warnings: 0" in out
    assert "SHACL: " in out and " pass over " in out
    counts = text(tagged(onchain_real, "counts"))
    assert "Address | 1391" in counts and "Exchange | 27" in counts and "Dex | 22" in counts


def test_onchain_real_answers_match_the_gold(onchain_real: Any) -> None:
    expected = gold()
    rows = [line.split(" | ") for line in text(tagged(onchain_real, "gold")).splitlines() if " | " in line][1:]
    assert [r[0] for r in rows] == list(expected)
    for qid, intent, expected_intent, hops, _confidence, matches in rows:
        assert intent == expected_intent == expected[qid]["expected"]["intent"]
        assert int(hops) == len(expected[qid]["expected"]["path"])
        assert matches == "yes", qid


def test_onchain_real_shows_the_contract_json(onchain_real: Any) -> None:
    answer = json.loads(text(tagged(onchain_real, "answer-rq01")))
    expected = gold()["rq01"]["expected"]
    assert answer["q_id"] == "rq01" and answer["intent"] == expected["intent"]
    assert [{k: e[k] for k in ("edge_id", "tx_hash", "from", "to")} for e in answer["path"]] == expected["path"]
    assert answer["cited_nodes"] == expected["cited_nodes"] == ["a_1a80b182ea", "a_28c6c06298"]
    assert answer["grounding_ok"] is True and "SELECT" in answer["generated_query"]
    english = json.loads(text(tagged(onchain_real, "answer-en-dex")))
    assert english["intent"] == "path_exists"
    assert english["cited_nodes"] == gold()["rq06"]["expected"]["cited_nodes"]


def test_onchain_real_english_and_missing_nodes(onchain_real: Any) -> None:
    out = text(tagged(onchain_real, "english"))
    assert "[en_class] What class is a_28c6c06298?\n    label_lookup" in out
    assert "'Binance 14'" in out
    assert "[ko_missing]" in out and "no_path · 0 edges · confidence high · cited []" in out
    no_path = text(tagged(onchain_real, "no-path"))
    assert "rq07: no_path, 0 hops, cited ['a_04f5e63e15']" in no_path
    assert "rq08: path_exists, 4 hops" in no_path


def test_onchain_real_plots_paths_as_png(onchain_real: Any) -> None:
    plots = tagged(onchain_real, "plots")
    images = pngs(plots)
    assert len(images) == 3 and all(img.startswith(b"\x89PNG\r\n\x1a\n") and len(img) > 5000 for img in images)
    out = text(plots)
    assert "rq05: 3-hop swap route into a DEX contract: 4 nodes, 3 edges;" in out and "a_a88800cd21=Dex" in out
    assert "rq08: a lending pool 4 hops away: 5 nodes, 4 edges;" in out and "a_0d4a11d5ee=LendingPool" in out
    assert "a_28c6c06298=Exchange" in out
    flow = tagged(onchain_real, "flow-plot")
    assert len(pngs(flow)) == 1 and "10 edges" in text(flow)


def test_onchain_real_verifies_genuine_and_catches_tampered_answers(onchain_real: Any) -> None:
    out = text(tagged(onchain_real, "verify"))
    assert "17 passed every check" in out
    assert "| False |" not in out
    tampered = text(tagged(onchain_real, "tampered"))
    forged, denied = tampered.split("denied path:")
    assert '"check": "citations"' in forged and '"grounding_ok": false' in forged and "hallucinated" in forged
    assert '"check": "bfs"' in denied and '"ok": false' in denied


def test_text_joins_stream_pieces_as_the_kernel_wrote_them() -> None:
    """One print flushed as two stream messages reads as one line, whatever the machine's load."""
    from nbformat.v4 import new_code_cell, new_output

    cell = new_code_cell("print(...)")
    cell.outputs = [
        new_output("stream", name="stdout", text="0 violations ->"),
        new_output("stream", name="stdout", text=" conforms\n"),
        new_output("execute_result", data={"text/plain": "3"}, execution_count=1),
    ]
    assert text(cell) == "0 violations -> conforms\n3\n"


# ---------------------------------------------------------------------------------------------------------
# kg_people.ipynb: every answer is checked against examples/kg's tables, walked here without the library


def kg_table(name: str) -> list[dict[str, str]]:
    with open(KG_DATA / name, encoding="utf-8", newline="") as f:
        return list(csv.DictReader(f))


def kg_tables() -> tuple[dict[str, dict[str, str]], list[dict[str, str]], dict[str, str]]:
    nodes = {row["node_id"]: row for row in kg_table("kg_nodes.csv")}
    chunks = {row["chunk_id"]: row["text"] for row in kg_table("kg_chunks.csv")}
    return nodes, kg_table("kg_edges.csv"), chunks


def names(node: dict[str, str]) -> list[str]:
    return [node["label"], *filter(None, node["aliases"].split("|"))]


def grounded(edge: dict[str, str], nodes: dict[str, dict[str, str]], chunks: dict[str, str]) -> bool:
    """The seed 003 rule: marked grounded, its chunk exists, and the chunk names both ends."""
    chunk = chunks.get(edge["chunk_id"])
    return (
        edge["grounded"] == "true"
        and chunk is not None
        and all(any(n in chunk for n in names(nodes[end])) for end in (edge["src"], edge["dst"]))
    )


# question -> (a name of the start node, the relations walked in order (^rel: backwards), class of the answer)
CHAINS = {
    "이민지가 다니는 회사는 어느 도시에 있나요?": ("이민지", r"worksFor locatedIn( partOf)*", "City"),
    "Which city is the company Minji Lee works for in?": ("Minji Lee", r"worksFor locatedIn( partOf)*", "City"),
    "정하늘이 일하는 단체는 어느 나라에 있나요?": ("정하늘", r"worksFor locatedIn( partOf)*", "Country"),
    "Which country is the city that Epsilon Soft is located in part of?": (
        "Epsilon Soft",
        r"locatedIn( partOf)*",
        "Country",
    ),
    "감마랩스가 인수한 회사는 어느 도시에 있나요?": ("감마랩스", r"acquired locatedIn( partOf)*", "City"),
    "Which continent is Tokyo in?": ("Tokyo", r"partOf( partOf)*", "Continent"),
    "Who founded Gamma Labs?": ("Gamma Labs", r"\^foundedBy", "Person"),
}


def walk_tables(start_name: str, pattern: str, cls: str, max_hops: int = 3) -> str:
    """The answer the tables give: the ends of grounded walks from the start whose relations match ``pattern``
    and whose last node has class ``cls``, as the contract writes several (sorted, comma-separated)."""
    nodes, edges, chunks = kg_tables()
    start = next(i for i, node in nodes.items() if start_name in names(node))
    steps = [(e["src"], e["rel"], e["dst"]) for e in edges if grounded(e, nodes, chunks)]
    steps += [(dst, "^" + rel, src) for src, rel, dst in list(steps)]
    ends, frontier = set(), [(start, "")]
    for _ in range(max_hops):
        frontier = [
            (dst, f"{walked} {rel}".strip()) for node, walked in frontier for src, rel, dst in steps if src == node
        ]
        ends |= {node for node, walked in frontier if re.fullmatch(pattern, walked) and nodes[node]["class"] == cls}
    return ", ".join(sorted(ends))


def blocks(out: str) -> list[tuple[str, str, list[str]]]:
    """``[id] question`` lines and the indented lines under each."""
    found: list[tuple[str, str, list[str]]] = []
    for line in out.splitlines():
        head = re.match(r"\[(\w+)\] (.+)$", line)
        if head:
            found.append((head.group(1), head.group(2), []))
        elif line.startswith("    ") and found:
            found[-1][2].append(line.strip())
    return found


HOP = re.compile(r"(\w+) -(\w+)-> (\w+) \[([\w ]+)\]")


def test_kg_people_runs_top_to_bottom(kg_people: Any) -> None:
    assert_ran_cleanly(kg_people)


def test_kg_people_loads_the_tables_and_shows_the_ontology(kg_people: Any) -> None:
    nodes, edges, chunks = kg_tables()
    out = text(tagged(kg_people, "load"))
    assert f"nodes: {len(nodes)}, edges: {len(edges)}, chunks: {len(chunks)}" in out and "warnings: 0" in out
    rows = [line.split(" | ") for line in text(tagged(kg_people, "ontology")).splitlines()]
    per_class = Counter(node["class"] for node in nodes.values())
    for cls, n in per_class.items():
        assert any(r[0] == cls and r[-1] == str(n) for r in rows), cls
    for rel in {e["rel"] for e in edges}:
        of_rel = [e for e in edges if e["rel"] == rel]
        marked = sum(e["grounded"] == "true" for e in of_rel)
        assert any(r[0] == rel and r[-2:] == [str(len(of_rel)), str(marked)] for r in rows), rel


def test_kg_people_first_answer_is_displayed_with_its_path(kg_people: Any) -> None:
    cell = tagged(kg_people, "first-answer")
    out = text(cell)
    question = re.search(r"^question: (.+)$", out, re.M).group(1)  # type: ignore[union-attr]
    expected = next(
        json.loads(line)
        for line in (KG_DATA / "questions.jsonl").read_text("utf-8").splitlines()
        if line and json.loads(line)["question"] == question
    )["expected"]
    assert f"decision: {expected['decision']}" in out and f"answer:   {expected['answer']}" in out
    assert "reason:   " in out
    html = [o.data["text/html"] for o in cell.outputs if o.output_type == "execute_result"]
    assert len(html) == 1 and "HopDecision" in html[0] and "<svg" in html[0]
    for hop in expected["path"]:
        assert f"<title>{hop['chunk_id']}</title>" in html[0]
    assert "<svg" in "".join(o.data.get("text/html", "") for o in tagged(kg_people, "ask-html").outputs)


def test_kg_people_answers_match_the_file(kg_people: Any) -> None:
    lines = (KG_DATA / "questions.jsonl").read_text(encoding="utf-8").splitlines()
    gold = {item["id"]: item for item in map(json.loads, filter(None, lines))}
    rows = [line.split(" | ") for line in text(tagged(kg_people, "gold")).splitlines() if " | " in line][1:]
    assert [r[0] for r in rows] == list(gold)
    for qid, _question, decision, expected_decision, answer, _factors, hops, matches in rows:
        assert decision == expected_decision == gold[qid]["expected"]["decision"]
        assert answer == (gold[qid]["expected"]["answer"] or "-") and int(hops) == len(gold[qid]["expected"]["path"])
        assert matches == "yes", qid


def test_kg_people_multi_hop_answers_follow_the_tables(kg_people: Any) -> None:
    _nodes, edges, _chunks = kg_tables()
    stored_edges = {(e["src"], e["rel"], e["dst"], e["chunk_id"]) for e in edges}
    asked = blocks(text(tagged(kg_people, "ask")))
    assert {question for _qid, question, _ in asked} == set(CHAINS)
    assert any(re.search("[가-힣]", q) for _i, q, _ in asked) and any(q.isascii() for _i, q, _ in asked)
    for _qid, question, (line,) in asked:
        decision, answer, path = re.fullmatch(r"(\w+) (.+?) · (.+)", line).groups()  # type: ignore[union-attr]
        assert (decision, answer) == ("answer", walk_tables(*CHAINS[question])), question
        hops = HOP.findall(path)
        assert len(hops) >= 2 or question.startswith("Who"), question  # multi-hop, but for the founder
        assert all(hop in stored_edges for hop in hops), question


def test_kg_people_refusals_name_what_is_missing(kg_people: Any) -> None:
    nodes, edges, chunks = kg_tables()
    by_hop = {(e["src"], e["rel"], e["dst"]): e for e in edges}
    every_name = [n for node in nodes.values() for n in names(node)]
    factors_seen = set()
    for qid, question, (summary, reason) in blocks(text(tagged(kg_people, "refusals"))):
        decision, listed, path = re.fullmatch(r"(\w+) \[(.*)\] · path: (.+)", summary).groups()  # type: ignore
        factors = ast.literal_eval(f"[{listed}]")
        factors_seen.update(factors)
        assert decision == "refuse" and reason.startswith("reason: ") and len(reason) > 30, qid
        if {"missing_start_node", "node_alias_unmapped"} & set(factors):
            assert path == "-" and not any(n in question for n in every_name), qid
        if "ungrounded_hop" in factors:
            hops = HOP.findall(path)
            *before, (src, rel, dst, _chunk) = hops
            assert not grounded(by_hop[(src, rel, dst)], nodes, chunks), qid
            assert all(grounded(by_hop[h[:3]], nodes, chunks) for h in before), qid
    assert {"missing_start_node", "node_alias_unmapped", "ungrounded_hop"} <= factors_seen
    unnamed = text(tagged(kg_people, "unnamed"))
    chunk_id = re.search(r"chunk (\w+): ", unnamed).group(1)  # type: ignore[union-attr]
    assert f"chunk {chunk_id}: {chunks[chunk_id]}" in unnamed


def test_kg_people_misread_questions_are_refused_naming_the_words(kg_people: Any) -> None:
    misread = blocks(text(tagged(kg_people, "misread")))
    assert len(misread) >= 3
    for qid, question, (summary, reason) in misread:
        assert summary.startswith("refuse "), qid
        quoted = re.findall(r"'([^']+)'", reason)
        assert quoted and all(word in question for word in quoted), (qid, quoted)
    assert sum("unread=" in summary for _q, _t, (summary, _r) in misread) >= 2


def test_kg_people_labels_come_from_the_table(kg_people: Any) -> None:
    nodes, _edges, _chunks = kg_tables()
    out = text(tagged(kg_people, "labels"))
    labels = ast.literal_eval(next(line for line in out.splitlines() if line.startswith("{")))
    counted = re.search(r"(\d+) ids in the answers above, (\d+) labels; p_nobody has one: False", out)
    assert counted and int(counted.group(1)) == int(counted.group(2)) == len(labels) > 10
    assert labels == {i: nodes[i]["label"] for i in labels}


def test_kg_people_trace_shows_every_query(kg_people: Any) -> None:
    out = text(tagged(kg_people, "trace"))
    first, counts, *rest = out.splitlines()
    ran, distinct = map(int, re.fullmatch(r"(\d+) queries ran, (\d+) distinct:", counts).groups())  # type: ignore
    runs = [list(map(int, line[len("--- run ") :].split(", "))) for line in rest if line.startswith("--- run ")]
    assert len(runs) == distinct and sorted(n for r in runs for n in r) == list(range(1, ran + 1))
    bodies = re.split(r"^--- run .*\n", "\n".join(rest) + "\n", flags=re.M)[1:]
    for body in bodies:
        assert re.match(r"(SELECT|ASK)\b", body) and "LIMIT" in body, body
        assert not re.search(r"\b(INSERT|DELETE|LOAD|SERVICE)\b", body), body
    asked = {question: lines[0] for _qid, question, lines in blocks(text(tagged(kg_people, "ask")))}
    assert first in asked.values()  # the same answer as asked without the trace


def test_kg_people_verifies_genuine_and_catches_tampered_answers(kg_people: Any) -> None:
    out = text(tagged(kg_people, "verify"))
    verified, passed = map(int, re.search(r"(\d+) answers verified; (\d+) passed", out).groups())  # type: ignore
    rows = [line.split(" | ") for line in out.splitlines() if " | " in line][1:]
    assert verified == passed == len(rows) > 20 and "| False |" not in out
    decisions = {r[1] for r in rows}
    assert decisions == {"answer", "refuse", "max_hops"}  # refusals are verified too
    reports = [json.loads(m) for m in re.findall(r"^\{$.*?^\}$", text(tagged(kg_people, "tampered")), re.M | re.S)]
    assert len(reports) == 3 and not any(r["ok"] for r in reports)
    assert [f["check"] for f in reports[0]["failures"]] == ["citations"] and reports[0]["grounding_ok"] is False
    assert all("decision" in [f["check"] for f in r["failures"]] for r in reports[1:])
