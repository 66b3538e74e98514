"""Multi-hop questions over the text-grounded knowledge graph (seed 003): walk, or stop honestly.

A question names a start entity and a chain of relations ("홍길동이 다니는 회사가 있는 도시"). The walk takes one
hop per relation, in the order the question gives them, and stops at the first hop that is missing or not
grounded; a chain longer than the hop limit stops at the limit. A hop is grounded only when the edge is marked
grounded, its chunk exists, and the chunk's text mentions both ends by a label or an alias.
"""

from __future__ import annotations

from dataclasses import dataclass, field

from rdflib import RDFS, URIRef

from ont_platform.answer.contracts import Hop, HopDecision
from ont_platform.namespaces import mint
from ont_platform.ontology.model import local_name
from ont_platform.qa.analyzer import NOUN_TAGS, Morph, morphs
from ont_platform.qa.context import Context
from ont_platform.qa.korean import COUNT_KO, jamo, josa, ro
from ont_platform.qa.lexicon import Mention, word_bounded
from ont_platform.qa.text import compact, hop_limit, normalize
from ont_platform.sparql import kg as q

_EXIST = ("있",)  # the bare existence verb: a relation only when it follows a locative 에 or modifies a noun


@dataclass
class Step:
    """One relation the question asks to follow, with a class hint for where it should land."""

    props: frozenset[URIRef]
    word: str
    hint: URIRef | None = None
    direction: str | None = None  # "fwd", "inv", or None: decided by the classes at the node


@dataclass
class KgPlan:
    start: str | None
    start_name: str | None
    near_miss: tuple[str, str] | None
    steps: list[Step] = field(default_factory=list)
    limit: int = 3
    ambiguous: list[str] = field(default_factory=list)
    asked: URIRef | None = None  # the class the question asks for ("어느 도시"), when it names one


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


def plan(ctx: Context, question: str) -> KgPlan:
    text = normalize(question)
    ms = morphs(text)
    names = word_bounded(ctx.lexicon.find_names(text)[0], ms, text)
    terms = [t for t in ctx.lexicon.find_terms(text, ms, skip=names) if t.kind in ("relation", "class")]
    asked, _ = hop_limit(text)
    limit = min(asked or ctx.limits.default_hops, ctx.limits.max_hops)
    spans: dict[tuple[int, int], list[str]] = {}
    for m in names:
        spans.setdefault((m.start, m.end), []).append(m.ref)
    if not spans:
        name = _unmapped_name(ms, text, ctx)
        near = _near_miss(ctx, name) if name else None
        return KgPlan(None, name, near, limit=limit)
    first = sorted(spans)[0]
    candidates = sorted(set(spans[first]))
    start = candidates[0]
    start_text_end = min(m.end for m in names if (m.start, m.end) == first)
    steps: list[Step] = []
    after = [t for t in terms if t.kind == "relation" and t.start >= start_text_end]
    # English puts the verb before the name ("Who founded Acme?"): then take the relations wherever they are.
    floor = start_text_end if after else 0
    for i, t in enumerate(terms):
        if t.kind != "relation" or t.start < floor:
            continue
        if t.surface.split(" ") == list(_EXIST) and not _existence_is_relation(ms, t):
            continue
        hint = next((URIRef(c.ref) for c in terms[i + 1:] if c.kind == "class"), None)
        nxt_rel = next((c for c in terms[i + 1:] if c.kind == "relation"), None)
        if hint is not None and nxt_rel is not None:
            cls_pos = next(c.start for c in terms[i + 1:] if c.kind == "class")
            if nxt_rel.start < cls_pos:
                hint = None
        steps.append(Step(_family(ctx, URIRef(t.ref)), t.surface, hint))
    if steps:
        steps[0].direction = _first_direction(ms, text, first, after)
    last_rel = max((t.start for t in terms if t.kind == "relation" and t.start >= floor), default=-1)
    asked_cls = [t for t in terms if t.kind == "class" and t.start > last_rel]
    asked = URIRef(asked_cls[-1].ref) if asked_cls and steps else None
    return KgPlan(start, None, None, steps, limit, candidates if len(candidates) > 1 else [], asked)


_SUBJECT = frozenset({"이", "가", "은", "는", "께서", "의"})
_OBLIQUE = frozenset({"에", "에서", "을", "를", "에게", "한테", "로", "으로"})


