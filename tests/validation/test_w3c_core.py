"""The W3C SHACL Core test suite (tests/data/shacl-w3c, 98 tests) as a test: pyshacl as the reference, and the
harness's comparison itself (it must fail a report that differs from the expected one in any compared part)."""

from __future__ import annotations

from collections.abc import Callable

import pytest
from rdflib import RDF, BNode, Graph, Literal, URIRef
from rdflib.namespace import SH
from rdflib.term import Node

from tests.shacl_w3c.suite import Case, Outcome, cases, compare_reports, pyshacl_validator, run

CASES = cases()
BY_NAME = {c.name: c for c in CASES}

PYSHACL_DEPARTS = {"property/uniqueLang-002"}
"""Tests pyshacl 0.40 fails: rdflib reads ``"1"^^xsd:boolean`` as ``true``, so the constraint the test expects to
be inactive is active (any validator reading the files through rdflib does the same)."""


def test_the_suite_is_read_whole() -> None:
    assert len(CASES) == 98
    assert len(BY_NAME) == 98
    assert {c.name.split("/")[0] for c in CASES} == {
        "complex",
        "misc",
        "node",
        "path",
        "property",
        "targets",
        "validation-reports",
    }
    assert sum(c.conforms for c in CASES) == 4


@pytest.fixture(scope="module")
def pyshacl_outcomes() -> dict[str, Outcome]:
    return {c.name: run(c, pyshacl_validator) for c in CASES}


def test_pyshacl_passes_all_but_the_known_departure(pyshacl_outcomes: dict[str, Outcome]) -> None:
    failed = {name for name, o in pyshacl_outcomes.items() if not o.passed}
    assert failed == PYSHACL_DEPARTS, "\n".join(pyshacl_outcomes[n].explain() for n in sorted(failed))


# --- the comparison ------------------------------------------------------------------------------------------


def _expected_copy(case: Case, edit: Callable[[Graph, Node], None] | None = None) -> Graph:
    """The case's expected report as a report graph of its own: results and paths as fresh blank nodes (focus
    nodes, values and shapes kept as they are), then changed by ``edit``."""
    m = case.manifest
    g = Graph()
    report = BNode()
    g.add((report, RDF.type, SH.ValidationReport))
    g.add((report, SH.conforms, m.value(case.report, SH.conforms)))
    kept = (SH.focusNode, SH.value, SH.sourceShape)

    def copy(node: Node) -> Node:
        if not isinstance(node, BNode):
            return node
        fresh = BNode()
        for p, o in m.predicate_objects(node):
            g.add((fresh, p, o if p in kept else copy(o)))
        return fresh

    for r in m.objects(case.report, SH.result):
        g.add((report, SH.result, copy(r)))
    if edit is not None:
        edit(g, report)
    return g


def _check(case: Case, report: Graph) -> Outcome:
    return run(case, lambda data, shapes: report)


@pytest.mark.parametrize(
    "name", ["node/class-001", "path/path-complex-002", "property/nodeKind-001", "misc/message-001"]
)
def test_the_expected_report_itself_passes(name: str) -> None:
    assert _check(BY_NAME[name], _expected_copy(BY_NAME[name])).passed


def _first_result(g: Graph, report: Node) -> Node:
    return sorted(g.objects(report, SH.result), key=lambda r: str(g.value(r, SH.focusNode)))[0]


def _drop_a_result(g: Graph, report: Node) -> None:
    g.remove((report, SH.result, _first_result(g, report)))


def _repeat_a_result(g: Graph, report: Node) -> None:
    first, twin = _first_result(g, report), BNode()
    for p, o in list(g.predicate_objects(first)):
        g.add((twin, p, o))
    g.add((report, SH.result, twin))


def _flip_conforms(g: Graph, report: Node) -> None:
    g.set((report, SH.conforms, Literal(True)))


def _nest_a_result(g: Graph, report: Node) -> None:
    """A result moved under another one's sh:detail is no result of the report."""
    results = sorted(g.objects(report, SH.result), key=str)
    g.remove((report, SH.result, results[0]))
    g.add((results[1], SH.detail, results[0]))


def _edit(p: URIRef, value: Callable[[Graph, Node], Node]) -> Callable[[Graph, Node], None]:
    def edit(g: Graph, report: Node) -> None:
        first = _first_result(g, report)
        g.set((first, p, value(g, first)))

    return edit


@pytest.mark.parametrize(
    ("name", "edit"),
    [
        ("node/class-001", _drop_a_result),
        ("node/class-001", _repeat_a_result),
        ("node/class-001", _flip_conforms),
        ("node/class-001", _nest_a_result),
        ("node/class-001", _edit(SH.value, lambda g, r: URIRef("urn:x:other"))),
        ("node/class-001", _edit(SH.resultSeverity, lambda g, r: SH.Warning)),
        ("node/class-001", _edit(SH.sourceConstraintComponent, lambda g, r: SH.DatatypeConstraintComponent)),
        ("node/class-001", _edit(SH.resultPath, lambda g, r: RDF.type)),  # a path where the expected has none
        ("misc/message-001", _edit(SH.resultMessage, lambda g, r: Literal("Another message", lang="en"))),
    ],
)
def test_a_report_that_differs_fails(name: str, edit: Callable[[Graph, Node], None]) -> None:
    case = BY_NAME[name]
    assert not _check(case, _expected_copy(case, edit)).passed


