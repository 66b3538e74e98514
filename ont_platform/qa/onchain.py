"""On-chain questions (seed 000): parse → plan → SPARQL → ``OnchainAnswer``.

The plan is read from the question with the lexicon (node names, class labels, cue words, hop counts); the
decision (path or no path, who is in a cluster, what class a node has) is made only from what the queries
return, and the answer's text is filled in from those facts, in the question's language, from the message
catalogue (``ont_platform/messages/onchain.toml``; the contract's field keeps its name ``answer_ko``).
"""

from __future__ import annotations

import re
from dataclasses import dataclass, field
from typing import Literal

from rdflib import URIRef

from ont_platform.answer.contracts import OnchainAnswer, PathEdge
from ont_platform.messages import Lang, lang_of, say
from ont_platform.namespaces import OC, mint
from ont_platform.ontology.model import local_name
from ont_platform.qa.adjacency import WalkTooLong
from ont_platform.qa.analyzer import Morph, morphs
from ont_platform.qa.context import Context
from ont_platform.qa.korean import COUNT_KO
from ont_platform.qa.lexicon import Mention, word_bounded
from ont_platform.qa.reading import Part, is_direct_word, is_question_word, limit_words, quote_words, unexplained
from ont_platform.qa.text import hop_limit, normalize
from ont_platform.sparql import onchain as q

Intent = Literal["path", "flow", "cluster", "label"]
_ID_LIKE = re.compile(r"(?<![a-z0-9_])(?:[a-z]{1,12}_[a-z0-9_:]*[a-z0-9]|0x[0-9a-f]{6,64})(?![0-9a-z_])")


@dataclass
class OnchainPlan:
    """What the question asks, before anything is run."""

    intent: Intent
    start: str | None
    missing: str | None
    target_node: str | None = None
    target_class: URIRef | None = None
    hops: int = 3
    hops_asked: int | None = None
    backward: bool = False
    ambiguous: list[str] = field(default_factory=list)
    unexplained: list[str] = field(default_factory=list)
    """Content words of the question no part of the plan explains: the plan may answer another question."""
    direct: bool = False
    lang: Lang = "ko"
    """The language the answer's text is written in: the question's (Hangul: Korean, else English)."""


def plan(ctx: Context, question: str) -> OnchainPlan:
    """Read a question into a plan (no query runs here)."""
    text = normalize(question)
    ms = morphs(text)
    names = word_bounded(ctx.lexicon.find_names(text)[0], ms, text)
    terms = ctx.lexicon.find_terms(text, ms, skip=names)
    cue = {m.ref for m in terms if m.kind == "cue"}
    rels = {m.ref for m in terms if m.kind == "relation"}
    nodes = _distinct_nodes(names)
    classes = [m for m in terms if m.kind == "class" and not _apposed(ctx, ms, names, nodes, m)]
    if cue & {"path", "flow", "incoming", "outgoing"} or str(OC.transfer) in rels:
        # money moves in the question, so "어떤 주소로든" is a destination (any address), not a class question:
        # the class word inside the label cue counts as a target
        classes = sorted(classes + _classes_in_cues(ctx, text, terms), key=lambda c: c.start)
    missing = _unknown_id(text, names)
    asked, hop_span = hop_limit(text)
    parts = [Part("node", m.start, m.end, m.surface, m.ref) for m in names]
    parts += [Part(m.kind, m.start, m.end, m.surface, m.ref) for m in terms]
    if hop_span is not None:
        hop_span = limit_words(text, hop_span)
        parts.append(Part("limit", hop_span[0], hop_span[1], text[hop_span[0] : hop_span[1]]))
    direct = False
    for m in ms:
        if is_question_word(m, text):
            parts.append(Part("question", m.start, m.end, m.form))
        elif is_direct_word(m, text):
            parts.append(Part("direct", m.start, m.end, m.form))
            direct = True
    if direct and asked is None:
        asked = 1  # "직접 보낸", "directly": one transfer
    has_target = bool(classes) or len(nodes) > 1
    if "cluster" in cue or str(OC.sameEntity) in rels:
        intent: Intent = "cluster"
    elif (
        classes
        and names
        and "path" not in cue
        and all(_predicated(text, ms, c) for c in classes)
        and (
            _said_of_start(text, names, classes)
            or not _walk_said(text, ms, names, classes, cue, rels, asked, len(nodes))
        )
    ):
        # "n_w7은 지갑이야 컨트랙트야?", "Is n_w7 a wallet or a contract?", "n_hot1은 뭐 하는 주소예요?": what it is
        intent = "label"
    elif (
        "label" in cue
        and "path" not in cue
        and not (cue & {"flow", "incoming", "outgoing"} or str(OC.transfer) in rels)
    ):
        # "어떤 주소" asks what kind of address — unless money moves in the question ("D4에서 어떤 주소로든
        # 송금한 적", to any address at all)
        intent = "label"
    elif has_target and ("path" in cue or "flow" not in cue):
        intent = "path"
    elif "flow" in cue or "incoming" in cue or "outgoing" in cue or str(OC.transfer) in rels:
        intent = "flow"
    else:
        intent = "label"
    default = 2 if intent == "cluster" else ctx.limits.default_hops
    hops = min(asked or default, ctx.limits.max_hops)
    start = nodes[0][0] if nodes else None
    ambiguous = nodes[0][1] if nodes and len(nodes[0][1]) > 1 else []
    backward = _incoming(text, ms, names, cue)
    p = OnchainPlan(
        intent,
        start,
        missing if start is None else None,
        hops=max(hops, 1),
        hops_asked=asked,
        backward=backward,
        ambiguous=ambiguous,
        unexplained=unexplained(text, ms, parts),
        direct=direct,
        lang=lang_of(question),
    )
    if intent == "path":
        if len(nodes) > 1:
            p.target_node = nodes[1][0]
        else:
            p.target_class = URIRef(_target(ctx, text, classes).ref) if classes else None
    return p


