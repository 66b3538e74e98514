"""Gold answers for the schema.org held-out set, computed from data.ttl and ontology.ttl with rdflib only.

A question's meaning is a dict:

    sparql   a SPARQL query over data.ttl + ontology.ttl (prefixes schema:, rdf:, rdfs:, xsd: declared in it),
             or None for questions the graph cannot express at all (chit-chat, opinions)
    names    {variable: name as the question writes it}: each name is resolved to one node (below) and bound
             to the variable before the query runs
    expect   what the query gives: "entity" (IRIs), "count" (IRIs to count), "boolean" (ASK), "value" (literals)
    path     the properties walked from the named node, in order (a hop count for the hop-limit rule)
    decline  present when the question is a decline by policy: {"category": ..., ...} (see POLICY)

The gold kinds: answer (one IRI), multi (a set of IRIs), count (an integer and the set it counts), boolean,
value (the lexical forms of the literals), decline (with why).

Names are resolved by exact match, ignoring case and white space, on schema:name, schema:alternateName and,
for a person, givenName + familyName in either order (both in the same language). No match: decline
(unknown name); several: decline (ambiguous name).
"""
from __future__ import annotations

import re
from functools import lru_cache
from pathlib import Path

from rdflib import BNode, Graph, Literal, Namespace, URIRef
from rdflib.namespace import RDF, RDFS

HERE = Path(__file__).resolve().parent
SCHEMA = Namespace("https://schema.org/")
HOP_LIMIT = 3  # the default hop limit the library documents for questions that name none

PREFIXES = """PREFIX schema: <https://schema.org/>
PREFIX rdf: <http://www.w3.org/1999/02/22-rdf-syntax-ns#>
PREFIX rdfs: <http://www.w3.org/2000/01/rdf-schema#>
PREFIX xsd: <http://www.w3.org/2001/XMLSchema#>
"""

POLICY = {
    "negation": "negation: the question asks for what is not related; the graph states facts, not their absence",
    "superlative": "superlative: the question asks for a ranking (most, oldest, biggest), which the set does "
                   "not count as answerable",
    "aggregate": "aggregate: the question asks for an average, a sum or another calculation over values",
    "chit_chat": "chit-chat: no question about the data",
    "opinion": "opinion: the question asks for a judgement the data does not hold",
}


def norm(text: str) -> str:
    return re.sub(r"\s+", "", str(text)).casefold()


@lru_cache(maxsize=1)
def graphs() -> tuple[Graph, Graph, Graph]:
    """(data, ontology, both together)."""
    data = Graph()
    data.parse(HERE / "data.ttl", format="turtle")
    onto = Graph()
    onto.parse(HERE / "ontology.ttl", format="turtle")
    both = Graph()
    for t in data:
        both.add(t)
    for t in onto:
        both.add(t)
    return data, onto, both


@lru_cache(maxsize=1)
def name_index() -> dict[str, frozenset[URIRef]]:
    data, _, _ = graphs()
    index: dict[str, set[URIRef]] = {}
    nodes = {s for s in data.subjects(RDF.type, None) if isinstance(s, URIRef)}
    for node in nodes:
        keys = {norm(o) for p in (SCHEMA.name, SCHEMA.alternateName) for o in data.objects(node, p)}
        if (node, RDF.type, SCHEMA.Person) in data:
            for g in data.objects(node, SCHEMA.givenName):
                for f in data.objects(node, SCHEMA.familyName):
                    if g.language == f.language:
                        keys.add(norm(g) + norm(f))
                        keys.add(norm(f) + norm(g))
        for k in keys:
            index.setdefault(k, set()).add(node)
    return {k: frozenset(v) for k, v in index.items()}


def resolve(name: str) -> list[URIRef]:
    return sorted(name_index().get(norm(name), frozenset()))


def local(iri) -> str:
    return str(iri).rsplit("/", 1)[-1]


def _decline(why: str, **extra) -> dict:
    return {"gold_kind": "decline", "gold": {"why": why, **extra}, "why": why}


def _named(meaning: dict) -> str:
    return " and ".join(repr(n) for n in (meaning.get("names") or {}).values()) or "the question"


