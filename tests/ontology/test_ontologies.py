"""The OWL ontologies in ``ontologies/``: they parse, load offline, reason consistent, and carry the labels,
notations and mappings that the loader and the question parser read from them."""

from __future__ import annotations

import importlib.util
import io
import sys
import unicodedata
import urllib.request
from collections import defaultdict
from collections.abc import Iterator
from functools import cache
from pathlib import Path
from types import ModuleType

import pytest
from rdflib import Graph, Literal, Namespace, URIRef
from rdflib.namespace import OWL, RDF, RDFS, SKOS, XSD

ROOT = Path(__file__).resolve().parents[2]
ONTOLOGIES = ROOT / "ontologies"

ONT = Namespace("https://w3id.org/ont-platform/core#")
OC = Namespace("https://w3id.org/ont-platform/onchain#")
KG = Namespace("https://w3id.org/ont-platform/kg#")
PG = Namespace("https://w3id.org/ont-platform/pages#")
GS = Namespace("https://w3id.org/ont-platform/graphsense#")
ETHON = Namespace("http://ethon.consensys.net/")

# file stem -> ontology IRI; imports are resolved against this table only, never over the network.
ONTOLOGY_IRIS = {
    "core": "https://w3id.org/ont-platform/core",
    "onchain": "https://w3id.org/ont-platform/onchain",
    "kg": "https://w3id.org/ont-platform/kg",
    "pages": "https://w3id.org/ont-platform/pages",
    "onchain-alignment": "https://w3id.org/ont-platform/onchain-alignment",
    "graphsense-concepts": "https://w3id.org/ont-platform/graphsense",
}
LOCAL_FILES = {iri: ONTOLOGIES / f"{stem}.ttl" for stem, iri in ONTOLOGY_IRIS.items()}
OWN_NAMESPACES = (str(ONT), str(OC), str(KG), str(PG))
DOMAINS = ("onchain", "kg", "pages")
TERM_TYPES = (OWL.Class, OWL.ObjectProperty, OWL.DatatypeProperty, OWL.AnnotationProperty)


@cache
def parsed(stem: str) -> Graph:
    return Graph().parse(ONTOLOGIES / f"{stem}.ttl", format="turtle")


def merged(*stems: str) -> Graph:
    g = Graph()
    for stem in stems:
        g += parsed(stem)
    return g


def own_terms(g: Graph) -> dict[URIRef, set[URIRef]]:
    """Terms declared in ``g`` in the project's namespaces, with their OWL kinds."""
    terms: dict[URIRef, set[URIRef]] = defaultdict(set)
    for kind in TERM_TYPES:
        for s in g.subjects(RDF.type, kind):
            if isinstance(s, URIRef) and str(s).startswith(OWN_NAMESPACES):
                terms[s].add(kind)
    return terms


def lexicon_key(text: str) -> str:
    """How the question parser compares surface forms: NFKC, case-folded, spacing and joiners ignored."""
    folded = unicodedata.normalize("NFKC", text).casefold()
    return "".join(ch for ch in folded if not ch.isspace() and ch not in "-_")


def surface_forms(g: Graph, term: URIRef) -> Iterator[Literal]:
    for p in (RDFS.label, SKOS.altLabel):
        for o in g.objects(term, p):
            assert isinstance(o, Literal)
            yield o


# ---------------------------------------------------------------------------------------------------------
# Parsing and headers


@pytest.mark.parametrize("stem", sorted(ONTOLOGY_IRIS))
def test_parses_and_declares_a_versioned_ontology(stem: str) -> None:
    g = parsed(stem)
    iri = URIRef(ONTOLOGY_IRIS[stem])
    assert (iri, RDF.type, OWL.Ontology) in g
    version = g.value(iri, OWL.versionInfo)
    assert isinstance(version, Literal) and str(version)
    assert g.value(iri, OWL.versionIRI) == URIRef(f"{iri}/{version}")
    for imported in g.objects(iri, OWL.imports):
        assert str(imported) in LOCAL_FILES, f"{stem} imports {imported}, which is not a local ontology"