def _classes_in_cues(ctx: Context, text: str, terms: list[Mention]) -> list[Mention]:
    """The class words inside the question's label cues ("어떤 주소": 주소), at their place in ``text``."""
    out: list[Mention] = []
    for t in terms:
        if t.kind == "cue" and t.ref == "label":
            part = text[t.start : t.end]
            for m in morphs(part):  # looked up word by word: the whole-question match keeps only the cue
                out += [
                    Mention(kind, ref, t.start + m.start, t.start + m.end, m.form)
                    for kind, ref, _joints in sorted(ctx.lexicon.terms.get((m.form,), ()))
                    if kind == "class"
                ]
    return out


def _apposed(
    ctx: Context, ms: list[Morph], names: list[Mention], nodes: list[tuple[str, list[str]]], c: Mention
) -> bool:
    """A class word right after the start's name, at most a determiner between ("0x03eb… 이 주소는", "n_w1
    지갑에서"), that the start belongs to: it names the start again and is no destination. Counted as a target,
    "0x03eb… 이 주소는 뭐 하는 주소예요?" became a path to any address."""
    if not names or not nodes:
        return False
    first = min(names, key=lambda n: n.start)
    if c.start < first.end:
        return False
    between = [m for m in ms if first.end <= m.start and m.end <= c.start]
    if any(m.tag != "MM" for m in between):
        return False
    own = ctx.node_classes(nodes[0][0])
    return any(ctx.onto.is_a(k, frozenset({URIRef(c.ref)})) for k in own)


_COPULA_KO = re.compile(r"\s*(?:이야|야|이냐|냐|인가|인지|입니까|이에요|예요|이니|니|이지|지|인가요|일까)(?![가-힣])")
_IS_A_EN = re.compile(r"^\s*(?:is|was|are)\b[^?]*?\b(?:an?|the)\s+$", re.IGNORECASE)


def _predicated(text: str, ms: list[Morph], c: Mention) -> bool:
    """The class word says what the start *is* (a copula right after it: 지갑이야; "is n_w7 a wallet"), not
    where money goes."""
    if _COPULA_KO.match(text, c.end) or any(m.tag == "VCP" and m.start == c.end for m in ms):
        return True
    return bool(_IS_A_EN.match(text[: c.start]))


_BETWEEN_NAME_AND_CLASS = re.compile(r"\s*(?:은|는|이|가|이란|란|(?:an?|the)\s)?\s*$", re.IGNORECASE)


