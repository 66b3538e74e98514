"""The W3C SHACL Core test suite (``tests/data/shacl-w3c/core``) as data, and reports compared the way the suite
defines it.

:func:`cases` reads the manifests (``mf:include``, ``mf:entries``; every entry an ``sht:Validate`` with an
``mf:action`` naming ``sht:dataGraph`` and ``sht:shapesGraph`` and an ``mf:result`` holding the expected
``sh:ValidationReport``). :func:`run` validates one case with any validator and compares its report with the
expected one as https://w3c.github.io/data-shapes/data-shapes-test-suite/ says ("full compliance"):

- the value of ``sh:conforms`` is equal;
- the results are equal as a multiset up to blank nodes (two identical results expected means two reported):
  each is compared on ``sh:focusNode``, ``sh:resultPath``, ``sh:value``, ``sh:sourceShape``,
  ``sh:sourceConstraint``, ``sh:sourceConstraintComponent``, ``sh:resultSeverity``; results nested through
  ``sh:detail`` are not results of the report; a reported ``sh:resultMessage`` counts only when the expected
  report holds that message (so a test can check that ``sh:message`` is copied), otherwise messages are ignored;
- a path is compared as the path it denotes: its blank-node structure decoded into a term of nested tuples, so
  shared or cloned structures compare equal and any stray triple on a path node makes it differ;
- any other blank node of the expected report that is a node of the case's data or shapes graph (a blank
  property shape named by ``sh:sourceShape``, a blank focus node) must be that very node; one that occurs in
  neither is matched as graph isomorphism does: one-to-one and the same throughout the report.

:func:`compare_reports` applies the same comparison to two reports (the differential tests use it on pyshacl's
report and the compiled checker's).
"""

from __future__ import annotations

import warnings
from collections.abc import Callable, Iterable, Iterator
from dataclasses import dataclass, field
from functools import cache
from pathlib import Path

from rdflib import RDF, RDFS, BNode, Graph, Literal, Namespace, URIRef
from rdflib.collection import Collection
from rdflib.namespace import SH
from rdflib.term import Node

ROOT = Path(__file__).resolve().parents[1] / "data" / "shacl-w3c" / "core"
MF = Namespace("http://www.w3.org/2001/sw/DataAccess/tests/test-manifest#")
SHT = Namespace("http://www.w3.org/ns/shacl-test#")

FIELDS = (
    SH.focusNode,
    SH.resultPath,
    SH.value,
    SH.sourceShape,
    SH.sourceConstraint,
    SH.sourceConstraintComponent,
    SH.resultSeverity,
)
"""The predicates of a result the comparison reads (besides ``sh:resultMessage``)."""

Validator = Callable[[Graph, Graph], Graph]
"""A validator as the harness calls it: (data graph, shapes graph) → the validation report graph."""


@dataclass(frozen=True)
class Case:
    """One ``sht:Validate`` entry of the suite."""

    name: str
    """The test's IRI relative to ``core/``, without the ``.ttl`` of its manifest: ``node/class-001``."""
    label: str
    data: Graph = field(repr=False)
    shapes: Graph = field(repr=False)
    manifest: Graph = field(repr=False)
    report: Node = field(repr=False)
    """The expected report: the ``mf:result`` of the entry, a node of :attr:`manifest`."""

    @property
    def shared(self) -> set[Node]:
        """The blank nodes of the data and shapes graphs: an expected report that names one means that node."""
        return _shared_blank_nodes(self.data, self.shapes)

    @property
    def conforms(self) -> bool:
        value = self.manifest.value(self.report, SH.conforms)
        return isinstance(value, Literal) and value.value is True


@cache
def _parse(path: Path) -> Graph:
    """A Turtle file as a graph, with relative IRIs resolved against its location (so ``<>`` is the file).

    One graph per file: a case whose data or shapes graph is its manifest (``<>``) gets the manifest graph
    itself, so the blank nodes the expected report names are the data's and the shapes' own."""
    with warnings.catch_warnings():  # rdflib warns about the ill-typed literals some tests hold on purpose
        warnings.simplefilter("ignore")
        return Graph().parse(path, format="turtle", publicID=path.as_uri())


def _file(iri: Node) -> Path:
    if not isinstance(iri, URIRef) or not str(iri).startswith("file://"):
        raise ValueError(f"not a local file: {iri!r}")
    return Path(str(iri)[len("file://") :])


def _manifests(path: Path) -> Iterator[Path]:
    g = _parse(path)
    yield path
    for manifest in g.subjects(RDF.type, MF.Manifest):
        for included in sorted(g.objects(manifest, MF.include), key=str):
            yield from _manifests(_file(included))


