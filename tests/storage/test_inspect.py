"""The query inspector (ont_platform.sparql.inspect): the lexer the remote store runs on every query, checked
against rdflib's parser, which the verifier and the guard use.

The lexer must refuse ``FROM``/``FROM NAMED``/``SERVICE`` wherever a query holds them, never be fooled by those
words inside strings, IRIs, comments, variables or prefixed names, and read the same form, DISTINCT and
top-level ``ORDER BY``/``LIMIT``/``OFFSET`` as rdflib does, on generated queries and on every query the library
sends while answering the examples.
"""

from __future__ import annotations

import json
from collections.abc import Iterator
from pathlib import Path

import pytest
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from ont_platform import KnowledgeGraph
from ont_platform.errors import QueryError, QueryRefused
from ont_platform.sparql.inspect import (
    check_read_query,
    parse_update,
    parsed_shape,
    refuse_remote_calls,
    shape,
    tokens,
)
from ont_platform.storage._sparql_scan import scope_update

EXAMPLES = Path(__file__).resolve().parents[2] / "examples"
PROPS = settings(max_examples=40, deadline=None, suppress_health_check=[HealthCheck.too_slow])

WORDS = [
    "FROM",
    "from",
    "From",
    "NAMED",
    "SERVICE",
    "service",
    "ORDER",
    "LIMIT",
    "OFFSET",
    "GRAPH",
    "SELECT",
    "{",
    "}",
    "(",
    ")",
    "#",
    "LIMIT 5",
    "ORDER BY ?x",
]


def _case(word: str, flips: list[bool]) -> str:
    return "".join(c.swapcase() if flip else c for c, flip in zip(word, flips + [False] * len(word), strict=False))


@st.composite
def noise(draw: st.DrawFn) -> str:
    """Text made of the words the lexer looks for, with blanks and punctuation between them."""
    parts = draw(st.lists(st.sampled_from(WORDS), min_size=1, max_size=6))
    seps = draw(st.lists(st.sampled_from([" ", "", "-", ", ", "\t"]), min_size=len(parts), max_size=len(parts)))
    return "".join(p + s for p, s in zip(parts, seps, strict=True))


def _string(text: str, quote: str) -> str:
    if quote in ('"""', "'''"):
        body = text.replace("\\", "\\\\").replace(quote[0], "\\" + quote[0])
    else:
        body = text.replace("\\", "\\\\").replace(quote, "\\" + quote).replace("\n", "\\n").replace("\r", "\\r")
    return f"{quote}{body}{quote}"


def _iri_safe(text: str) -> str:
    return "".join(c if c.isalnum() else "_" for c in text)


@st.composite
def harmless(draw: st.DrawFn) -> str:
    """A SELECT with the words FROM/SERVICE/... only where they mean nothing: in strings, IRIs, comments,
    variable names and prefixed names."""
    where = draw(st.sampled_from(["string", "iri", "comment", "var", "pname", "lang"]))
    text = draw(noise())
    if where == "string":
        quote = draw(st.sampled_from(['"', "'", '"""', "'''"]))
        value = _string(text, quote)
        return f"SELECT ?s WHERE {{ ?s <urn:p> {value} }}"
    if where == "iri":
        return f"SELECT ?s WHERE {{ ?s <urn:x:{_iri_safe(text)}> ?o }}"
    if where == "comment":
        return f"SELECT ?s # {text}\nWHERE {{ ?s ?p ?o # {text}\n}}"
    if where == "var":
        name = draw(st.sampled_from(["from", "service", "FROM", "named", "limit", "order"]))
        return f"SELECT ?{name} WHERE {{ ?{name} ?p ?o }}"
    if where == "lang":
        return f'SELECT ?s WHERE {{ ?s ?p "x"@en-{draw(st.sampled_from(["from", "service"]))} }}'
    local = draw(st.sampled_from(["from", "SERVICE", "FROM", "limit"]))
    return f"PREFIX ex: <urn:x:> SELECT ?s WHERE {{ ?s ex:{local} ex:{local} }}"


@st.composite
def calling_out(draw: st.DrawFn) -> str:
    """A SELECT that names other data: FROM / FROM NAMED in the dataset clause, or SERVICE in any group."""
    flips = draw(st.lists(st.booleans(), max_size=8))
    if draw(st.booleans()):
        named = draw(st.sampled_from(["", " NAMED", " named"]))
        prefix = draw(st.sampled_from(["", "PREFIX ex: <urn:x:>\n", "BASE <urn:b/> "]))
        return f"{prefix}SELECT ?s {_case('FROM', flips)}{named} <urn:g> WHERE {{ ?s ?p ?o }}"
    service = f"{_case('SERVICE', flips)} <urn:remote:sparql> {{ ?s ?p ?o }}"
    spot = draw(st.sampled_from(["top", "optional", "union", "exists", "subquery", "minus", "nested"]))
    body = {
        "top": f"?s ?p ?o . {service}",
        "optional": f"?s ?p ?o OPTIONAL {{ {service} }}",
        "union": f"{{ ?s ?p ?o }} UNION {{ {service} }}",
        "exists": f"?s ?p ?o FILTER EXISTS {{ {service} }}",
        "subquery": f"{{ SELECT ?s WHERE {{ {service} }} LIMIT 3 }}",
        "minus": f"?s ?p ?o MINUS {{ {service} }}",
        "nested": f"{{ {{ {{ {service} }} }} }}",
    }[spot]
    return f"SELECT ?s WHERE {{ {body} }}"


