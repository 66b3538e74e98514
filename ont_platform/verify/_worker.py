"""Child process of ``QueryRunner(isolation="process")``: one copy of the graph, one query at a time.

Run as a script (``python -I _worker.py GRAPH.nt``), it imports nothing of ont_platform. It loads the N-Triples
file, prints ``{"ready": true}``, then answers each request line ``{"query", "form", "cap"}`` with one line:
``{"vars", "rows", "truncated"}`` for SELECT, ``{"boolean"}`` for ASK, or ``{"error"}``. The parent kills it
when a query runs out of time.
"""

from __future__ import annotations

import json
import sys
from typing import Any


def _term(t: object) -> list[object] | None:
    if t is None:
        return None
    kind = type(t).__name__
    if kind == "NamedNode":
        return ["iri", t.value, None, None]  # type: ignore[attr-defined]
    if kind == "BlankNode":
        return ["bnode", t.value, None, None]  # type: ignore[attr-defined]
    if kind == "Literal":
        return ["lit", t.value, t.datatype.value if t.datatype else None, t.language]  # type: ignore[attr-defined]
    return ["lit", str(t), None, None]


def main() -> int:
    import pyoxigraph as ox

    store = ox.Store()
    with open(sys.argv[1], "rb") as f:
        store.load(f.read(), format=ox.RdfFormat.N_TRIPLES)
    out = sys.stdout
    out.write(json.dumps({"ready": True}) + "\n")
    out.flush()
    for line in sys.stdin:
        try:
            req = json.loads(line)
            result: Any = store.query(req["query"])
            if req["form"] == "ASK":
                reply: dict[str, object] = {"boolean": bool(result)}
            else:
                names = [v.value for v in result.variables]
                rows: list[list[list[object] | None]] = []
                truncated = False
                for sol in result:
                    if len(rows) >= int(req["cap"]):
                        truncated = True
                        break
                    rows.append([_term(sol[n]) for n in names])
                reply = {"vars": names, "rows": rows, "truncated": truncated}
        except Exception as exc:  # noqa: BLE001 - any failure is reported to the parent, which raises QueryError
            reply = {"error": f"{type(exc).__name__}: {str(exc)[:300]}"}
        out.write(json.dumps(reply) + "\n")
        out.flush()
    return 0


if __name__ == "__main__":
    sys.exit(main())
