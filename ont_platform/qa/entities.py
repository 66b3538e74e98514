"""Multi-hop questions over an entity–relation graph grounded in text (seed 003), for any OWL ontology.

The bundled ``kg`` domain and every user's ontology are read and answered by this one module; nothing in it
knows about people, companies or places. It works in two steps:

**Reading** (:func:`plan`). The question is read against the domain's ontology and names into a chain: a start
node, then one step per relation word in the order the relations are walked, each with the class it should land
on when the question says one, and the class the question asks for. Every part records the words it came from
(:mod:`ont_platform.qa.reading`); content words that no part explains make the reading incomplete, and an
incomplete reading is refused with those words named. The ontology then checks the chain: a relation walks
forward from a node of its domain and backward from a node of its range (``owl:inverseOf`` and
``owl:SymmetricProperty`` are followed, a relation includes its ``rdfs:subPropertyOf`` children), and a relation
that fits neither end of the node it would leave is a misreading, refused as such. Where the question names a
class but no relation to reach it ("홍길동의 회사", "Acme's city"), the ontology supplies the chain when exactly
one fits the classes within the hop limit, or when all that fit reach the same nodes; otherwise the candidates are
named in a refusal. Where the asked class is not reached and the last relation can follow itself (its range fits
its own domain: a place inside a place), it is followed again, within the hop limit ("Which country is Acme
in?").

**Walking** (:func:`answer`). One hop per step, on the stored edges, in the order of the chain; the walk stops at
the first hop that is missing or not grounded; a chain longer than the hop limit stops at the limit. A hop is
grounded only when the edge is marked grounded, its chunk exists, and the chunk's text mentions both ends by a
label or an alias. The answer states the reading in words (``홍길동 →worksFor→ ? →locatedIn→ ?(도시)``).
"""

from __future__ import annotations

import re
from collections.abc import Sequence
from dataclasses import dataclass, field
from itertools import permutations

from rdflib import URIRef

from ont_platform.answer.contracts import AnswerPath, Hop, HopDecision
from ont_platform.messages import Lang, say
from ont_platform.ontology.model import local_name
from ont_platform.qa.analyzer import NOUN_TAGS, Morph, morphs
from ont_platform.qa.context import Context
from ont_platform.qa.korean import COUNT_KO, jamo
from ont_platform.qa.lexicon import Mention, word_bounded
from ont_platform.qa.reading import (
    Part,
    is_direct_word,
    is_filler,
    is_question_word,
    is_title,
    limit_words,
    quote_words,
    unexplained,
    words,
)
from ont_platform.qa.text import compact, hop_limit, normalize

_EXIST = ("있",)  # the bare existence verb: a relation only when it follows a locative 에 or modifies a noun
_SUBJECT = frozenset({"이", "가", "은", "는", "께서", "의", "이라는", "라는"})
_OBLIQUE = frozenset({"에", "에서", "을", "를", "에게", "한테", "로", "으로", "께"})
_GAP_MAX = 1
"""At most this many hops are supplied by the ontology between two named parts of a question. One: a chain of
two relations nobody named is a guess ("홍길동은 어느 나라 사람이야?" is not "the country of his employer")."""


@dataclass
class Step:
    """One relation to follow: the property the words name, how it was found, and where it should land."""

    prop: URIRef
    word: str
    span: tuple[int, int] | None
    hint: URIRef | None = None
    direction: str | None = None  # "fwd", "inv", or None: decided by the classes at the node
    how: str = "word"  # "word": named in the question; "ontology": supplied by the ontology; "again": repeated
    strict: bool = False
    """Walk only ``direction`` (a chain the ontology decided), never the other way when it finds nothing."""
    said: bool = False
    """``direction`` comes from an object particle ("감마랩스를 인수한 회사": the company that acquired it): when
    both ends fit, only that way is walked; finding nothing there is no licence to walk the other way."""


@dataclass
class EntityPlan:
    """A question read into a chain, with the words each part came from."""

    start: str | None
    start_name: str | None
    near_miss: tuple[str, str] | None
    steps: list[Step] = field(default_factory=list)
    limit: int = 3
    ambiguous: list[str] = field(default_factory=list)
    asked: URIRef | None = None
    gap: URIRef | None = None
    """A class the question reaches without naming a relation ("홍길동의 회사"): the ontology fills the chain."""
    parts: list[Part] = field(default_factory=list)
    unexplained: list[str] = field(default_factory=list)
    other_names: list[str] = field(default_factory=list)
    english: bool = False

    @property
    def lang(self) -> Lang:
        """The language the answer's texts are written in: the question's."""
        return "en" if self.english else "ko"


@dataclass
class Walked:
    """A hop taken: the edge as stored, and whether it is grounded."""

    eid: str
    rel: str
    src: str
    dst: str
    chunk: str | None
    grounded: bool
    why: str


class Misread(Exception):
    """The chain does not fit the ontology: the reading is wrong, whatever the data says. Carries the message
    code and its fields, written out in the question's language where it is caught."""

    def __init__(self, code: str, **fields: object) -> None:
        super().__init__(code)
        self.code = code
        self.fields = fields


# --- reading ---------------------------------------------------------------------------------------------------


