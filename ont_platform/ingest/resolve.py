"""Entity resolution on ingest: an extracted entity that names a node already in the graph becomes that node.

Extractions name entities with ids of their own (``E_p_hong``, ``E_1``) and labels as the text wrote them.
Without this step the graph gets a second 홍길동 next to the first, and the question "홍길동이 다니는 회사" then
refuses as ambiguous. For each individual of an extraction, in order:

1. **by id** -- a node with the entity's id (or, for an id with the extraction prefix ``E_``, with the id
   after it) is the entity, whatever its label says;
2. **by name** -- otherwise the entity's label is normalised as the question reader normalises names (NFKC,
   case and spacing ignored) and looked up among the labels and aliases of the domain's nodes:
   * exactly one node whose class fits (the same class, or one above or below it) -> linked to it;
   * several that fit -> an ``ambiguous_entity`` error listing them (the re-ask loop can name one by id);
   * only nodes of other classes -> a ``class_mismatch`` error listing them: a name the graph already uses for
     something else is more likely a misreading than a new thing;
   * none -> a new node is **created**.

A linked entity keeps the stored node's label; a label the node did not have yet is added to it as an alias
(``skos:altLabel``), so the name the text used can be asked about next time. Relations are rewritten to the
linked ids. Nothing is written here: the rewritten extraction goes through the usual mapping, conflict checks
and SHACL, all or nothing.
"""

from __future__ import annotations

from dataclasses import dataclass, field

from rdflib import SKOS, Literal, URIRef

from ont_platform.namespaces import mint
from ont_platform.ontology.model import DomainOntology
from ont_platform.qa.context import Context
from ont_platform.qa.text import compact
from ont_platform.sparql.common import labels_of
from ont_platform.validation.models import OntologyExtractionResult
from ont_platform.validation.rules import Findings, entity_classes
from ont_platform.validation.terms import OntologyIndex

AMBIGUOUS_ENTITY = "ambiguous_entity"
CLASS_MISMATCH = "class_mismatch"
_PREFIX = "E_"


@dataclass
class Resolution:
    """How an extraction's entities met the graph."""

    linked: dict[str, str] = field(default_factory=dict)
    """Extracted id -> the stored node id it was linked to (only where the two differ, or by name)."""
    created: list[str] = field(default_factory=list)
    """Extracted ids that become new nodes."""
    aliases: list[tuple[URIRef, Literal]] = field(default_factory=list)
    """``(node, label)`` pairs to add as ``skos:altLabel``: names the text used that the node lacked."""

    def triples(self) -> list[tuple[URIRef, URIRef, Literal]]:
        return [(node, SKOS.altLabel, label) for node, label in self.aliases]


def resolve(
    ctx: Context, ext: OntologyExtractionResult, index: OntologyIndex, findings: Findings
) -> tuple[OntologyExtractionResult, Resolution]:
    """The extraction with linked entities renamed to their nodes' ids, and what was linked and created;
    ambiguous or mismatched names are reported as errors in ``findings``."""
    onto = index.onto
    classes = entity_classes(ext, index)
    out = Resolution()
    rename: dict[str, str] = {}
    entities = []
    for i, e in enumerate(ext.entities):
        cls = classes.get(e.id)
        if e.type != "individual" or not isinstance(cls, URIRef):
            entities.append(e)
            continue
        stored = _by_id(ctx, e.id)
        if stored is None:
            fits: list[str] = []
            other: list[str] = []
            for node in ctx.lexicon.nodes_named(compact(e.label)):
                kinds = ctx.node_classes(node)
                (fits if any(_related(onto, k, cls) for k in kinds) else other).append(node)
            if len(fits) > 1:
                findings.error(
                    AMBIGUOUS_ENTITY,
                    f"$.entities[{i}].label",
                    f"{e.label[:60]!r} names {len(fits)} nodes of the graph: {_listed(ctx, fits)}",
                    "Use the id of the one meant as the entity's id.",
                )
                entities.append(e)
                continue
            if not fits and other:
                findings.error(
                    CLASS_MISMATCH,
                    f"$.entities[{i}].ontology_class",
                    f"{e.label[:60]!r} already names {_listed(ctx, other)} in the graph, not a {e.ontology_class}",
                    "Check the class, or use a name that tells them apart.",
                )
                entities.append(e)
                continue
            stored = fits[0] if fits else None
        if stored is None:
            out.created.append(e.id)
            entities.append(e)
            continue
        rename[e.id] = stored
        if stored != e.id:
            out.linked[e.id] = stored
        label, names = _names(ctx, stored)
        if e.label not in names:
            out.aliases.append((mint(ctx.domain, "node", stored), Literal(e.label)))
        entities.append(e.model_copy(update={"id": stored, "label": label or e.label}))
    relations = [
        r.model_copy(
            update={
                "source_id": rename.get(r.source_id, r.source_id),
                "target_id": rename.get(r.target_id, r.target_id),
            }
        )
        for r in ext.relations
    ]
    return ext.model_copy(update={"entities": entities, "relations": relations}), out


def _by_id(ctx: Context, entity_id: str) -> str | None:
    """The stored node with this id, or with the id after the extraction prefix."""
    for candidate in (entity_id, entity_id[len(_PREFIX) :] if entity_id.startswith(_PREFIX) else None):
        if candidate and ctx.node_classes(candidate):
            return candidate
    return None


def _names(ctx: Context, node_id: str) -> tuple[str | None, set[str]]:
    """A node's label and every label and alias it has, as written."""
    rows = ctx.run_select(labels_of(mint(ctx.domain, "node", node_id)))
    labels = sorted(str(r["name"]) for r in rows if str(r["kind"]) == "label")
    return (labels[0] if labels else None), {str(r["name"]) for r in rows}


def _related(onto: DomainOntology, a: URIRef, b: URIRef) -> bool:
    """One class is the other, or above or below it."""
    return onto.is_a(a, frozenset({b})) or onto.is_a(b, frozenset({a}))


def _listed(ctx: Context, nodes: list[str]) -> str:
    return ", ".join(f"{n} ({_names(ctx, n)[0] or '?'})" for n in nodes[:8]) + (" …" if len(nodes) > 8 else "")
