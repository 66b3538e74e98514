"""Start-up: a process imports only what its call needs (the times are in benchmarks/startup.py, not here).

Each check runs a fresh interpreter and looks at ``sys.modules`` afterwards, so it depends on what is imported,
never on how long anything takes.
"""

from __future__ import annotations

import importlib
import json
import re
import subprocess
import sys
from pathlib import Path

import pytest

HEAVY = ("pyshacl", "jsonschema", "networkx", "owlready2", "fastapi", "uvicorn", "guardrails", "numpy", "httpx")


def _loaded_after(code: str) -> set[str]:
    probe = f"{code}\nimport json, sys\nprint(json.dumps(sorted(sys.modules)))"
    done = subprocess.run([sys.executable, "-c", probe], capture_output=True, text=True, check=True)
    return set(json.loads(done.stdout.splitlines()[-1]))


def _heavy(modules: set[str]) -> set[str]:
    return {name for name in HEAVY if name in modules}


def test_importing_the_package_loads_no_library_behind_it() -> None:
    loaded = _loaded_after("import ont_platform")
    assert _heavy(loaded) == set()
    assert not {"rdflib", "pyoxigraph", "pydantic", "kiwipiepy"} & loaded


def test_the_graph_class_loads_neither_shacl_nor_the_verifier_nor_the_schemas() -> None:
    assert _heavy(_loaded_after("from ont_platform import KnowledgeGraph")) == set()


def test_the_command_line_help_and_version_load_nothing_heavy() -> None:
    code = (
        "import sys\nfrom ont_platform.cli.main import main\n"
        "for argv in (['--help'], ['--version']):\n"
        "    try:\n        main(argv)\n    except SystemExit:\n        pass"
    )
    loaded = _loaded_after(code)
    assert _heavy(loaded) == set()
    assert "kiwipiepy" not in loaded and "rdflib" not in loaded


@pytest.mark.slow
def test_answering_a_question_does_not_load_shacl_schemas_or_the_verifier() -> None:
    examples = Path(__file__).resolve().parents[1] / "examples" / "kg"
    code = (
        "from ont_platform import KnowledgeGraph\n"
        "kg = KnowledgeGraph.open()\n"
        f"kg.load({str(examples)!r}, shacl=False)\n"
        "assert kg.ask('홍길동이 다니는 회사는?').to_json()['answer'] == 'c_acme'"
    )
    loaded = _loaded_after(code)
    assert {"jsonschema", "networkx", "owlready2", "pyshacl", "fastapi"} & loaded == set()


# imported by a package of the demo set when it is installed, and done without when it is not
OPTIONAL_IN_THE_DEMO = {"orjson"}  # rdflib's JSON readers and writers


@pytest.mark.slow
def test_the_demo_imports_only_packages_of_the_demo_lock_file() -> None:
    """``make demo`` installs requirements/demo.txt alone: a package the demo imports must be a dependency of
    pyproject.toml (and so in that file), never one that only an extra brings."""
    from importlib.metadata import packages_distributions

    def normal(name: str) -> str:
        return re.sub(r"[-_.]+", "-", name).lower()

    lock = (Path(__file__).resolve().parents[1] / "requirements" / "demo.txt").read_text(encoding="utf-8")
    demo_set = {normal(name) for name in re.findall(r"^([A-Za-z0-9][A-Za-z0-9._-]*)==", lock, re.M)}
    loaded = _loaded_after(
        "import io\nfrom ont_platform.demo import run_demo\nassert run_demo(json_out=True, out=io.StringIO()) == 0"
    )
    installed_by = packages_distributions()
    used = {normal(dist) for name in loaded for dist in installed_by.get(name.split(".")[0], [])}
    assert used - demo_set - OPTIONAL_IN_THE_DEMO - {"ont-platform"} == set()


@pytest.mark.parametrize("package", ["ont_platform", "ont_platform.validation", "ont_platform.evaluate"])
def test_every_lazily_exported_name_is_the_object_its_module_defines(package: str) -> None:
    module = importlib.import_module(package)
    assert set(module.__all__) <= set(dir(module))
    for name in module.__all__:
        value = getattr(module, name)
        home = importlib.import_module(getattr(value, "__module__", None) or package)
        assert getattr(home, name, value) is value, name
    with pytest.raises(AttributeError, match="no attribute"):
        module.surely_not_exported  # noqa: B018 - reading it is the test


@pytest.mark.slow
def test_an_english_question_is_answered_without_the_korean_analyser_and_a_korean_one_builds_it() -> None:
    from pathlib import Path

    examples = Path(__file__).resolve().parents[1] / "examples" / "kg"
    code = (
        "from ont_platform import KnowledgeGraph\n"
        "import ont_platform.qa.analyzer as analyzer\n"
        "kg = KnowledgeGraph.open()\n"
        f"kg.load({str(examples)!r})\n"
        "assert kg.ask('Which city is Acme in?').to_json()['answer'] == 'pl_seoul'\n"
        "assert analyzer._kiwi is None"
    )
    assert "kiwipiepy" not in _loaded_after(code)
    korean = f"{code}\nassert kg.ask('홍길동이 다니는 회사는?').to_json()['answer'] == 'c_acme'\nassert analyzer._kiwi is not None"
    assert "kiwipiepy" in _loaded_after(korean)