def test_every_imported_iri_matches_its_file() -> None:
    for stem, iri in ONTOLOGY_IRIS.items():
        assert list(parsed(stem).subjects(RDF.type, OWL.Ontology)) == [URIRef(iri)]


# ---------------------------------------------------------------------------------------------------------
# owlready2 + HermiT


@pytest.fixture
def url_fetches(monkeypatch: pytest.MonkeyPatch) -> list[object]:
    """owlready2 resolves owl:imports with urllib: refuse every such fetch and record what was asked."""
    attempts: list[object] = []

    def refuse(url: object, *args: object, **kwargs: object) -> None:
        attempts.append(url)
        raise AssertionError(f"owlready2 tried to fetch {url!r}")

    monkeypatch.setattr(urllib.request, "urlopen", refuse)
    return attempts


@pytest.fixture
def world(url_fetches: list[object], monkeypatch: pytest.MonkeyPatch) -> Iterator[object]:
    import owlready2  # a core dependency; imported here so the URL guard above is in place first

    # HermiT's default heap (2 GB) is far more than these ontologies need.
    monkeypatch.setattr(owlready2.reasoning, "JAVA_MEMORY", 512)
    w = owlready2.World()
    try:
        yield w
    finally:
        w.close()


def load_into(world: object, stem: str, extra: Graph | None = None) -> None:
    """Load an ontology file and, first, everything it imports, from local files only.

    owlready2 reads neither Turtle nor owl:imports from disk by name, so each file is converted to
    N-Triples with rdflib and loaded under its own IRI; an import is then found already loaded.
    """
    g = Graph() + parsed(stem)
    iri = ONTOLOGY_IRIS[stem]
    for imported in g.objects(URIRef(iri), OWL.imports):
        loaded = world.get_ontology(str(imported) + "#")  # type: ignore[attr-defined]
        if not loaded.loaded:
            load_into(world, LOCAL_FILES[str(imported)].stem)
    if extra is not None:
        g += extra
    data = g.serialize(format="nt", encoding="utf-8")
    world.get_ontology(iri + "#").load(fileobj=io.BytesIO(data), format="ntriples")  # type: ignore[attr-defined]


def reason(world: object, *, ignore_unsupported_datatypes: bool = False) -> list[str]:
    """Run HermiT; return the IRIs of unsatisfiable classes (raises if the ontology is inconsistent)."""
    from owlready2 import sync_reasoner_hermit

    sync_reasoner_hermit(world, debug=0, ignore_unsupported_datatypes=ignore_unsupported_datatypes)
    return sorted(c.iri for c in world.inconsistent_classes() if c.iri != str(OWL.Nothing))  # type: ignore[attr-defined]


# xsd:date (pages.ttl: published_at, updated_at) is not in the OWL 2 datatype map and HermiT refuses it
# unless told to ignore unsupported datatypes. The range is right for the data, so only pages needs this.
NEEDS_IGNORED_DATATYPES = {"pages"}


@pytest.mark.parametrize("stem", sorted(ONTOLOGY_IRIS))
def test_owlready2_loads_offline_and_hermit_finds_it_consistent(
    world: object, url_fetches: list[object], stem: str
) -> None:
    load_into(world, stem)
    assert reason(world, ignore_unsupported_datatypes=stem in NEEDS_IGNORED_DATATYPES) == []
    assert url_fetches == []


def test_a_missing_import_is_never_fetched(world: object, url_fetches: list[object]) -> None:
    # Control for the fixture: onchain imports core; with core not loaded first, owlready2 goes for the
    # import's URL, the guard refuses, and owlready2 reports that it cannot load it.
    from owlready2 import OwlReadyOntologyParsingError

    data = parsed("onchain").serialize(format="nt", encoding="utf-8")
    with pytest.raises(OwlReadyOntologyParsingError):
        world.get_ontology(ONTOLOGY_IRIS["onchain"] + "#").load(  # type: ignore[attr-defined]
            fileobj=io.BytesIO(data), format="ntriples"
        )
    assert url_fetches and str(url_fetches[0]).startswith(ONTOLOGY_IRIS["core"])