def plan(ctx: Context, question: str) -> EntityPlan:
    """Read ``question`` into a chain (no query runs, except for the start node's classes)."""
    text = normalize(question)
    ms = morphs(text)
    names = word_bounded(ctx.lexicon.find_names(text)[0], ms, text)
    found = ctx.lexicon.find_terms(text, ms, skip=names)
    terms = [t for t in found if t.kind in ("relation", "class")]
    # Words for the answer's own name (제목, "the name of"): the answer is a node, its label is its name.
    answer_words = [t for t in found if t.kind == "cue" and t.ref == "context"]
    asked_hops, hop_span = hop_limit(text)
    limit = min(asked_hops or ctx.limits.default_hops, ctx.limits.max_hops)
    english = _is_english(ms)
    parts: list[Part] = [Part("cue", t.start, t.end, t.surface, "context") for t in answer_words]
    if hop_span is not None:
        hop_span = limit_words(text, hop_span)
        parts.append(Part("limit", hop_span[0], hop_span[1], text[hop_span[0] : hop_span[1]]))
    spans: dict[tuple[int, int], list[str]] = {}
    for mention in names:
        spans.setdefault((mention.start, mention.end), []).append(mention.ref)
    if not spans:
        name = _unmapped_name(ms, text, ctx, english)
        near = _near_miss(ctx, name) if name else None
        return EntityPlan(None, name, near, limit=limit, english=english)
    first = sorted(spans)[0]
    candidates = sorted(set(spans[first]))
    parts.append(Part("start", first[0], first[1], text[first[0] : first[1]]))
    others = [text[s:e] for (s, e), refs in sorted(spans.items()) if (s, e) != first and set(refs) != set(candidates)]
    for (s, e), refs in spans.items():
        if set(refs) == set(candidates) and (s, e) != first:
            parts.append(Part("start", s, e, text[s:e]))  # the same node named again
    if hop_span is not None:  # "within two hops": the words of the limit name no relation
        terms = [t for t in terms if t.end <= hop_span[0] or t.start >= hop_span[1]]
    classes = [t for t in terms if t.kind == "class" and not _verb_form(ctx, text, t)]
    classes, unjoined = _coordinated(ctx, text, classes)
    class_spans = {(c.start, c.end) for c in classes}
    # A word that names a class and a relation (감독: Director, and "directed by") is read as the class: the
    # relation it implies is the one the ontology supplies to reach that class ("청하의 감독").
    rels = _one_per_span(
        ctx,
        [
            t
            for t in terms
            if t.kind == "relation" and not _bare_existence(ms, t) and (t.start, t.end) not in class_spans
        ],
    )
    for t in rels:
        parts.append(Part("relation", t.start, t.end, t.surface, t.ref))
    name_spans = [(s, e) for (s, e), refs in spans.items() if set(refs) == set(candidates)]
    for i, m in enumerate(ms):
        if is_question_word(m, text):
            parts.append(Part("question", m.start, m.end, m.form))
        elif is_direct_word(m, text):
            parts.append(Part("direct", m.start, m.end, m.form))
        elif is_title(m, text) and _next_to_name(ms, i, name_spans):
            parts.append(Part("start", m.start, m.end, m.form))  # 홍길동 대표님, Dr. Kim: part of the name
    asked = _asked_class(ms, classes, rels, first, english, text, answer_words)
    said = _merge_repeats(ctx, ms, text, rels, classes, asked, english)
    if asked_hops is None and len(said) <= 1 and any(part.role == "direct" for part in parts):
        # "바로 속한", "directly in": one hop, never extended past it. With two relations or more the word
        # speaks of one verb ("X를 직접 연출한 감독이 태어난 곳"), not of the whole walk.
        limit = 1
    for c in classes:
        parts.append(Part("asked" if asked is not None and c is asked else "class", c.start, c.end, c.surface, c.ref))
    ordered = _relation_order(said, first, english, ms, text)
    steps = [Step(URIRef(t.ref), t.surface, (t.start, t.end), _hint(t, classes, asked, english, rels)) for t in ordered]
    gap = None
    if not english and classes:
        before_first_rel = [
            c for c in classes if c.start >= first[1] and (not ordered or c.end <= min(t.start for t in ordered))
        ]
        if ordered:
            gap_cls = [c for c in before_first_rel if c is not asked]
            if gap_cls:
                gap = URIRef(gap_cls[-1].ref)
    if english and steps and gap is None:
        gap = _english_gap(ctx, ms, text, classes, asked, first, candidates[0], steps[0])
    if not english and steps:
        _drop_predicate_hints(ctx, ms, classes, candidates[0], steps)
    if not ordered and asked is not None:
        gap = None  # the chain to the asked class is supplied whole (see _fill)
    p = EntityPlan(
        candidates[0],
        None,
        None,
        steps,
        limit,
        candidates if len(candidates) > 1 else [],
        URIRef(asked.ref) if asked is not None else None,
        gap,
        parts,
        [],
        others,
        english,
    )
    if steps:
        steps[0].direction = _first_direction(ms, text, first, [t for t in rels if t.start >= first[1]], english)
        # an object particle (감마랩스를 인수한), or in English the verb's object or agent by word order, fixes
        # the direction: the walk never falls back to the other one ("Which company acquired Gamma Labs?" had
        # answered with the company Gamma Labs acquired)
        steps[0].said = _object_particle(ms, first) or (
            english
            and steps[0].direction is not None
            and not text.casefold().startswith(("where", "in which", "in what"))
        )
    p.unexplained = unexplained(text, ms, parts) + unjoined
    if p.ambiguous:
        _disambiguate(ctx, p)
    if not p.ambiguous:
        # a word that names a class and a relation at once stands for the relation that reaches the class
        # (see above): it constrains the walk through the ontology's chain, so it is placed already
        said_as_relation = {(t.start, t.end) for t in terms if t.kind == "relation"}
        _place_classes(ctx, p, [c for c in classes if (c.start, c.end) not in said_as_relation], asked, first)
    return p


def _place_classes(
    ctx: Context, p: EntityPlan, classes: list[Mention], asked: Mention | None, first: tuple[int, int]
) -> None:
    """Every class word must constrain the reading: say what the start is, where a step lands, the class the
    ontology's chain goes to, or the asked class. A class word that does none of these would be read and then
    ignored, and the answer could hold nodes of other classes ("회사 중에서 서울에 본사가 있는 곳은?" answered
    with a foundation too). One such word before the start, when nothing else is asked, is the asked class
    (class-first order, "Show me the companies headquartered in Seoul"); any other is a word the reading
    could not place, so the question is refused naming it. In English a class before the start may instead be
    where the first relation lands ("the company Minji Lee works for") or, in a chain of several relations, the
    node a relative clause names between two of them ("the person who directed X")."""
    used = {p.asked, p.gap, *(s.hint for s in p.steps)}
    own = ctx.node_classes(p.start or "")
    loose = [
        c
        for c in classes
        if c is not asked
        and URIRef(c.ref) not in used
        and not any(ctx.onto.is_a(k, frozenset({URIRef(c.ref)})) for k in own)
    ]
    before = [c for c in loose if c.end <= first[0]]
    if p.english and len(before) == 1:
        # "Which city is the company Minji Lee works for in?", "Where is the studio that produced X
        # headquartered?": a class named before the start is where the relation leaving the start lands, when
        # exactly one named relation can leave the start and land there.
        cls = URIRef(before[0].ref)
        leaving = [
            st
            for st in p.steps
            if st.hint is None
            and cls in frozenset().union(*(_landing(ctx, st, frozenset(own), b) for b in _ways(ctx, st, own)))
        ]
        if len(leaving) == 1:
            leaving[0].hint = cls
            loose.remove(before[0])
    # After the start, a class word that names where one of the relations can end ("works at some company.
    # What city is that company in?") is a landing the walk checks on its way (see _to_asked).
    loose = [c for c in loose if c.end <= first[0] or not _ends_a_step(ctx, p.steps, URIRef(c.ref))]
    if not loose:
        return
    if p.asked is None and len(loose) == 1 and loose[0].end <= first[0] and not (p.english and len(p.steps) > 1):
        c = loose.pop()
        p.asked = URIRef(c.ref)
        if not p.steps:
            p.gap = None  # the whole chain to the asked class is supplied (see _fill)
        p.parts = [
            Part("asked", part.start, part.end, part.text, part.ref)
            if (part.role, part.start, part.end) == ("class", c.start, c.end)
            else part
            for part in p.parts
        ]
    if p.english and len(p.steps) > 1:
        # "In which city was the person who directed The Glass Garden born?": the class heads a relative
        # clause and names the node between two relations, which the ontology's order of the steps decides.
        loose = [c for c in loose if not _ends_a_step(ctx, p.steps, URIRef(c.ref))]
    p.unexplained = [*p.unexplained, *(c.surface for c in loose if c.surface not in p.unexplained)]


_AND_OR = re.compile(r"\s*(?:와|과|랑|이랑|하고|및|또는|이나|나|,|and|or|&|/)\s*(?:the\s+)?", re.IGNORECASE)


