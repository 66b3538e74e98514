"""Hypothesis strategies for extraction payloads: valid ones, ones broken by exactly one named rule, junk.

Use them to fuzz an extraction pipeline (a prompt, a post-processor, a validator of your own)::

    from hypothesis import given
    from ont_platform.testing import broken_payloads, valid_payloads

    @given(valid_payloads(domain="kg"))
    def test_my_postprocessor_keeps_valid_output_valid(payload):
        assert guard.validate_sync(my_postprocessor(payload)).validation_passed

    @given(broken_payloads("dangling_endpoint", domain="kg"))
    def test_my_guard_refuses_dangling_relations(payload):
        assert "dangling_endpoint" in guard.validate_sync(payload).codes()

Payloads are plain JSON-ready dicts (what an LLM's parsed answer looks like). A valid payload for a domain
also satisfies the domain's SHACL shapes when written to an empty graph, so the ``ontocast`` critic and
ingest accept it too.
"""

from __future__ import annotations

import json
import math
import string
from typing import Any

from hypothesis import strategies as st

from ont_platform.domains import BUNDLED, Domain, domain_names, get_domain
from ont_platform.errors import InputError
from ont_platform.text_policy import TextKind, clean_text
from ont_platform.validation.models import ENTITY_TYPES
from ont_platform.validation.rules import MEANINGLESS_LABELS, label_key
from ont_platform.validation.terms import ontology_index

SEED_RULES = (
    "entity_id_prefix",
    "label_length",
    "confidence_range",
    "entity_type",
    "relation_id_prefix",
    "dangling_endpoint",
    "self_loop",
    "duplicate_id",
)
"""Rules of seed 001 that :func:`broken_payloads` can break (with or without a domain)."""

ONTOLOGY_RULES = (
    "unknown_class",
    "unknown_predicate",
    "domain_violation",
    "range_violation",
    "datatype",
    "unknown_attribute",
)
"""Rules of the ontology that :func:`broken_payloads` can break (needs ``domain=``)."""

DOMAINS = BUNDLED
"""The bundled domains; any registered domain (a user's ontology) is accepted too."""


def _family(domain: str | Domain) -> str:
    """The family of a domain the strategies generate for; ValueError for an unknown one."""
    try:
        return get_domain(domain).family
    except InputError as exc:
        raise ValueError(f"domain must be a bundled or registered domain ({', '.join(domain_names())}): {exc}") from exc


_TEXT = st.characters(blacklist_categories=("Cs", "Cc", "Cf", "Zl", "Zp"))


def _allowed(value: str, kind: TextKind) -> bool:
    """Whether the text policy lets ``value`` in (invisible fillers such as U+3164 are letters to Unicode)."""
    try:
        clean_text(value, kind)
    except InputError:
        return False
    return True


def labels() -> st.SearchStrategy[str]:
    """Non-blank labels of 1 to 60 characters (Korean, Latin, digits, punctuation) that name something and
    that the text policy (:mod:`ont_platform.text_policy`) accepts."""
    return st.text(_TEXT, min_size=1, max_size=60).filter(
        lambda s: bool(s.strip()) and label_key(s) not in MEANINGLESS_LABELS and _allowed(s, "label")
    )


def confidences() -> st.SearchStrategy[float | None]:
    """A confidence in [0, 1], or none at all."""
    return st.none() | st.floats(min_value=0.0, max_value=1.0, allow_nan=False)


def _urls() -> st.SearchStrategy[str]:
    host = st.text(string.ascii_lowercase + string.digits, min_size=1, max_size=12)
    path = st.text(string.ascii_letters + string.digits + "-_/", max_size=20)
    return st.builds(lambda h, p: f"https://{h}.example/{p}", host, path)


def evidence(*, with_chunk: bool = False) -> st.SearchStrategy[dict[str, Any]]:
    """An evidence object: source URL, offset and confidence, each optional, and for a relation its chunk."""
    chunk = st.text(_TEXT, min_size=1, max_size=80).filter(lambda s: bool(s.strip()) and _allowed(s, "text"))
    return st.fixed_dictionaries(
        {},
        optional={
            "source_url": _urls(),
            "offset": st.integers(min_value=0, max_value=10**6),
            "confidence": st.floats(min_value=0.0, max_value=1.0, allow_nan=False),
            **({"chunk_text": chunk} if with_chunk else {}),
        },
    )


def _hex(min_size: int, max_size: int) -> st.SearchStrategy[str]:
    return st.text("0123456789abcdef", min_size=min_size, max_size=max_size)


