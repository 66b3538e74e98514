"""The SHACL shapes in ``shapes/``: small valid graphs conform, and a graph that breaks one constraint fails
with that constraint's message and no other. Validation runs the way ingestion runs it: pyshacl without
inference and without the ontology in the data graph."""

from __future__ import annotations

from functools import cache
from pathlib import Path

import pytest
from pyshacl import validate
from rdflib import Graph, URIRef
from rdflib.namespace import RDF, SH
from rdflib.term import Node

ROOT = Path(__file__).resolve().parents[2]
SHAPES = ROOT / "shapes"
DOMAINS = ("onchain", "kg", "pages")

PREFIXES = """\
PREFIX ont:  <https://w3id.org/ont-platform/core#>
PREFIX oc:   <https://w3id.org/ont-platform/onchain#>
PREFIX kg:   <https://w3id.org/ont-platform/kg#>
PREFIX pg:   <https://w3id.org/ont-platform/pages#>
PREFIX rdf:  <http://www.w3.org/1999/02/22-rdf-syntax-ns#>
PREFIX rdfs: <http://www.w3.org/2000/01/rdf-schema#>
PREFIX skos: <http://www.w3.org/2004/02/skos/core#>
PREFIX xsd:  <http://www.w3.org/2001/XMLSchema#>
PREFIX n:    <https://w3id.org/ont-platform/id/onchain/node/>
PREFIX e:    <https://w3id.org/ont-platform/id/onchain/edge/>
PREFIX k:    <https://w3id.org/ont-platform/id/kg/node/>
PREFIX r:    <https://w3id.org/ont-platform/id/kg/edge/>
PREFIX c:    <https://w3id.org/ont-platform/id/kg/chunk/>
PREFIX ev:   <https://w3id.org/ont-platform/id/kg/evidence/>
PREFIX p:    <https://w3id.org/ont-platform/id/pages/page/>
"""

# Seed 000's example graph, as the loader stores it.
VALID_ONCHAIN = (
    PREFIXES
    + """
n:n_a1 a oc:Wallet ; ont:id "n_a1" ; rdfs:label "n_a1" ;
    oc:rawAddress "0x00000000000000000000000000000000000000A1" ;
    oc:addressNorm "0x00000000000000000000000000000000000000a1" .
n:n_h1 a oc:Wallet ; ont:id "n_h1" ; oc:addressNorm "0x00000000000000000000000000000000000000b1" .
n:n_ex1 a oc:ExchangeDeposit ; ont:id "n_ex1" ; rdfs:label "거래소 입금주소"@ko ;
    oc:addressNorm "0x00000000000000000000000000000000000000e1" .
n:n_b2 a oc:Wallet ; ont:id "n_b2" ; oc:addressNorm "0x00000000000000000000000000000000000000b2" .
n:n_mx a oc:Mixer ; ont:id "n_mx" ; oc:addressNorm "0x00000000000000000000000000000000000000f1" .
n:n_tok a oc:TokenContract ; ont:id "n_tok" ; skos:altLabel "USDT" ;
    oc:addressNorm "0xdac17f958d2ee523a2206206994597c13d831ec7" .
n:n_d4 a oc:Wallet ; ont:id "n_d4" ; oc:addressNorm "0x00000000000000000000000000000000000000d4" .
n:n_orphan a oc:Unknown ; ont:id "n_orphan" ; oc:rawAddress "0xNOT-AN-ADDRESS" .

e:e1 a oc:Transfer ; ont:id "e1" ; ont:source n:n_a1 ; ont:target n:n_h1 ; ont:kind oc:transfer ;
    oc:txHash "0xaa1" ; oc:value "1000000000000000000000000000000" ; oc:token "ETH" ;
    oc:blockNumber 17173049 ; oc:timestamp "2023-05-02T10:00:00Z"^^xsd:dateTime .
n:n_a1 oc:transfer n:n_h1 .
e:e2 a oc:Transfer ; ont:id "e2" ; ont:source n:n_h1 ; ont:target n:n_ex1 ; ont:kind oc:transfer ;
    oc:txHash "0xaa2" ; oc:value "5" ; oc:token "0xdac17f958d2ee523a2206206994597c13d831ec7" .
n:n_h1 oc:transfer n:n_ex1 .
e:e9 a oc:SameEntityInference ; ont:id "e9" ; ont:source n:n_a1 ; ont:target n:n_b2 ;
    ont:kind oc:sameEntity ; ont:confidence 0.7 .
n:n_a1 oc:sameEntity n:n_b2 .
e:e10 a oc:SameEntityInference ; ont:id "e10" ; ont:source n:n_b2 ; ont:target n:n_h1 ;
    ont:kind oc:sameEntity .
n:n_b2 oc:sameEntity n:n_h1 .
"""
)