def _coordinated(ctx: Context, text: str, classes: list[Mention]) -> tuple[list[Mention], list[str]]:
    """Two class words joined by "and"/"or" (단체랑 회사, "companies and foundations") ask for both. When one
    class holds the other, they are that broader class, one word spanning both; otherwise the reader has no
    union to walk to and the pair is returned as words it could not place. Read one by one, the second became
    the asked class and the first a landing, and "서울에 있는 단체랑 회사 전부" lost the foundation."""
    out: list[Mention] = []
    unjoined: list[str] = []
    for c in classes:
        prev = out[-1] if out else None
        if prev is not None and prev.end <= c.start and _AND_OR.fullmatch(text[prev.end : c.start]):
            a, b = URIRef(prev.ref), URIRef(c.ref)
            broader = b if ctx.onto.is_a(a, frozenset({b})) else a if ctx.onto.is_a(b, frozenset({a})) else None
            if broader is not None:
                out[-1] = Mention("class", str(broader), prev.start, c.end, text[prev.start : c.end])
                continue
            unjoined.append(text[prev.start : c.end])
        out.append(c)
    return out, unjoined


def _ends_a_step(ctx: Context, steps: list[Step], cls: URIRef) -> bool:
    """Whether a node of ``cls`` can be at either end of one of ``steps`` (by the ontology's domain and range)."""
    for step in steps:
        for end in ctx.onto.ends(step.prop):
            if not end or ctx.onto.is_a(cls, end):
                return True
    return False


def _verb_form(ctx: Context, text: str, t: Mention) -> bool:
    """Whether an English class word is said as a verb: the light stemmer meets "filmed" with the class Film
    and "founded" with a class Founder, but "Which city was X filmed in?" names no film. A word ending in -ed
    or -ing names the class only when one of the class's labels ends so too (Building, Painting)."""
    said = text[t.start : t.end].lower().rstrip(".").split()
    if not said or not said[-1].isascii():
        return False
    word = said[-1]
    for ending in ("ed", "ing"):
        if word.endswith(ending):
            labels = [x.lower() for x in ctx.onto.labels(URIRef(t.ref)) if x.isascii()]
            return not any(x.split()[-1].endswith(ending) for x in labels if x.split())
    return False


def _drop_predicate_hints(ctx: Context, ms: list[Morph], classes: list[Mention], start: str, steps: list[Step]) -> None:
    """ "청하는 어느 나라에 있는 도시야?": the class word before the copula says what the start is (a city in which
    country), not where the relation lands. When the start is of that class, the relation keeps no landing hint."""
    said = {
        URIRef(c.ref) for c in classes if any(m.start >= c.end and m.tag == "VCP" and m.start - c.end <= 1 for m in ms)
    }
    if not said:
        return
    own = ctx.node_classes(start)
    for step in steps:
        if step.hint in said and any(ctx.onto.is_a(c, frozenset({step.hint})) for c in own):
            step.hint = None


_LINKS_EN = frozenset({"behind", "of", "for", "from", "at", "in", "on", "by", "with", "the", "a", "an"})


def _english_gap(
    ctx: Context,
    ms: list[Morph],
    text: str,
    classes: list[Mention],
    asked: Mention | None,
    first: tuple[int, int],
    start: str,
    step: Step,
) -> URIRef | None:
    """ "Where was the director of Winter Station born?": a class named just before the start, linked to it by
    "of"/"behind" alone, is where the chain goes first, when the first relation word cannot leave the start
    itself (a film is born nowhere). When it can ("the company Hong works for"), the class word is where
    that relation lands, and no step is added."""
    for c in reversed([c for c in classes if c.end <= first[0] and c is not asked]):
        between = [m for m in ms if c.end <= m.start and m.end <= first[0] and m.tag not in ("SP", "SF", "SW")]
        if all(m.form.lower() in _LINKS_EN or is_filler(m, text) for m in between):
            if not _ways(ctx, step, ctx.node_classes(start)):
                return URIRef(c.ref)
            return None
        return None
    return None


def _next_to_name(ms: list[Morph], i: int, names: list[tuple[int, int]]) -> bool:
    """Whether morpheme ``i`` follows a name (through other titles: 홍길동 대표님) or precedes one (Dr Kim)."""
    j = i - 1
    while j >= 0 and ms[j].tag in ("XSN", "NNB", "NNG", "SL") and not any(s <= ms[j].start < e for s, e in names):
        if ms[j].tag == "SL" or ms[j].form not in ("님", "씨"):
            break
        j -= 1
    if j >= 0 and any(s <= ms[j].start < e for s, e in names):
        return True
    k = i + 1
    while k < len(ms) and ms[k].tag in ("SP", "SF", "SW"):  # "Dr. Kim"
        k += 1
    return k < len(ms) and any(s <= ms[k].start < e for s, e in names) and ms[i].tag == "SL"


_DETERMINERS = frozenset({"s", "the", "its", "their", "his", "her", "our", "my", "your"})


def _merge_repeats(
    ctx: Context,
    ms: list[Morph],
    text: str,
    rels: list[Mention],
    classes: list[Mention],
    asked: Mention | None,
    english: bool,
) -> list[Mention]:
    """One relation said twice, as a noun and then a verb ("에이크미 본사는 어느 도시에 있어": 본사 and 있 both say
    where it is): a relation noun followed by a relation verb at or above it (or below it), with no class word
    between them but the asked one, is one step, named by the narrower word; the same relation said as a verb
    and as a noun is one step too. Two verbs are two clauses ("있는 곳이 속한 도시") and stay two steps."""
    nouns = {m.start for m in ms if m.tag in ("NNG", "NNP")}
    # English has no noun tag here: a word after a possessive or an article is used as a noun ("Beta's office
    # is in", "the office of Beta is in")
    nouns |= {b.start for a, b in zip(ms, ms[1:], strict=False) if b.tag == "SL" and a.form.lower() in _DETERMINERS}
    # a relation word that begins with the question word ("where is") only asks where: another word of the same
    # family says which way ("Where is the office of Beta located?" is one step, not three)
    nouns |= {m.start for m in ms if m.tag == "SL" and is_question_word(m, text)}
    out: list[Mention] = []
    for t in rels:
        if (
            out
            and out[-1].ref == t.ref
            and (out[-1].start in nouns or t.start in nouns)
            and not any(out[-1].end <= c.start and c.end <= t.start for c in classes)
        ):
            # the same relation as a verb and as a noun ("where Dahye Lee was born? Her hometown, I mean"):
            # said again, not walked again. Two verbs stay two steps ("born where X was born").
            continue
        if out and out[-1].start in nouns:
            prev = out[-1]
            a, b = URIRef(prev.ref), URIRef(t.ref)
            between = [c for c in classes if prev.end <= c.start and c.end <= t.start and c is not asked]
            if a != b and not between and (a in ctx.onto.subproperties(b) or b in ctx.onto.subproperties(a)):
                if a in ctx.onto.subproperties(b):
                    # keep the narrower, earlier word, reaching to the end of the later one: the class after
                    # it is where this one step lands ("서울에 본사가 있는 회사": 회사)
                    if not english:  # (in English the class comes first: "the companies whose office is in")
                        out[-1] = Mention(prev.kind, prev.ref, prev.start, max(prev.end, t.end), prev.surface)
                    continue
                out[-1] = t
                continue
        out.append(t)
    return out


def _one_per_span(ctx: Context, rels: list[Mention]) -> list[Mention]:
    """One relation per place in the question. Words that name a property and one above it at once ("located
    in" is both kg:within's label and, spacing aside, locatedIn's notation) name the one above, which walks
    both; words naming unrelated properties are kept apart (the walk then finds which one the data holds)."""
    by_span: dict[tuple[int, int], list[Mention]] = {}
    for t in rels:
        by_span.setdefault((t.start, t.end), []).append(t)
    out = []
    for group in by_span.values():
        props = {URIRef(t.ref) for t in group}
        top = [t for t in group if all(p in ctx.onto.subproperties(URIRef(t.ref)) for p in props)]
        out.append(top[0] if top else group[0])
    return sorted(out, key=lambda t: (t.start, t.end))


