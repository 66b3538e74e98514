"""The vocabulary a question is read with, drawn from the ontology and the loaded graph.

Two kinds of entries:

* **names** of graph nodes: ids, labels, aliases and normalised addresses, compared exactly after removing
  spacing and case (``N_A1`` = ``n_a1``, ``에이크미 주식회사`` = ``에이크미주식회사``), never fuzzily;
* **terms** of the ontology: classes, relations and columns with every ``rdfs:label`` and ``skos:altLabel``,
  plus the question-word cues of ``cues.json``; compared as lemma sequences so endings do not matter.
"""

from __future__ import annotations

import copy
import json
import re
import threading
from collections import defaultdict
from dataclasses import dataclass, field, fields
from functools import lru_cache
from importlib import resources

from rdflib import URIRef

from ont_platform.qa.analyzer import HANGUL, NOUN_TAGS, Morph, glue, label_pattern, morphs, needs_analyser
from ont_platform.qa.korean import PARTICLES_AFTER_NAME
from ont_platform.qa.names import Names
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

    names: Names = field(default_factory=Names)
    """Compact name → the ids of the nodes it names: in memory, or kept beside an on-disk store
    (:mod:`ont_platform.qa.names`)."""
    terms: dict[tuple[str, ...], set[tuple[str, str, tuple[tuple[str, ...], ...]]]] = field(
        default_factory=lambda: defaultdict(set)
    )
    surface: dict[str, set[tuple[str, str]]] = field(default_factory=lambda: defaultdict(set))
    display: dict[str, str] = field(default_factory=dict)
    max_term: int = 0
    """Most lemmas in a term key: how far a run of the question's morphemes is tried."""
    surface_first: dict[str, list[str]] = field(default_factory=dict)
    """The surface keys by their first letter, so a question is scanned once rather than once per key."""
    short: dict[str, set[tuple[str, str]]] = field(default_factory=lambda: defaultdict(set))
    """Two-syllable Korean class labels (나라, 도시), matched as a whole word followed by a particle too: the
    analyser may read a short noun with its particle as something else (나라는 → 나 + 이 + 라는, "that is me")."""

    _added: list[tuple[str, str, str]] = field(default_factory=list, repr=False, compare=False)
    """Every label given to :meth:`add_term` while some wait for the Korean analyser, in order."""
    _waiting: bool = field(default=False, repr=False, compare=False)
    """Some label waits for the Korean analyser (see :meth:`add_term`)."""
    _open: bool = field(default=False, repr=False, compare=False)
    """Some waiting label could match a question without Hangul, so any question settles them."""
    _settled: bool = field(default=False, repr=False, compare=False)
    """The waiting labels were analysed: every label from now on is analysed as it comes."""
    _lock: threading.Lock = field(default_factory=threading.Lock, repr=False, compare=False)

    def __deepcopy__(self, memo: dict[int, object]) -> Lexicon:
        """A copy with every entry copied and a lock of its own (a lock cannot be copied)."""
        copied = Lexicon.__new__(Lexicon)
        memo[id(self)] = copied
        for f in fields(self):
            value = getattr(self, f.name)
            setattr(copied, f.name, threading.Lock() if f.name == "_lock" else copy.deepcopy(value, memo))
        return copied

    def add_name(self, name: str, node_id: str) -> None:
        key = compact(name)
        if len(key) >= 2:
            self.names.add(key, node_id)

    def nodes_named(self, key: str) -> list[str]:
        """The ids of the nodes a compact name names, sorted (empty when none)."""
        return self.names.nodes_named(key)

    @property
    def max_name(self) -> int:
        """Letters in the longest name."""
        return self.names.max_len

    def add_term(self, label: str, kind: str, ref: str) -> None:
        """A label matched by its lemmas; a label written ``=like this`` is matched on its exact surface
        (spacing and case aside), for cue words whose particle carries the meaning (어디서 vs 어디로).

        A label only the Korean analyser can read (one with Hangul, mostly) waits until a question needs it
        (:meth:`settle`): creating the analyser costs seconds, and an English question never matches a label
        written in Hangul alone. The terms then come out exactly as if every label had been read at once."""
        with self._lock:
            if self._settled:
                self._read(label, kind, ref)
                return
            self._added.append((label, kind, ref))
            if not label.startswith("=") and needs_analyser(label):
                self._waiting = True
                self._open = self._open or not _hangul_only(label)
                return
            self._read(label, kind, ref)

    def settle(self, question: str | None = None) -> None:
        """Read the labels that wait for the Korean analyser, when ``question`` (``None``: any question) could
        match one: it has Hangul, or a waiting label has more than Hangul. The terms are read again in the order
        the labels came, so the lexicon equals one that read every label as it came."""
        if not self._waiting or (question is not None and not self._open and not HANGUL.search(question)):
            return
        with self._lock:
            if not self._waiting:
                return
            fresh = Lexicon()
            for label, kind, ref in self._added:
                fresh._read(label, kind, ref)
            self.terms, self.surface, self.surface_first = fresh.terms, fresh.surface, fresh.surface_first
            self.short, self.max_term = fresh.short, fresh.max_term
            self._added, self._waiting, self._open, self._settled = [], False, False, True

    def _read(self, label: str, kind: str, ref: str) -> None:
        if label.startswith("="):
            flat = compact(label[1:])
            if flat:
                self._add_surface(flat, kind, ref)
            return
        key, joints = label_pattern(label)
        if key and not (kind == "class" and _copular(label)):
            self.terms[key].add((kind, ref, joints))
            self.max_term = max(self.max_term, len(key))
        word = label.strip().casefold()
        if word and " " not in word and (word,) != key:
            # A one-word label analysed alone can come out as another word (흐름 as the verb 흐르); in a
            # question it is usually tagged as itself, so the word itself is a key too.
            self.terms[(word,)].add((kind, ref, ()))
            self.max_term = max(self.max_term, 1)
        flat = compact(label)
        if len(flat) >= 3:  # spacing variants analyse differently (핫월렛 / 핫 월렛): match the letters too
            self._add_surface(flat, kind, ref)
        elif kind in ("class", "relation") and len(flat) == 2 and all(_hangul(ch) for ch in flat):
            # a two-syllable noun the analyser may split in a question (후원의 → 후 + 원 + 의): matched as a
            # whole word, followed by nothing or a particle
            self.short[flat].add((kind, ref))

    def _add_surface(self, flat: str, kind: str, ref: str) -> None:
        if flat not in self.surface:
            self.surface_first.setdefault(flat[0], []).append(flat)
        self.surface[flat].add((kind, ref))

    # -- matching ----------------------------------------------------------------------------------------------

    def find_names(self, question: str) -> tuple[list[Mention], str]:
        """Longest exact name matches, left to right, ignoring spacing and case; also returns the compact text.

        Spans are character offsets in ``question``. An id-like name must stand alone there: ``n_a1`` does not
        match inside ``n_a10``, nor ``acme`` inside ``founded acme``'s neighbour ``foundedacme``.
        """
        text, where = _compact_with_map(question)
        # every part of the text that can be a name at all, looked up at once (a kept lexicon is a file)
        lengths, heads = self.names.filters()
        sizes = sorted((n for n in lengths if n >= 2), reverse=True)
        wanted = {
            text[i : i + n]
            for i in range(len(text) - 1)
            if text[i : i + 2] in heads
            for n in sizes
            if i + n <= len(text)
        }
        known = self.names.lookup(wanted)
        found: list[Mention] = []
        i = 0
        while i < len(text):
            hit = None
            for length in sizes:
                key = text[i : i + length]
                if (
                    length <= len(text) - i
                    and key in known
                    and _bounded(question, where[i], where[i + length - 1] + 1, key)
                ):
                    hit = key
                    break
            if hit is None:
                i += 1
                continue
            for node_id in known[hit]:
                found.append(Mention("node", node_id, where[i], where[i + len(hit) - 1] + 1, hit))
            i += len(hit)
        return found, text

    def find_terms(
        self, question: str, ms: list[Morph] | None = None, skip: list[Mention] | None = None
    ) -> list[Mention]:
        """Every term whose lemmas occur as a run of the question's content morphemes joined by the same
        endings, plus surface matches; none inside the spans in ``skip`` (node names: "믹서 풀 M1" names a node,
        not the class 믹서)."""
        self.settle(question)
        ms = ms if ms is not None else morphs(question)
        words, joints = glue(ms)
        forms = [m.form for m in words]
        out: list[Mention] = []
        max_len = self.max_term
        for i in range(len(forms)):
            for length in range(min(max_len, len(forms) - i), 0, -1):
                key = tuple(forms[i : i + length])
                between = tuple(joints[i : i + length - 1])
                for kind, ref, label_joints in sorted(self.terms.get(key, ())):
                    if label_joints == between or _without_case(label_joints) == between:
                        out.append(Mention(kind, ref, words[i].start, words[i + length - 1].end, " ".join(key)))
        flat, where = _compact_with_map(question)
        for start, letter in enumerate(flat):
            for word in self.surface_first.get(letter, ()):
                if flat.startswith(word, start):
                    begin, end = where[start], where[start + len(word) - 1] + 1
                    if not _whole_words(question, ms, begin, end):
                        continue
                    for kind, ref in sorted(self.surface[word]):
                        out.append(Mention(kind, ref, begin, end, word))
        for word, found in self.short.items():
            at = question.find(word)
            while at >= 0:
                end = at + len(word)
                if (at == 0 or not question[at - 1].isalnum()) and (
                    end == len(question) or not question[end].isalnum() or question[end] in _PARTICLE_START
                ):
                    out.extend(Mention(kind, ref, at, end, word) for kind, ref in sorted(found))
                at = question.find(word, at + 1)
        blocked = skip or []
        out = [m for m in out if not any(b.start < m.end and m.start < b.end for b in blocked)]
        return longest(out)