# Seed 003's example graph, plus extraction evidence.
VALID_KG = (
    PREFIXES
    + """
k:p_hong a kg:Person ; ont:id "p_hong" ; rdfs:label "홍길동"@ko ; skos:altLabel "길동"@ko , "Hong Gildong"@en ;
    ont:evidence ev:ev1 .
k:c_acme a kg:Company ; ont:id "c_acme" ; rdfs:label "에이크미" ; skos:altLabel "ACME" .
k:c_beta a kg:Company ; ont:id "c_beta" ; rdfs:label "베타" .
k:o_guild a kg:Organization ; ont:id "o_guild" ; rdfs:label "개발자 협회" .
k:pl_seoul a kg:City ; ont:id "pl_seoul" ; rdfs:label "서울" .
k:pl_kr a kg:Country ; ont:id "pl_kr" ; rdfs:label "대한민국" .
k:pl_gangnam a kg:Place ; ont:id "pl_gangnam" ; rdfs:label "강남" .

c:ch_11 a ont:Chunk ; ont:id "ch_11" ; ont:text "홍길동은 에이크미에서 일한다." .
c:ch_12 a ont:Chunk ; ont:id "ch_12" ; ont:text "에이크미는 서울에 있다." .
c:ch_18 a ont:Chunk ; ont:id "ch_18" ; ont:text "홍길동이 에이크미를 세웠다." .
c:ch_21 a ont:Chunk ; ont:id "ch_21" ; ont:text "서울은 대한민국에 속한다." .

r:r1 a kg:TextRelation ; ont:id "r1" ; ont:source k:p_hong ; ont:target k:c_acme ; ont:kind kg:worksFor ;
    ont:chunk c:ch_11 ; ont:grounded true ; ont:confidence 0.95 .
k:p_hong kg:worksFor k:c_acme .
r:r2 a kg:TextRelation ; ont:id "r2" ; ont:source k:c_acme ; ont:target k:pl_seoul ; ont:kind kg:locatedIn ;
    ont:chunk c:ch_12 ; ont:grounded true .
k:c_acme kg:locatedIn k:pl_seoul .
r:r3 a kg:TextRelation ; ont:id "r3" ; ont:source k:pl_seoul ; ont:target k:pl_kr ; ont:kind kg:partOf ;
    ont:chunk c:ch_21 ; ont:grounded true .
k:pl_seoul kg:partOf k:pl_kr .
r:r4 a kg:TextRelation ; ont:id "r4" ; ont:source k:p_hong ; ont:target k:c_acme ; ont:kind kg:foundedBy ;
    ont:chunk c:ch_18 ; ont:grounded true .
k:p_hong kg:foundedBy k:c_acme .
r:r5 a kg:TextRelation ; ont:id "r5" ; ont:source k:c_acme ; ont:target k:c_beta ; ont:kind kg:acquired ;
    ont:grounded false .
k:c_acme kg:acquired k:c_beta .
r:r6 a kg:TextRelation ; ont:id "r6" ; ont:source k:pl_gangnam ; ont:target k:pl_seoul ;
    ont:kind kg:locatedIn ; ont:grounded false .
k:pl_gangnam kg:locatedIn k:pl_seoul .
r:r7 a kg:TextRelation ; ont:id "r7" ; ont:source k:p_hong ; ont:target k:o_guild ; ont:kind kg:worksFor ;
    ont:grounded false .
k:p_hong kg:worksFor k:o_guild .

ev:ev1 a ont:Evidence ; ont:sourceUrl "https://news.example.com/acme"^^xsd:anyURI ; ont:offset 12 ;
    ont:confidence 0.9 .
"""
)

# Seed 004's inventory row.
VALID_PAGES = (
    PREFIXES
    + """
p:https%3A%2F%2Fshop.example.com%2Fp%2F1006 a pg:WebPage ; rdfs:label "p/1006" ;
    pg:url "https://shop.example.com/p/1006"^^xsd:anyURI ;
    pg:impressions_30d 15200 ; pg:clicks_30d 0 ; pg:ctr_30d 0.0 ; pg:sessions_30d 35 ;
    pg:published_at "2024-01-15"^^xsd:date ; pg:updated_at "2024-06-01"^^xsd:date .
p:https%3A%2F%2Fshop.example.com%2Fp%2F1007 a pg:WebPage ;
    pg:url "http://shop.example.com/p/1007"^^xsd:anyURI .
"""
)

VALID = {"onchain": VALID_ONCHAIN, "kg": VALID_KG, "pages": VALID_PAGES}


@cache
def valid_graph(domain: str) -> Graph:
    # The fixtures use SPARQL-style PREFIX lines, which Turtle 1.1 accepts as well.
    return Graph().parse(data=VALID[domain], format="turtle")