def _is_english(ms: list[Morph]) -> bool:
    """More English words than Korean ones (ids and numbers count for neither)."""
    latin = sum(1 for m in ms if m.tag == "SL")
    hangul = sum(1 for m in ms if any("가" <= ch <= "힣" for ch in m.form))
    return latin > hangul


def _bare_existence(ms: list[Morph], t: Mention) -> bool:
    """The verb 있 alone is a relation only after a locative (에, 어디) or modifying a noun."""
    if t.surface.split(" ") != list(_EXIST):
        return False
    idx = next((i for i, m in enumerate(ms) if m.start == t.start), None)
    if idx is None:
        return True
    before = ms[max(0, idx - 2) : idx]
    after = ms[idx + 1 : idx + 2]
    return not (
        any(m.tag == "JKB" and m.form in ("에", "에서") for m in before)
        or any(m.tag == "NP" and m.form in ("어디", "어디쯤") for m in before)
        or any(m.tag == "ETM" for m in after)
    )


def _asked_class(
    ms: list[Morph],
    classes: list[Mention],
    rels: list[Mention],
    start: tuple[int, int],
    english: bool,
    text: str = "",
    answer_words: Sequence[Mention] = (),
) -> Mention | None:
    """The class the question asks for: one a question word points at (어느 도시, which country, "what is the
    name of the city ..."), else the last class after the start and after every relation word (…세운 사람은?,
    홍길동의 회사는?, Acme's city?)."""
    for c in classes:
        prev = [m for m in ms if m.end <= c.start]
        if prev and is_question_word(prev[-1]) and c.start - prev[-1].end <= 1:
            return c
    if english:  # "What is the name of the city where ...": only fillers and words for a name in between
        for c in classes:
            if c.start >= start[0]:
                break
            prev = [m for m in ms if m.end <= c.start]
            asks = [i for i, m in enumerate(prev) if is_question_word(m, text) and m.form.lower() in ("what", "which")]
            if asks and all(
                is_filler(m, text) or any(a.start <= m.start < a.end for a in answer_words)
                for m in prev[asks[-1] + 1 :]
                if m.tag not in ("SP", "SF", "SW")
            ):
                return c
    last_rel = max((t.end for t in rels if t.start >= start[1]), default=start[1])
    after = [c for c in classes if c.start >= last_rel and c.start >= start[1]]
    if english and any(t.start >= start[1] for t in rels) and not after:
        return None
    return after[-1] if after else None


def _hint(
    t: Mention, classes: list[Mention], asked: Mention | None, english: bool, rels: list[Mention]
) -> URIRef | None:
    """The class a relation word modifies in Korean ("다니는 회사"): where that hop should land."""
    if english:
        return None
    nxt = next((c for c in classes if c.start >= t.end), None)
    if nxt is None or nxt is asked:
        return None
    if any(t.end <= r.start < nxt.start for r in rels):
        return None
    return URIRef(nxt.ref) if nxt.start - t.end <= 3 else None


def _relation_order(
    rels: list[Mention], start: tuple[int, int], english: bool, ms: Sequence[Morph] = (), text: str = ""
) -> list[Mention]:
    """Korean says the chain in walking order; English nests it the other way before the name ("Where is the
    company Hong works for?"): relations after the name in order, then those before it, innermost first."""
    if not english:
        return list(rels)
    after = [t for t in rels if t.start >= start[1]]
    before = list(reversed([t for t in rels if t.end <= start[0]]))
    between = [m for m in ms if before and before[0].end <= m.start and m.end <= start[0]]
    if after and before and after[-1].ref == before[0].ref and not any(is_question_word(m, text) for m in between):
        # "Where is Acme located?": one relation, said around the name. With a question word between the two
        # ("Who was born where Dahye Lee was born?") they are two clauses, and two steps.
        before = before[1:]
    return after + before


def _object_particle(ms: list[Morph], span: tuple[int, int]) -> bool:
    """Whether the start carries the object particle 을/를 (it is what the relation word acts on)."""
    nxt = next((m for m in ms if m.start >= span[1]), None)
    return nxt is not None and nxt.start == span[1] and nxt.tag == "JKO"


def _first_direction(
    ms: list[Morph], text: str, span: tuple[int, int], after: list[Mention], english: bool
) -> str | None:
    """How the start takes part in the first relation, when the classes leave it open: a subject walks the edge
    forward ("서울이 속한"), a place or object backward ("대한민국에 속한"); in English a name after the verb is
    its object ("Who founded Acme?")."""
    nxt = next((m for m in ms if m.start >= span[1]), None)
    if nxt is not None and nxt.start == span[1] and nxt.tag.startswith("J"):
        if nxt.form in _SUBJECT:
            return "fwd"
        if nxt.form in _OBLIQUE:
            return "inv"
    if english:
        low = text.casefold()
        if low.startswith(("where", "in which", "in what")):
            return "fwd"
        if not after and text[: span[0]].strip():
            # "Which company acquired Gamma Labs?": the name after the verb is its object; after "by" it is the
            # agent of a passive ("Which company was acquired by Gamma Labs?")
            before = text[: span[0]].split()
            return "fwd" if before and before[-1].casefold() == "by" else "inv"
    return None


_CAPITALISED = re.compile(r"[A-Z][\w'’.&-]*(?:\s+(?:[A-Z][\w'’.&-]*|of|the|de|des|du|la|le|von|van|and|&)){0,6}")


def _unmapped_name(ms: list[Morph], text: str, ctx: Context, english: bool) -> str | None:
    """The words that should have named the start entity: in Korean the run of nouns before the first particle
    without the class words and titles after it (박영희가, 키무라 래이 감독이 → 키무라 래이); in English the
    first run of capitalised words that are not question words or class words (Who directed Moonlit
    Harbour? → Moonlit Harbour); else the first proper noun."""
    if english:
        for found in _CAPITALISED.finditer(text):
            words = found.group(0).split()
            while words and (_plain_word(words[0]) or ctx.lexicon.find_terms(words[0])):
                words = words[1:]
            while words and (_plain_word(words[-1]) or ctx.lexicon.find_terms(words[-1])):
                words = words[:-1]
            if words:
                return " ".join(words)
    run: list[Morph] = []
    for m in ms:
        if m.tag in NOUN_TAGS or m.tag == "NNB" and run:
            run.append(m)
            continue
        if run and m.tag.startswith("J"):
            while run and (is_title(run[-1], text) or ctx.lexicon.find_terms(text[run[-1].start : run[-1].end])):
                run = run[:-1]
            if run:
                name = text[run[0].start : run[-1].end]
                if not ctx.lexicon.find_terms(name):
                    return name
        run = []
    return next((m.form for m in ms if m.tag == "NNP"), None)


def _plain_word(word: str) -> bool:
    """A question word, filler or title (capitalised at the start of an English sentence: "Who", "Please")."""
    w = words()
    low = word.lower().strip(".,?!")
    return low in w.en or low in w.question_en or low in w.titles_en