def _with_optional(base: dict[str, Any], draw: Any, *, relation: bool) -> dict[str, Any]:
    conf = draw(confidences())
    if conf is not None:
        base["confidence"] = conf
    items = draw(st.lists(evidence(with_chunk=relation), max_size=2))
    if items:
        base["evidence"] = items if len(items) > 1 or draw(st.booleans()) else items[0]
    return base


@st.composite
def _plain(draw: Any, max_entities: int, max_relations: int) -> dict[str, Any]:
    n = draw(st.integers(min_value=2, max_value=max(2, max_entities)))
    entities = [
        _with_optional(
            {"id": f"E_{i + 1}", "label": draw(labels()), "type": draw(st.sampled_from(ENTITY_TYPES))},
            draw,
            relation=False,
        )
        for i in range(n)
    ]
    relations = []
    for j in range(draw(st.integers(min_value=0, max_value=max_relations))):
        s, t = draw(st.lists(st.integers(0, n - 1), min_size=2, max_size=2, unique=True))
        relations.append(
            _with_optional(
                {
                    "id": f"R_{j + 1}",
                    "source_id": f"E_{s + 1}",
                    "predicate": draw(st.text(string.ascii_letters, min_size=1, max_size=15)),
                    "target_id": f"E_{t + 1}",
                },
                draw,
                relation=True,
            )
        )
    return {"entities": entities, "relations": relations}


def _entity(draw: Any, number: int, cls: str, domain: str | Domain) -> dict[str, Any]:
    entity: dict[str, Any] = {"id": f"E_{number}", "label": draw(labels()), "type": "individual", "ontology_class": cls}
    family = _family(domain)
    if family == "transfers" and cls != "Unknown":
        entity["attributes"] = {"addressNorm": "0x" + draw(_hex(40, 40))}
    if family == "inventory":
        attrs: dict[str, Any] = {"url": draw(_urls())}
        for column in ("impressions_30d", "clicks_30d", "sessions_30d"):
            if draw(st.booleans()):
                attrs[column] = draw(st.integers(min_value=0, max_value=10**7))
        if draw(st.booleans()):
            attrs["ctr_30d"] = draw(st.floats(min_value=0, max_value=1, allow_nan=False))
        if draw(st.booleans()):
            attrs["published_at"] = draw(st.dates()).isoformat()
        entity["attributes"] = attrs
    return _with_optional(entity, draw, relation=False)


_ENTITY_ATTRIBUTE = {"transfers": "addressNorm", "inventory": "url"}
"""The attribute every generated entity of a family gets (and so the classes it may have)."""


def _entity_classes(domain: str | Domain) -> list[str]:
    """Classes a generated entity may take: those the domain's entity attribute applies to."""
    index = ontology_index(domain)
    onto = index.onto
    family = _family(domain)
    attribute = _ENTITY_ATTRIBUTE.get(family)
    prop = index.datatype_properties.get(attribute) if attribute else None
    if prop is None or not prop.domain:
        return sorted(onto.classes)
    fitting = [c for c in sorted(onto.classes) if onto.is_a(onto.classes[c], prop.domain)]
    return fitting + (["Unknown"] if family == "transfers" and "Unknown" in onto.classes else [])


@st.composite
def _in_domain(draw: Any, domain: str | Domain, max_entities: int, max_relations: int) -> dict[str, Any]:
    index = ontology_index(domain)
    onto = index.onto
    classes = sorted(set(_entity_classes(domain)))
    entities: list[dict[str, Any]] = []
    relations: list[dict[str, Any]] = []
    rels = sorted(onto.relations)
    for j in range(draw(st.integers(min_value=0, max_value=max_relations if rels else 0))):
        rel = onto.relations[draw(st.sampled_from(rels))]
        ends = []
        for allowed in (rel.domain, rel.range):
            choices = [c for c in classes if onto.is_a(onto.classes[c], allowed)]
            ends.append(draw(st.sampled_from(choices)))
        source = _entity(draw, len(entities) + 1, ends[0], domain)
        target = _entity(draw, len(entities) + 2, ends[1], domain)
        entities += [source, target]
        relation: dict[str, Any] = {
            "id": f"R_{j + 1}",
            "source_id": source["id"],
            "predicate": rel.notation,
            "target_id": target["id"],
        }
        if _family(domain) == "transfers" and not rel.inferred:
            relation["attributes"] = {"txHash": "0x" + draw(_hex(1, 64))}
        relations.append(_with_optional(relation, draw, relation=True))
    while len(entities) < 1 or (len(entities) < max_entities and draw(st.booleans())):
        entities.append(_entity(draw, len(entities) + 1, draw(st.sampled_from(classes)), domain))
    return {"entities": entities, "relations": relations}