@cache
def shapes_graph(*domains: str) -> Graph:
    g = Graph().parse(SHAPES / "core.ttl", format="turtle")
    for domain in domains:
        g.parse(SHAPES / f"{domain}.ttl", format="turtle")
    return g


def run(data: Graph, *domains: str) -> tuple[bool, set[str]]:
    conforms, report, text = validate(
        data,
        shacl_graph=shapes_graph(*domains),
        inference="none",
        abort_on_first=False,
        allow_infos=False,
        advanced=True,
        allow_warnings=False,
    )
    # Top-level results only: a failed sh:node also nests the inner shape's results under sh:detail.
    messages = {
        str(message)
        for result in report.objects(None, SH.result)
        for message in report.objects(result, SH.resultMessage)
    }
    assert conforms == (not messages), text
    return bool(conforms), messages


# ---------------------------------------------------------------------------------------------------------


@pytest.mark.parametrize("stem", ["core", *DOMAINS])
def test_shapes_file_parses(stem: str) -> None:
    g = Graph().parse(SHAPES / f"{stem}.ttl", format="turtle")
    assert set(g.subjects(RDF.type, SH.NodeShape))


@pytest.mark.parametrize("domain", DOMAINS)
def test_valid_example_graph_conforms(domain: str) -> None:
    assert run(valid_graph(domain), domain) == (True, set())


def test_all_shapes_together_accept_all_examples_together() -> None:
    data = Graph()
    for domain in DOMAINS:
        data += valid_graph(domain)
    assert run(data, *DOMAINS) == (True, set())


# Each case: (id, domain, SPARQL update that breaks one constraint, the messages expected, exactly).
M = {
    # core
    "label": "rdfs:label must be a non-blank string of 1 to 500 characters",
    "altLabel": "skos:altLabel must be a non-blank string of 1 to 500 characters",
    "entity_id": "An entity has at most one ont:id, a non-empty xsd:string",
    "rel_id": "A relation must have exactly one ont:id, a non-empty xsd:string",
    "source": "A relation must have exactly one ont:source, an IRI",
    "target": "A relation must have exactly one ont:target, an IRI",
    "kind": "A relation must have exactly one ont:kind, the IRI of the property it instantiates",
    "grounded": "ont:grounded must be a single xsd:boolean",
    "chunk_iri": "ont:chunk must point to a chunk IRI",
    "plain": "The plain triple source-kind-target must be stored beside the relation resource",
    "grounded_chunk": "A relation with ont:grounded true must point through ont:chunk to an existing ont:Chunk",
    "text": "A chunk must have exactly one non-empty ont:text, an xsd:string",
    "chunk_id": "A chunk must have exactly one ont:id, a non-empty xsd:string",
    "confidence": "ont:confidence must be a single xsd:decimal between 0 and 1",
    "source_url": "Evidence has at most one ont:sourceUrl, an xsd:anyURI",
    "offset": "ont:offset must be a single xsd:integer of 0 or more",
    "evidence": "ont:evidence must point to an ont:Evidence resource",
    # onchain
    "oc_class": "An address must have exactly one class of the on-chain ontology",
    "oc_id": "An address must have an ont:id (its node_id)",
    "norm": "oc:addressNorm must be a single string of 0x and 40 lower-case hex digits",
    "raw": "oc:rawAddress must be a single xsd:string",
    "norm_required": "Every address other than oc:Unknown must have an oc:addressNorm",
    "unknown_norm": "An oc:Unknown address must not have an oc:addressNorm",
    "oc_rel_class": "An on-chain relation must have exactly one relation class: oc:Transfer or oc:SameEntityInference",
    "transfer_kind": "The ont:kind of an oc:Transfer must be oc:transfer",
    "tx_hash": "A transfer must have exactly one oc:txHash: 0x and 1 to 64 lower-case hex digits",
    "value": "oc:value must be a single xsd:string of decimal digits (base units)",
    "token": "oc:token must be a single non-empty xsd:string (ETH or a token contract address)",
    "block": "oc:blockNumber must be a single xsd:integer of 0 or more",
    "timestamp": "oc:timestamp must be a single xsd:dateTime",
    "same_kind": "The ont:kind of an oc:SameEntityInference must be oc:sameEntity",
    "same_tx": "A same-entity inference is not observed: it must not have an oc:txHash",
    "transfer_subject": "The subject of oc:transfer must be an on-chain address",
    "transfer_object": "The object of oc:transfer must be an on-chain address",
    "same_subject": "The subject of oc:sameEntity must be an on-chain address",
    "same_object": "The object of oc:sameEntity must be an on-chain address",
    # kg
    "kg_class": "A knowledge-graph entity must have exactly one class of the kg ontology",
    "kg_id": "A knowledge-graph entity must have an ont:id (its node_id)",
    "kg_label": "A knowledge-graph entity must have an rdfs:label",
    "kg_kind": "The ont:kind of a kg:TextRelation must be a kg relation property",
    "kg_grounded": "A kg:TextRelation must state ont:grounded",
    "kg_chunk": "A kg:TextRelation cites at most one ont:chunk",
    "works_subject": "The subject of kg:worksFor must be a kg:Person",
    "works_object": "The object of kg:worksFor must be a kg:Organization",
    "located_subject": "The subject of kg:locatedIn must be a kg:Organization or a kg:Place",
    "located_object": "The object of kg:locatedIn must be a kg:Place",
    "part_subject": "The subject of kg:partOf must be a kg:Place",
    "part_object": "The object of kg:partOf must be a kg:Place",
    "founded_subject": "The subject of kg:foundedBy must be a kg:Person (the founder)",
    "founded_object": "The object of kg:foundedBy must be a kg:Organization",
    "acquired_subject": "The subject of kg:acquired must be a kg:Company",
    "acquired_object": "The object of kg:acquired must be a kg:Company",
    # pages
    "page_type": "A node with page columns must be a pg:WebPage",
    "url": "A web page must have exactly one pg:url, an http(s) xsd:anyURI",
    "impressions": "pg:impressions_30d must be a single xsd:integer of 0 or more",
    "clicks": "pg:clicks_30d must be a single xsd:integer of 0 or more",
    "sessions": "pg:sessions_30d must be a single xsd:integer of 0 or more",
    "ctr": "pg:ctr_30d must be a single xsd:decimal of 0 or more",
    "published": "pg:published_at must be a single xsd:date",
    "updated": "pg:updated_at must be a single xsd:date",
}

