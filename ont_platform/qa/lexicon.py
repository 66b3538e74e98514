"""The vocabulary a question is read with, drawn from the ontology and the loaded graph.

Two kinds of entries:

* **names** of graph nodes: ids, labels, aliases and normalised addresses, compared exactly after removing
  spacing and case (``N_A1`` = ``n_a1``, ``에이크미 주식회사`` = ``에이크미주식회사``), never fuzzily;
* **terms** of the ontology: classes, relations and columns with every ``rdfs:label`` and ``skos:altLabel``,
  plus the question-word cues of ``cues.json``; compared as lemma sequences so endings do not matter.
"""

from __future__ import annotations

import json
from collections import defaultdict
from dataclasses import dataclass, field
from functools import lru_cache
from importlib import resources

from rdflib import URIRef

from ont_platform.qa.analyzer import Morph, content, lemma_key, morphs
from ont_platform.qa.text import compact

_ID_CHARS = set("abcdefghijklmnopqrstuvwxyz0123456789_")


@dataclass(frozen=True, slots=True)
class Mention:
    """A piece of the question that names something: a node, a class, a relation, a column or a cue."""

    kind: str  # node | class | relation | column | cue
    ref: str  # node id, term IRI, or cue name
    start: int  # position in the question (compact positions for names, text offsets for terms)
    end: int
    surface: str


@dataclass
class Lexicon:
    """Names and terms for one loaded dataset."""

    names: dict[str, set[str]] = field(default_factory=lambda: defaultdict(set))
    terms: dict[tuple[str, ...], set[tuple[str, str]]] = field(default_factory=lambda: defaultdict(set))
    display: dict[str, str] = field(default_factory=dict)
    max_name: int = 0

    def add_name(self, name: str, node_id: str) -> None:
        key = compact(name)
        if len(key) < 2:
            return
        self.names[key].add(node_id)
        self.max_name = max(self.max_name, len(key))

    def add_term(self, label: str, kind: str, ref: str) -> None:
        key = lemma_key(label)
        if key:
            self.terms[key].add((kind, ref))
        flat = compact(label)
        if flat and (len(key) != 1 or key[0] != flat):
            self.terms[(flat,)].add((kind, ref))

    # -- matching ----------------------------------------------------------------------------------------------

    def find_names(self, question: str) -> tuple[list[Mention], str]:
        """Longest exact name matches, left to right, ignoring spacing and case; also returns the compact text.

        Spans are positions in the compact text. An id-like name must stand alone in the original text: ``n_a1``
        does not match inside ``n_a10``, nor ``acme`` inside ``foundedacme``.
        """
        text, where = _compact_with_map(question)
        found: list[Mention] = []
        i = 0
        while i < len(text):
            hit = None
            for length in range(min(self.max_name, len(text) - i), 1, -1):
                key = text[i : i + length]
                if key in self.names and _bounded(question, where[i], where[i + length - 1] + 1, key):
                    hit = key
                    break
            if hit is None:
                i += 1
                continue
            for node_id in sorted(self.names[hit]):
                found.append(Mention("node", node_id, i, i + len(hit), hit))
            i += len(hit)
        return found, text

    def find_terms(self, question: str, ms: list[Morph] | None = None) -> list[Mention]:
        """Every term whose lemma key occurs as a contiguous run of the question's content morphemes."""
        seq = content(ms if ms is not None else morphs(question))
        forms = [m.form for m in seq]
        out: list[Mention] = []
        max_len = max((len(k) for k in self.terms), default=0)
        for i in range(len(forms)):
            for length in range(min(max_len, len(forms) - i), 0, -1):
                key = tuple(forms[i : i + length])
                for kind, ref in sorted(self.terms.get(key, ())):
                    out.append(Mention(kind, ref, seq[i].start, seq[i + length - 1].end, " ".join(key)))
        # compact-surface matches catch labels the analyser splits differently (ExchangeDeposit, CTR)
        flat = compact(question)
        for key, entries in self.terms.items():
            if len(key) == 1 and len(key[0]) >= 3 and key[0] in flat:
                for kind, ref in sorted(entries):
                    if not any(m.kind == kind and m.ref == ref for m in out):
                        pos = flat.index(key[0])
                        out.append(Mention(kind, ref, pos, pos + len(key[0]), key[0]))
        return _longest(out)


def _compact_with_map(text: str) -> tuple[str, list[int]]:
    """The compact form of ``text`` and, for each of its characters, the index it came from."""
    out: list[str] = []
    where: list[int] = []
    for idx, ch in enumerate(text):
        if ch.isspace():
            continue
        for c in ch.casefold():
            out.append(c)
            where.append(idx)
    return "".join(out), where


def _bounded(text: str, start: int, end: int, key: str) -> bool:
    """A name that begins or ends with a Latin letter, digit or ``_`` must not continue into one."""
    if key[-1] in _ID_CHARS and end < len(text) and text[end].casefold() in _ID_CHARS:
        return False
    if key[0] in _ID_CHARS and start > 0 and text[start - 1].casefold() in _ID_CHARS:
        return False
    return True


def _longest(mentions: list[Mention]) -> list[Mention]:
    """Drop a mention inside a longer one (거래소, 입금 inside 거래소 입금주소)."""
    keep = []
    for m in mentions:
        inside = any(
            o is not m and o.start <= m.start and m.end <= o.end and (o.end - o.start) > (m.end - m.start)
            for o in mentions
        )
        if not inside:
            keep.append(m)
    seen: set[tuple[str, str, int]] = set()
    out = []
    for m in sorted(keep, key=lambda x: (x.start, -(x.end - x.start), x.kind, x.ref)):
        if (m.kind, m.ref, m.start) not in seen:
            seen.add((m.kind, m.ref, m.start))
            out.append(m)
    return out


@lru_cache(maxsize=1)
def cues() -> dict[str, dict[str, list[str]]]:
    """Question-word cues by domain and name (``cluster``, ``label``, ``incoming`` …), in Korean and English."""
    text = resources.files("ont_platform.qa").joinpath("cues.json").read_text("utf-8")
    return json.loads(text)  # type: ignore[no-any-return]


def add_cues(lex: Lexicon, domain: str) -> None:
    """Put a domain's cue phrases into the lexicon as ``cue`` terms."""
    for name, phrases in cues().get(domain, {}).items():
        for phrase in phrases:
            lex.add_term(phrase, "cue", name)


def term_ref(iri: URIRef) -> str:
    return str(iri)