@st.composite
def shaped(draw: st.DrawFn) -> str:
    """A SELECT or ASK with random DISTINCT, top-level modifiers and inner ones that must not count."""
    form = draw(st.sampled_from(["SELECT", "ASK"]))
    inner = draw(
        st.sampled_from(
            [
                "?s ?p ?o",
                "?s ?p ?o FILTER(?o > 3 && (?s != ?o))",
                "{ SELECT ?s WHERE { ?s ?p ?o } ORDER BY ?s LIMIT 4 OFFSET 2 }",
                "?s <urn:p>/<urn:p>? ?o OPTIONAL { ?o ?q ?r }",
                "VALUES ?s { <urn:a> <urn:b> } ?s ?p ?o",
                '?s ?p "LIMIT 7" # ORDER BY ?x LIMIT 9\n',
            ]
        )
    )
    prologue = draw(st.sampled_from(["", "PREFIX ex: <urn:x:>\n", "BASE <urn:b/>\nPREFIX : <urn:y#>\n"]))
    if form == "ASK":
        return f"{prologue}ASK {{ {inner} }}"
    distinct = draw(st.sampled_from(["", "DISTINCT ", "REDUCED ", "distinct "]))
    tail = []
    if draw(st.booleans()):
        tail.append(draw(st.sampled_from(["ORDER BY ?s", "ORDER BY DESC(?s)", "order by ?s ?o"])))
    limit = draw(st.none() | st.integers(0, 10_000))
    offset = draw(st.none() | st.integers(0, 10_000))
    mods = [f"LIMIT {limit}" if limit is not None else "", f"OFFSET {offset}" if offset is not None else ""]
    if draw(st.booleans()):
        mods.reverse()
    tail += [m for m in mods if m]
    return f"{prologue}SELECT {distinct}?s WHERE {{ {inner} }} {' '.join(tail)}".strip()


def _agree(query: str) -> None:
    fast, ref = shape(query), parsed_shape(query)
    assert fast.form == ref.form, query
    assert fast.distinct == ref.distinct, query
    assert frozenset(fast.modifiers) == ref.modifiers, query
    assert fast.has_from == ref.has_from and fast.has_service == ref.has_service, query
    if fast.trailing_limit is not None:
        assert fast.trailing_limit[1] == ref.limit, query
        assert query[fast.trailing_limit[0] :].split()[0].upper() == "LIMIT"


@PROPS
@given(harmless())
def test_words_inside_strings_iris_and_comments_mean_nothing(query: str) -> None:
    found = shape(query)
    refuse_remote_calls(found)  # does not raise
    assert found.form == "SELECT" and not found.modifiers
    _agree(query)
    check_read_query(query)  # the verifier accepts it too


@PROPS
@given(calling_out())
def test_from_and_service_are_refused_wherever_they_are(query: str) -> None:
    with pytest.raises(QueryRefused):
        refuse_remote_calls(shape(query))
    with pytest.raises(QueryRefused):
        check_read_query(query)
    _agree(query)


@PROPS
@given(calling_out())
def test_service_in_an_update_is_refused(query: str) -> None:
    where = query[query.index("WHERE") :]
    if "SERVICE" not in where.upper():
        return
    with pytest.raises(QueryRefused, match="SERVICE"):
        scope_update(f"DELETE {{ ?s ?p ?o }} {where}", "<urn:g>")


@PROPS
@given(shaped())
def test_lexer_agrees_with_rdflib_on_generated_queries(query: str) -> None:
    _agree(query)


def test_unterminated_string_and_non_text() -> None:
    with pytest.raises(QueryError):
        tokens('SELECT * WHERE { ?s ?p "open }')
    with pytest.raises(QueryError):
        shape(b"SELECT * {}")
    assert shape("PREFIX ex: <urn:x:>").form == ""


def test_the_guard_and_the_verifier_read_with_rdflib() -> None:
    [op] = parse_update('INSERT DATA { <urn:a> <urn:p> "x" }')
    assert op.name == "InsertData"
    with pytest.raises(QueryRefused, match="update"):
        check_read_query('INSERT DATA { <urn:a> <urn:p> "x" }')
    with pytest.raises(QueryRefused, match="unbounded"):
        check_read_query("SELECT * WHERE { ?s <urn:p>+ ?o }")
    form, constants = check_read_query('ASK { <urn:a> <urn:p> "x" }')
    assert form == "ASK" and {str(c) for c in constants} >= {"urn:a", "urn:p", "x"}


# --- the queries the library really sends ---------------------------------------------------------------------


@pytest.fixture(scope="module")
def sent_queries() -> Iterator[list[str]]:
    sent: list[str] = []
    for name in ("onchain", "kg"):
        with KnowledgeGraph.open() as kg:
            kg.load(EXAMPLES / name)
            for line in (EXAMPLES / name / "questions.jsonl").read_text(encoding="utf-8").splitlines():
                if not line.strip():
                    continue
                traced = kg.trace(json.loads(line)["question"])
                sent.extend(traced.queries)
                generated = getattr(traced.answer, "generated_query", None)
                if isinstance(generated, str) and generated:
                    sent.append(generated)
    yield list(dict.fromkeys(sent))


def test_lexer_agrees_with_rdflib_on_the_library_queries(sent_queries: list[str]) -> None:
    assert len(sent_queries) > 20
    for query in sent_queries:
        _agree(query)
        refuse_remote_calls(shape(query))