def _said_of_start(text: str, names: list[Mention], classes: list[Mention]) -> bool:
    """Only a particle (or an article) stands between the start's name and the first class word: the class is
    said of the start ("n_w7은 지갑이야", "Is n_w7 a wallet"), not of something the question walks to ("n_w1이
    보낸 곳이 거래소인가?" asks where the money went)."""
    first = min(classes, key=lambda c: c.start)
    name = min(names, key=lambda n: n.start)
    return name.end <= first.start and bool(_BETWEEN_NAME_AND_CLASS.match(text[name.end : first.start]))


_TO_KO = re.compile(r"\s*(?:으로|로|에게|한테|까지|에(?!서))")
_TO_EN = re.compile(r"\b(?:to|into|reach(?:es|ed)?)\s+(?:an?\s+|the\s+|any\s+)?$", re.IGNORECASE)


def _target(ctx: Context, text: str, classes: list[Mention]) -> Mention:
    """The class a path question goes to: the one marked as the destination ("거래소로 넘어간 주소": 거래소; "to
    an exchange"), else the last one named. Without this, "지갑 W7에서 거래소로 곧바로 넘어간 주소" looked for any
    address (the head noun) and answered with a router one hop away. A broader class right after a narrower one
    ("거래소 쪽 주소", "exchange addresses") is the same place, named by the narrower."""
    marked = [c for c in classes if _TO_KO.match(text, c.end) or _TO_EN.search(text[: c.start])]
    last = marked[-1] if marked else classes[-1]
    # "거래소 쪽 주소": a broader class word right after a narrower one names the same place, by the narrower
    earlier = [c for c in classes if c.end <= last.start and _SAME_PLACE.fullmatch(text[c.end : last.start])]
    if earlier and ctx.onto.is_a(URIRef(earlier[-1].ref), frozenset({URIRef(last.ref)})):
        return earlier[-1]
    return last


def _walk_said(
    text: str,
    ms: list[Morph],
    names: list[Mention],
    classes: list[Mention],
    cue: set[str],
    rels: set[str],
    hops: int | None,
    nodes: int,
) -> bool:
    """Whether anything in the question speaks of money moving: a path, flow or transfer word, a second node, a
    hop limit, a destination marked on a class (거래소로, "to an exchange") or a source marked on the start
    (n_a1에서, "from n_a1"). A class word with a copula and none of these ("n_hot1은 뭐 하는 주소예요?") says
    what the start is; read as a path it answered "yes, to an address" with confidence."""
    if cue & {"path", "flow", "incoming", "outgoing", "context"} or str(OC.transfer) in rels or nodes > 1:
        return True
    if hops is not None or "→" in text or "->" in text:
        return True
    if any(_TO_KO.match(text, c.end) or _TO_EN.search(text[: c.start]) for c in classes):
        return True
    for n in names:
        after = next((m for m in ms if m.start >= n.end), None)
        if after is not None and after.tag.startswith("J") and after.form in _FROM:
            return True
        before = text[: n.start].casefold().split()
        if before and before[-1] == "from":
            return True
    return False


_SAME_PLACE = re.compile(r"\s*(?:쪽|측|계열|관련|의)?\s*")

_TO = frozenset({"로", "으로", "에", "에게", "한테", "에게로"})
_FROM = frozenset({"에서", "으로부터", "로부터", "부터", "에게서", "한테서"})


def _incoming(text: str, ms: list[Morph], names: list[Mention], cue: set[str]) -> bool:
    """Whether the question follows funds into the start node (backward) rather than out of it.

    The particle on the start node decides first ("n_ex1 으로 보낸" in, "n_a1 에서" out; English "to n_ex1" in,
    "from n_a1" out); cue words decide when there is none.
    """
    if names:
        first = min(names, key=lambda m: m.start)
        after = next((m for m in ms if m.start >= first.end), None)
        if after is not None and after.tag.startswith("J"):
            if after.form in _FROM:
                return False
            if after.form in _TO and "outgoing" not in cue:
                return True
        before = text[: first.start].casefold().split()
        if before and before[-1] in ("to", "into"):
            return True
        if before and before[-1] == "from":
            return False
    return "incoming" in cue and "outgoing" not in cue


