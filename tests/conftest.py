"""Suite-wide fixtures.

No test may reach the network beyond loopback: a guard wraps ``socket.connect`` for the whole session and fails
any connection to another address. The SPARQL servers the remote tests start listen on 127.0.0.1.
"""

from __future__ import annotations

import ipaddress
import socket
from collections.abc import Iterator
from pathlib import Path

import pytest

from tests.servers import Endpoint, oxigraph_server, virtuoso_server
from tests.slow_list import read_list

ROOT = Path(__file__).resolve().parent.parent
EXAMPLES = ROOT / "examples"


SERVER_FIXTURES = {"oxigraph_endpoint", "virtuoso_endpoint"}
"""Fixtures that start a SPARQL server: a test using one is marked ``remote``."""
NOTEBOOK_FIXTURES = {"explore", "onchain_real", "kg_people"}
"""tests/notebooks' fixtures that execute a notebook in a fresh kernel: a test using one is marked ``notebook``."""


def pytest_collection_modifyitems(config: pytest.Config, items: list[pytest.Item]) -> None:
    """Mark by what a test uses, so that ``-m "not remote and not notebook"`` cannot keep one that starts a server
    or runs a notebook (``make test-fast``), and as ``slow`` the tests measured slow (``tests/slow.txt``); the
    other markers are set where the tests are written."""
    slow = set(read_list())  # measured: tests/slow_list.py
    for item in items:
        if item.nodeid in slow:
            item.add_marker(pytest.mark.slow)
        used = set(getattr(item, "fixturenames", ()))
        if used & SERVER_FIXTURES:
            item.add_marker(pytest.mark.remote)
        if used & NOTEBOOK_FIXTURES:
            item.add_marker(pytest.mark.notebook)


class NetworkBlocked(AssertionError):
    """A test tried to open a connection outside loopback."""


def _is_loopback(address: object) -> bool:
    if isinstance(address, (str, bytes)):  # AF_UNIX path
        return True
    if isinstance(address, tuple) and address:
        host = address[0]
        if host in ("localhost",):
            return True
        try:
            return ipaddress.ip_address(str(host).split("%", 1)[0]).is_loopback
        except ValueError:
            return False
    return False


@pytest.fixture(autouse=True, scope="session")
def _block_network() -> Iterator[None]:
    real_connect = socket.socket.connect
    real_connect_ex = socket.socket.connect_ex

    def connect(self: socket.socket, address: object) -> None:
        if not _is_loopback(address):
            raise NetworkBlocked(f"network access outside loopback attempted: {address!r}")
        return real_connect(self, address)  # type: ignore[arg-type]

    def connect_ex(self: socket.socket, address: object) -> int:
        if not _is_loopback(address):
            raise NetworkBlocked(f"network access outside loopback attempted: {address!r}")
        return real_connect_ex(self, address)  # type: ignore[arg-type]

    socket.socket.connect = connect  # type: ignore[method-assign]
    socket.socket.connect_ex = connect_ex  # type: ignore[method-assign]
    try:
        yield
    finally:
        socket.socket.connect = real_connect  # type: ignore[method-assign]
        socket.socket.connect_ex = real_connect_ex  # type: ignore[method-assign]


@pytest.fixture(scope="session")
def oxigraph_endpoint() -> Iterator[Endpoint]:
    """An Oxigraph SPARQL server on 127.0.0.1, started once for the session and stopped at its end."""
    with oxigraph_server() as endpoint:
        yield endpoint


@pytest.fixture(scope="session")
def virtuoso_endpoint() -> Iterator[Endpoint]:
    """A Virtuoso server on 127.0.0.1 (Debian's virtuoso-opensource), started once for the session."""
    with virtuoso_server() as endpoint:
        yield endpoint


@pytest.fixture(scope="session")
def examples() -> Path:
    """The bundled example datasets."""
    return EXAMPLES