def test_reasoner_check_detects_an_unsatisfiable_class(world: object) -> None:
    # Control: the check above would fail if an axiom contradicted another (a Wallet needs a normalised
    # address, an Unknown cannot have one).
    load_into(world, "onchain", extra=Graph().add((OC.Wallet, RDFS.subClassOf, OC.Unknown)))
    assert reason(world) == [str(OC.Wallet)]


def test_reasoner_rejects_a_relation_both_observed_and_inferred(world: object) -> None:
    from owlready2 import OwlReadyInconsistentOntologyError

    bad = Graph()
    edge = URIRef("https://w3id.org/ont-platform/id/onchain/edge/e1")
    bad.add((edge, RDF.type, OC.Transfer))
    bad.add((edge, RDF.type, OC.SameEntityInference))
    load_into(world, "onchain", extra=bad)
    with pytest.raises(OwlReadyInconsistentOntologyError):
        reason(world)


def test_alignment_classifies_normalised_addresses_as_ethon_accounts(world: object) -> None:
    load_into(world, "onchain-alignment")
    assert reason(world) == []
    account = world[str(ETHON.Account)]  # type: ignore[index]
    contract_account = world[str(ETHON.ContractAccount)]  # type: ignore[index]
    accounts = {c.iri for c in account.descendants()}
    for name in (
        "Wallet",
        "Exchange",
        "ExchangeDeposit",
        "ExchangeHotWallet",
        "Mixer",
        "Bridge",
        "Contract",
        "TokenContract",
        "DeFiContract",
        "Dex",
        "LendingPool",
        "Marketplace",
    ):
        assert str(OC[name]) in accounts, name
    assert str(OC.Unknown) not in accounts
    assert str(OC.Address) not in accounts
    contracts = {c.iri for c in contract_account.descendants()}
    assert {str(OC.TokenContract), str(OC.Dex), str(OC.LendingPool)} <= contracts
    assert str(OC.Wallet) not in contracts


# ---------------------------------------------------------------------------------------------------------
# Labels: the question parser's lexicon


@pytest.mark.parametrize("stem", ["core", *DOMAINS, "onchain-alignment"])
def test_every_term_has_one_korean_and_one_english_label_and_a_comment(stem: str) -> None:
    g = parsed(stem)
    terms = own_terms(g)
    assert terms or stem == "onchain-alignment"
    for term, kinds in terms.items():
        labels = list(g.objects(term, RDFS.label))
        langs = sorted(str(lab.language) for lab in labels if isinstance(lab, Literal))
        assert langs == ["en", "ko"], f"{term}: rdfs:label languages {langs}"
        assert g.value(term, RDFS.comment) is not None, f"{term} has no rdfs:comment"
        if kinds & {OWL.Class, OWL.ObjectProperty, OWL.DatatypeProperty}:
            alt_langs = {a.language for a in g.objects(term, SKOS.altLabel) if isinstance(a, Literal)}
            assert alt_langs == {"en", "ko"}, f"{term}: skos:altLabel languages {alt_langs}"


@pytest.mark.parametrize("domain", DOMAINS)
def test_no_surface_form_names_two_terms_within_a_domain(domain: str) -> None:
    stems = ["core", domain] + (["onchain-alignment"] if domain == "onchain" else [])
    g = merged(*stems)
    owners: dict[str, set[URIRef]] = defaultdict(set)
    for term in own_terms(g):
        for form in surface_forms(g, term):
            owners[lexicon_key(str(form))].add(term)
    clashes = {key: sorted(terms) for key, terms in owners.items() if len(terms) > 1}
    assert clashes == {}


