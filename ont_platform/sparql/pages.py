"""SPARQL for page questions: the filter over the inventory, and the dataset's own vocabulary.

A filter is a conjunction of comparisons on column properties. Each column used is a required triple
pattern, so a page whose cell is empty (no triple) never matches, not even ``= 0``. Every value reaches the
query through :func:`ont_platform.rdf_terms.literal` with the column's XSD datatype — text to look for in a
text column included, which is only ever an escaped string literal inside ``CONTAINS`` — and every query has a
LIMIT.
"""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass

from rdflib import URIRef

from ont_platform.errors import QueryRefused
from ont_platform.rdf_terms import iri, literal
from ont_platform.sparql.common import PREFIXES

OPERATORS = frozenset({"=", "!=", "<", "<=", ">", ">="})
TEXT_OPERATORS = frozenset({"contains", "not_contains"})
DATATYPES = frozenset({"integer", "decimal", "date", "boolean", "string"})


@dataclass(frozen=True, slots=True)
class Comparison:
    """``column op value``: the column's index among the columns used, the operator, and the value's lexical
    form with its XSD datatype (``integer``, ``decimal``, ``date``, ``boolean`` or ``string``).

    A ``string`` value goes with ``contains`` / ``not_contains`` only (case is ignored on both sides); a
    ``boolean`` one with ``=`` / ``!=`` and the lexical form ``true`` or ``false``."""

    column: int
    op: str
    value: str
    datatype: str


def _condition(c: Comparison, columns: int) -> str:
    if c.datatype not in DATATYPES:
        raise QueryRefused(f"datatype {c.datatype!r} is not one of {sorted(DATATYPES)}")
    if not 0 <= c.column < columns:
        raise QueryRefused(f"comparison on column {c.column}, but only {columns} column(s) are bound")
    var = f"?v{c.column}"
    if c.datatype == "string":
        if c.op not in TEXT_OPERATORS:
            raise QueryRefused(f"a text value takes {sorted(TEXT_OPERATORS)}, not {c.op!r}")
        test = f"CONTAINS(LCASE(STR({var})), {literal(c.value.lower())})"
        return f"  FILTER({'!' if c.op == 'not_contains' else ''}{test})"
    if c.op not in OPERATORS:
        raise QueryRefused(f"operator {c.op!r} is not one of {sorted(OPERATORS)}")
    if c.datatype == "boolean" and (c.op not in ("=", "!=") or c.value not in ("true", "false")):
        raise QueryRefused(f"a boolean comparison is = or != with true or false, not {c.op} {c.value!r}")
    return f"  FILTER({var} {c.op} {literal(c.value, c.datatype)})"


def filter_pages(columns: Sequence[URIRef], comparisons: Sequence[Comparison], *, limit: int) -> str:
    """Pages whose values of ``columns`` (bound as ``?v0``, ``?v1`` …) pass every comparison, by URL.

    Raises :class:`QueryRefused` for an operator or datatype outside the allowed sets (or not allowed together)
    or an index that names no column; values are escaped by ``literal`` whatever they contain.
    """
    if not columns:
        raise QueryRefused("a page filter needs at least one column")
    lines = ["  ?page a pg:WebPage ;", "        pg:url ?url ."]
    for i, prop in enumerate(columns):
        lines.append(f"  ?page {iri(str(prop))} ?v{i} .")
    lines += [_condition(c, len(columns)) for c in comparisons]
    select = " ".join(["?url", *(f"?v{i}" for i in range(len(columns)))])
    body = "\n".join(lines)
    return f"{PREFIXES}SELECT {select} WHERE {{\n{body}\n}} ORDER BY ?url LIMIT {int(limit)}"


def dataset_vocabulary(limit: int) -> str:
    """The columns a dataset added (``columns.csv``) with their labels and rank flag, and its vague predicates
    (``predicates.csv``), in one query: rows of kind ``column`` or ``predicate``."""
    return (
        f"{PREFIXES}SELECT ?kind ?prop ?name ?type ?rank ?lp ?label ?op ?value ?applies WHERE {{\n"
        f"  {{\n"
        f"    ?prop pg:column ?name ; pg:columnType ?type .\n"
        f"    OPTIONAL {{ ?prop pg:rankLike ?rank }}\n"
        f"    OPTIONAL {{ ?prop ?lp ?label . VALUES ?lp {{ rdfs:label skos:altLabel }} }}\n"
        f'    BIND("column" AS ?kind)\n'
        f"  }} UNION {{\n"
        f"    ?prop a pg:VaguePredicate ; pg:phrase ?name ; pg:op ?op ; pg:value ?value .\n"
        f"    OPTIONAL {{ ?prop pg:appliesTo ?applies }}\n"
        f'    BIND("predicate" AS ?kind)\n'
        f"  }}\n"
        f"}} ORDER BY ?kind ?name ?prop ?label LIMIT {int(limit)}"
    )
