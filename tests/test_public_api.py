"""The public surface: everything public is exported, and every error is an OntError."""

from __future__ import annotations

import inspect

import ont_platform
from ont_platform import errors


def test_all_is_sorted_and_complete() -> None:
    assert ont_platform.__all__ == sorted(ont_platform.__all__)
    for name in ont_platform.__all__:
        assert hasattr(ont_platform, name), name
    public_errors = {
        n
        for n, obj in vars(errors).items()
        if inspect.isclass(obj) and issubclass(obj, Exception) and obj.__module__ == errors.__name__
    }
    assert public_errors <= set(ont_platform.__all__)


def test_one_exception_tree() -> None:
    for name, obj in vars(errors).items():
        if inspect.isclass(obj) and issubclass(obj, Exception) and obj.__module__ == errors.__name__:
            assert issubclass(obj, errors.OntError), name
            assert name in (errors.__doc__ or ""), f"{name} missing from the tree drawn in the module docstring"


def test_select_refuses_what_is_not_a_bounded_read() -> None:
    import pytest

    from ont_platform import KnowledgeGraph, QueryRefused

    with KnowledgeGraph.open() as kg:
        kg.store.add_ntriples("<urn:a> <urn:p> <urn:b> .\n")
        assert [str(r["o"]) for r in kg.select("SELECT ?o WHERE { <urn:a> <urn:p> ?o }")] == ["urn:b"]
        assert kg.select("ASK { <urn:a> ?p ?o }")[0]["result"].toPython() is True
        for bad in (
            "SELECT * WHERE { SERVICE <http://example.org/sparql> { ?s ?p ?o } }",
            "SELECT * FROM <http://example.org/g> WHERE { ?s ?p ?o }",
            "SELECT ?o WHERE { <urn:a> <urn:p>* ?o }",
            "INSERT DATA { <urn:x> <urn:y> <urn:z> }",
            "DROP ALL",
        ):
            with pytest.raises(QueryRefused):
                kg.select(bad)
        assert len(kg) == 1


def test_a_load_after_asking_is_seen_by_the_next_question() -> None:
    """The loaded domains are remembered between questions and forgotten on every write."""
    from pathlib import Path

    import pytest

    from ont_platform import InputError, KnowledgeGraph

    examples = Path(__file__).resolve().parents[1] / "examples"
    with KnowledgeGraph.open() as kg:
        kg.load(examples / "kg", shacl=False)
        assert kg.ask("홍길동이 다니는 회사는?").to_json()["answer"] == "c_acme"
        kg.load(examples / "pages", shacl=False)
        with pytest.raises(InputError, match="pass domain="):
            kg.ask("홍길동이 다니는 회사는?")
        assert kg.ask("클릭이 하나도 없는 페이지", domain="pages").to_json()["status"] == "ran"