_PARTICLE_START = frozenset("은는이가을를의에로으와과도만까부랑요야")


def _hangul_only(label: str) -> bool:
    """Whether a label is Hangul and spaces alone: each of its lemmas, its word and its letters then hold
    Hangul, so it can match only a question with Hangul."""
    return all(ch.isspace() or HANGUL.match(ch) for ch in label)


def _hangul(ch: str) -> bool:
    return "\uac00" <= ch <= "\ud7a3"


def _whole_words(text: str, ms: list[Morph], begin: int, end: int) -> bool:
    """Whether a letters-only match begins and ends where Korean words or morphemes do: "영화 제목" holds the
    letters of 영화제 (festival) across the space, ending inside 제목, and names no festival. Latin letters and
    digits are left to the callers' own checks (a column name may run into a number: impressions_30d0)."""
    starts = {m.start for m in ms}
    ends = {m.end for m in ms}
    inside_start = 0 < begin < len(text) and _hangul(text[begin - 1]) and _hangul(text[begin]) and begin not in starts
    inside_end = 0 < end < len(text) and _hangul(text[end - 1]) and _hangul(text[end]) and end not in ends
    return not (inside_start or inside_end)


@lru_cache(maxsize=4096)
def _copular(label: str) -> bool:
    """Whether the analyser reads a class label as a noun plus the copula: 영화인 (film person) comes out as
    영화 + 이 + ㄴ, "being a film", whose lemma key is the key of 영화 (Film). Such a label is matched by its
    own word and letters only, or every 영화 in a question would also name the other class."""
    return any(m.tag == "VCP" for m in morphs(label, typos=False))


