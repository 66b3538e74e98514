"""The loaded example graphs of the verification tests, for scoring gold sets."""

from tests.verify.conftest import kgraph, onchain, pages

__all__ = ["kgraph", "onchain", "pages"]