def _near_miss(ctx: Context, name: str) -> tuple[str, str] | None:
    """A known name a typo away from ``name`` — one letter (jamo) for names of up to two syllables, two for
    longer ones: reported as unmapped, never used in its place."""
    key = jamo(compact(name))
    best: tuple[int, str, str] | None = None
    budget = 1 if len(compact(name)) <= 2 else 2
    for other in ctx.lexicon.names:
        other_j = jamo(other)
        if abs(len(other_j) - len(key)) > budget:
            continue
        d = _edit_distance(key, other_j, budget)
        if d <= budget and (best is None or (d, other) < best[:2]):
            best = (d, other, ctx.lexicon.nodes_named(other)[0])
    return (best[1], best[2]) if best else None


def _edit_distance(a: str, b: str, cap: int) -> int:
    prev = list(range(len(b) + 1))
    for i, ca in enumerate(a, 1):
        cur = [i]
        for j, cb in enumerate(b, 1):
            cur.append(min(prev[j] + 1, cur[j - 1] + 1, prev[j - 1] + (ca != cb)))
        if min(cur) > cap:
            return cap + 1
        prev = cur
    return prev[-1]


# --- the ontology's view of a step -------------------------------------------------------------------------------


def _fits(ctx: Context, classes: list[URIRef], allowed: frozenset[URIRef]) -> bool:
    return not allowed or any(ctx.onto.is_a(c, allowed) for c in classes)


def _ways(ctx: Context, step: Step, classes: list[URIRef]) -> list[bool]:
    """The directions (``False`` forward, ``True`` backward along the named property) a step may leave a node of
    ``classes``, in the order to try them; empty when the property fits neither end (a misreading)."""
    onto = ctx.onto
    if onto.symmetric(step.prop):
        return [False, True]
    if step.strict and step.direction is not None:
        return [step.direction == "inv"]
    dom, rng = onto.ends(step.prop)
    fwd, bwd = _fits(ctx, classes, dom), _fits(ctx, classes, rng)
    if step.hint is not None and fwd and bwd:
        lands_fwd = not rng or onto.is_a(step.hint, rng)
        lands_bwd = not dom or onto.is_a(step.hint, dom)
        if lands_fwd and not lands_bwd:
            bwd = False
        elif lands_bwd and not lands_fwd:
            fwd = False
    if fwd and bwd:
        if step.direction == "inv" and step.said:  # "감마랩스를 인수한": the start is the object
            return [True]
        if step.direction == "inv":  # "대한민국에 속한": backward first, forward if that finds nothing
            return [True, False]
        if step.direction == "fwd":  # "아시아는 어디에 속해": the subject's own edge, never one pointing at it
            return [False]
        return [False, True]
    return [False] if fwd else [True] if bwd else []


def _kinds(ctx: Context, prop: URIRef, backward: bool) -> tuple[frozenset[URIRef], frozenset[URIRef]]:
    """The stored relations to walk forward and backward when ``prop`` is followed (backward if ``backward``):
    the property and its sub-properties, its inverses' the other way round, both ways when symmetric."""
    onto = ctx.onto
    ahead = set(onto.stored(prop))
    behind: set[URIRef] = set()
    for inv in onto.inverses(prop):
        behind |= onto.stored(inv)
    for p in list(ahead):
        if onto.symmetric(p):
            behind.add(p)
    if backward:
        ahead, behind = behind, ahead
    return frozenset(ahead), frozenset(behind)


def _gap_chains(ctx: Context, classes: list[URIRef], target: URIRef, budget: int) -> list[list[tuple[URIRef, bool]]]:
    """Chains of at most ``min(budget, _GAP_MAX)`` properties that the ontology allows from a node of
    ``classes`` to a node of ``target``, shortest first (only the shortest length is returned). Each property
    family is tried once per hop by its topmost member, so locatedIn and partOf under within count as one way."""
    onto = ctx.onto
    tops = sorted({p for p in onto.properties() if not (onto.superproperties(p) - {p}) & onto.properties()})
    want = frozenset({target})
    frontier: list[tuple[list[tuple[URIRef, bool]], frozenset[URIRef]]] = [([], frozenset(classes))]
    for _ in range(min(budget, _GAP_MAX)):
        found, nxt = [], []
        for chain, here in frontier:
            for prop in tops:
                dom, rng = onto.ends(prop)
                for backward, (src, dst) in ((False, (dom, rng)), (True, (rng, dom))):
                    if not onto.stored(prop) and not any(onto.stored(i) for i in onto.inverses(prop)):
                        continue
                    if src and not any(onto.is_a(c, src) for c in here):
                        continue
                    lands = frozenset(c for c in onto.classes.values() if not dst or onto.is_a(c, dst))
                    step = [*chain, (prop, backward)]
                    if any(onto.is_a(c, want) for c in lands):
                        found.append(step)
                    nxt.append((step, lands))
        if found:
            return found
        frontier = nxt
    return []


# --- execution -------------------------------------------------------------------------------------------------


def answer(ctx: Context, question: str, qid: str) -> HopDecision:
    p = plan(ctx, question)
    if p.start is None:
        return _no_start(p, qid)
    if p.ambiguous:
        names = ", ".join(p.ambiguous)
        return _decision(
            qid,
            "refuse",
            None,
            [],
            ["node_alias_unmapped"],
            say("entities.ambiguous_start", p.lang, names=names),
            f"start_candidates={names}",
            say("entities.ambiguous_start_hedge", p.lang),
        )
    if p.other_names:
        label = _label(ctx, p.start)
        others = quote_words(p.other_names)
        return _decision(
            qid,
            "refuse",
            None,
            [],
            ["missing_edge"],
            say("entities.other_names", p.lang, label=label, others=others),
            f"start_id={p.start}, other names={'/'.join(p.other_names)}",
            say("entities.other_names_hedge", p.lang),
        )
    if p.unexplained and len(p.steps) <= p.limit:  # a chain over the limit stops at it, unread words or not
        label = _label(ctx, p.start)
        words = quote_words(p.unexplained)
        return _decision(
            qid,
            "refuse",
            None,
            [],
            ["missing_edge"],
            say("entities.unread_words", p.lang, words=words, label=label),
            f"start_id={p.start}, unread={'/'.join(p.unexplained)}",
            say("entities.unread_words_hedge", p.lang),
        )
    if not p.steps and p.asked is None and p.gap is None:
        label = _label(ctx, p.start)
        return _decision(
            qid,
            "refuse",
            None,
            [],
            ["missing_edge"],
            say("entities.no_relation", p.lang, label=label),
            f"start_id={p.start}, relations=none",
            say("entities.no_relation_hedge", p.lang),
        )
    try:
        return _walk(ctx, p, qid)
    except Misread as exc:
        return _decision(
            qid,
            "refuse",
            None,
            [],
            ["missing_edge"],
            say("entities.misread", p.lang, why=say(exc.code, p.lang, **exc.fields)),
            f"start_id={p.start}, reading={_reading(ctx, p, p.steps)}",
            say("entities.misread_hedge", p.lang),
        )


