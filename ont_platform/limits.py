"""Every limit the library enforces, in one typed place, passed explicitly.

Defaults suit an interactive service on one machine; a caller that needs more passes its own ``Limits``.
"""

from __future__ import annotations

from dataclasses import dataclass, field


@dataclass(frozen=True, slots=True)
class Limits:
    """Bounds on input size and work. Every field must be positive unless its metadata names a smaller ``least``
    value with a meaning (``walk_max_edges=0`` turns the transfer mirror off)."""

    max_file_bytes: int = 2 * 1024**3
    """Largest file a loader reads (CSV table, RDF document)."""
    max_cell_chars: int = 100_000
    """Longest CSV cell (a chunk of text is the longest legitimate cell)."""
    max_label_chars: int = 500
    """Longest entity label (seed 001)."""
    max_question_chars: int = 1_000
    """Longest question ``ask`` accepts."""
    max_hops: int = 6
    """Largest hop limit a question may ask for; deeper paths are refused, not searched."""
    default_hops: int = 3
    """Hop limit when the question names none (seeds 000 and 003)."""
    max_result_rows: int = 10_000
    """Most rows any query returns (every generated query carries a LIMIT)."""
    query_timeout_s: float = 10.0
    """Longest a query may run."""
    walk_max_edges: int = field(default=200_000, metadata={"least": 0})
    """Most edges a path question scans in the in-process transfer mirror (qa/adjacency.py) before the question
    is decided by SPARQL in the killable query worker instead; ``0`` turns the mirror off."""
    max_names: int = 5_000_000
    """Most node names read into a question lexicon."""
    max_entailed_triples: int = 20_000_000
    """Most triples reasoning may add to a domain's derived graph (the closure is held in memory while it is
    computed, ~150 bytes a triple); past it the reasoning query fails and nothing is written."""
    max_problems: int = 1_000
    """Problems collected before a dataset check stops looking for more."""
    max_answer_items: int = 10_000
    """Most entries in any one list of an answer ``verify`` checks (path steps, cited nodes, matched pages); a
    longer answer fails the ``limits`` check and nothing else is checked (the checks compare every step with the
    graph, so a huge made-up path would cost time, not find more)."""
    max_answer_depth: int = 32
    """Deepest nesting of objects and lists in an answer ``verify`` checks (the contracts nest three levels);
    deeper answers fail the ``limits`` check before the JSON Schema runs, which recurses once per level."""


DEFAULT_LIMITS = Limits()