def _distinct_nodes(names: list[Mention]) -> list[tuple[str, list[str]]]:
    """Mentioned nodes in order of appearance; a name shared by several nodes keeps all candidates."""
    by_span: dict[tuple[int, int], list[str]] = {}
    for m in names:
        by_span.setdefault((m.start, m.end), []).append(m.ref)
    out: list[tuple[str, list[str]]] = []
    seen: set[str] = set()
    for _, refs in sorted(by_span.items()):
        if refs[0] not in seen:
            seen.add(refs[0])
            out.append((refs[0], refs))
    return out


def _unknown_id(text: str, names: list[Mention]) -> str | None:
    """An id or address the question uses that names no node."""
    for m in _ID_LIKE.finditer(text.casefold()):
        if not any(n.start <= m.start() < n.end for n in names):
            return m.group(0)
    return None


# --- execution -----------------------------------------------------------------------------------------------


def answer(ctx: Context, question: str, q_id: str) -> OnchainAnswer:
    """Answer an on-chain question from the graph."""
    p = plan(ctx, question)
    if p.start is None or p.ambiguous:
        return _no_start(ctx, p, q_id)
    if p.unexplained:
        return _not_understood(p, q_id)
    if p.intent == "label" or (p.intent == "path" and p.target_class is None and p.target_node is None):
        result = _label(ctx, p, q_id)
    elif p.intent == "cluster":
        result = _cluster(ctx, p, q_id)
    elif p.intent == "flow":
        result = _flow(ctx, p, q_id)
    else:
        result = _path(ctx, p, q_id)
    others = [n for n in result.cited_nodes if n != p.start]
    # names for the nodes the answer reached; a reply about the start alone (a "no" the transfer mirror gave
    # without a query, a class lookup that states the label itself) runs no query for them
    text = with_labels(result.answer_ko, ctx.labels([p.start, *others])) if others else result.answer_ko
    return result.model_copy(
        update={"answer_ko": say("onchain.with_reading", p.lang, text=text, reading=reading(ctx, p))}
    )


def with_labels(text: str, labels: dict[str, str]) -> str:
    """``text`` with each node id followed by its label, so a person reads names where the contract keeps
    ids: "거래소(a_28c6c06298)" → "거래소(a_28c6c06298 · Binance 14)", "a_1 → a_2" → "a_1(Wallet A) → a_2(…)".
    Only whole ids are touched (not an id inside a longer word or address)."""
    if not labels:
        return text
    pattern = re.compile(
        r"(?<![\w.])(" + "|".join(re.escape(i) for i in sorted(labels, key=len, reverse=True)) + r")(?![\w])(\)?)"
    )

    def mark(m: re.Match[str]) -> str:
        node, close = m.group(1), m.group(2)
        if close:  # "거래소(a_28c6c06298)": the label goes inside the parentheses
            return f"{node} · {labels[node]})"
        return f"{node}({labels[node]})"

    return pattern.sub(mark, text)


def reading(ctx: Context, p: OnchainPlan) -> str:
    """The plan in words, so a person can spot a misreading at a glance: ``n_a1 →transfer(≤3 홉)→
    ExchangeDeposit`` (``≤3 hops`` for an English question)."""
    arrow = "←" if p.backward else "→"
    if p.intent == "path" and (p.target_class is not None or p.target_node is not None):
        target = p.target_node or local_name(p.target_class or URIRef(""))
        return say("onchain.reading_path", p.lang, start=p.start, arrow=arrow, hops=p.hops, target=target)
    if p.intent == "flow":
        return say(
            "onchain.reading_flow_in" if p.backward else "onchain.reading_flow_out", p.lang, start=p.start, hops=p.hops
        )
    if p.intent == "cluster":
        return say("onchain.reading_cluster", p.lang, start=p.start, hops=p.hops)
    return say("onchain.reading_label", p.lang, start=p.start)


def _answer(
    q_id: str, intent: str, query: str, text: str, path: list[PathEdge], cited: list[str], confidence: str
) -> OnchainAnswer:
    return OnchainAnswer.model_validate(
        {
            "q_id": q_id,
            "intent": intent,
            "generated_query": query,
            "answer_ko": text,
            "path": [e.to_json() for e in path],
            "cited_nodes": cited,
            "confidence": confidence,
            "grounding_ok": True,
        }
    )