def valid_payloads(
    domain: str | Domain | None = None, *, max_entities: int = 6, max_relations: int = 4
) -> st.SearchStrategy[dict[str, Any]]:
    """Payloads that break no rule. With ``domain`` (a bundled domain such as ``kg``, or any registered
    :class:`~ont_platform.domains.Domain`: your own ontology) they also use only the domain's classes, relations
    and attributes, respect domain and range, and pass the domain's shapes."""
    if domain is None:
        return _plain(max_entities, max_relations)
    _family(domain)
    return _in_domain(domain, max_entities, max_relations)


# --- breaking one rule ---------------------------------------------------------------------------------------


def _rename_entity(payload: dict[str, Any], old: str, new: str) -> None:
    for e in payload["entities"]:
        if e["id"] == old:
            e["id"] = new
    for r in payload["relations"]:
        for end in ("source_id", "target_id"):
            if r[end] == old:
                r[end] = new


def _bad_confidence() -> st.SearchStrategy[float]:
    return st.sampled_from([math.nan, math.inf, -math.inf]) | st.floats(max_value=-1e-9) | st.floats(min_value=1.000001)


_NEEDS_RELATION = (
    "relation_id_prefix",
    "dangling_endpoint",
    "self_loop",
    "unknown_predicate",
    "domain_violation",
    "range_violation",
)


@st.composite
def _broken(draw: Any, rule: str, domain: str | None) -> dict[str, Any]:
    needs_relation = rule in _NEEDS_RELATION
    base = valid_payloads(domain) if domain else valid_payloads()
    payload: dict[str, Any] = draw(base.filter(lambda p: bool(p["relations"]) or not needs_relation))
    entities, relations = payload["entities"], payload["relations"]
    e = draw(st.sampled_from(entities))
    r = draw(st.sampled_from(relations)) if relations else None
    if rule == "entity_id_prefix":
        _rename_entity(payload, e["id"], "X" + e["id"][2:] + draw(st.text(string.ascii_letters, max_size=3)))
    elif rule == "label_length":
        e["label"] = draw(st.sampled_from(["", " ", "\t\n", "x" * 501]) | st.text(min_size=501, max_size=600))
    elif rule == "confidence_range":
        where = draw(st.sampled_from(["entity", "relation", "evidence"] if r else ["entity", "evidence"]))
        target = r if where == "relation" and r else e
        if where == "evidence":
            target["evidence"] = [{"confidence": draw(_bad_confidence())}]
        else:
            target["confidence"] = draw(_bad_confidence())
    elif rule == "entity_type":
        e["type"] = draw(st.text(max_size=12).filter(lambda t: t not in ENTITY_TYPES))
    elif rule == "relation_id_prefix":
        assert r is not None
        r["id"] = draw(st.sampled_from(["X_1", "r1", "1", "rel"]))
    elif rule == "dangling_endpoint":
        assert r is not None
        r[draw(st.sampled_from(["source_id", "target_id"]))] = "E_missing"
    elif rule == "self_loop":
        assert r is not None
        r["target_id"] = r["source_id"]
    elif rule == "duplicate_id":
        if r is not None and draw(st.booleans()):
            relations.append(dict(r))
        else:
            entities.append(dict(e))
    elif rule == "unknown_class":
        e["ontology_class"] = "NoSuchClass" + draw(st.text(string.ascii_letters, max_size=4))
    elif rule == "unknown_predicate":
        assert r is not None
        r["predicate"] = "noSuchRelation" + draw(st.text(string.ascii_letters, max_size=4))
    elif rule in ("domain_violation", "range_violation"):
        assert r is not None and domain is not None
        onto = ontology_index(domain).onto
        rel = onto.relations[r["predicate"]]
        allowed = rel.domain if rule == "domain_violation" else rel.range
        outside = [c for c in sorted(onto.classes) if not onto.is_a(onto.classes[c], allowed)]
        if not outside:  # this relation accepts every class at that end: break another one instead
            others = [
                x
                for x in relations
                if [
                    c
                    for c in onto.classes.values()
                    if not onto.is_a(
                        c,
                        onto.relations[x["predicate"]].domain
                        if rule == "domain_violation"
                        else onto.relations[x["predicate"]].range,
                    )
                ]
            ]
            if not others:
                from hypothesis import reject

                reject()
            r = others[0]
            rel = onto.relations[r["predicate"]]
            allowed = rel.domain if rule == "domain_violation" else rel.range
            outside = [c for c in sorted(onto.classes) if not onto.is_a(onto.classes[c], allowed)]
        end = r["source_id"] if rule == "domain_violation" else r["target_id"]
        for ent in entities:
            if ent["id"] == end:
                ent["ontology_class"] = draw(st.sampled_from(outside))
    elif rule == "datatype":
        family = _family(domain) if domain is not None else None  # broken_payloads refuses datatype without one
        if family == "transfers":
            candidates = [x for x in entities if "attributes" in x]
            victim = draw(st.sampled_from(candidates)) if candidates else e
            victim.setdefault("attributes", {})["addressNorm"] = draw(st.integers() | st.booleans())
        elif family == "inventory":
            e["attributes"][draw(st.sampled_from(["impressions_30d", "published_at", "url"]))] = draw(
                st.sampled_from(["many", "not a date", "12abc"])
            )
        else:
            raise ValueError("an entity domain has no datatype attributes; break datatype in onchain or pages")
    elif rule == "unknown_attribute":
        e.setdefault("attributes", {})["noSuchProperty"] = "x"
    else:
        raise ValueError(f"unknown rule {rule!r}; known: {', '.join(SEED_RULES + ONTOLOGY_RULES)}")
    return payload