def test_blank_node_shapes_must_be_the_shapes_themselves() -> None:
    """property/nodeKind-001 names blank property shapes; another blank shape of the same graph is wrong, even
    when the counts would allow a one-to-one renaming."""
    case = BY_NAME["property/nodeKind-001"]
    shapes = sorted({s for s in case.manifest.objects(None, SH.sourceShape) if isinstance(s, BNode)}, key=str)

    def swap(g: Graph, report: Node) -> None:
        for r in list(g.objects(report, SH.result)):
            shape = g.value(r, SH.sourceShape)
            if shape in shapes[:2]:
                g.set((r, SH.sourceShape, shapes[1] if shape == shapes[0] else shapes[0]))

    assert not _check(case, _expected_copy(case, swap)).passed


def test_paths_compare_as_the_paths_they_denote() -> None:
    """A sequence path with its steps swapped differs; the same path written with other blank nodes does not."""
    case = BY_NAME["path/path-sequence-001"]

    def swap_steps(g: Graph, report: Node) -> None:
        for r in g.objects(report, SH.result):
            head = g.value(r, SH.resultPath)
            second = g.value(head, RDF.rest)
            a, b = g.value(head, RDF.first), g.value(second, RDF.first)
            assert a is not None and b is not None
            g.set((head, RDF.first, b))
            g.set((second, RDF.first, a))

    assert _check(case, _expected_copy(case)).passed
    assert not _check(case, _expected_copy(case, swap_steps)).passed


def test_a_message_counts_only_where_the_expected_report_has_it() -> None:
    case = BY_NAME["node/class-001"]

    def add_messages(g: Graph, report: Node) -> None:
        for r in g.objects(report, SH.result):
            g.add((r, SH.resultMessage, Literal("any text")))

    assert _check(case, _expected_copy(case, add_messages)).passed


def test_a_validator_that_raises_fails_its_case() -> None:
    def broken(data: Graph, shapes: Graph) -> Graph:
        raise RuntimeError("boom")

    outcome = run(BY_NAME["node/class-001"], broken)
    assert not outcome.passed and outcome.error == "RuntimeError: boom"


def test_compare_reports_uses_isomorphism_for_nodes_of_neither_graph() -> None:
    """Two reports whose focus nodes are blank nodes of nobody's graph match by a consistent renaming only."""

    def report(focus: list[BNode]) -> tuple[Graph, Node]:
        g, rep = Graph(), BNode()
        g.add((rep, RDF.type, SH.ValidationReport))
        g.add((rep, SH.conforms, Literal(False)))
        for f in focus:
            r = BNode()
            g.add((rep, SH.result, r))
            g.add((r, SH.focusNode, f))
            g.add((r, SH.value, f))
        return g, rep

    a, b, c = BNode(), BNode(), BNode()
    expected, node = report([a, b])
    same, _ = report([c, BNode()])
    crossed = Graph()
    rep = BNode()
    crossed.add((rep, RDF.type, SH.ValidationReport))
    crossed.add((rep, SH.conforms, Literal(False)))
    for f, v in ((c, a), (a, c)):  # focus and value no longer the same node
        r = BNode()
        crossed.add((rep, SH.result, r))
        crossed.add((r, SH.focusNode, f))
        crossed.add((r, SH.value, v))
    assert compare_reports(expected, node, same).passed
    assert not compare_reports(expected, node, crossed).passed


# --- the project's validator -----------------------------------------------------------------------------------

RAN_COMPILED = 98
"""Suite tests whose shapes the compiled checker takes (``why_not_compiled`` is None): measured, so it can only
go up."""


def _ours(data: Graph, shapes: Graph) -> Graph:
    from ont_platform.shacl import validate

    return validate(data, shapes)[1]


@pytest.fixture(scope="module")
def compiled_cases() -> list[Case]:
    from ont_platform.shacl import why_not_compiled

    return [c for c in CASES if why_not_compiled(c.shapes, c.data) is None]


def test_the_compiled_checker_takes_the_suite(compiled_cases: list[Case]) -> None:
    assert len(compiled_cases) == RAN_COMPILED


def test_ont_platform_shacl_passes_what_pyshacl_passes(
    pyshacl_outcomes: dict[str, Outcome], compiled_cases: list[Case], monkeypatch: pytest.MonkeyPatch
) -> None:
    """Every test through :func:`ont_platform.shacl.validate`; those that compile must not reach pyshacl."""
    from ont_platform import shacl

    outcomes = {c.name: run(c, _ours) for c in CASES if c.name not in {d.name for d in compiled_cases}}

    def no_pyshacl(*args: object, **kwargs: object) -> tuple[bool, Graph, str]:
        raise AssertionError("pyshacl ran for shapes that compile")

    monkeypatch.setattr(shacl, "_pyshacl", no_pyshacl)
    outcomes |= {c.name: run(c, _ours) for c in compiled_cases}
    failed = {name for name, o in outcomes.items() if not o.passed}
    assert failed <= {name for name, o in pyshacl_outcomes.items() if not o.passed}, "\n".join(
        outcomes[n].explain() for n in sorted(failed)
    )
    assert failed == PYSHACL_DEPARTS  # the same departure, for the same reason (rdflib reads the shapes file)