def _no_start(ctx: Context, p: OnchainPlan, q_id: str) -> OnchainAnswer:
    intent = {"path": "no_path", "flow": "token_flow", "cluster": "cluster_lookup", "label": "label_lookup"}[p.intent]
    if p.ambiguous:
        text = say("onchain.ambiguous_start", p.lang, names=", ".join(p.ambiguous))
    elif p.missing:
        text = say("onchain.missing_node", p.lang, node=p.missing)
    else:
        text = say("onchain.no_node_named", p.lang)
    return _answer(q_id, intent, "", text, [], [], "high")


def _not_understood(p: OnchainPlan, q_id: str) -> OnchainAnswer:
    """A reading that leaves words unexplained: no claim about the graph, confidence low, the words named.
    A caller recognises it by ``confidence == "low"`` with an empty ``path`` and no ``cited_nodes``."""
    intent = {"path": "no_path", "flow": "token_flow", "cluster": "cluster_lookup", "label": "label_lookup"}[p.intent]
    text = say("onchain.not_understood", p.lang, words=quote_words(p.unexplained), start=p.start)
    return _answer(q_id, intent, "", text, [], [], "low")


def _class_label(ctx: Context, cls: URIRef, lang: Lang) -> str:
    return ctx.onto.label(cls, lang)


def _path(ctx: Context, p: OnchainPlan, q_id: str) -> OnchainAnswer:
    """Shortest path to the target, or "no path"; decided from the transfer mirror where it can (see
    :func:`_walk`), else by SPARQL alone: reachability first, then paths of 1, 2, ... transfers."""
    start = mint(ctx.domain, "node", p.start or "")
    classes = ctx.onto.subclasses(p.target_class) if p.target_class is not None else None
    target_node = mint(ctx.domain, "node", p.target_node) if p.target_node else None
    reach = q.reachable(
        start, p.hops, classes=classes, node=target_node, backward=p.backward, limit=ctx.limits.max_result_rows
    )
    capped = _capped_note(ctx, p)
    walked = _walk(ctx, p, start, classes, target_node)
    if walked is not None:
        k, active = walked
        if k is None:
            return _no_path(ctx, p, q_id, reach, active, capped)
        query = q.path_of_length(start, k, classes=classes, node=target_node, backward=p.backward)
        rows = ctx.run_select(query)
        if rows:
            return _path_answer(ctx, p, q_id, query, rows[0], k, capped)
        # the store's path query wants more than an edge (an id on every node): SPARQL decides below
    hits = [r for r in ctx.run_select(reach) if str(r["xid"]) != p.start]
    if not hits:
        return _no_path(ctx, p, q_id, reach, ctx.run_ask(q.has_transfers(start)), capped)
    for k in range(1, p.hops + 1):
        query = q.path_of_length(start, k, classes=classes, node=target_node, backward=p.backward)
        rows = ctx.run_select(query)
        if rows:
            return _path_answer(ctx, p, q_id, query, rows[0], k, capped)
    text = say("onchain.no_simple_path", p.lang, hops=p.hops, capped=capped)
    return _answer(q_id, "no_path", reach, text, [], [p.start or ""], "high")


def _walk(
    ctx: Context, p: OnchainPlan, start: URIRef, classes: frozenset[URIRef] | None, node: URIRef | None
) -> tuple[int | None, bool] | None:
    """From the transfer mirror (qa/adjacency.py): the fewest transfers from the start to a target within
    the hop limit (``None``: no target that close, so ``reachable`` finds nothing), and whether the start takes
    part in any transfer (what ``has_transfers`` asks). ``None`` when the mirror cannot decide the same way as
    the queries: no mirror for this store, a walk over its budget, or a start that is itself a target."""
    if ctx.limits.walk_max_edges <= 0:
        return None
    adj = ctx.mirrors.get(ctx.store, OC.transfer)
    if adj is None:
        return None
    wanted = frozenset(classes) if node is None and classes else None
    if node is None and wanted is None:
        return None
    if (node is not None and node == start) or adj.is_target(start, classes=wanted):
        return None
    try:
        k = adj.nearest(start, p.hops, classes=wanted, node=node, backward=p.backward, budget=ctx.limits.walk_max_edges)
        return k, adj.active(start)
    except WalkTooLong:
        return None