def cases(root: Path = ROOT) -> list[Case]:
    """Every entry of the manifests reached from ``root/manifest.ttl``, in manifest order."""
    out: list[Case] = []
    for path in _manifests(root / "manifest.ttl"):
        g = _parse(path)
        for manifest in g.subjects(RDF.type, MF.Manifest):
            entries = g.value(manifest, MF.entries)
            for entry in Collection(g, entries) if entries is not None else []:
                if (entry, RDF.type, SHT.Validate) not in g:
                    raise ValueError(f"{entry}: only sht:Validate entries are known")
                action, result = g.value(entry, MF.action), g.value(entry, MF.result)
                data, shapes = g.value(action, SHT.dataGraph), g.value(action, SHT.shapesGraph)
                if action is None or result is None or data is None or shapes is None:
                    raise ValueError(f"{entry}: an entry without action, data, shapes or result")
                name = str(entry)[len(root.as_uri()) + 1 :].replace(".ttl", "")
                out.append(
                    Case(
                        name=name,
                        label=str(g.value(entry, RDFS.label)),
                        data=_parse(_file(data)),
                        shapes=_parse(_file(shapes)),
                        manifest=g,
                        report=result,
                    )
                )
    return out


# --- reading a report ----------------------------------------------------------------------------------------


PathTerm = Node | tuple[object, ...]
"""A decoded property path: an IRI, or ``("seq" | "alt", (paths...))``, ``("inverse" | "*" | "+" | "?", path)``,
or ``("malformed", node)`` for a structure that is no SHACL path (it then equals only itself)."""

_PATH_KINDS = {
    SH.inversePath: "inverse",
    SH.zeroOrMorePath: "*",
    SH.oneOrMorePath: "+",
    SH.zeroOrOnePath: "?",
}


def decode_path(g: Graph, node: Node, seen: frozenset[Node] = frozenset()) -> PathTerm:
    """The path ``node`` denotes in ``g``, as a term that compares structurally."""
    if not isinstance(node, BNode):
        return node
    if node in seen:
        return ("malformed", node)
    seen = seen | {node}
    predicates = set(g.predicates(node, None))
    if (node, RDF.first, None) in g:
        if predicates != {RDF.first, RDF.rest}:
            return ("malformed", node)
        try:
            members = list(Collection(g, node))
        except Exception:  # a broken list
            return ("malformed", node)
        return ("seq", tuple(decode_path(g, m, seen) for m in members))
    if len(predicates) != 1 or len(list(g.objects(node, None))) != 1:
        return ("malformed", node)
    (p,) = predicates
    value = g.value(node, p)
    assert value is not None
    if p == SH.alternativePath:
        try:
            members = list(Collection(g, value))
        except Exception:
            return ("malformed", node)
        return ("alt", tuple(decode_path(g, m, seen) for m in members))
    if p in _PATH_KINDS:
        return (_PATH_KINDS[p], decode_path(g, value, seen))
    return ("malformed", node)


@dataclass(frozen=True)
class Result:
    """One validation result as the comparison sees it: each field's values (a set: a result may repeat one)."""

    fields: tuple[tuple[str, frozenset[PathTerm]], ...]
    messages: frozenset[Node]

    def get(self, name: str) -> frozenset[PathTerm]:
        return dict(self.fields).get(name, frozenset())

    def describe(self) -> str:
        parts = [f"{name}={'|'.join(sorted(_show(v) for v in values))}" for name, values in self.fields if values]
        if self.messages:
            parts.append(f"message={'|'.join(sorted(str(m) for m in self.messages))}")
        return "{" + ", ".join(parts) + "}"


def _show(term: PathTerm) -> str:
    if isinstance(term, tuple):
        return f"{term[0]}({', '.join(_show(t) for t in _flat(term[1]))})"
    if isinstance(term, BNode):
        return f"_:{term}"
    return term.n3() if isinstance(term, (URIRef, Literal)) else str(term)


def _flat(x: object) -> list[PathTerm]:
    return list(x) if isinstance(x, tuple) else [x]  # type: ignore[list-item]


def report_node(g: Graph) -> Node:
    """The one ``sh:ValidationReport`` of a report graph."""
    reports = set(g.subjects(RDF.type, SH.ValidationReport))
    if len(reports) != 1:
        raise ValueError(f"{len(reports)} sh:ValidationReport nodes in the report")
    return reports.pop()