def _first_direction(ms: list[Morph], text: str, span: tuple[int, int], after: list[Mention]) -> str | None:
    """How the start entity takes part in the first relation, from its particle: a subject walks the edge
    forward ("홍길동이 다니는"), a place or object walks it backward ("에이크미에 다니는", "에이크미를 세운");
    in English a name after the verb is its object ("Who founded Acme?")."""
    nxt = next((m for m in ms if m.start >= span[1]), None)
    if nxt is not None and nxt.start == span[1] and nxt.tag.startswith("J"):
        if nxt.form in _SUBJECT:
            return "fwd"
        if nxt.form in _OBLIQUE:
            return "inv"
    if text.casefold().startswith("where"):
        return "fwd"  # "Where is Seoul?": the name is the subject, whatever the word order
    if not after and text[: span[0]].strip():
        return "inv"
    return None


def _existence_is_relation(ms: list[Morph], t: Mention) -> bool:
    idx = next((i for i, m in enumerate(ms) if m.start == t.start), None)
    if idx is None:
        return False
    before = ms[max(0, idx - 2):idx]
    after = ms[idx + 1:idx + 2]
    return (any(m.tag == "JKB" and m.form in ("에", "에서") for m in before)
            or any(m.tag == "NP" and m.form in ("어디", "어디쯤") for m in before)
            or any(m.tag == "ETM" for m in after))


def _family(ctx: Context, prop: URIRef) -> frozenset[URIRef]:
    """The property and its siblings under a shared super-property (locatedIn and partOf are both 'within')."""
    g = ctx.onto.graph
    known = {r.iri for r in ctx.onto.relations.values()}
    if prop not in known:  # a super-property named directly: all its sub-properties
        subs = {s for s in g.subjects(RDFS.subPropertyOf, prop) if s in known}
        return frozenset(subs or {prop})
    out = {prop}
    for sup in g.objects(prop, RDFS.subPropertyOf):
        out |= {s for s in g.subjects(RDFS.subPropertyOf, sup) if s in known}
    return frozenset(out)


def _unmapped_name(ms: list[Morph], text: str, ctx: Context) -> str | None:
    """The words that should have named the start entity: the run of nouns before the first particle
    (박영희가, 에이크마가, 존 스미스가), or else the first proper noun."""
    run: list[Morph] = []
    for m in ms:
        if m.tag in NOUN_TAGS or m.tag == "NNB" and run:
            run.append(m)
            continue
        if run and m.tag.startswith("J"):
            name = text[run[0].start : run[-1].end]
            if not ctx.lexicon.find_terms(name):
                return name
        run = []
    return next((m.form for m in ms if m.tag == "NNP"), None)


def _near_miss(ctx: Context, name: str) -> tuple[str, str] | None:
    """A known name a typo away from ``name`` — one letter (jamo) for names of up to two syllables, two for
    longer ones: reported as unmapped, never used in its place. 홍길돈 is near 홍길동; 김영수 is not near 김철수."""
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


# --- execution -----------------------------------------------------------------------------------------------


def answer(ctx: Context, question: str, qid: str) -> HopDecision:
    p = plan(ctx, question)
    if p.start is None:
        return _no_start(p, qid)
    if p.ambiguous:
        names = ", ".join(p.ambiguous)
        return _decision(qid, "refuse", None, [], ["node_alias_unmapped"],
                         f"질문의 이름이 여러 노드({names})에 해당해 시작 노드를 하나로 정할 수 없습니다. 추측하지 않고 멈춥니다.",
                         f"start_candidates={names}", "이름이 여러 노드에 해당해 답하지 않습니다")
    if not p.steps:
        label = _label(ctx, p.start)
        return _decision(qid, "refuse", None, [], ["missing_edge"],
                         f"{josa(label, '에서', '에서')} 따라갈 관계를 질문에서 찾지 못해 첫 홉을 정할 수 없습니다. 관계를 지어내지 않고 멈춥니다.",
                         f"start_id={p.start}, relations=none", "따라갈 관계가 없어 답하지 않습니다")
    return _walk(ctx, p, qid)


def _decision(qid: str, decision: str, ans: str | None, path: list[Walked], factors: list[str], reason: str,
              evidence: str, hedge: str | None) -> HopDecision:
    hops = [Hop(src=w.src, rel=w.rel, dst=w.dst, chunk_id=w.chunk) for w in path]
    return HopDecision.model_validate({
        "query_id": qid, "decision": decision, "answer": ans, "path": [h.to_json() for h in hops],
        "factors": factors, "reason": reason, "evidence": evidence, "hedge": hedge,
    })


