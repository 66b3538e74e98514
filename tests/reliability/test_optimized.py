"""Parser errors become the project's own errors also under ``python -O``.

rdflib's Turtle parser reports some malformed input with an ``assert`` (an AssertionError normally, nothing at all
under ``-O``, where the parser goes on with whatever state it was in). The translation at the store boundary must
not depend on assertions: this runs every malformed input through each embedded backend in a child started with
``-O`` and requires an :class:`OntError` subclass and an unchanged store each time.
"""

from __future__ import annotations

import json
import random
import subprocess
import sys
from pathlib import Path

ROOT = Path(__file__).resolve().parents[2]
MUST_REFUSE = 8
"""The first hand-picked cases, which every backend must refuse."""

VALID_TURTLE = (
    "@prefix ex: <http://example.org/> .\n"
    'ex:a ex:p "one" ; ex:q ex:b , ex:c .\n'
    'ex:b ex:p """multi\nline""" .\n'
    "ex:c ex:p ( ex:d ex:e ) .\n"
    '_:x ex:p "2"^^<http://www.w3.org/2001/XMLSchema#integer> .\n'
)


def _mutants(seed: int, n: int) -> list[tuple[str, str]]:
    """Malformed documents: hand-picked breakages plus seeded byte-level mutations of a valid Turtle text."""
    cases = [
        ("turtle", "@prefix ex: <http://example.org/> .\nex:a ex:p ( ex:b ."),
        ("turtle", "@prefix ex <http://example.org/> .\nex:a ex:p ex:b ."),
        ("turtle", 'ex:a ex:p "unterminated .'),
        ("turtle", "<http://a> <http://p> [ <http://q> ."),
        ("turtle", "@prefix ex: <http://example.o}rg/> .\nex:a ex:p ex:d ."),
        ("ntriples", "<http://a> <http://p> <http://b>\n"),
        ("ntriples", '<http://a> <http://p> "x"^^<bad iri> .\n'),
        ("json-ld", '{"@id": "http://a", "http://p": [}'),
        # read leniently by rdflib (and its JSON-LD parser serves both backends): accepted or refused, never a
        # foreign exception
        ("turtle", "@base <rel> . <a> <b> <c> ."),
        ("json-ld", '{"@context": {"@vocab": 5}, "@id": "http://a"}'),
        ("json-ld", '[{"@id": "http://a", "http://p": {"@value": "x", "@type": "@id", "@language": "ko"}}]'),
    ]
    rnd = random.Random(seed)
    text = VALID_TURTLE
    for _ in range(n):
        chars = list(text)
        for _ in range(rnd.randint(1, 4)):
            pos = rnd.randrange(len(chars))
            op = rnd.random()
            if op < 0.4:
                del chars[pos]
            elif op < 0.8:
                chars.insert(pos, rnd.choice('.;,()[]{}<>"@^_:#\\\n '))
            else:
                chars[pos] = rnd.choice('.;,()[]"<>')
        cases.append(("turtle", "".join(chars)))
    return cases


CHILD = r"""
import json, sys
from ont_platform.errors import OntError
from ont_platform.storage import RdfFormat
from ont_platform.storage.oxigraph import OxigraphStore
from ont_platform.storage.rdflib_store import RdflibStore

assert not __debug__, "this child must run under python -O"
cases = json.load(sys.stdin)
out = []
for backend in ("oxigraph", "rdflib"):
    store = OxigraphStore() if backend == "oxigraph" else RdflibStore()
    store.add_ntriples('<http://example.org/kept> <http://example.org/p> "before" .\n')
    before = store.dump()
    for fmt, text in cases:
        try:
            store.load_rdf(text.encode("utf-8"), RdfFormat.parse(fmt))
            outcome = "accepted"
        except OntError as exc:
            outcome = "OntError:" + type(exc).__name__
        except BaseException as exc:  # the defect this test looks for
            outcome = "foreign:" + type(exc).__name__ + ": " + str(exc)[:200]
        changed = store.dump() != before
        if outcome == "accepted":
            store.clear()
            store.add_ntriples('<http://example.org/kept> <http://example.org/p> "before" .\n')
        out.append([backend, fmt, outcome, changed])
print(json.dumps(out))
"""


def test_parser_errors_are_project_errors_under_python_minus_o() -> None:
    cases = _mutants(seed=20261129, n=150)
    done = subprocess.run(
        [sys.executable, "-O", "-c", CHILD],
        input=json.dumps(cases),
        capture_output=True,
        text=True,
        cwd=ROOT,
        timeout=300,
        check=False,
    )
    assert done.returncode == 0, done.stderr[-3000:]
    results = json.loads(done.stdout)
    assert len(results) == 2 * len(cases)
    foreign = [r for r in results if r[2].startswith("foreign:")]
    assert not foreign, foreign[:5]
    refused = [r for r in results if r[2].startswith("OntError:")]
    assert all(not changed for _, _, _, changed in refused), [r for r in refused if r[3]][:5]
    # the hand-picked breakages are refused by both backends, and so are most mutants
    assert all(r[2] != "accepted" for r in results[:MUST_REFUSE]) and all(
        r[2] != "accepted" for r in results[len(cases) : len(cases) + MUST_REFUSE]
    )
    assert len(refused) > len(results) // 2
