"""Fixtures for the validation tests: sample payloads, a recorder of network attempts, one guardrails validator.

guardrails-ai takes seconds to import, so one validator is created per session (under the recorder, so that
its import and creation are checked for network use too).
"""

from __future__ import annotations

import copy
import socket
from collections.abc import Iterator
from contextlib import contextmanager
from typing import Any

import pytest

KG_PAYLOAD: dict[str, Any] = {
    "entities": [
        {
            "id": "E_1",
            "label": "홍길동",
            "type": "individual",
            "ontology_class": "Person",
            "confidence": 0.95,
            "evidence": {"source_url": "https://news.example/a", "offset": 0, "confidence": 0.9},
        },
        {"id": "E_2", "label": "에이씨미", "type": "individual", "ontology_class": "Company"},
        {"id": "E_3", "label": "서울", "type": "individual", "ontology_class": "City"},
    ],
    "relations": [
        {
            "id": "R_1",
            "source_id": "E_1",
            "predicate": "worksFor",
            "target_id": "E_2",
            "confidence": 0.8,
            "evidence": [
                {"chunk_text": "홍길동은 에이씨미에서 일한다.", "source_url": "https://news.example/a", "offset": 0}
            ],
        },
        {"id": "R_2", "source_id": "E_2", "predicate": "locatedIn", "target_id": "E_3"},
    ],
}


@pytest.fixture
def kg_payload() -> dict[str, Any]:
    """A valid extraction in the kg domain (a fresh copy per test)."""
    return copy.deepcopy(KG_PAYLOAD)


class Attempts(list):  # type: ignore[type-arg]
    """Every connection, datagram or name lookup attempted while recording."""


@contextmanager
def record_network() -> Iterator[Attempts]:
    """Refuse and record any socket connect, datagram or DNS lookup, loopback included."""
    attempts = Attempts()
    saved = (
        socket.socket.connect,
        socket.socket.connect_ex,
        socket.socket.sendto,
        socket.getaddrinfo,
        socket.gethostbyname,
    )

    def refuse(kind: str) -> Any:
        def call(*args: Any, **kwargs: Any) -> Any:
            attempts.append((kind, args[1:] if kind.startswith("socket.") else args))
            raise OSError(f"network disabled in this test ({kind})")

        return call

    socket.socket.connect = refuse("socket.connect")  # type: ignore[method-assign]
    socket.socket.connect_ex = refuse("socket.connect_ex")  # type: ignore[method-assign]
    socket.socket.sendto = refuse("socket.sendto")  # type: ignore[method-assign]
    socket.getaddrinfo = refuse("getaddrinfo")  # type: ignore[assignment]
    socket.gethostbyname = refuse("gethostbyname")  # type: ignore[assignment]
    try:
        yield attempts
    finally:
        (
            socket.socket.connect,
            socket.socket.connect_ex,
            socket.socket.sendto,
            socket.getaddrinfo,  # type: ignore[method-assign]
            socket.gethostbyname,
        ) = saved


@pytest.fixture(scope="session")
def guardrails_setup() -> tuple[Any, Attempts]:
    """One GuardrailsValidator (kg ontology) for the session, and the network attempts made creating it."""
    from ont_platform.validation import GuardrailsValidator

    with record_network() as attempts:
        validator = GuardrailsValidator(ontology="kg")
    return validator, attempts


@pytest.fixture(scope="session")
def guardrails_plain() -> Any:
    """A GuardrailsValidator without an ontology (seed rules only)."""
    from ont_platform.validation import GuardrailsValidator

    return GuardrailsValidator()
