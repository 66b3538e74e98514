"""EVM address normalisation follows EIP-55."""

from __future__ import annotations

import pytest
from hypothesis import given
from hypothesis import strategies as st

from ont_platform.ingest.addresses import AddressError, checksum_address, normalize_address

# Test vectors from the EIP-55 specification.
EIP55 = [
    "0x5aAeb6053F3E94C9b9A09f33669435E7Ef1BeAed",
    "0xfB6916095ca1df60bB79Ce92cE3Ea74c37c5d359",
    "0xdbF03B407c01E7cD3CBea99509d93f8DDDC8C6FB",
    "0xD1220A0cf47c7B9Be7A2E6BA89F429762e7b9aDb",
]


@pytest.mark.parametrize("addr", EIP55)
def test_checksum_vectors(addr: str) -> None:
    assert checksum_address(addr.lower()) == addr
    assert normalize_address(addr) == addr.lower()


def test_wrong_checksum_fails() -> None:
    bad = EIP55[0][:-1] + ("D" if EIP55[0][-1] != "D" else "d")
    with pytest.raises(AddressError, match="checksum"):
        normalize_address(bad)


@pytest.mark.parametrize(
    "raw", ["", "0x", "0xZZZ", "0x123", "5aaeb6053f3e94c9b9a09f33669435e7ef1beaed", "0x" + "a" * 41]
)
def test_malformed_addresses_fail(raw: str) -> None:
    with pytest.raises(AddressError):
        normalize_address(raw)


@given(st.binary(min_size=20, max_size=20))
def test_any_address_in_any_accepted_form_normalises_to_lower(raw: bytes) -> None:
    lower = "0x" + raw.hex()
    assert normalize_address(lower) == lower
    assert normalize_address("0x" + raw.hex().upper()) == lower
    assert normalize_address(checksum_address(lower)) == lower