def _no_path(ctx: Context, p: OnchainPlan, q_id: str, reach: str, active: bool, capped: str) -> OnchainAnswer:
    if p.target_node:
        what = p.target_node
    else:
        assert p.target_class is not None  # a path question names a target node or a target class
        what = _class_label(ctx, p.target_class, p.lang)
    if not active:
        code = "onchain.no_transfers_to_node" if p.target_node else "onchain.no_transfers_to_class"
        why = say(code, p.lang, start=p.start or "", what=what)
    else:
        code = "onchain.not_within_in" if p.backward else "onchain.not_within_out"
        why = say(code, p.lang, start=p.start, hops=p.hops, what=what)
    text = say("onchain.no_path", p.lang, hops=p.hops, why=why, capped=capped)
    return _answer(q_id, "no_path", reach, text, [], [p.start or ""], "high")


def _path_answer(
    ctx: Context, p: OnchainPlan, q_id: str, query: str, row: dict[str, object], k: int, capped: str
) -> OnchainAnswer:
    chain = [p.start or ""] + [str(row[f"nid{i}"]) for i in range(1, k + 1)]
    hops = [(chain[i], chain[i - 1]) if p.backward else (chain[i - 1], chain[i]) for i in range(1, k + 1)]
    pairs = [(mint(ctx.domain, "node", a), mint(ctx.domain, "node", b)) for a, b in hops]
    first: dict[tuple[str, str], tuple[str, str | None]] = {}
    for r in ctx.run_select(q.edges_between(pairs)):
        key = (str(r["src"]), str(r["dst"]))
        if key not in first:  # rows come lowest edge id first
            first[key] = (str(r["eid"]), str(r["tx"]) if r.get("tx") is not None else None)
    missing = [f"{src} → {dst}" for src, dst in hops if (src, dst) not in first]
    if missing:  # plain triples without their transfer records (imported RDF): no evidence to cite
        text = say(
            "onchain.path_without_records",
            p.lang,
            k=k,
            chain=" → ".join(chain),
            transfer=OC.transfer,
            missing=", ".join(missing),
            capped=capped,
        )
        return _answer(q_id, "no_path", query, text, [], chain, "low")
    edges, txs = [], []
    for src, dst in hops:
        eid, tx = first[(src, dst)]
        edges.append(PathEdge.model_validate({"edge_id": eid, "tx_hash": tx, "from": src, "to": dst}))
        if tx:
            txs.append(tx)
    if p.backward:
        edges.reverse()
        chain.reverse()
    end = chain[0] if p.backward else chain[-1]
    if p.target_class is not None:
        what = _class_label(ctx, p.target_class, p.lang)
    else:
        what = say("onchain.target_node", p.lang)
    arrow = " → ".join(chain)
    if p.backward:
        head = say("onchain.path_came_in", p.lang, what=what, end=end, arrow=arrow, k=k, start=p.start)
    else:
        head = say("onchain.path_reaches", p.lang, arrow=arrow, k=k, what=what, end=end)
    if k == 1:
        observed = say("onchain.path_one_tx", p.lang, txs=", ".join(txs))
    else:
        count = COUNT_KO.get(k, str(k)) if p.lang == "ko" else k
        observed = say("onchain.path_txs", p.lang, count=count, txs=", ".join(txs))
    text = f"{head} {observed}{capped}"
    return _answer(q_id, "path_exists", query, text, edges, chain, "high")


def _capped_note(ctx: Context, p: OnchainPlan) -> str:
    if p.hops_asked is not None and p.hops_asked > ctx.limits.max_hops:
        return say("onchain.capped", p.lang, asked=p.hops_asked, limit=ctx.limits.max_hops)
    return ""


def _label(ctx: Context, p: OnchainPlan, q_id: str) -> OnchainAnswer:
    node = mint(ctx.domain, "node", p.start or "")
    query = q.node_facts(node)
    rows = ctx.run_select(query)
    classes = sorted({str(r["cls"]) for r in rows if r.get("cls") is not None})
    norm = next((str(r["norm"]) for r in rows if r.get("norm") is not None), None)
    label = next((str(r["label"]) for r in rows if r.get("label") is not None), None)
    start = p.start or ""
    if str(OC.Unknown) in classes or norm is None:
        text = say("onchain.unmapped", p.lang, node=start)
        return _answer(q_id, "label_lookup", query, text, [], [start], "high")
    names = [
        say("onchain.class_named", p.lang, label=ctx.onto.label(URIRef(c), p.lang), name=c.rsplit("#", 1)[-1])
        for c in classes
    ]
    named = say("onchain.has_label", p.lang, label=label) if label else say("onchain.no_label", p.lang)
    text = say("onchain.classes", p.lang, node=start, names=", ".join(names), norm=norm, named=named)
    return _answer(q_id, "label_lookup", query, text, [], [start], "high")


