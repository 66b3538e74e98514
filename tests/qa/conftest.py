"""Fixtures for question answering: one loaded graph per bundled dataset, shared by the session."""

from __future__ import annotations

from collections.abc import Iterator
from pathlib import Path

import pytest

from ont_platform import KnowledgeGraph

EXAMPLES = Path(__file__).resolve().parents[2] / "examples"


def _graph(name: str) -> Iterator[KnowledgeGraph]:
    kg = KnowledgeGraph.open()
    kg.load(EXAMPLES / name)
    yield kg
    kg.close()


@pytest.fixture(scope="session")
def onchain_kg() -> Iterator[KnowledgeGraph]:
    yield from _graph("onchain")


@pytest.fixture(scope="session")
def kg_kg() -> Iterator[KnowledgeGraph]:
    yield from _graph("kg")


@pytest.fixture(scope="session")
def pages_kg() -> Iterator[KnowledgeGraph]:
    yield from _graph("pages")


@pytest.fixture(scope="session")
def real_kg() -> Iterator[KnowledgeGraph]:
    yield from _graph("onchain-real")