def conforms(g: Graph, report: Node) -> bool | None:
    values = list(g.objects(report, SH.conforms))
    if len(values) != 1 or not isinstance(values[0], Literal) or not isinstance(values[0].value, bool):
        return None
    return values[0].value


def results(g: Graph, report: Node, keep_messages: Iterable[Node] = ()) -> list[Result]:
    """The top-level results of ``report`` (not those nested through ``sh:detail``); of their messages only those
    in ``keep_messages``."""
    kept = set(keep_messages)
    out = []
    for r in g.objects(report, SH.result):
        fields = []
        for p in FIELDS:
            name = str(p)[len(str(SH)) :]
            values: frozenset[PathTerm] = frozenset(
                decode_path(g, v) if p == SH.resultPath else v for v in g.objects(r, p)
            )
            fields.append((name, values))
        messages = frozenset(m for m in g.objects(r, SH.resultMessage) if m in kept)
        out.append(Result(tuple(fields), messages))
    return out


# --- comparing ----------------------------------------------------------------------------------------------


def _match_term(expected: PathTerm, actual: PathTerm, shared: set[Node], mapping: dict[Node, Node]) -> bool:
    """Whether two terms are equal, extending ``mapping`` (expected blank node → actual one) where they may
    still be matched. Blank nodes in ``shared`` (nodes of the data or shapes graph) must be identical."""
    if isinstance(expected, tuple) or isinstance(actual, tuple):
        if not (isinstance(expected, tuple) and isinstance(actual, tuple)) or len(expected) != len(actual):
            return False
        if expected[0] != actual[0]:
            return False
        if expected[0] == "malformed":
            return expected == actual
        e_parts, a_parts = _flat(expected[1]), _flat(actual[1])
        if isinstance(expected[1], tuple) != isinstance(actual[1], tuple) or len(e_parts) != len(a_parts):
            return False
        return all(_match_term(e, a, shared, mapping) for e, a in zip(e_parts, a_parts, strict=True))
    if not isinstance(expected, BNode):
        return expected == actual
    if not isinstance(actual, BNode):
        return False
    if expected in shared or actual in shared:
        return expected == actual
    if expected in mapping:
        return mapping[expected] == actual
    if actual in mapping.values():
        return False
    mapping[expected] = actual
    return True


def _match_values(
    expected: frozenset[PathTerm], actual: frozenset[PathTerm], shared: set[Node], mapping: dict[Node, Node]
) -> bool:
    if len(expected) != len(actual):
        return False
    if len(expected) == 0:
        return True
    if len(expected) == 1:
        return _match_term(next(iter(expected)), next(iter(actual)), shared, mapping)
    # several values of one field: try the pairings (small in practice)
    left = sorted(expected, key=_show)
    return _pair(left, list(actual), shared, mapping)


def _pair(left: list[PathTerm], right: list[PathTerm], shared: set[Node], mapping: dict[Node, Node]) -> bool:
    if not left:
        return True
    head = left[0]
    for i, candidate in enumerate(right):
        trial = dict(mapping)
        if _match_term(head, candidate, shared, trial) and _pair(left[1:], right[:i] + right[i + 1 :], shared, trial):
            mapping.clear()
            mapping.update(trial)
            return True
    return False


def _match_result(expected: Result, actual: Result, shared: set[Node], mapping: dict[Node, Node]) -> bool:
    if expected.messages != actual.messages:
        return False
    trial = dict(mapping)
    for (_, e_values), (_, a_values) in zip(expected.fields, actual.fields, strict=True):
        if not _match_values(e_values, a_values, shared, trial):
            return False
    mapping.clear()
    mapping.update(trial)
    return True


def match_results(expected: list[Result], actual: list[Result], shared: set[Node]) -> bool:
    """Whether the two multisets of results are equal up to blank nodes (one consistent one-to-one mapping)."""
    if len(expected) != len(actual):
        return False
    # results without a free blank node match by equality alone: take those out first
    order = sorted(range(len(expected)), key=lambda i: expected[i].describe())
    return _assign([expected[i] for i in order], actual, shared, {})


def _assign(expected: list[Result], actual: list[Result], shared: set[Node], mapping: dict[Node, Node]) -> bool:
    if not expected:
        return True
    head, rest = expected[0], expected[1:]
    tried: set[Result] = set()
    for i, candidate in enumerate(actual):
        if candidate in tried:  # an identical candidate failed already
            continue
        trial = dict(mapping)
        if _match_result(head, candidate, shared, trial) and _assign(rest, actual[:i] + actual[i + 1 :], shared, trial):
            return True
        tried.add(candidate)
    return False


