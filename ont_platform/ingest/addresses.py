"""EVM address normalisation (EIP-55).

An address is accepted as ``0x`` + 40 hex digits in one case (all lower or all upper), or in mixed case only if
the EIP-55 checksum holds. A mixed-case address with a wrong checksum is most likely a typo, so it fails.
"""

from __future__ import annotations

import re

from eth_hash.auto import keccak

_HEX40 = re.compile(r"^0[xX]([0-9a-fA-F]{40})$")


class AddressError(ValueError):
    """An address that cannot be normalised; the message says why."""


def checksum_address(hex40: str) -> str:
    """The EIP-55 mixed-case form of a 40-hex-digit address (without or with ``0x``)."""
    body = hex40[2:].lower() if hex40[:2] in ("0x", "0X") else hex40.lower()
    digest = keccak(body.encode("ascii")).hex()
    return "0x" + "".join(c.upper() if c.isalpha() and int(digest[i], 16) >= 8 else c for i, c in enumerate(body))


def normalize_address(raw: str) -> str:
    """The lower-case ``0x…`` form of ``raw``, or :class:`AddressError`.

    >>> normalize_address("0x52908400098527886E0F7030069857D2E4169EE7")
    '0x52908400098527886e0f7030069857d2e4169ee7'
    """
    text = raw.strip()
    m = _HEX40.match(text)
    if m is None:
        raise AddressError(f"not 0x followed by 40 hex digits: {raw[:60]!r}")
    body = m.group(1)
    if body != body.lower() and body != body.upper():
        if checksum_address(body)[2:] != body:
            raise AddressError(f"EIP-55 checksum does not match: {raw!r}")
    return "0x" + body.lower()