def _disambiguate(ctx: Context, p: EntityPlan) -> EntityPlan:
    """A name shared by several nodes: keep those the question's class words and first relation fit."""
    fitting = []
    qualifiers = [URIRef(part.ref) for part in p.parts if part.role == "class"]
    for node in p.ambiguous:
        classes = ctx.node_classes(node)
        if qualifiers and not any(ctx.onto.is_a(c, frozenset({q})) for c in classes for q in qualifiers):
            continue
        if p.steps and not _ways(ctx, p.steps[0], classes):
            continue
        fitting.append(node)
    if len(fitting) == 1:
        p.start, p.ambiguous = fitting[0], []
    return p


def _decision(
    qid: str,
    decision: str,
    ans: str | None,
    path: list[Walked],
    factors: list[str],
    reason: str,
    evidence: str,
    hedge: str | None,
) -> HopDecision:
    hops = [_hop(w) for w in path]
    return HopDecision.model_validate(
        {
            "query_id": qid,
            "decision": decision,
            "answer": ans,
            "path": [h.to_json() for h in hops],
            "factors": factors,
            "reason": reason,
            "evidence": evidence,
            "hedge": hedge,
        }
    )


def _hop(w: Walked) -> Hop:
    return Hop(src=w.src, rel=w.rel, dst=w.dst, chunk_id=w.chunk)


def _no_start(p: EntityPlan, qid: str) -> HopDecision:
    if p.start_name and p.near_miss:
        known, node = p.near_miss
        return _decision(
            qid,
            "refuse",
            None,
            [],
            ["node_alias_unmapped"],
            say("entities.near_miss", p.lang, name=p.start_name, known=known, node=node),
            f"start_id=null, near={node}",
            say("entities.near_miss_hedge", p.lang),
        )
    return _decision(
        qid,
        "refuse",
        None,
        [],
        ["missing_start_node"],
        say("entities.missing_start", p.lang, who=p.start_name)
        if p.start_name
        else say("entities.missing_start_unnamed", p.lang),
        "start_id=null",
        say("entities.missing_start_hedge", p.lang),
    )


def _label(ctx: Context, node_id: str | None) -> str:
    """The node's rdfs:label, or its id."""
    if node_id is None:
        return "?"
    rows = ctx.run_select(ctx.nodes.node_info(ctx.nodes.iri(node_id)))
    return next((str(r["label"]) for r in rows if r.get("label") is not None), node_id)


def _reading(ctx: Context, p: EntityPlan, steps: list[Step]) -> str:
    """The chain in words: ``홍길동 →worksFor→ ? →locatedIn→ ?(도시)``."""
    out = [_label(ctx, p.start)]
    for s in steps:
        rel = local_name(s.prop)
        mark = "" if s.how == "word" else ("*" if s.how == "ontology" else "+")
        out.append(f"→{rel}{mark}→ ?" + (f"({ctx.onto.label(s.hint, p.lang)})" if s.hint is not None else ""))
    text = " ".join(out)
    if p.asked is not None:
        text += f" [{ctx.onto.label(p.asked, p.lang)}]"
    return text


def _read_as(ctx: Context, p: EntityPlan, steps: list[Step]) -> str:
    """What the reply says it read (`` 읽은 질문: …``), appended to its reason."""
    return say("entities.read_as", p.lang, reading=_reading(ctx, p, steps))


def _landing(ctx: Context, step: Step, classes: frozenset[URIRef], backward: bool) -> frozenset[URIRef]:
    """The classes a step can land on from a node of ``classes``, by the ontology (and its hint)."""
    onto = ctx.onto
    dom, rng = onto.ends(step.prop)
    end = dom if backward else rng
    lands = frozenset(c for c in onto.classes.values() if not end or onto.is_a(c, end))
    if step.hint is not None:
        lands = frozenset(c for c in lands if onto.is_a(c, frozenset({step.hint})))
    return lands


def _feasible(ctx: Context, steps: list[Step], classes: frozenset[URIRef]) -> bool:
    """Whether the ontology allows the chain from a node of ``classes`` (every step fits where it leaves)."""
    here = classes
    for step in steps:
        ways = _ways(ctx, step, list(here))
        if not ways:
            return False
        here = frozenset().union(*(_landing(ctx, step, here, b) for b in ways))
        if not here:
            return False
    return True


def _order(ctx: Context, p: EntityPlan) -> list[Step]:
    """The named steps in an order the ontology allows. The order the words come in is kept when it fits;
    otherwise (English relative clauses: "the city where the person who directed X was born") the one other
    order of the same steps that fits is taken; when none or several fit, the words' order stays and the walk
    reports where it breaks."""
    steps = list(p.steps)
    if len(steps) < 2 or len(steps) > 4:
        return steps
    start = frozenset(ctx.node_classes(p.start or ""))
    if _feasible(ctx, steps, start):
        return steps
    fitting = [list(order) for order in permutations(steps) if _feasible(ctx, list(order), start)]
    if len(fitting) == 1:
        for s in fitting[0]:
            s.direction = None  # the particle after the name spoke of the words' first relation
        return fitting[0]
    return steps


def _fill(ctx: Context, p: EntityPlan) -> list[list[Step]]:
    """The chains to walk: the named steps, after the ontology's chain to a class the question names without a
    relation (at the front, or as the whole chain when only the asked class is named) — one chain, or one per
    way the ontology allows when several do (the caller walks them all). Raises :class:`Misread` when no chain
    fits."""
    steps = p.steps = _order(ctx, p)
    target = p.gap if p.gap is not None else (p.asked if not steps else None)
    if target is None:
        return [steps]
    classes = ctx.node_classes(p.start or "")
    if any(ctx.onto.is_a(c, frozenset({target})) for c in classes) and p.gap is not None:
        return [steps]  # "홍길동 대표": a class word that only describes the start
    chains = _gap_chains(ctx, classes, target, p.limit)
    if not chains:
        raise Misread("entities.no_way_to_class", start=_label(ctx, p.start), target=ctx.onto.label(target, p.lang))
    return [
        [
            Step(
                prop,
                local_name(prop),
                None,
                _gap_hint(p, target, i == len(chain) - 1),
                "inv" if backward else "fwd",
                "ontology",
                True,
            )
            for i, (prop, backward) in enumerate(chain)
        ]
        + steps
        for chain in chains
    ]


def _gap_hint(p: EntityPlan, target: URIRef, last: bool) -> URIRef | None:
    """Where a supplied step must land: on the class it was supplied for, except when that class is the asked
    one (the asked-class check, which may follow the relation further, decides there)."""
    return target if last and target != p.asked else None


def _walk(ctx: Context, p: EntityPlan, qid: str) -> HopDecision:
    labels: dict[str, str] = {}
    chains = _fill(ctx, p)
    if len(chains) > 1:
        return _walk_candidates(ctx, p, qid, chains, labels)
    return _walk_steps(ctx, p, qid, chains[0], labels)