P1006 = "p:https%3A%2F%2Fshop.example.com%2Fp%2F1006"

CASES: list[tuple[str, str, str, tuple[str, ...]]] = [
    # --- core, on entities
    (
        "label-empty",
        "onchain",
        'DELETE DATA { n:n_a1 rdfs:label "n_a1" } ; INSERT DATA { n:n_a1 rdfs:label "" }',
        ("label",),
    ),
    ("label-blank", "kg", 'INSERT DATA { k:c_beta rdfs:label "   " }', ("label",)),
    ("label-too-long", "pages", f'INSERT DATA {{ {P1006} rdfs:label "{"x" * 501}" }}', ("label",)),
    ("label-not-a-string", "onchain", "INSERT DATA { n:n_h1 rdfs:label 42 }", ("label",)),
    ("altlabel-empty", "kg", 'INSERT DATA { k:c_acme skos:altLabel ""@ko }', ("altLabel",)),
    ("entity-two-ids", "kg", 'INSERT DATA { k:c_beta ont:id "c_beta2" }', ("entity_id",)),
    ("entity-id-not-string", "pages", f"INSERT DATA {{ {P1006} ont:id 1006 }}", ("entity_id",)),
    # --- core, on relations
    ("relation-no-id", "onchain", 'DELETE DATA { e:e1 ont:id "e1" }', ("rel_id",)),
    ("relation-two-ids", "kg", 'INSERT DATA { r:r1 ont:id "r1b" }', ("rel_id",)),
    ("relation-empty-id", "onchain", 'DELETE DATA { e:e9 ont:id "e9" } ; INSERT DATA { e:e9 ont:id "" }', ("rel_id",)),
    ("relation-no-source", "onchain", "DELETE DATA { e:e1 ont:source n:n_a1 }", ("source",)),
    (
        "relation-two-sources",
        "onchain",
        "INSERT DATA { e:e1 ont:source n:n_b2 . n:n_b2 oc:transfer n:n_h1 }",
        ("source",),
    ),
    ("relation-no-target", "kg", "DELETE DATA { r:r2 ont:target k:pl_seoul }", ("target",)),
    (
        "relation-target-literal",
        "kg",
        'DELETE DATA { r:r2 ont:target k:pl_seoul } ; INSERT DATA { r:r2 ont:target "pl_seoul" }',
        ("target",),
    ),
    ("relation-no-kind", "onchain", "DELETE DATA { e:e2 ont:kind oc:transfer }", ("kind",)),
    (
        "relation-two-kinds",
        "onchain",
        "INSERT DATA { e:e9 ont:kind oc:transfer . n:n_a1 oc:transfer n:n_b2 }",
        ("kind", "same_kind"),
    ),
    (
        "grounded-not-boolean",
        "kg",
        'DELETE DATA { r:r5 ont:grounded false } ; INSERT DATA { r:r5 ont:grounded "no" }',
        ("grounded",),
    ),
    ("grounded-twice", "kg", "INSERT DATA { r:r5 ont:grounded true . r:r5 ont:chunk c:ch_12 }", ("grounded",)),
    ("chunk-literal", "kg", 'INSERT DATA { r:r5 ont:chunk "ch_99" }', ("chunk_iri",)),
    ("plain-triple-missing", "onchain", "DELETE DATA { n:n_a1 oc:transfer n:n_h1 }", ("plain",)),
    ("plain-triple-missing-kg", "kg", "DELETE DATA { k:pl_seoul kg:partOf k:pl_kr }", ("plain",)),
    ("grounded-without-chunk", "kg", "DELETE DATA { r:r1 ont:chunk c:ch_11 }", ("grounded_chunk",)),
    ("grounded-chunk-missing", "kg", "DELETE WHERE { c:ch_11 ?p ?o }", ("grounded_chunk",)),
    (
        "grounded-flag-flipped",
        "kg",
        "DELETE DATA { r:r5 ont:grounded false } ; INSERT DATA { r:r5 ont:grounded true }",
        ("grounded_chunk",),
    ),
    # --- core, chunks, confidence, evidence
    ("chunk-no-text", "kg", 'DELETE DATA { c:ch_12 ont:text "에이크미는 서울에 있다." }', ("text",)),
    (
        "chunk-empty-text",
        "kg",
        'DELETE DATA { c:ch_12 ont:text "에이크미는 서울에 있다." } ; INSERT DATA { c:ch_12 ont:text "" }',
        ("text",),
    ),
    (
        "chunk-blank-text",
        "kg",
        'DELETE DATA { c:ch_12 ont:text "에이크미는 서울에 있다." } ; INSERT DATA { c:ch_12 ont:text " \\n " }',
        ("text",),
    ),
    ("chunk-two-texts", "kg", 'INSERT DATA { c:ch_12 ont:text "또 다른 본문" }', ("text",)),
    (
        "chunk-text-tagged",
        "kg",
        'DELETE DATA { c:ch_12 ont:text "에이크미는 서울에 있다." } ; INSERT DATA { c:ch_12 ont:text "서울"@ko }',
        ("text",),
    ),
    ("chunk-no-id", "kg", 'DELETE DATA { c:ch_21 ont:id "ch_21" }', ("chunk_id",)),
    (
        "confidence-above-one",
        "onchain",
        "DELETE DATA { e:e9 ont:confidence 0.7 } ; INSERT DATA { e:e9 ont:confidence 1.5 }",
        ("confidence",),
    ),
    (
        "confidence-negative",
        "kg",
        'DELETE DATA { ev:ev1 ont:confidence 0.9 } ; INSERT DATA { ev:ev1 ont:confidence "-0.1"^^xsd:decimal }',
        ("confidence",),
    ),
    (
        "confidence-double",
        "onchain",
        'DELETE DATA { e:e9 ont:confidence 0.7 } ; INSERT DATA { e:e9 ont:confidence "0.7"^^xsd:double }',
        ("confidence",),
    ),
    ("confidence-twice", "kg", "INSERT DATA { r:r1 ont:confidence 0.5 }", ("confidence",)),
    (
        "source-url-string",
        "kg",
        (
            'DELETE { ev:ev1 ont:sourceUrl ?u } INSERT { ev:ev1 ont:sourceUrl "https://x.example" } '
            "WHERE { ev:ev1 ont:sourceUrl ?u }"
        ),
        ("source_url",),
    ),
    (
        "offset-negative",
        "kg",
        "DELETE DATA { ev:ev1 ont:offset 12 } ; INSERT DATA { ev:ev1 ont:offset -1 }",
        ("offset",),
    ),
    ("evidence-untyped", "kg", "DELETE DATA { ev:ev1 a ont:Evidence }", ("evidence",)),
    # --- onchain addresses
    ("address-two-classes", "onchain", "INSERT DATA { n:n_h1 a oc:Mixer }", ("oc_class",)),
    (
        "address-generic-and-specific-class",
        "onchain",
        "INSERT DATA { n:n_d4 a oc:Address }",
        ("oc_class",),
    ),
    ("address-no-id", "onchain", 'DELETE DATA { n:n_mx ont:id "n_mx" }', ("oc_id",)),
    (
        "address-norm-uppercase",
        "onchain",
        (
            'DELETE { n:n_b2 oc:addressNorm ?a } INSERT { n:n_b2 oc:addressNorm "0x00000000000000000000000000000000000000B2" } '
            "WHERE { n:n_b2 oc:addressNorm ?a }"
        ),
        ("norm",),
    ),
    (
        "address-norm-short",
        "onchain",
        (
            'DELETE { n:n_b2 oc:addressNorm ?a } INSERT { n:n_b2 oc:addressNorm "0xb2" } '
            "WHERE { n:n_b2 oc:addressNorm ?a }"
        ),
        ("norm",),
    ),
    (
        "address-norm-twice",
        "onchain",
        'INSERT DATA { n:n_b2 oc:addressNorm "0x00000000000000000000000000000000000000b3" }',
        ("norm",),
    ),
    ("raw-address-twice", "onchain", 'INSERT DATA { n:n_orphan oc:rawAddress "other" }', ("raw",)),
    ("wallet-without-norm", "onchain", "DELETE WHERE { n:n_d4 oc:addressNorm ?a }", ("norm_required",)),
    ("token-contract-without-norm", "onchain", "DELETE WHERE { n:n_tok oc:addressNorm ?a }", ("norm_required",)),
    (
        "unknown-with-norm",
        "onchain",
        'INSERT DATA { n:n_orphan oc:addressNorm "0x00000000000000000000000000000000000000c0" }',
        ("unknown_norm",),
    ),
    # --- onchain relations
    (
        "relation-two-classes",
        "onchain",
        "INSERT DATA { e:e2 a oc:SameEntityInference }",
        ("oc_rel_class", "same_kind", "same_tx"),
    ),
    (
        "transfer-wrong-kind",
        "onchain",
        (
            "DELETE DATA { e:e2 ont:kind oc:transfer } ; INSERT DATA { e:e2 ont:kind oc:sameEntity . "
            "n:n_h1 oc:sameEntity n:n_ex1 }"
        ),
        ("transfer_kind",),
    ),
    ("transfer-no-hash", "onchain", 'DELETE DATA { e:e1 oc:txHash "0xaa1" }', ("tx_hash",)),
    (
        "transfer-hash-no-prefix",
        "onchain",
        'DELETE DATA { e:e1 oc:txHash "0xaa1" } ; INSERT DATA { e:e1 oc:txHash "aa1" }',
        ("tx_hash",),
    ),
    (
        "transfer-hash-too-long",
        "onchain",
        f'DELETE DATA {{ e:e1 oc:txHash "0xaa1" }} ; INSERT DATA {{ e:e1 oc:txHash "0x{"a" * 65}" }}',
        ("tx_hash",),
    ),
    (
        "transfer-hash-uppercase",
        "onchain",
        'DELETE DATA { e:e1 oc:txHash "0xaa1" } ; INSERT DATA { e:e1 oc:txHash "0xAA1" }',
        ("tx_hash",),
    ),
    ("transfer-two-hashes", "onchain", 'INSERT DATA { e:e1 oc:txHash "0xaa3" }', ("tx_hash",)),
    (
        "value-decimal-point",
        "onchain",
        'DELETE DATA { e:e2 oc:value "5" } ; INSERT DATA { e:e2 oc:value "1.5" }',
        ("value",),
    ),
    (
        "value-integer-typed",
        "onchain",
        'DELETE DATA { e:e2 oc:value "5" } ; INSERT DATA { e:e2 oc:value 5 }',
        ("value",),
    ),
    ("value-twice", "onchain", 'INSERT DATA { e:e2 oc:value "6" }', ("value",)),
    ("token-empty", "onchain", 'DELETE DATA { e:e1 oc:token "ETH" } ; INSERT DATA { e:e1 oc:token "" }', ("token",)),
    (
        "block-negative",
        "onchain",
        "DELETE DATA { e:e1 oc:blockNumber 17173049 } ; INSERT DATA { e:e1 oc:blockNumber -1 }",
        ("block",),
    ),
    (
        "block-string",
        "onchain",
        'DELETE DATA { e:e1 oc:blockNumber 17173049 } ; INSERT DATA { e:e1 oc:blockNumber "17173049" }',
        ("block",),
    ),
    (
        "timestamp-unix-seconds",
        "onchain",
        "DELETE WHERE { e:e1 oc:timestamp ?t } ; INSERT DATA { e:e1 oc:timestamp 1683021600 }",
        ("timestamp",),
    ),
    (
        "same-entity-wrong-kind",
        "onchain",
        (
            "DELETE DATA { e:e10 ont:kind oc:sameEntity } ; INSERT DATA { e:e10 ont:kind oc:transfer . "
            "n:n_b2 oc:transfer n:n_h1 }"
        ),
        ("same_kind",),
    ),
    ("same-entity-with-hash", "onchain", 'INSERT DATA { e:e9 oc:txHash "0xaa9" }', ("same_tx",)),
    (
        "transfer-from-non-address",
        "onchain",
        (
            "DELETE DATA { e:e1 ont:source n:n_a1 . n:n_a1 oc:transfer n:n_h1 } ; "
            "INSERT DATA { e:e1 ont:source k:p_hong . k:p_hong oc:transfer n:n_h1 }"
        ),
        ("transfer_subject",),
    ),
    (
        "transfer-to-non-address",
        "onchain",
        (
            "DELETE DATA { e:e1 ont:target n:n_h1 . n:n_a1 oc:transfer n:n_h1 } ; "
            "INSERT DATA { e:e1 ont:target n:n_ghost . n:n_a1 oc:transfer n:n_ghost }"
        ),
        ("transfer_object",),
    ),
    ("same-entity-from-non-address", "onchain", "INSERT DATA { k:p_hong oc:sameEntity n:n_b2 }", ("same_subject",)),
    ("same-entity-to-non-address", "onchain", "INSERT DATA { n:n_b2 oc:sameEntity k:p_hong }", ("same_object",)),
    # --- kg entities and relations
    ("kg-two-classes", "kg", "INSERT DATA { k:c_beta a kg:Person }", ("kg_class",)),
    ("kg-company-and-organization", "kg", "INSERT DATA { k:c_beta a kg:Organization }", ("kg_class",)),
    ("kg-no-id", "kg", 'DELETE DATA { k:pl_kr ont:id "pl_kr" }', ("kg_id",)),
    ("kg-no-label", "kg", 'DELETE DATA { k:c_beta rdfs:label "베타" }', ("kg_label",)),
    (
        "kg-foreign-kind",
        "kg",
        (
            "DELETE DATA { r:r5 ont:kind kg:acquired } ; INSERT DATA { r:r5 ont:kind oc:transfer . "
            "k:c_acme oc:transfer k:c_beta }"
        ),
        ("kg_kind",),
    ),
    ("kg-no-grounded", "kg", "DELETE DATA { r:r5 ont:grounded false }", ("kg_grounded",)),
    ("kg-two-chunks", "kg", "INSERT DATA { r:r1 ont:chunk c:ch_12 }", ("kg_chunk",)),
    (
        "works-for-from-company",
        "kg",
        (
            "DELETE DATA { r:r1 ont:source k:p_hong . k:p_hong kg:worksFor k:c_acme } ; "
            "INSERT DATA { r:r1 ont:source k:c_beta . k:c_beta kg:worksFor k:c_acme }"
        ),
        ("works_subject",),
    ),
    ("works-for-a-city", "kg", "INSERT DATA { k:p_hong kg:worksFor k:pl_seoul }", ("works_object",)),
    ("located-person", "kg", "INSERT DATA { k:p_hong kg:locatedIn k:pl_seoul }", ("located_subject",)),
    ("located-in-company", "kg", "INSERT DATA { k:c_beta kg:locatedIn k:c_acme }", ("located_object",)),
    ("part-of-from-company", "kg", "INSERT DATA { k:c_beta kg:partOf k:pl_kr }", ("part_subject",)),
    ("part-of-a-person", "kg", "INSERT DATA { k:pl_gangnam kg:partOf k:p_hong }", ("part_object",)),
    (
        "founded-reversed",
        "kg",
        (
            "DELETE DATA { r:r4 ont:source k:p_hong . r:r4 ont:target k:c_acme . k:p_hong kg:foundedBy k:c_acme } ; "
            "INSERT DATA { r:r4 ont:source k:c_acme . r:r4 ont:target k:p_hong . k:c_acme kg:foundedBy k:p_hong }"
        ),
        ("founded_subject", "founded_object"),
    ),
    ("founded-a-place", "kg", "INSERT DATA { k:p_hong kg:foundedBy k:pl_seoul }", ("founded_object",)),
    ("founded-by-organization", "kg", "INSERT DATA { k:o_guild kg:foundedBy k:c_beta }", ("founded_subject",)),
    ("acquired-by-organization", "kg", "INSERT DATA { k:o_guild kg:acquired k:c_beta }", ("acquired_subject",)),
    ("acquired-an-organization", "kg", "INSERT DATA { k:c_acme kg:acquired k:o_guild }", ("acquired_object",)),
    # --- pages
    ("page-columns-untyped", "pages", f"DELETE DATA {{ {P1006} a pg:WebPage }}", ("page_type",)),
    ("page-no-url", "pages", f"DELETE WHERE {{ {P1006} pg:url ?u }}", ("url",)),
    (
        "page-url-plain-string",
        "pages",
        f'DELETE WHERE {{ {P1006} pg:url ?u }} ; INSERT DATA {{ {P1006} pg:url "https://shop.example.com/p/1006" }}',
        ("url",),
    ),
    (
        "page-url-not-http",
        "pages",
        f'DELETE WHERE {{ {P1006} pg:url ?u }} ; INSERT DATA {{ {P1006} pg:url "ftp://x.example/p"^^xsd:anyURI }}',
        ("url",),
    ),
    ("page-two-urls", "pages", f'INSERT DATA {{ {P1006} pg:url "https://shop.example.com/b"^^xsd:anyURI }}', ("url",)),
    (
        "impressions-negative",
        "pages",
        f"DELETE WHERE {{ {P1006} pg:impressions_30d ?v }} ; INSERT DATA {{ {P1006} pg:impressions_30d -5 }}",
        ("impressions",),
    ),
    (
        "impressions-decimal",
        "pages",
        f"DELETE WHERE {{ {P1006} pg:impressions_30d ?v }} ; INSERT DATA {{ {P1006} pg:impressions_30d 15200.0 }}",
        ("impressions",),
    ),
    ("impressions-twice", "pages", f"INSERT DATA {{ {P1006} pg:impressions_30d 1 }}", ("impressions",)),
    (
        "clicks-negative",
        "pages",
        f"DELETE WHERE {{ {P1006} pg:clicks_30d ?v }} ; INSERT DATA {{ {P1006} pg:clicks_30d -1 }}",
        ("clicks",),
    ),
    (
        "sessions-string",
        "pages",
        f'DELETE WHERE {{ {P1006} pg:sessions_30d ?v }} ; INSERT DATA {{ {P1006} pg:sessions_30d "35" }}',
        ("sessions",),
    ),
    (
        "ctr-double",
        "pages",
        f'DELETE WHERE {{ {P1006} pg:ctr_30d ?v }} ; INSERT DATA {{ {P1006} pg:ctr_30d "0.1"^^xsd:double }}',
        ("ctr",),
    ),
    (
        "ctr-negative",
        "pages",
        f'DELETE WHERE {{ {P1006} pg:ctr_30d ?v }} ; INSERT DATA {{ {P1006} pg:ctr_30d "-0.5"^^xsd:decimal }}',
        ("ctr",),
    ),
    (
        "published-datetime",
        "pages",
        (
            f"DELETE WHERE {{ {P1006} pg:published_at ?v }} ; "
            f'INSERT DATA {{ {P1006} pg:published_at "2024-01-15T00:00:00"^^xsd:dateTime }}'
        ),
        ("published",),
    ),
    (
        "updated-string",
        "pages",
        f'DELETE WHERE {{ {P1006} pg:updated_at ?v }} ; INSERT DATA {{ {P1006} pg:updated_at "2024-06-01" }}',
        ("updated",),
    ),
]