def test_no_surface_form_names_two_terms_across_all_domains() -> None:
    g = merged("core", *DOMAINS, "onchain-alignment")
    owners: dict[str, set[URIRef]] = defaultdict(set)
    for term in own_terms(g):
        for form in surface_forms(g, term):
            owners[lexicon_key(str(form))].add(term)
    assert {key: sorted(t) for key, t in owners.items() if len(t) > 1} == {}


def test_labels_are_trimmed_and_reasonable() -> None:
    g = merged("core", *DOMAINS, "onchain-alignment")
    for term in own_terms(g):
        for form in surface_forms(g, term):
            assert form.language in ("ko", "en"), (term, form)
            assert str(form) == str(form).strip() and 1 <= len(form) <= 60, (term, form)


# Phrases people use in questions, each of which must lead the parser to one term.
SYNONYMS = {
    "거래소 입금주소": OC.ExchangeDeposit,
    "입금 주소": OC.ExchangeDeposit,
    "거래소 입금 지갑": OC.ExchangeDeposit,
    "deposit address": OC.ExchangeDeposit,
    "exchange deposit": OC.ExchangeDeposit,
    "믹서": OC.Mixer,
    "믹싱 서비스": OC.Mixer,
    "텀블러": OC.Mixer,
    "mixer": OC.Mixer,
    "tumbler": OC.Mixer,
    "송금": OC.transfer,
    "전송": OC.transfer,
    "이체": OC.transfer,
    "보냄": OC.transfer,
    "같은 주체": OC.sameEntity,
    "거래소": OC.Exchange,
    "미매핑": OC.Unknown,
    "트랜잭션 해시": OC.txHash,
    "근무": KG.worksFor,
    "다니는": KG.worksFor,
    "일하는": KG.worksFor,
    "직장": KG.worksFor,
    "위치": KG.within,
    "있는": KG.within,
    "대륙": KG.Continent,
    "소재지": KG.locatedIn,
    "본사": KG.locatedIn,
    "속한": KG.partOf,
    "일부": KG.partOf,
    "설립": KG.foundedBy,
    "세운": KG.foundedBy,
    "창업": KG.foundedBy,
    "인수": KG.acquired,
    "사들인": KG.acquired,
    "회사": KG.Company,
    "사람": KG.Person,
    "도시": KG.City,
    "나라": KG.Country,
    "노출": PG.impressions_30d,
    "노출수": PG.impressions_30d,
    "impressions": PG.impressions_30d,
    "클릭": PG.clicks_30d,
    "클릭수": PG.clicks_30d,
    "클릭률": PG.ctr_30d,
    "CTR": PG.ctr_30d,
    "방문": PG.sessions_30d,
    "세션": PG.sessions_30d,
    "유입": PG.sessions_30d,
    "게시일": PG.published_at,
    "발행일": PG.published_at,
    "작성일": PG.published_at,
    "수정일": PG.updated_at,
    "업데이트": PG.updated_at,
    "갱신일": PG.updated_at,
    "페이지": PG.WebPage,
}


def test_question_phrases_resolve_to_the_intended_term() -> None:
    g = merged("core", *DOMAINS)
    index: dict[str, URIRef] = {}
    for term in own_terms(g):
        for form in surface_forms(g, term):
            index[lexicon_key(str(form))] = term
    wrong = {
        phrase: index.get(lexicon_key(phrase))
        for phrase, term in SYNONYMS.items()
        if index.get(lexicon_key(phrase)) != term
    }
    assert wrong == {}


def test_vague_words_that_must_stay_unmapped_are_not_labels() -> None:
    # The pages seeds answer 'clarify' for 성과 (no measure named) and 'unsupported' for 순위 (no column).
    g = merged("core", *DOMAINS)
    keys = {lexicon_key(str(f)) for t in own_terms(g) for f in surface_forms(g, t)}
    assert not {lexicon_key(w) for w in ("성과", "순위", "경쟁사")} & keys


