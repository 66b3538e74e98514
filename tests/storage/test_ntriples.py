"""RDF text read for the remote store (ont_platform.storage._ntriples): pyoxigraph parses, the store writes the
SPARQL text of each term, keeps lexical forms and finds the numbers a server would change, by line."""

from __future__ import annotations

import pyoxigraph as ox
import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from ont_platform.errors import RDFSyntaxError
from ont_platform.storage._ntriples import chunks, parse_ntriples, parse_rdf

XSD = "http://www.w3.org/2001/XMLSchema#"


def test_lexical_forms_are_kept_and_xsd_string_is_plain() -> None:
    batch = parse_ntriples(
        f'<urn:a> <urn:p> "0123"^^<{XSD}integer> .\n'
        f'<urn:a> <urn:p> "2024-01-01T00:00:00Z"^^<{XSD}dateTime> .\n'
        f'<urn:a> <urn:p> "x"^^<{XSD}string> .\n'
        '<urn:a> <urn:p> "tab\\there \\"q\\" \\u00E9"@ko .\n'
    )
    assert batch.triples == [
        f'<urn:a> <urn:p> "0123"^^<{XSD}integer>',
        f'<urn:a> <urn:p> "2024-01-01T00:00:00Z"^^<{XSD}dateTime>',
        '<urn:a> <urn:p> "x"',
        '<urn:a> <urn:p> "tab\\there \\"q\\" é"@ko',
    ]
    assert batch.risky == []


def test_errors_name_the_line() -> None:
    text = "# head\r\n\r\n<urn:a> <urn:p> <urn:b> .\r\n<urn:a> <urn:p> .\n"
    with pytest.raises(RDFSyntaxError, match="N-Triples line 4"):
        parse_ntriples(text)
    for bad in (
        "<a> <urn:p> <urn:b> .",
        '<urn:a> <urn:p> "x"@abcdefghij .',
        '<urn:a> <urn:p> "\\uD800" .',
        '<urn:a> <urn:p> "x"^^<http://www.w3.org/1999/02/22-rdf-syntax-ns#langString> .',
        "<urn:a> <urn:p> <urn:b> . <urn:a> <urn:p> <urn:c> .",
    ):
        with pytest.raises(RDFSyntaxError, match="line 2"):
            parse_ntriples("<urn:ok> <urn:p> <urn:o> .\n" + bad + "\n")


def test_rdf_12_terms_are_refused_with_their_line() -> None:
    for term in ("<<( <urn:a> <urn:b> <urn:c> )>>", '"x"@en--ltr'):
        with pytest.raises(RDFSyntaxError, match="line 3.*RDF 1.2"):
            parse_ntriples(f"<urn:a> <urn:p> <urn:b> .\n# c\n<urn:a> <urn:p> {term} .\n")


def test_surrogates_in_text_are_a_syntax_error() -> None:
    with pytest.raises(RDFSyntaxError, match="Unicode"):
        parse_ntriples('<urn:a> <urn:p> "\ud800" .\n')


def test_risky_numbers_carry_their_line_or_triple_position() -> None:
    big = f'"9223372036854775808"^^<{XSD}integer>'
    long_decimal = f'"0.12345678901234567890123"^^<{XSD}decimal>'
    text = f'# c\n\n<urn:a> <urn:p> {big} .\n   \n<urn:a> <urn:p> "1" .\n<urn:a> <urn:q> {long_decimal} .\n'
    batch = parse_ntriples(text)
    assert [(r.line, r.lexical) for r in batch.risky] == [(3, "9223372036854775808"), (6, "0.12345678901234567890123")]
    ttl = parse_rdf(f"@prefix ex: <urn:x:> .\nex:a ex:p 1 , {big} .\n", "Turtle")
    assert [(r.line, r.datatype) for r in ttl.risky] == [(2, f"{XSD}integer")]


def test_blank_nodes_are_relabelled_and_kept_in_one_chunk() -> None:
    text = "".join(f"<urn:s{i}> <urn:p> <urn:o{i}> .\n" for i in range(5))
    text += '_:x <urn:p> _:y .\n<urn:s> <urn:p> _:y .\n_:z <urn:p> "1" .\n'
    batch = parse_ntriples(text)
    assert batch.triples[5:] == ["_:b0 <urn:p> _:b1", "<urn:s> <urn:p> _:b1", '_:b2 <urn:p> "1"']
    parts = list(chunks(batch, max_triples=2, max_chars=10_000))
    with_bnodes = [p for p, has in parts if has]
    assert ["_:b0 <urn:p> _:b1", "<urn:s> <urn:p> _:b1"] in with_bnodes
    assert sum(len(p) for p, _ in parts) == 8


def test_turtle_is_read_by_pyoxigraph() -> None:
    batch = parse_rdf(b'@prefix ex: <urn:x:> .\nex:a ex:p ( ex:b ) ; ex:q [ ex:r "s" ] .\n', "Turtle")
    assert len(batch) == 5 and all(batch.bnodes) and {i for ids in batch.bnodes for i in ids} == {0, 1}
    with pytest.raises(RDFSyntaxError, match="Turtle line 2"):
        parse_rdf("@prefix ex: <urn:x:> .\nex:a ex:p .\n", "Turtle")


_TERM_TEXT = st.text(max_size=30)
_LANG = st.from_regex(r"[a-z]{2,3}(-[A-Za-z]{2}|-[0-9]{3})?", fullmatch=True)


@st.composite
def _triple(draw: st.DrawFn) -> ox.Triple:
    s = ox.NamedNode(f"urn:s:{draw(st.integers(0, 5))}")
    kind = draw(st.sampled_from(["iri", "plain", "lang", "typed"]))
    value = draw(_TERM_TEXT)
    if kind == "iri":
        o: ox.NamedNode | ox.Literal = ox.NamedNode(f"urn:o:{draw(st.integers(0, 99))}")
    elif kind == "plain":
        o = ox.Literal(value)
    elif kind == "lang":
        o = ox.Literal(value, language=draw(_LANG))
    else:
        o = ox.Literal(value, datatype=ox.NamedNode(draw(st.sampled_from([f"{XSD}integer", "urn:t:x"]))))
    return ox.Triple(s, ox.NamedNode("urn:p"), o)


@settings(max_examples=60, deadline=None)
@given(st.lists(_triple(), max_size=12))
def test_the_sparql_text_means_the_triples_read(triples: list[ox.Triple]) -> None:
    """Any N-Triples pyoxigraph writes comes back, term for term, from the SPARQL text written for it."""
    text = ox.serialize(triples, format=ox.RdfFormat.N_TRIPLES) or b""
    batch = parse_ntriples(text.decode("utf-8"))
    again = list(ox.parse("".join(t + " .\n" for t in batch.triples).encode(), format=ox.RdfFormat.N_TRIPLES))
    assert [q.triple for q in again] == triples
