"""N-Triples text for a dataset batch, written straight from table cells, in chunks; and the SHACL sample.

Why it is written this way: a dataset of a million transfers is about twelve million triples. Building an rdflib
term per cell, checking every IRI again with a regular expression and percent-encoding each id at every use cost
twice as much as Oxigraph's own parsing, and keeping every line in a list, then a joined ``str``, then its bytes,
held the batch three times over. Here the terms that repeat (predicates, classes) are formatted once, an id is
percent-encoded once per row, literals are escaped only when a character needs it, and the lines leave as
``bytes`` chunks of about a mebibyte (:class:`ChunkWriter`) that the store reads in one transaction.

Minted IRIs need no check: ``quote(id, safe="")`` leaves only ``A-Z a-z 0-9 _ . - ~`` and ``%XX``, none of
which can end an IRI early. Constant IRIs go through :func:`ont_platform.rdf_terms.iri` once.

:class:`ShaclSample` chooses which resources a bounded SHACL pass validates (see docs/validation.md): the first
resource of every row signature of a table, a seeded reservoir sample of each table, and the rows that produced
a warning.
"""

from __future__ import annotations

import random
import re
from dataclasses import dataclass, field
from urllib.parse import quote

from ont_platform.namespaces import ID
from ont_platform.rdf_terms import XSD, escape, iri, literal

_UNRESERVED = re.compile(r"[A-Za-z0-9_.~-]+").fullmatch

CHUNK_CHARS = 1 << 20
"""About how many characters of N-Triples go into one chunk handed to the store."""


def term(value: object) -> str:
    """``<value>`` for a constant IRI (a class, a property), checked once."""
    return iri(str(value))


def datatype_suffix(datatype: str) -> str:
    """``^^<…>`` for an ``xsd:`` local name or a full datatype IRI, as :func:`~ont_platform.rdf_terms.literal` writes it."""
    return "^^" + iri(datatype if ":" in datatype else XSD + datatype)


def plain(text: str) -> str:
    """A plain string literal (``xsd:string``), escaped where needed."""
    return f'"{escape(text)}"'


def typed(text: str, suffix: str) -> str:
    """A literal with a datatype suffix from :func:`datatype_suffix`."""
    return f'"{escape(text)}"{suffix}'


def tagged(text: str, lang: str) -> str:
    """A language-tagged literal (the tag is checked)."""
    return literal(text, lang=lang)


class Minter:
    """The ``<…>`` form of instance IRIs of one kind in one domain (``id:onchain/node/…``), without rdflib.

    Gives the same IRI as :func:`ont_platform.namespaces.mint`.
    """

    __slots__ = ("bare", "prefix")

    def __init__(self, domain: str, kind: str) -> None:
        self.bare = f"{ID}{quote(domain, safe='')}/{kind}/"
        self.prefix = "<" + self.bare

    def __call__(self, local_id: str) -> str:
        if _UNRESERVED(local_id):  # what quote() would leave as it is: skip the call
            return f"{self.prefix}{local_id}>"
        return f"{self.prefix}{quote(local_id, safe='')}>"


class ChunkWriter:
    """Collects row texts (one or more N-Triples lines each) and cuts them into UTF-8 chunks.

    ``triples`` counts the lines written: every line ends with the only newline it holds, since literals
    escape theirs.
    """

    def __init__(self, chunk_chars: int = CHUNK_CHARS) -> None:
        self._parts: list[str] = []
        self._size = 0
        self._limit = chunk_chars
        self.triples = 0

    def add(self, text: str) -> bytes | None:
        """Add one row's lines; returns a full chunk when one is ready."""
        self._parts.append(text)
        self._size += len(text)
        if self._size >= self._limit:
            return self.flush()
        return None

    def flush(self) -> bytes | None:
        """The pending lines as one chunk, or None when there are none."""
        if not self._parts:
            return None
        text = "".join(self._parts)
        self._parts = []
        self._size = 0
        self.triples += text.count("\n")
        return text.encode("utf-8")


# --- the SHACL sample ------------------------------------------------------------------------------------------

Key = tuple[str, str]
"""A resource of the batch: (kind, dataset id), e.g. ``("node", "n_a1")``."""


@dataclass(slots=True)
class Picked:
    """A resource chosen for validation: its own lines and the resources its shapes need beside it."""

    key: Key
    text: str
    needs: tuple[Key, ...]


@dataclass
class ShaclSample:
    """Chooses the resources a bounded SHACL pass validates, as the rows stream by.

    Per table: the first resource of every signature (the class or relation and which optional cells are
    filled: the combinations the shapes can tell apart), a reservoir sample of ``per_table`` resources drawn
    with ``seed`` (Algorithm R: every row equally likely, whatever the table's length), and up to
    ``max_flagged`` resources whose rows produced a warning. ``needs`` are neighbours (the endpoints of an
    edge, its chunk) whose own lines the caller adds later, since a shape may look at them.
    """

    per_table: int = 200
    max_flagged: int = 1_000
    seed: int = 0
    _first: dict[tuple[str, tuple[object, ...]], Picked] = field(default_factory=dict)
    _reservoir: dict[str, list[Picked]] = field(default_factory=dict)
    _seen: dict[str, int] = field(default_factory=dict)
    _flagged: list[Picked] = field(default_factory=list)
    _rng: random.Random = field(init=False)

    def __post_init__(self) -> None:
        self._rng = random.Random(self.seed)

    def offer(
        self,
        table: str,
        signature: tuple[object, ...],
        key: Key,
        text: str,
        needs: tuple[Key, ...] = (),
        *,
        flagged: bool = False,
    ) -> None:
        """Consider one resource (every valid row calls this once)."""
        sig = (table, signature)
        picked: Picked | None = None
        if sig not in self._first:
            picked = Picked(key, text, needs)
            self._first[sig] = picked
        if flagged and len(self._flagged) < self.max_flagged:
            picked = picked or Picked(key, text, needs)
            self._flagged.append(picked)
        n = self._seen.get(table, 0)
        self._seen[table] = n + 1
        reservoir = self._reservoir.setdefault(table, [])
        if n < self.per_table:
            reservoir.append(picked or Picked(key, text, needs))
        else:
            j = self._rng.randrange(n + 1)
            if j < self.per_table:
                reservoir[j] = picked or Picked(key, text, needs)

    def picked(self) -> list[Picked]:
        """Every chosen resource once, in a stable order."""
        out: dict[Key, Picked] = {}
        for p in [*self._first.values(), *self._flagged, *(p for r in self._reservoir.values() for p in r)]:
            out.setdefault(p.key, p)
        return list(out.values())

    def needed(self, kind: str) -> set[str]:
        """Ids of the neighbours of ``kind`` that the chosen resources need and that were not chosen themselves."""
        picked = self.picked()
        have = {p.key for p in picked}
        return {k[1] for p in picked for k in p.needs if k[0] == kind and k not in have}