def _walk_candidates(
    ctx: Context, p: EntityPlan, qid: str, chains: list[list[Step]], labels: dict[str, str], *, extended: bool = False
) -> HopDecision:
    """Several chains of the ontology reach the named class: answer when they reach the same nodes, else
    refuse naming them."""
    target = p.gap if p.gap is not None else p.asked
    assert target is not None
    results = [(steps, _walk_steps(ctx, p, qid, steps, labels, extended=extended)) for steps in chains]
    answered = [(s, r) for s, r in results if r.decision == "answer"]
    ends = {r.answer for _, r in answered}
    if len(ends) == 1 and answered:
        steps, best = answered[0]
        names = ", ".join(" → ".join(local_name(s.prop) for s in st if s.how != "word") for st, _ in answered)
        return best.model_copy(
            update={"reason": best.reason + say("entities.same_answer_every_way", p.lang, names=names)}
        )
    if not answered and all(r.decision == "max_hops" for _, r in results):
        return results[0][1]  # every way the ontology allows needs more hops than the question gives
    listed = ", ".join(
        " → ".join(local_name(s.prop) + ("⁻¹" if s.direction == "inv" else "") for s in st if s.how != "word")
        for st, _ in results
    )
    label = ctx.onto.label(target, p.lang)
    return _decision(
        qid,
        "refuse",
        None,
        [],
        ["missing_edge"],
        say("entities.which_way", p.lang, start=_label(ctx, p.start), target=label, listed=listed),
        f"start_id={p.start}, candidates={listed}",
        say("entities.which_way_hedge", p.lang),
    )


def _to_asked(ctx: Context, p: EntityPlan, frontier: list[tuple[str, list[Walked]]], taken: int) -> list[list[Step]]:
    """The ontology's chains from where the named relations ended to the asked class, when the question names
    the class the last relation lands on and then the asked class with no relation between (as "홍길동의 회사"
    names a class and no relation at the front): the shortest chains within the hops left, for every end node
    reached."""
    budget = p.limit - taken
    assert p.asked is not None
    if budget <= 0 or not p.steps or not all(s.how == "word" for s in p.steps):
        return []
    last = p.steps[-1].span
    landing = [
        URIRef(part.ref)
        for part in p.parts
        if part.role == "class" and last is not None and (p.english or part.start >= last[1])
    ]  # English names it anywhere: "the company Hong works for"
    reached = ctx.node_classes(frontier[0][0])
    if not any(ctx.onto.is_a(c, frozenset({cls})) for cls in landing for c in reached):
        # "홍길동이 다니는 나라", "Which country was X born in?": the relation word itself says where it lands,
        # and it does not land there. Only a class the question names for the end of the relation ("다니는
        # 회사의 나라", "works at some company. What city ...") leaves the rest of the way to the ontology.
        return []
    found: dict[tuple[tuple[URIRef, bool], ...], None] = {}
    for end, _ in frontier:
        for chain in _gap_chains(ctx, ctx.node_classes(end), p.asked, budget):
            found[tuple(chain)] = None
    return [
        [
            Step(prop, local_name(prop), None, None, "inv" if backward else "fwd", "ontology", True)
            for prop, backward in chain
        ]
        for chain in found
    ]


def _walk_steps(
    ctx: Context, p: EntityPlan, qid: str, steps: list[Step], labels: dict[str, str], *, extended: bool = False
) -> HopDecision:
    """Walk ``steps`` from the start; ``extended`` when the ontology already supplied the chain's end (see
    :func:`_to_asked`), which is done once."""
    frontier: list[tuple[str, list[Walked]]] = [(p.start or "", [])]
    stop_missing: tuple[str, Step, list[Walked]] | None = None
    stop_ungrounded: list[Walked] | None = None
    taken: list[Step] = []
    i = 0
    over = False
    while i < len(steps):
        step = steps[i]
        if len(taken) >= p.limit:
            over = True
            break
        nxt: list[tuple[str, list[Walked]]] = []
        misfit = True
        for node, walked in frontier:
            classes = ctx.node_classes(node)
            ways = _ways(ctx, step, classes)
            if ways:
                misfit = False
            hops = _hops(ctx, node, step, ways, labels)
            if step.hint is not None:  # "서울에 있는 회사": land only on companies
                want = frozenset({step.hint})
                hops = [
                    h
                    for h in hops
                    if any(ctx.onto.is_a(c, want) for c in ctx.node_classes(h.dst if h.src == node else h.src))
                ]
            good = [h for h in hops if h.grounded]
            bad = [h for h in hops if not h.grounded]
            if not hops and stop_missing is None:
                stop_missing = (node, step, walked)
            if bad and not good and stop_ungrounded is None:
                stop_ungrounded = [*walked, bad[0]]
            for h in good:
                nxt.append((h.dst if h.src == node else h.src, [*walked, h]))
        if misfit and step.how == "word":
            node = frontier[0][0]
            cls = (
                ", ".join(
                    sorted(
                        ctx.onto.label(c, p.lang) for c in ctx.node_classes(node) if c in set(ctx.onto.classes.values())
                    )
                )
                or "?"
            )
            raise Misread(
                "entities.relation_cannot_follow",
                word=step.word,
                rel=local_name(step.prop),
                node=_label(ctx, node),
                cls=cls,
            )
        taken.append(step)
        frontier = nxt
        if not frontier:
            break
        i += 1
        if i == len(steps) and p.asked is not None:
            again = _again(ctx, step, _went_forward(frontier))
            if again is not None:
                fitting_ends = [n for n, _ in frontier if _is_asked(ctx, n, p.asked)]
                if not fitting_ends:  # "Which country is Acme in?": a place inside a place, followed until the class
                    steps = [
                        *steps,
                        Step(again, step.word, None, None, "fwd" if _went_forward(frontier) else "inv", "again", True),
                    ]
    back = [
        (end, w)
        for end, w in frontier
        if any(a.eid == b.eid and a.src != a.dst for a, b in zip(w, w[1:], strict=False))
    ]
    if frontier and len(back) == len(frontier):
        # every walk turns straight back along the edge it just came by (대한민국 →partOf⁻¹→ 서울 →within→
        # 대한민국): a word was read as a relation that was not one, and the "answer" is where it started
        walked = frontier[0][1]
        return _decision(
            qid,
            "refuse",
            None,
            walked,
            ["missing_edge"],
            say("entities.walks_back", p.lang, label=labels.get(frontier[0][0]) or _label(ctx, frontier[0][0]))
            + _read_as(ctx, p, taken),
            "the walk goes back along its own edge",
            say("entities.walks_back_hedge", p.lang),
        )
    frontier = [f for f in frontier if f not in back]
    if over and frontier:
        walked = frontier[0][1]
        return _decision(
            qid,
            "max_hops",
            None,
            walked,
            ["hop_limit_exceeded"],
            say("entities.over_limit", p.lang, limit=p.limit) + _read_as(ctx, p, steps),
            f"max_hops={p.limit} 초과",
            say("entities.over_limit_hedge", p.lang),
        )
    if frontier and p.asked is not None:
        fitting = [(end, w) for end, w in frontier if _is_asked(ctx, end, p.asked)]
        if not fitting and not extended:
            more = _to_asked(ctx, p, frontier, len(taken))
            if more:  # "What city does Lee work in?": the company reached, then the ontology's way to a city
                chains = [[*taken, *chain] for chain in more]
                if len(chains) == 1:
                    return _walk_steps(ctx, p, qid, chains[0], labels, extended=True)
                return _walk_candidates(ctx, p, qid, chains, labels, extended=True)
        if not fitting:
            end, walked = frontier[0]
            asked = ctx.onto.label(p.asked, p.lang)
            return _decision(
                qid,
                "refuse",
                None,
                walked,
                ["missing_edge"],
                say("entities.not_asked_class", p.lang, end=labels.get(end, end), asked=asked)
                + _read_as(ctx, p, taken),
                f"{end} is not a {local_name(p.asked)}",
                say("entities.not_asked_class_hedge", p.lang, asked=asked),
            )
        frontier = fitting
    if frontier:
        ends = list(dict.fromkeys(end for end, _ in frontier))
        walked = frontier[0][1]
        first = {end: w for end, w in reversed(frontier)}  # each end with the first walk that reached it
        decided = _decision(
            qid,
            "answer",
            ", ".join(ends),
            walked,
            [],
            _answer_reason(walked, labels, p.start or "", p.lang, stated=ctx.nodes.stated) + _read_as(ctx, p, taken),
            ", ".join(f"{w.rel}:{w.chunk}" if w.chunk is not None else w.eid for w in walked),
            None,
        )
        answers = [AnswerPath(answer=end, path=[_hop(w) for w in first[end]]) for end in ends]
        return decided.model_copy(update={"answers": answers})
    if stop_ungrounded is not None:
        last = stop_ungrounded[-1]
        rel_label = ctx.onto.label(_prop(ctx, last.rel), p.lang)
        if last.why == "flag":
            reason = say("entities.ungrounded_flag", p.lang, rel=last.rel)
            evidence = f"{last.rel} grounded=false"
        else:
            reason = say(
                "entities.ungrounded_chunk",
                p.lang,
                rel=last.rel,
                chunk=last.chunk,
                src=labels.get(last.src, last.src),
                dst=labels.get(last.dst, last.dst),
            )
            evidence = f"{last.rel}:{last.chunk} {last.why}"
        return _decision(
            qid,
            "refuse",
            None,
            stop_ungrounded,
            ["ungrounded_hop"],
            reason,
            evidence,
            say("entities.ungrounded_hedge", p.lang, rel=rel_label),
        )
    node, step, walked = stop_missing or (p.start or "", steps[0], [])
    name = labels.get(node) or _label(ctx, node)
    kinds = "/".join(sorted(local_name(x) for x in ctx.onto.stored(step.prop) | {step.prop}))
    return _decision(
        qid,
        "refuse",
        None,
        walked,
        ["missing_edge"],
        say("entities.missing_edge", p.lang, name=name, word=step.word, kinds=kinds) + _read_as(ctx, p, steps),
        f"{node} -{kinds}-> 없음",
        say("entities.missing_edge_hedge", p.lang),
    )