@dataclass(frozen=True)
class Outcome:
    """How a validator did on one case."""

    case: str
    passed: bool
    conforms_agrees: bool
    missing: tuple[str, ...] = ()
    """Expected results with no reported counterpart (when the multisets differ, the ones not equal to any)."""
    unexpected: tuple[str, ...] = ()
    error: str | None = None

    def explain(self) -> str:
        if self.passed:
            return f"{self.case}: passed"
        lines = [f"{self.case}: {'conforms agrees' if self.conforms_agrees else 'conforms differs'}"]
        if self.error:
            lines.append(f"  error: {self.error}")
        lines += [f"  missing    {m}" for m in self.missing]
        lines += [f"  unexpected {u}" for u in self.unexpected]
        return "\n".join(lines)


def _shared_blank_nodes(*graphs: Graph) -> set[Node]:
    out: set[Node] = set()
    for g in graphs:
        for s, _, o in g:
            if isinstance(s, BNode):
                out.add(s)
            if isinstance(o, BNode):
                out.add(o)
    return out


def compare_reports(
    expected: Graph,
    expected_report: Node,
    actual: Graph,
    *,
    shared: Iterable[Node] = (),
    name: str = "",
    messages: bool = True,
) -> Outcome:
    """Compare ``actual`` (a report graph) with the report ``expected_report`` of ``expected``. ``shared``: blank
    nodes that both sides name as themselves (those of the data and shapes graphs). With ``messages`` False no
    message is compared; otherwise the suite's rule (a reported message counts if the expected report has it)."""
    try:
        actual_report = report_node(actual)
    except ValueError as exc:
        return Outcome(name, False, False, error=str(exc))
    want_conforms = conforms(expected, expected_report)
    got_conforms = conforms(actual, actual_report)
    expected_results = results(expected, expected_report, expected.objects(None, SH.resultMessage))
    kept = {m for r in expected_results for m in r.messages} if messages else set()
    if not messages:
        expected_results = [Result(r.fields, frozenset()) for r in expected_results]
    actual_results = results(actual, actual_report, kept)
    same = match_results(expected_results, actual_results, set(shared))
    conforms_agrees = want_conforms is not None and want_conforms == got_conforms
    if same and conforms_agrees:
        return Outcome(name, True, True)
    e_text = sorted(r.describe() for r in expected_results)
    a_text = sorted(r.describe() for r in actual_results)
    missing, unexpected = list(e_text), []
    for t in a_text:
        if t in missing:
            missing.remove(t)
        else:
            unexpected.append(t)
    if same:
        missing, unexpected = [], []
    elif not missing and not unexpected:  # equal texts, unequal blank-node mappings
        missing = [f"(blank nodes differ) {t}" for t in e_text]
    return Outcome(name, False, conforms_agrees, tuple(missing), tuple(unexpected))


def run(case: Case, validate: Validator) -> Outcome:
    """Validate ``case`` with ``validate`` and compare the report with the expected one."""
    try:
        report = validate(case.data, case.shapes)
    except Exception as exc:  # a validator that fails on a case fails that case, not the whole run
        return Outcome(case.name, False, False, error=f"{type(exc).__name__}: {exc}")
    return compare_reports(case.manifest, case.report, report, shared=case.shared, name=case.name)


def run_all(validate: Validator, selected: Iterable[Case] | None = None) -> list[Outcome]:
    return [run(case, validate) for case in (selected if selected is not None else cases())]


# --- validators ----------------------------------------------------------------------------------------------


def _copy(g: Graph) -> Graph:
    out = Graph()
    for t in g:
        out.add(t)
    return out


def pyshacl_validator(data: Graph, shapes: Graph) -> Graph:
    """pyshacl as the reference: SHACL Core, no inference, every severity counted. It is given copies (the same
    blank nodes): pyshacl adds triples of its own to the shapes graph it is handed."""
    from pyshacl import validate

    shapes_copy = _copy(shapes)
    with warnings.catch_warnings():
        warnings.simplefilter("ignore")
        _, report, _ = validate(
            shapes_copy if data is shapes else _copy(data), shacl_graph=shapes_copy, inference="none", advanced=False
        )
    assert isinstance(report, Graph)
    return report


__all__ = [
    "ROOT",
    "Case",
    "Outcome",
    "Result",
    "Validator",
    "cases",
    "compare_reports",
    "decode_path",
    "match_results",
    "pyshacl_validator",
    "report_node",
    "results",
    "run",
    "run_all",
]
