"""Set 2's gold rules: the shared rules (``gold``) as they stood when set 2 was written, before sets 3 on.

Set 2's questions (``heldout2/spec.jsonl``) carry the same meanings as the later sets' and share the onchain and
pages rules, but its kg / films walk is the first version of the shared one. Where it differs:

* **Names.** A start name matches a node's id, label or alias with spacing and case ignored only (no NFKC, hyphens
  and underscores count). A name that matches nothing is ``node_alias_unmapped`` when it is within
  ``max(1, len // 6)`` edits of a label or alias (letters, not jamo), else ``missing_start_node``. Chunks are read
  for grounding with the same spacing-and-case rule.
* **Order and hops.** A relation the ontology lacks is refused before the start is looked up; a chain longer than
  the hop limit (always 3: set 2 states no limits) is ``max_hops`` before any hop is walked.
* **Last node.** The asked class filters the final set; nothing left -> refuse. ``within`` is never followed
  further, and steps carry no class filter.
* **Output.** An answer gold is ``{"decision", "answer"}`` (no hop count or edges); ``meaning`` has no ``limit``;
  an onchain answer gold is ``answer`` even with several end nodes or members (never ``multi``); onchain nodes are
  resolved by id (case ignored), label or 42-character address with spacing and case ignored.
* **Writing the onchain "cannot answer" questions that name a node.** Such a question is a path question with
  ``decline`` (why): the build checks that the node is really missing.
"""

from __future__ import annotations

import re
from pathlib import Path

from . import gold as g


def norm(s: str) -> str:
    return re.sub(r"\s+", "", s).lower()


class EntityGraph(g.EntityGraph):
    norm = staticmethod(norm)

    def resolve(self, surface: str) -> set[str]:
        n = norm(surface)
        return {nid for nid, names in self.names.items() if n == norm(nid) or any(n == norm(x) for x in names)}

    def near(self, surface: str) -> bool:
        n = norm(surface)
        return any(g.lev(n, norm(x)) <= max(1, len(norm(x)) // 6) for names in self.names.values() for x in names)

    def gold(self, spec: dict) -> dict:
        start, chain = spec.get("start"), spec.get("chain") or []
        if start is None:
            return {"decision": "refuse", "why": spec.get("why", "no entity named")}
        for rel, _ in chain:
            if rel.startswith("NOT_IN_ONTOLOGY:"):
                name = rel.split(":", 1)[1]
                assert name not in self.props, name
                return {"decision": "refuse", "why": f"relation '{name}' is not in the ontology"}
            assert rel in self.props or rel in self.groups, rel
        cur = self.resolve(start)
        if not cur:
            factor = "node_alias_unmapped" if self.near(start) else "missing_start_node"
            return {"decision": "refuse", "factor": factor, "why": f"'{start}' matches no label or alias"}
        if len(chain) > g.MAX_HOPS_KG:
            return {
                "decision": "max_hops",
                "factor": "hop_limit_exceeded",
                "why": f"{len(chain)} hops > limit {g.MAX_HOPS_KG}",
            }
        for i, (rel, direction) in enumerate(chain):
            nxt, any_edge, _ = self.step(cur, rel, direction)
            if not nxt:
                factor = "ungrounded_hop" if any_edge else "missing_edge"
                return {
                    "decision": "refuse",
                    "factor": factor,
                    "why": f"hop {i + 1} ({rel}{direction}) has no grounded edge",
                }
            cur = nxt
        if spec.get("cls"):
            cur = {n for n in cur if self.is_a(n, spec["cls"])}
            if not cur:
                return {"decision": "refuse", "factor": "missing_edge", "why": f"no {spec['cls']} at the end"}
        return {"decision": "answer", "answer": sorted(cur)}


class Onchain(g.Onchain):
    def resolve(self, surface: str) -> str | None:
        n = norm(surface)
        hits = {
            nid
            for nid, r in self.nodes.items()
            if n == nid.lower()
            or n == norm(r.get("label") or "")
            or (len(r["address"]) == 42 and n == r["address"].lower())
        }
        assert len(hits) <= 1, (surface, hits)
        return next(iter(hits), None)


def entity_questions(domain: str, eg: EntityGraph, specs: list[dict]) -> list[dict]:
    items = g.entity_questions(domain, eg, specs)
    for it in items:
        del it["meaning"]["limit"]
    return items


def build(folder: Path, config: dict, verbose: bool = False) -> str:
    """questions.jsonl of set 2, from ``folder/spec.jsonl``."""
    spec = g.read_spec(folder / "spec.jsonl", g.Pages())
    items = (
        entity_questions("kg", g.kg_graph(EntityGraph), spec["kg"])
        + g.onchain_questions(Onchain(), spec["onchain"], multi=False)
        + g.pages_questions(g.Pages(), spec["pages"])
        + entity_questions("films", g.films_graph(EntityGraph), spec["films"])
    )
    assert len({it["question"] for it in items}) == len(items), "duplicate question"
    g.summarize(items, min_n=config["min_n"], verbose=verbose)
    return g.jsonl(items)
