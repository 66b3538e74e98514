"""An RDF file imported into a graph is checked like a load: the ontology's classes, their disjointness, and the
shapes, on the new triples together with what the store already says about the resources they touch.

A resource belongs to the domain its IRI is minted in (``id:{domain}/…``); every domain the file touches must
be known (stored in the graph, bundled or registered). For each such domain:

* every ``rdf:type`` the file gives one of its resources is a class of the domain's ontology (or of the core
  vocabulary: relations, chunks, evidence, datasets);
* no resource ends up in two classes the ontology declares disjoint (``owl:disjointWith``, inherited by
  subclasses): a node typed both Person and Company is refused;
* the domain's shapes hold for every resource the file describes, validated on the file's triples plus the
  stored triples of every resource it mentions (so a relation to a stored node is checked against that node's
  class).

Triples outside every domain's id space (your own vocabulary, annotations) are not checked. Any problem refuses
the whole file before a triple is written; ``check=False`` skips all of this.
"""

from __future__ import annotations

from collections import defaultdict
from collections.abc import Callable
from itertools import combinations
from urllib.parse import unquote

from rdflib import OWL, RDF, Graph, URIRef

from ont_platform.domains import Domain
from ont_platform.errors import DatasetError, Problem
from ont_platform.namespaces import ID, ONT
from ont_platform.sparql.common import described
from ont_platform.storage.base import Store
from ont_platform.validation.facts import shacl_violations


def check_import(
    store: Store, graph: Graph, source: str, domain_of: Callable[[str], Domain], max_problems: int = 20
) -> None:
    """Raise DatasetError naming every problem (up to ``max_problems``) of importing ``graph`` into ``store``."""
    by_domain: dict[str, set[URIRef]] = defaultdict(set)
    for s, _, o in graph:
        for term in (s, o):
            if isinstance(term, URIRef):
                name = _domain(term)
                if name is not None:
                    by_domain[name].add(term)
    problems: list[Problem] = []
    for name, resources in sorted(by_domain.items()):
        spec = domain_of(name)  # raises InputError for an unknown domain
        onto = spec.ontology
        known = set(onto.classes.values()) | set(onto.relation_classes.values())
        stored = Graph()
        listed = sorted(resources)
        for i in range(0, len(listed), 200):
            for row in store.select(described(listed[i : i + 200])):
                rs, rp, ro = row["s"], row["p"], row["o"]
                assert rs is not None and rp is not None and ro is not None  # ?s ?p ?o are bound in every row
                stored.add((rs, rp, ro))
        for s, _, cls in graph.triples((None, RDF.type, None)):
            if (
                isinstance(s, URIRef)
                and s in resources
                and isinstance(cls, URIRef)
                and cls not in known
                and not str(cls).startswith(str(ONT))
            ):
                problems.append(
                    Problem(source, None, f"{_short(s)}: {_short(cls)} is not a class of the {name} ontology")
                )
        merged = stored + graph
        problems += disjoint_problems(onto.graph, merged, resources, source, onto.superclasses)
        focus = {s for s in graph.subjects() if isinstance(s, URIRef) and s in resources}
        for v in shacl_violations(merged, name, focus):
            where = f" ({v.path.rsplit('#', 1)[-1]})" if v.path else ""
            problems.append(Problem(source, None, f"{v.message}{where} [{_short(URIRef(v.focus))}]"))
        if len(problems) >= max_problems:
            break
    if problems:
        raise DatasetError(problems[:max_problems])


def disjoint_problems(
    ontology: Graph, data: Graph, resources: set[URIRef], source: str, supers: Callable[[URIRef], frozenset[URIRef]]
) -> list[Problem]:
    """A problem for each of ``resources`` that ``data`` types with two classes the ontology declares disjoint
    (``owl:disjointWith``, inherited by subclasses)."""
    pairs = {
        frozenset((a, b))
        for a, b in ontology.subject_objects(OWL.disjointWith)
        if isinstance(a, URIRef) and isinstance(b, URIRef)
    }
    if not pairs:
        return []
    out = []
    for s in resources:
        kinds = {c for c in data.objects(s, RDF.type) if isinstance(c, URIRef)}
        every = {(k, up) for k in kinds for up in supers(k) | {k}}
        for (ka, a), (kb, b) in combinations(sorted(every), 2):
            if ka != kb and frozenset((a, b)) in pairs:
                out.append(
                    Problem(
                        source,
                        None,
                        f"{_short(s)} would be both {_short(ka)} and {_short(kb)}, "
                        f"which the ontology declares disjoint",
                    )
                )
                break
    return out


def _domain(term: URIRef) -> str | None:
    text = str(term)
    if not text.startswith(ID):
        return None
    return unquote(text[len(ID) :].split("/", 1)[0])


def _short(term: URIRef) -> str:
    return unquote(str(term).rsplit("/", 1)[-1].rsplit("#", 1)[-1])