def _went_forward(frontier: list[tuple[str, list[Walked]]]) -> bool:
    end, walked = frontier[0]
    return not walked or walked[-1].dst == end


def _repeatable(ctx: Context, prop: URIRef) -> bool:
    """Whether a relation can follow itself: its range fits its own domain (a place inside a place)."""
    dom, rng = ctx.onto.ends(prop)
    if not rng:
        return False
    return not dom or any(ctx.onto.is_a(c, dom) for r in rng for c in ctx.onto.subclasses(r))


def _again(ctx: Context, step: Step, forward: bool) -> URIRef | None:
    """The relation that may continue ``step`` when its end is not the asked class: the relation itself when it
    can follow itself (kg locatedIn), else -- walking forward only -- the one property above it that can and
    whose domain takes this step's range (films heldIn, a festival in a city, continues as ``within``: the city
    in a country). Two such properties are a guess between them: none is taken."""
    if _repeatable(ctx, step.prop):
        return step.prop
    if not forward:
        return None
    _, rng = ctx.onto.ends(step.prop)
    ups = []
    for up in sorted(ctx.onto.superproperties(step.prop) - {step.prop}):
        dom, _ = ctx.onto.ends(up)
        if _repeatable(ctx, up) and rng and (not dom or all(ctx.onto.is_a(r, dom) for r in rng)):
            ups.append(up)
    return ups[0] if len(ups) == 1 else None


def _is_asked(ctx: Context, node: str, asked: URIRef) -> bool:
    return any(ctx.onto.is_a(c, frozenset({asked})) for c in ctx.node_classes(node))


def _prop(ctx: Context, notation: str) -> URIRef:
    rel = ctx.onto.relations.get(notation)
    return rel.iri if rel else URIRef(notation)


def _hops(ctx: Context, node: str, step: Step, ways: list[bool], labels: dict[str, str]) -> list[Walked]:
    """Edges for one step from ``node``, in the first direction (of ``ways``) that has any; each checked for
    grounding."""
    here = ctx.nodes.iri(node)
    rows: list[dict[str, object]] = []
    for backward in ways:
        ahead, behind = _kinds(ctx, step.prop, backward)
        for kinds, inverse in ((ahead, False), (behind, True)):
            if kinds:
                rows += ctx.run_select(
                    ctx.nodes.hop_edges(here, kinds, inverse=inverse, limit=ctx.limits.max_result_rows)
                )
        if rows:
            break
    edges: dict[str, Walked] = {}
    names: dict[str, set[str]] = {}
    for r in rows:
        src, dst = str(r["src"]), str(r["dst"])
        for end, key in ((src, "srcname"), (dst, "dstname")):
            if r.get(key) is not None:
                names.setdefault(end, set()).add(str(r[key]))
        for end, key in ((src, "srclabel"), (dst, "dstlabel")):
            if r.get(key) is not None:
                labels.setdefault(end, str(r[key]))
        eid = str(r["eid"])
        if eid in edges:
            continue
        chunk = str(r["chunk"]) if r.get("chunk") is not None else None
        flag = r.get("grounded") is not None and str(r["grounded"]).lower() in ("true", "1")
        edges[eid] = Walked(
            eid,
            _notation(ctx, URIRef(str(r["kind"]))),
            src,
            dst,
            chunk,
            flag,
            "flag" if not flag else str(r.get("text") or ""),
        )
    for w in edges.values():
        for end in (w.src, w.dst):
            labels.setdefault(end, end)
        if ctx.nodes.stated:  # a stated triple is its own evidence (the grounding rule of plain RDF)
            w.grounded, w.why = True, "ok"
        elif w.grounded:
            text = compact(w.why)
            mentions = [any(compact(n) in text for n in names.get(end, {end})) for end in (w.src, w.dst)]
            if not w.why:
                w.grounded, w.why = False, "chunk missing"
            elif not all(mentions):
                w.grounded, w.why = False, "chunk does not mention both ends"
            else:
                w.why = "ok"
    return sorted(edges.values(), key=lambda w: w.eid)


def _notation(ctx: Context, prop: URIRef) -> str:
    for rel in ctx.onto.relations.values():
        if rel.iri == prop:
            return rel.notation
    return local_name(prop)


def _answer_reason(walked: list[Walked], labels: dict[str, str], start: str, lang: Lang, *, stated: bool) -> str:
    """Why the walk is an answer: each hop in words, and what grounds them (a chunk each, or, over plain RDF,
    the stated triples themselves)."""
    parts = []
    cur = start
    for w in walked:
        nxt = w.dst if w.src == cur else w.src
        way = "" if w.src == cur else say("entities.hop_backwards", lang)
        parts.append(say("entities.hop", lang, src=labels.get(cur, cur), rel=w.rel, way=way, dst=labels.get(nxt, nxt)))
        cur = nxt
    n = len(walked)
    hops = say("entities.hop_joiner", lang).join(parts)
    kind = "stated" if stated else "hop"
    if n == 1:
        return say(f"entities.answer_one_{kind}", lang, hops=hops)
    return say(f"entities.answer_{kind}s", lang, hops=hops, count=COUNT_KO.get(n, str(n)) if lang == "ko" else n)