def _run(meaning: dict, bindings: dict):
    _, _, both = graphs()
    return both.query(meaning["sparql"], initBindings=bindings)


def _lexical(lit: Literal) -> dict:
    return {"lex": str(lit), "lang": lit.language,
            "datatype": str(lit.datatype) if lit.datatype else None}


def compute(meaning: dict) -> dict:
    """The gold of one question: {"gold_kind", "gold", "why"} (why is None unless the gold is a decline)."""
    data, onto, _ = graphs()
    bindings = {}
    for var, name in (meaning.get("names") or {}).items():
        found = resolve(name)
        if not found:
            return _decline(f"unknown_name: no node is named {name!r}", category="unknown_name")
        if len(found) > 1:
            return _decline(f"ambiguous_name: {name!r} names {len(found)} nodes "
                            f"({', '.join(local(n) for n in found)})", category="ambiguous_name",
                            candidates=[str(n) for n in found])
        bindings[var] = found[0]

    decline = meaning.get("decline")
    if decline:
        cat = decline["category"]
        if cat == "missing_property":
            prop = decline.get("property")
            if prop:
                iri = URIRef(prop)
                if (iri, None, None) in onto or (None, iri, None) in data:
                    raise ValueError(f"{prop} is in the ontology or the data: not a missing property")
                return _decline(f"missing_property: {local(prop)} is neither in ontology.ttl nor in the data",
                                category=cat)
            words = [w.casefold() for w in decline["concept_words"]]
            labels = {norm(o) for s in onto.subjects(RDF.type, RDF.Property) for o in onto.objects(s, RDFS.label)}
            hit = [w for w in words if any(w.replace(" ", "") in lab for lab in labels)]
            if hit:
                raise ValueError(f"a property label contains {hit}: not a missing property")
            return _decline(f"missing_property: no property of the ontology is about "
                            f"{decline['concept']!r}", category=cat)
        if cat == "hop_limit":
            hops = len(meaning["path"])
            if hops <= HOP_LIMIT:
                raise ValueError(f"{hops} hops is within the limit of {HOP_LIMIT}")
            rows = [r[0] for r in _run(meaning, bindings)]
            return _decline(f"hop_limit: the chain needs {hops} hops ({' / '.join(meaning['path'])}), more "
                            f"than the default limit of {HOP_LIMIT}", category=cat,
                            would_be=sorted(str(r) for r in rows))
        if cat in POLICY:
            return _decline(POLICY[cat], category=cat)
        raise ValueError(f"unknown decline category {cat}")

    expect = meaning["expect"]
    if expect == "boolean":
        return {"gold_kind": "boolean", "gold": bool(_run(meaning, bindings).askAnswer), "why": None}
    rows = [r[0] for r in _run(meaning, bindings) if r[0] is not None]
    if expect == "count":
        nodes = sorted({str(r) for r in rows})
        if any(isinstance(r, (Literal, BNode)) for r in rows):
            raise ValueError("a count must count IRIs")
        return {"gold_kind": "count", "gold": {"count": len(nodes), "set": nodes}, "why": None}
    if expect == "value":
        lits = [r for r in rows if isinstance(r, Literal)]
        if len(lits) != len(rows):
            raise ValueError("a value query gave a non-literal")
        if not lits:
            return _decline(f"missing_value: {_named(meaning)} has no value for {' / '.join(meaning['path'])}",
                            category="missing_value")
        detail = sorted((_lexical(x) for x in set(lits)), key=lambda d: (d["lex"], d["lang"] or ""))
        return {"gold_kind": "value", "gold": {"values": sorted({d["lex"] for d in detail}), "detail": detail},
                "why": None}
    if expect == "entity":
        if any(not isinstance(r, URIRef) for r in rows):
            raise ValueError("an entity query gave a literal or a blank node")
        nodes = sorted({str(r) for r in rows})
        if not nodes:
            return _decline(f"missing_edge: {_named(meaning)} has no {' / '.join(meaning['path'])} in the data",
                            category="missing_edge")
        if len(nodes) == 1:
            return {"gold_kind": "answer", "gold": nodes[0], "why": None}
        return {"gold_kind": "multi", "gold": nodes, "why": None}
    raise ValueError(f"unknown expect {expect}")