# ---------------------------------------------------------------------------------------------------------
# Structure the code relies on (docs/data-model.md)


def test_core_terms_and_axioms() -> None:
    g = parsed("core")
    for cls in ("Entity", "Relation", "ObservedRelation", "InferredRelation", "Chunk", "Evidence"):
        assert (ONT[cls], RDF.type, OWL.Class) in g
    assert (ONT.ObservedRelation, OWL.disjointWith, ONT.InferredRelation) in g
    functional = set(g.subjects(RDF.type, OWL.FunctionalProperty))
    assert {ONT.id, ONT.source, ONT.target, ONT.kind, ONT.grounded, ONT.text, ONT.confidence} <= functional
    assert g.value(ONT.confidence, RDFS.range) == XSD.decimal
    assert g.value(ONT.grounded, RDFS.range) == XSD.boolean
    assert (ONT.relationNotation, RDF.type, OWL.AnnotationProperty) in g


def test_onchain_terms_and_axioms() -> None:
    g = parsed("onchain")
    for cls in ("Wallet", "Exchange", "Mixer", "Bridge", "Contract", "Marketplace", "Unknown"):
        assert (OC[cls], RDFS.subClassOf, OC.Address) in g
    assert (OC.ExchangeDeposit, RDFS.subClassOf, OC.Exchange) in g
    assert (OC.Dex, RDFS.subClassOf, OC.DeFiContract) in g
    assert (OC.Transfer, RDFS.subClassOf, ONT.ObservedRelation) in g
    assert (OC.SameEntityInference, RDFS.subClassOf, ONT.InferredRelation) in g
    assert (OC.sameEntity, RDF.type, OWL.SymmetricProperty) in g
    assert (OC.transfer, RDF.type, OWL.SymmetricProperty) not in g
    assert g.value(OC.value, RDFS.range) == XSD.string


def test_kg_terms_and_axioms() -> None:
    g = parsed("kg")
    assert (KG.Company, RDFS.subClassOf, KG.Organization) in g
    assert {KG.City, KG.Country} <= set(g.subjects(RDFS.subClassOf, KG.Place))
    assert (KG.TextRelation, RDFS.subClassOf, ONT.ObservedRelation) in g
    assert g.value(KG.foundedBy, RDFS.domain) == KG.Person
    assert g.value(KG.foundedBy, RDFS.range) == KG.Organization
    domain = g.value(KG.locatedIn, RDFS.domain)
    assert domain is not None
    union = g.value(domain, OWL.unionOf)
    assert union is not None
    assert set(g.items(union)) == {KG.Organization, KG.Place}
    assert not set(g.subjects(RDF.type, OWL.TransitiveProperty))


def test_relation_notations_match_the_csv_rel_values() -> None:
    g = merged("onchain", "kg")
    props = set(g.subjects(RDF.type, OWL.ObjectProperty))
    # a property that only groups others (kg:within) is never stored and has no notation
    groups = {p for p in props if any(True for _ in g.subjects(RDFS.subPropertyOf, p))}
    notations = {str(g.value(p, ONT.relationNotation)): p for p in props - groups}
    assert all(g.value(p, ONT.relationNotation) is None for p in groups)
    assert notations == {
        "transfer": OC.transfer,
        "same_entity": OC.sameEntity,
        "worksFor": KG.worksFor,
        "locatedIn": KG.locatedIn,
        "partOf": KG.partOf,
        "foundedBy": KG.foundedBy,
        "acquired": KG.acquired,
    }


