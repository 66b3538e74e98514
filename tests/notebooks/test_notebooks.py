"""The notebooks in ``examples/notebooks`` run top to bottom, offline, and show what they promise.

Each notebook is executed with nbclient in a fresh IPython kernel running this interpreter, with the notebook's
own folder as the working directory (as Jupyter does). The checks read the outputs of the cells tagged in the
notebook's metadata, and compare them with the ontology files and the dataset's ``questions.jsonl``.
"""

from __future__ import annotations

import base64
import json
import shutil
from pathlib import Path
from typing import Any

import nbclient  # the test extra installs nbclient, nbformat, ipykernel and matplotlib
import nbformat
import pytest
from jupyter_client.kernelspec import KernelSpecManager
from jupyter_client.manager import AsyncKernelManager

ROOT = Path(__file__).resolve().parents[2]
NOTEBOOKS = ROOT / "examples" / "notebooks"
CELL_TIMEOUT_S = 120


class ThisPython(AsyncKernelManager):  # type: ignore[misc]
    """The built-in ``python3`` kernel spec only: ipykernel on this interpreter. A kernel named python3 in the
    user's Jupyter folders must not decide which Python runs the notebooks."""

    def __init__(self, **kwargs: Any) -> None:
        kwargs.setdefault("kernel_spec_manager", KernelSpecManager(kernel_dirs=[]))
        super().__init__(**kwargs)


def execute(name: str) -> Any:
    """Run a notebook from its own folder; nbclient raises CellExecutionError on the first failing cell."""
    nb = nbformat.read(NOTEBOOKS / name, as_version=4)
    client = nbclient.NotebookClient(
        nb,
        kernel_name="python3",
        kernel_manager_class=ThisPython,
        timeout=CELL_TIMEOUT_S,
        allow_errors=False,
        resources={"metadata": {"path": str(NOTEBOOKS)}},
    )
    client.execute()
    return nb


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
    return [base64.b64decode(out.data["image/png"]) for out in cell.outputs
            if out.output_type in ("display_data", "execute_result") and "image/png" in out.data]


def assert_ran_cleanly(nb: Any) -> None:
    for cell in nb.cells:
        if cell.cell_type != "code":
            continue
        assert cell.execution_count is not None, cell.source[:80]
        for out in cell.outputs:
            assert out.output_type != "error", f"{out.get('ename')}: {out.get('evalue')}"
            if out.output_type == "stream":
                assert out.name == "stdout", f"the cell wrote to stderr: {out.text[:500]}"


@pytest.mark.parametrize("name", ["explore_ontology.ipynb", "onchain_real.ipynb"])
def test_notebooks_are_stored_without_outputs(name: str) -> None:
    nb = nbformat.read(NOTEBOOKS / name, as_version=4)
    nbformat.validate(nb)
    for cell in nb.cells:
        if cell.cell_type == "code":
            assert cell.outputs == [] and cell.execution_count is None, f"{name}: outputs left in {cell.id}"


@pytest.fixture(scope="module")
def explore() -> Any:
    assert shutil.which("java"), "HermiT (the reasoner run in the notebook) needs Java on the PATH"
    return execute("explore_ontology.ipynb")


@pytest.fixture(scope="module")
def onchain_real() -> Any:
    return execute("onchain_real.ipynb")


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
    depth = {line.strip().split()[0]: len(line) - len(line.lstrip()) for line in lines if line.strip()
             and not line.startswith("==")}
    assert depth["oc:Address"] < depth["oc:Exchange"] < depth["oc:ExchangeDeposit"]
    assert depth["oc:Contract"] < depth["oc:DeFiContract"] < depth["oc:Dex"]
    assert depth["kg:Organization"] < depth["kg:Company"]


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
        assert f"\n{stem} | consistent | 0 | " in out
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
    assert "load time: " in out
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
    cell.outputs = [new_output("stream", name="stdout", text="0 violations ->"),
                    new_output("stream", name="stdout", text=" conforms\n"),
                    new_output("execute_result", data={"text/plain": "3"}, execution_count=1)]
    assert text(cell) == "0 violations -> conforms\n3\n"