def _no_start(p: KgPlan, qid: str) -> HopDecision:
    if p.start_name and p.near_miss:
        known, node = p.near_miss
        return _decision(qid, "refuse", None, [], ["node_alias_unmapped"],
                         f"{josa(p.start_name, '은', '는')} 그래프의 '{known}'({node})와 비슷하지만 등록된 이름이나 별칭이 "
                         "아니라 같은 노드로 볼 수 없습니다. 비슷한 이름으로 바꿔 답하지 않고 멈춥니다.",
                         f"start_id=null, near={node}", "이름이 그래프의 노드에 매핑되지 않아 답하지 않습니다")
    who = f"{p.start_name}에 해당하는" if p.start_name else "질문이 가리키는"
    return _decision(qid, "refuse", None, [], ["missing_start_node"],
                     f"{who} 시작 노드가 그래프에 없어 첫 홉을 밟을 수 없습니다. 추측하지 않고 답을 멈춥니다.",
                     "start_id=null", "시작 노드가 없어 답하지 않습니다")


def _label(ctx: Context, node_id: str) -> str:
    """The node's rdfs:label, or its id."""
    rows = ctx.run_select(q.node_info(mint("kg", "node", node_id)))
    return next((str(r["label"]) for r in rows if r.get("label") is not None), node_id)


def _walk(ctx: Context, p: KgPlan, qid: str) -> HopDecision:
    frontier: list[tuple[str, list[Walked]]] = [(p.start or "", [])]
    labels: dict[str, str] = {}
    stop_missing: tuple[str, Step, list[Walked]] | None = None
    stop_ungrounded: list[Walked] | None = None
    steps = p.steps[: p.limit]
    for step in steps:
        nxt: list[tuple[str, list[Walked]]] = []
        for node, walked in frontier:
            hops = _hops(ctx, node, step, labels)
            if step.hint is not None:  # "서울에 있는 회사": land only on companies
                want = frozenset({step.hint})
                hops = [h for h in hops
                        if any(ctx.onto.is_a(c, want) for c in ctx.node_classes(h.dst if h.src == node else h.src))]
            good = [h for h in hops if h.grounded]
            bad = [h for h in hops if not h.grounded]
            if not hops and stop_missing is None:
                stop_missing = (node, step, walked)
            if bad and not good and stop_ungrounded is None:
                stop_ungrounded = [*walked, bad[0]]
            for h in good:
                nxt.append((h.dst if h.src == node else h.src, [*walked, h]))
        frontier = nxt
        if not frontier:
            break
    if frontier and len(p.steps) > p.limit:
        walked = frontier[0][1]
        return _decision(qid, "max_hops", None, walked, ["hop_limit_exceeded"],
                         f"정답에 닿으려면 홉 한도 {p.limit}을 넘겨야 해서 한도 안에서는 답을 확정할 수 없습니다. "
                         "무리해서 답하지 않고 멈춥니다.",
                         f"max_hops={p.limit} 초과", "홉 한도 안에서 답에 닿지 못해 멈춥니다")
    if frontier and p.asked is not None:
        # "어느 도시에 있나요" answered with a company would be an answer to another question
        want = frozenset({p.asked})
        fitting = [(end, w) for end, w in frontier if any(ctx.onto.is_a(c, want) for c in ctx.node_classes(end))]
        if not fitting:
            end, walked = frontier[0]
            asked_ko = ctx.onto.label(p.asked, "ko")
            return _decision(qid, "refuse", None, walked, ["missing_edge"],
                             f"관계를 따라 {labels.get(end, end)}에 닿았지만 질문이 묻는 {asked_ko}가 아니고, "
                             f"{asked_ko}로 이어지는 관계를 질문에서 찾지 못했습니다. 다른 답을 지어내지 않고 멈춥니다.",
                             f"{end} is not a {local_name(p.asked)}", f"{asked_ko}에 닿지 못해 답하지 않습니다")
        frontier = fitting
    if frontier:
        ends = list(dict.fromkeys(end for end, _ in frontier))
        walked = frontier[0][1]
        return _decision(qid, "answer", ", ".join(ends), walked, [], _answer_reason(walked, labels, p.start or ""),
                         ", ".join(f"{w.rel}:{w.chunk}" for w in walked), None)
    if stop_ungrounded is not None:
        bad = stop_ungrounded[-1]
        rel_ko = ctx.onto.label(_prop(ctx, bad.rel), "ko")
        if bad.why == "flag":
            reason = f"{bad.rel} 엣지가 원문 근거가 없어 LLM 이 지어냈을 수 있습니다. 근거 없는 홉을 밟지 않고 답을 멈춥니다."
            evidence = f"{bad.rel} grounded=false"
        else:
            reason = (f"{bad.rel} 엣지는 근거로 표시됐지만 청크 {bad.chunk}가 두 끝({labels.get(bad.src, bad.src)}, "
                      f"{labels.get(bad.dst, bad.dst)})을 모두 언급하지 않아 근거로 인정하지 않습니다. 답을 멈춥니다.")
            evidence = f"{bad.rel}:{bad.chunk} {bad.why}"
        return _decision(qid, "refuse", None, stop_ungrounded, ["ungrounded_hop"], reason, evidence,
                         f"{rel_ko} 관계에 원문 근거가 없어 답하지 않습니다")
    node, step, walked = stop_missing or (p.start or "", p.steps[0], [])
    name = labels.get(node) or _label(ctx, node)
    return _decision(qid, "refuse", None, walked, ["missing_edge"],
                     f"{josa(name, '에서', '에서')} '{step.word}'({', '.join(sorted(local_name(x) for x in step.props))}) "
                     "엣지가 그래프에 없어 다음 홉을 밟을 수 없습니다. 없는 관계를 지어내지 않고 멈춥니다.",
                     f"{node} -{'/'.join(sorted(local_name(x) for x in step.props))}-> 없음",
                     "이어지는 관계가 없어 답하지 않습니다")