def test_page_columns_carry_name_and_type_matching_the_range() -> None:
    g = parsed("pages")
    by_type = {"integer": XSD.integer, "decimal": XSD.decimal, "date": XSD.date}
    metrics = {}
    for prop in g.subjects(PG.columnType, None):
        column = str(g.value(prop, PG.column))
        assert str(prop) == str(PG) + column
        kind = str(g.value(prop, PG.columnType))
        assert g.value(prop, RDFS.range) == by_type[kind], prop
        assert (prop, RDF.type, OWL.FunctionalProperty) in g
        metrics[column] = kind
    assert metrics == {
        "impressions_30d": "integer",
        "clicks_30d": "integer",
        "ctr_30d": "decimal",
        "sessions_30d": "integer",
        "published_at": "date",
        "updated_at": "date",
    }
    assert g.value(PG.url, RDFS.range) == XSD.anyURI
    assert str(g.value(PG.url, PG.column)) == "url"


# ---------------------------------------------------------------------------------------------------------
# GraphSense concepts and the alignment


def test_graphsense_concepts_form_one_tree() -> None:
    g = parsed("graphsense-concepts")
    concepts = set(g.subjects(RDF.type, SKOS.Concept))
    assert len(concepts) == 86
    roots = [c for c in concepts if g.value(c, SKOS.broader) is None]
    assert roots == [GS.concept]
    for c in concepts:
        assert str(g.value(c, SKOS.notation)) == str(c).removeprefix(str(GS))
        assert g.value(c, SKOS.prefLabel) is not None and g.value(c, SKOS.definition) is not None
        parent = g.value(c, SKOS.broader)
        assert parent is None or parent in concepts
    assert g.value(GS.mixing_service, SKOS.broader) == GS.service
    assert str(g.value(GS.defi_bridge, SKOS.prefLabel)) == "Bridge"


# Concept ids in the class column of real address data (GraphSense tag packs, Etherscan label mapping).
REAL_DATA_CLASSES = {
    "exchange",
    "mixing_service",
    "defi_dex",
    "defi_bridge",
    "defi_token",
    "defi_lending",
    "defi",
    "market",
}


def test_graphsense_ids_map_class_column_values_to_one_class_each() -> None:
    onchain = parsed("onchain")
    ids: dict[str, URIRef] = {}
    for cls, gid in onchain.subject_objects(OC.graphsenseId):
        assert isinstance(cls, URIRef) and str(gid) not in ids, f"{gid} maps to two classes"
        ids[str(gid)] = cls
    assert REAL_DATA_CLASSES <= set(ids)
    assert "unknown" not in ids  # oc:Unknown means "not normalisable", not "category unknown"
    concepts = parsed("graphsense-concepts")
    alignment = parsed("onchain-alignment")
    for concept_id, cls in ids.items():
        assert (GS[concept_id], SKOS.notation, Literal(concept_id)) in concepts
        assert alignment.value(cls, OC.graphsenseConcept) == GS[concept_id]
        assert (cls, SKOS.closeMatch, GS[concept_id]) in alignment


def test_alignment_mentions_only_existing_graphsense_concepts_and_no_equivalences() -> None:
    alignment = parsed("onchain-alignment")
    concepts = set(parsed("graphsense-concepts").subjects(RDF.type, SKOS.Concept))
    mentioned = {o for o in alignment.objects() if isinstance(o, URIRef) and str(o).startswith(str(GS))}
    assert mentioned and mentioned <= concepts
    for p in (OWL.equivalentClass, OWL.equivalentProperty, OWL.sameAs):
        assert not list(alignment.subject_objects(p))
    assert (OC.Contract, RDFS.subClassOf, ETHON.ContractAccount) in alignment
    assert (OC.txHash, SKOS.closeMatch, ETHON.txHash) in alignment
    assert (OC.value, SKOS.closeMatch, ETHON.value) in alignment


@cache
def _load_converter() -> ModuleType:
    """The converter is a script, not part of the package: load it from its file, leaving no bytecode
    cache beside it."""
    path = ONTOLOGIES / "tools" / "graphsense_to_skos.py"
    spec = importlib.util.spec_from_file_location("graphsense_to_skos", path)
    assert spec is not None and spec.loader is not None
    module = importlib.util.module_from_spec(spec)
    saved, sys.dont_write_bytecode = sys.dont_write_bytecode, True
    try:
        spec.loader.exec_module(module)
    finally:
        sys.dont_write_bytecode = saved
    return module