def _without_case(joints: tuple[tuple[str, ...], ...]) -> tuple[tuple[str, ...], ...]:
    """A label's glue without its subject and object particles: casual Korean drops them ("호흡 맞춘" says the
    label "호흡을 맞춘"). Only the question may drop one: a particle the label lacks still tells a verb phrase
    ("영화를 감독한") from a compound noun (the label "영화 감독")."""
    return tuple(tuple(f for f in joint if f not in _CASE) for joint in joints)


_CASE = frozenset({"이", "가", "을", "를"})


def word_bounded(names: list[Mention], ms: list[Morph], text: str) -> list[Mention]:
    """Only the name matches that end where a word ends: "델타" is not a name inside "델타물싼", while particles
    and endings may follow (홍길동이, 에이크미에서, 홍길동씨)."""
    starts = {m.start: m for m in ms}
    keep = []
    for n in names:
        end = n.end
        # ids and addresses end in a Latin letter or digit; the analyser mis-tags particles glued to them
        # (n_a1과 → 과/NNG), and _bounded already keeps them from running into more Latin letters.
        if end >= len(text) or not text[end].isalnum() or n.surface[-1] in _ID_CHARS:
            keep.append(n)
            continue
        nxt = starts.get(end)
        if nxt is not None and nxt.tag not in NOUN_TAGS:
            keep.append(n)
            continue
        # the analyser may glue a particle to an unknown name's last syllable (클레르 모로랑 → 모로랑/NNP): the
        # rest of the word being a particle alone still ends the name there
        rest = re.match(r"[^\W\d_]+", text[end:])
        if rest is not None and rest.group(0) in PARTICLES_AFTER_NAME:
            keep.append(n)
    return keep


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


def longest(mentions: list[Mention]) -> list[Mention]:
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
    """Question-word cues by domain family and name (``cluster``, ``label``, ``incoming``, ``context`` …), in
    Korean and English."""
    text = resources.files("ont_platform.qa").joinpath("cues.json").read_text("utf-8")
    return json.loads(text)  # type: ignore[no-any-return]


def add_cues(lex: Lexicon, family: str) -> None:
    """Put a domain family's cue phrases (``cues.json``, keyed by family: transfers, entities, inventory) into
    the lexicon as ``cue`` terms."""
    for name, phrases in cues().get(family, {}).items():
        for phrase in phrases:
            lex.add_term(phrase, "cue", name)


def term_ref(iri: URIRef) -> str:
    return str(iri)