def _prop(ctx: Context, notation: str) -> URIRef:
    rel = ctx.onto.relations.get(notation)
    return rel.iri if rel else URIRef(notation)


def _hops(ctx: Context, node: str, step: Step, labels: dict[str, str]) -> list[Walked]:
    """Edges for one step from ``node``: forward where the node fits the domain (or the hint the range),
    else backward; each checked for grounding."""
    here = mint("kg", "node", node)
    rows_by_dir: dict[bool, list[dict[str, object]]] = {}
    for inverse in _directions(ctx, node, step):
        rows = ctx.run_select(q.hop_edges(here, step.props, inverse=inverse, limit=ctx.limits.max_result_rows))
        if rows:
            rows_by_dir[inverse] = rows
            break
    edges: dict[str, Walked] = {}
    names: dict[str, set[str]] = {}
    for rows in rows_by_dir.values():
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
            edges[eid] = Walked(eid, _notation(ctx, URIRef(str(r["kind"]))), src, dst, chunk, flag,
                                "flag" if not flag else str(r.get("text") or ""))
    for w in edges.values():
        for end in (w.src, w.dst):
            labels.setdefault(end, end)
        if w.grounded:
            text = compact(w.why)
            mentions = [any(compact(n) in text for n in names.get(end, {end})) for end in (w.src, w.dst)]
            if not w.why:
                w.grounded, w.why = False, "chunk missing"
            elif not all(mentions):
                w.grounded, w.why = False, "chunk does not mention both ends"
            else:
                w.why = "ok"
    return sorted(edges.values(), key=lambda w: w.eid)


def _directions(ctx: Context, node: str, step: Step) -> list[bool]:
    if step.direction == "fwd":
        return [False]
    if step.direction == "inv":
        return [True, False]
    classes = ctx.node_classes(node)
    fwd = bwd = False
    for prop in step.props:
        rel = next((r for r in ctx.onto.relations.values() if r.iri == prop), None)
        if rel is None:
            continue
        fits_domain = any(ctx.onto.is_a(c, rel.domain) for c in classes)
        fits_range = any(ctx.onto.is_a(c, rel.range) for c in classes)
        if step.hint is not None:
            if ctx.onto.is_a(step.hint, rel.range) and fits_domain:
                fwd = True
            elif ctx.onto.is_a(step.hint, rel.domain) and fits_range:
                bwd = True
        if not (fwd or bwd):
            fwd = fwd or fits_domain
            bwd = bwd or (fits_range and not fits_domain)
    if fwd and not bwd:
        return [False, True]
    if bwd and not fwd:
        return [True, False]
    return [False, True]


def _notation(ctx: Context, prop: URIRef) -> str:
    for rel in ctx.onto.relations.values():
        if rel.iri == prop:
            return rel.notation
    return local_name(prop)


def _answer_reason(walked: list[Walked], labels: dict[str, str], start: str) -> str:
    parts = []
    cur = start
    for w in walked:
        nxt = w.dst if w.src == cur else w.src
        a, b = labels.get(cur, cur), labels.get(nxt, nxt)
        way = "" if w.src == cur else "(역방향)"
        parts.append(f"{josa(a, '이', '가')} {ro(w.rel)}{way} {b}에 닿")
        cur = nxt
    n = len(walked)
    body = "고 ".join(parts)
    count = "그 홉에" if n == 1 else f"{COUNT_KO.get(n, str(n))} 홉 모두"
    return f"{body}아, {count} 원문 근거 청크가 있어 답합니다."