def _converter() -> ModuleType:
    return _load_converter()  # needs PyYAML, installed with the test extra


SAMPLE_YAML = """\
scheme:
  type: conceptScheme
  version: 9.9.9
  lastmod: 2023-01-27
  title: Sample
concept:
  id: concept
  type: concept
  prefLabel: Concept
  description: >
    The root.
service:
  id: service
  type: concept
  prefLabel: Service
  description: >
    Something
    offered.
  broader: concept
  narrower: [service]
renamed_key:
  id: renamed
  type: concept
  prefLabel: "  Renamed "
  description: Key and id differ.
  broader: service
  example: [a.example]
  seeAlso: https://example.org/renamed
"""


def test_converter_output_is_deterministic_skos() -> None:
    conv = _converter()
    first, second = conv.render(SAMPLE_YAML), conv.render(SAMPLE_YAML)
    assert first == second
    assert first.startswith("# GraphSense concepts taxonomy") and "MIT License" in first
    g = Graph().parse(data=first, format="turtle")
    assert (GS.renamed, SKOS.broader, GS.service) in g
    assert (GS.renamed, SKOS.prefLabel, Literal("Renamed", lang="en")) in g
    assert (GS.service, SKOS.definition, Literal("Something offered.", lang="en")) in g
    assert (GS.concept, SKOS.topConceptOf, GS.taxonomy) in g
    assert not list(g.subject_objects(SKOS.narrower))


@pytest.mark.parametrize(
    "broken",
    [
        SAMPLE_YAML.replace("broader: service", "broader: nowhere"),
        SAMPLE_YAML.replace("id: renamed", "id: service"),
        SAMPLE_YAML.replace("  broader: concept\n", ""),
        "just a string\n",
    ],
    ids=["unknown-broader", "duplicate-id", "two-roots", "not-a-taxonomy"],
)
def test_converter_rejects_a_broken_taxonomy(broken: str) -> None:
    conv = _converter()
    with pytest.raises(conv.TaxonomyError):
        conv.render(broken)


def test_committed_concepts_file_is_the_converter_output_format() -> None:
    text = (ONTOLOGIES / "graphsense-concepts.ttl").read_text(encoding="utf-8")
    assert "Generated by ontologies/tools/graphsense_to_skos.py" in text
    assert "a14a1597359297e5111236aa76b93a7e03110dd3" in text and "MIT License" in text


def test_a_label_without_a_language_tag_is_english() -> None:
    """univ-bench's labels have no tag, as most published ontologies' do: they are English labels, not missing."""
    from ont_platform.domains.base import Domain

    text = """
    @prefix owl: <http://www.w3.org/2002/07/owl#> . @prefix rdfs: <http://www.w3.org/2000/01/rdf-schema#> .
    @prefix ex: <https://example.org/u#> .
    ex:Student a owl:Class ; rdfs:label "student" .
    ex:Course a owl:Class ; rdfs:label "course"@en , "untagged" .
    ex:takes a owl:ObjectProperty ; rdfs:label "takes" ; rdfs:domain ex:Student ; rdfs:range ex:Course .
    """
    domain = Domain.from_text("untagged", text, check=False, family="triples")
    warnings = domain.extra["report"].warnings
    assert "class Student has no rdfs:label in ko" in warnings
    assert not [w for w in warnings if "in ko or en" in w or w.endswith("in en")]
    onto = domain.ontology
    student, course = (URIRef(f"https://example.org/u#{n}") for n in ("Student", "Course"))
    assert onto.label(student, "en") == "student" and onto.label(student, "ko") == "Student"
    assert onto.label(course, "en") == "course"  # a tagged English label first
    assert onto.labels(student, "en") == ["student"]