@pytest.mark.parametrize(("domain", "update", "expected"), [c[1:] for c in CASES], ids=[c[0] for c in CASES])
def test_breaking_one_constraint_reports_its_message(domain: str, update: str, expected: tuple[str, ...]) -> None:
    data = Graph() + valid_graph(domain)
    data.update(PREFIXES + update)
    assert data != valid_graph(domain)
    conforms, messages = run(data, domain)
    assert not conforms
    assert messages == {M[key] for key in expected}


def test_every_message_has_a_case_and_every_case_a_message() -> None:
    declared = set()
    for stem in ("core", *DOMAINS):
        g = Graph().parse(SHAPES / f"{stem}.ttl", format="turtle")
        declared |= {str(m) for m in g.objects(None, SH.message)}
    assert declared == set(M.values())
    covered = {key for case in CASES for key in case[3]}
    assert covered == set(M)


def _constraint_nodes(g: Graph) -> list[Node]:
    """Shapes that report results under their own message: targeted node shapes' property shapes and
    SPARQL constraints. Value shapes used through sh:node / sh:qualifiedValueShape report through the shape
    that uses them."""
    nodes: list[Node] = []
    for shape in set(g.subjects(RDF.type, SH.NodeShape)):
        nodes += list(g.objects(shape, SH.property)) + list(g.objects(shape, SH.sparql))
    return nodes


def test_every_constraint_carries_a_message() -> None:
    g = shapes_graph(*DOMAINS)
    missing = []
    for node in _constraint_nodes(g):
        used_as_value_shape = any(
            g.subjects(p, s) for p in (SH.node, SH.qualifiedValueShape) for s in g.subjects(SH.property, node)
        )
        if g.value(node, SH.message) is None and not used_as_value_shape:
            missing.append(node)
    assert missing == []


def test_shapes_do_not_depend_on_the_ontology_or_on_inference() -> None:
    g = shapes_graph(*DOMAINS)
    assert not list(g.subject_objects(URIRef("http://www.w3.org/2002/07/owl#imports")))
    # One SPARQL target (relations lacking their plain triple: one query per batch, not one per relation);
    # ont_platform.ontology.shacl.check always validates in advanced mode so that it runs.
    assert [str(s).rsplit("#", 1)[-1] for s in g.subjects(SH.target, None)] == ["RelationWithoutPlainTriple"]
    for query in g.objects(None, SH.select):
        assert "subClassOf" not in str(query)