def breakable(rule: str, domain: str | None = None) -> bool:
    """Whether :func:`broken_payloads` can break ``rule`` in ``domain`` (pages has no relations, kg no
    datatype attributes, and every on-chain class fits both ends of every on-chain relation)."""
    family = _family(domain) if domain is not None else None
    if rule in SEED_RULES:
        return not (family == "inventory" and rule in _NEEDS_RELATION)
    if rule not in ONTOLOGY_RULES or domain is None:
        return False
    if rule in _NEEDS_RELATION and family == "inventory":
        return False
    if rule == "datatype":
        return family in ("transfers", "inventory")
    if rule in ("domain_violation", "range_violation"):
        onto = ontology_index(domain).onto
        return any(
            any(
                not onto.is_a(c, rel.domain if rule == "domain_violation" else rel.range) for c in onto.classes.values()
            )
            for rel in onto.relations.values()
        )
    return True


def broken_payloads(rule: str, domain: str | None = None) -> st.SearchStrategy[dict[str, Any]]:
    """Payloads that break ``rule`` (a name from :data:`SEED_RULES`, or with ``domain`` from
    :data:`ONTOLOGY_RULES`): a validator must refuse them and report ``rule`` among the error codes.

    Raises ValueError for a rule that cannot be broken in that domain (see :func:`breakable`).
    """
    if rule not in SEED_RULES + ONTOLOGY_RULES:
        raise ValueError(f"unknown rule {rule!r}; known: {', '.join(SEED_RULES + ONTOLOGY_RULES)}")
    if domain is not None:
        _family(domain)
    if not breakable(rule, domain):
        raise ValueError(f"{rule} cannot be broken " + (f"in the {domain} domain" if domain else "without domain="))
    return _broken(rule, domain)


# --- junk ----------------------------------------------------------------------------------------------------

_JSON_SCALARS = (
    st.none() | st.booleans() | st.integers() | st.floats(allow_nan=True, allow_infinity=True) | st.text(max_size=20)
)
_JSON = st.recursive(
    _JSON_SCALARS,
    lambda inner: st.lists(inner, max_size=4) | st.dictionaries(st.text(max_size=10), inner, max_size=4),
    max_leaves=12,
)


@st.composite
def _mutated(draw: Any) -> Any:
    payload = draw(valid_payloads())
    kind = draw(st.sampled_from(["entity_field", "relation_field", "top", "drop"]))
    if kind == "top":
        payload[draw(st.sampled_from(["entities", "relations"]))] = draw(_JSON)
    elif kind == "drop":
        victim = draw(st.sampled_from(payload["entities"]))
        victim.pop(draw(st.sampled_from(["id", "label", "type"])))
    else:
        items = payload["entities"] if kind == "entity_field" or not payload["relations"] else payload["relations"]
        victim = draw(st.sampled_from(items))
        victim[draw(st.sampled_from(sorted(victim) + ["evidence", "attributes", "confidence"]))] = draw(_JSON)
    return payload


def malformed_payloads() -> st.SearchStrategy[Any]:
    """Anything at all: JSON values of every shape, valid payloads with a field replaced by junk, text that is
    not JSON, bytes. Every validator must answer each with a result (mostly a failed one), never a crash."""
    return st.one_of(
        _JSON,
        _mutated(),
        st.text(max_size=40),
        st.binary(max_size=40),
        _mutated().map(lambda p: json.dumps(p, default=str)),
    )


__all__ = [
    "DOMAINS",
    "ONTOLOGY_RULES",
    "SEED_RULES",
    "breakable",
    "broken_payloads",
    "confidences",
    "evidence",
    "labels",
    "malformed_payloads",
    "valid_payloads",
]