def _cluster(ctx: Context, p: OnchainPlan, q_id: str) -> OnchainAnswer:
    start = p.start or ""
    query = q.cluster_members(mint(ctx.domain, "node", start), p.hops, limit=ctx.limits.max_result_rows)
    members = [str(r["mid"]) for r in ctx.run_select(query)]
    if not members:
        text = say("onchain.no_cluster", p.lang, start=start)
        return _answer(q_id, "cluster_lookup", query, text, [], [start], "mid")
    group = [start, *members]
    edges_q = q.cluster_edges([mint(ctx.domain, "node", n) for n in group])
    rows = ctx.run_select(edges_q)
    order, path = _bfs_tree(start, [(str(r["eid"]), str(r["src"]), str(r["dst"])) for r in rows], p.hops)
    listed = ", ".join(n for n in order if n != start)
    text = say("onchain.cluster", p.lang, listed=listed)
    return _answer(q_id, "cluster_lookup", query, text, path, order, "mid")


def _bfs_tree(start: str, edges: list[tuple[str, str, str]], hops: int) -> tuple[list[str], list[PathEdge]]:
    """Breadth-first over undirected same-entity edges: visit order and the tree edges (stored direction)."""
    order, tree, frontier, seen = [start], [], [start], {start}
    for _ in range(hops):
        nxt = []
        for node in frontier:
            for eid, src, dst in edges:
                other = dst if src == node else src if dst == node else None
                if other is None or other in seen:
                    continue
                seen.add(other)
                order.append(other)
                nxt.append(other)
                tree.append(PathEdge.model_validate({"edge_id": eid, "tx_hash": None, "from": src, "to": dst}))
        frontier = nxt
    return order, tree


def _flow(ctx: Context, p: OnchainPlan, q_id: str) -> OnchainAnswer:
    start = p.start or ""
    query = q.flow_edges(mint(ctx.domain, "node", start), p.hops, backward=p.backward, limit=ctx.limits.max_result_rows)
    rows = ctx.run_select(query)
    if not rows:
        text = say("onchain.no_flow_in" if p.backward else "onchain.no_flow_out", p.lang, start=start, hops=p.hops)
        return _answer(q_id, "token_flow", query, text, [], [start], "high")
    path = [
        PathEdge.model_validate(
            {
                "edge_id": str(r["eid"]),
                "tx_hash": str(r["tx"]) if r.get("tx") else None,
                "from": str(r["src"]),
                "to": str(r["dst"]),
            }
        )
        for r in rows
    ]
    totals: dict[tuple[str, str], int] = {}
    for r in rows:
        end = str(r["src"]) if p.backward else str(r["dst"])
        token = str(r["token"]) if r.get("token") is not None else "ETH"
        value = int(str(r["value"])) if r.get("value") is not None else 0  # Python ints are exact at any size
        totals[(end, token)] = totals.get((end, token), 0) + value
    cited = [start]
    for e in path:
        for n in (e.from_, e.to):
            if n not in cited:
                cited.append(n)
    parts = [f"{n} ({_amount(v, t, p.lang)})" for (n, t), v in sorted(totals.items()) if n != start]
    shown = ", ".join(parts[:20]) + (say("onchain.flow_more", p.lang, n=len(parts) - 20) if len(parts) > 20 else "")
    code = "onchain.flow_in" if p.backward else "onchain.flow_out"
    text = say(code, p.lang, start=start, hops=p.hops, count=len(path), shown=shown)
    return _answer(q_id, "token_flow", query, text, path, cited, "high")


def _amount(value: int, token: str, lang: Lang) -> str:
    return f"{value} wei" if token == "ETH" else say("onchain.token_units", lang, value=value, token=token)
