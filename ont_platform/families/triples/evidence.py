"""The evidence of a walk over stated triples: each hop names the triple as stored (subject, property IRI,
object) and the source it came from — the dataset's files, as its load recorded them."""

from __future__ import annotations

from ont_platform.answer.contracts import Hop, HopDecision
from ont_platform.namespaces import ONT, dataset_iri
from ont_platform.qa.context import Context
from ont_platform.rdf_terms import iri


def sources(ctx: Context) -> str:
    """The files the domain's data was loaded from, as one source name (``people.ttl``; ``a.ttl, b.ttl``)."""
    rows = ctx.run_select(
        f"SELECT ?f WHERE {{ {iri(str(dataset_iri(ctx.domain)))} {iri(str(ONT.dataFile))} ?f }} ORDER BY ?f LIMIT 100"
    )
    files = [str(r["f"]) for r in rows if r.get("f") is not None]
    return ", ".join(files) or f"the {ctx.domain} dataset"


def cite_triples(ctx: Context, answer: HopDecision) -> HopDecision:
    """``answer`` with each hop's triple and source, and (for an answer) its evidence written as the triples."""
    if not answer.path:
        return answer
    source = sources(ctx)

    def cited(path: list[Hop]) -> list[Hop]:
        out = []
        for h in path:
            rel = ctx.onto.relations.get(h.rel)
            prop = str(rel.iri) if rel is not None else h.rel
            out.append(h.model_copy(update={"triple": [h.src, prop, h.dst], "source": source}))
        return out

    hops = cited(answer.path)
    update: dict[str, object] = {"path": hops}
    if answer.answers is not None:
        update["answers"] = [a.model_copy(update={"path": cited(a.path)}) for a in answer.answers]
    if answer.decision == "answer":
        stated = "; ".join(f"<{h.src}> <{h.triple[1] if h.triple else h.rel}> <{h.dst}>" for h in hops)
        update["evidence"] = f"{stated} (stated in {source})"
    return answer.model_copy(update=update)


__all__ = ["cite_triples", "sources"]
