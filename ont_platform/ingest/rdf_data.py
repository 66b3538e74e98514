"""RDF data as a dataset: files of triples checked against their ontology and shapes, all or nothing, with their
own IRIs.

A dataset of the ``triples`` family is one RDF file, or a folder of them (Turtle, N-Triples, RDF/XML, JSON-LD,
and N-Quads or TriG whose quads are all in the default graph), with the ontology (and shapes) beside it or given.
Its triples are stored as they are, in the store's default graph: nothing is re-minted, so a SPARQL query
written against the data runs unchanged. Before anything is written the whole dataset is checked:

* every ``rdf:type`` names a class the ontology declares (or a class of RDF, RDFS, OWL, XSD or SKOS);
* every predicate in one of the ontology's own namespaces is a property the ontology declares (a misspelt
  property is refused; properties of other vocabularies are kept and reported as warnings: questions do not
  walk them);
* no resource is in two classes the ontology declares disjoint;
* the shapes hold, evaluated on the data together with the ontology's class and property hierarchy, so that
  ``sh:class`` of a superclass accepts an instance of a subclass (SHACL's "SHACL instance").

A problem names the file and the line where its resource is first written (N-Triples: the triple's line).
The files read are recorded on the dataset's resource (``ont:dataFile``): an answer cites them as the source
of the triples it walked. The whole dataset is held in memory while it is checked (an rdflib graph); a dataset
of millions of triples wants the table formats, which are checked as they stream.
"""

from __future__ import annotations

import re
from collections import Counter
from collections.abc import Iterator
from dataclasses import dataclass, field
from pathlib import Path
from typing import TYPE_CHECKING

from rdflib import OWL, RDF, RDFS, XSD, BNode, Graph, Literal, URIRef
from rdflib.namespace import SKOS

from ont_platform.domains import Domain
from ont_platform.domains.registry import ONTOLOGY_FILE, SHAPES_FILE
from ont_platform.errors import DatasetError, InputError, Problem
from ont_platform.ingest.builder import plain, term
from ont_platform.limits import Limits
from ont_platform.namespaces import ONT, dataset_iri
from ont_platform.storage.base import RdfFormat
from ont_platform.storage.rdf_io import parse_graph

if TYPE_CHECKING:
    from ont_platform.ontology.shacl import Violation

RDF_SUFFIXES = (".ttl", ".turtle", ".nt", ".nq", ".trig", ".jsonld", ".rdf", ".owl", ".xml")
"""The file suffixes read as RDF data."""

OPEN_VOCABULARIES = (str(RDF), str(RDFS), str(OWL), str(XSD), str(SKOS))
"""Namespaces whose classes and properties any dataset may use without its ontology declaring them."""

CHUNK_LINES = 10_000


def data_files(path: Path) -> list[Path]:
    """The RDF data files of a dataset path: the file itself, or the RDF files of a folder (sorted), leaving out
    the folder's ontology and shapes files."""
    if path.is_file():
        return [path] if path.suffix.lower() in RDF_SUFFIXES else []
    if not path.is_dir():
        return []
    return sorted(
        p
        for p in path.iterdir()
        if p.is_file() and p.suffix.lower() in RDF_SUFFIXES and p.name not in (ONTOLOGY_FILE, SHAPES_FILE)
    )


def holds_rdf(path: Path, tables: tuple[str, ...]) -> bool:
    """Whether ``path`` is RDF data: an RDF file, or a folder with RDF files and none of ``tables``."""
    if path.is_dir() and any((path / t).is_file() for t in tables):
        return False
    return bool(data_files(path))


@dataclass
class RdfDataset:
    """One RDF dataset on its way into a store (the :class:`~ont_platform.families.Dataset` protocol)."""

    path: Path
    spec: Domain
    limits: Limits
    mode: str
    counts: dict[str, int] = field(default_factory=dict)
    warnings: list[Problem] = field(default_factory=list)
    triples: int = 0
    _texts: dict[str, str] = field(default_factory=dict, repr=False)
    _graph: Graph | None = field(default=None, repr=False)

    def __post_init__(self) -> None:
        from ont_platform.ingest.datasets import ShaclReport

        self.domain = self.spec.name
        self.shacl = ShaclReport("off")

    # -- the Dataset protocol -------------------------------------------------------------------------------------

    def chunks(self, *, settle_later: bool = False) -> Iterator[bytes]:
        """The checked data and the dataset's record as N-Triples chunks; DatasetError before any chunk when a
        file does not parse or a check fails."""
        graph = self._read()
        self._check(graph)
        lines = [_line(t) for t in graph]
        lines.append(self._record())
        self.triples = len(graph)
        for i in range(0, len(lines), CHUNK_LINES):
            yield "".join(lines[i : i + CHUNK_LINES]).encode("utf-8")

    def settle(self) -> None:
        """Every check ran before the stream: nothing waits."""

    def close(self) -> None:
        """Nothing runs beside this load."""

    def origin(self, resource: str) -> tuple[str, int | None]:
        """The file and line where ``resource`` is first written (the dataset path when no file shows it)."""
        for name, text in self._texts.items():
            line = _first_line(text, resource)
            if line is not None:
                return name, line
        return str(self.path), None

    # -- reading and checking ------------------------------------------------------------------------------------

    def _read(self) -> Graph:
        files = data_files(self.path)
        if not files:
            raise InputError(f"{self.path}: no RDF data files ({', '.join(RDF_SUFFIXES)})")
        graph = Graph()
        problems: list[Problem] = []
        for file in files:
            size = file.stat().st_size
            if size > self.limits.max_file_bytes:
                problems.append(
                    Problem(file.name, None, f"{size} bytes, over the limit of {self.limits.max_file_bytes}")
                )
                continue
            data = file.read_bytes()
            before = len(graph)
            try:
                parse_graph(data, RdfFormat.parse(file.suffix), graph, base=file.resolve().as_uri())
            except InputError as exc:
                problems.append(Problem(file.name, _error_line(str(exc)), str(exc)))
                continue
            self._texts[file.name] = data.decode("utf-8", errors="replace")
            self.counts[file.name] = len(graph) - before
        if problems:
            raise DatasetError(problems[: self.limits.max_problems])
        self._graph = graph
        return graph

    def _check(self, graph: Graph) -> None:
        from ont_platform.ingest.datasets import ShaclReport

        onto = self.spec.ontology
        declared_classes = set(onto.graph.subjects(RDF.type, OWL.Class)) | set(
            onto.graph.subjects(RDF.type, RDFS.Class)
        )
        declared_props = (
            {
                p
                for kind in (OWL.ObjectProperty, OWL.DatatypeProperty, OWL.AnnotationProperty, RDF.Property)
                for p in onto.graph.subjects(RDF.type, kind)
            }
            | set(onto.graph.subjects(RDFS.subPropertyOf))
            | set(onto.graph.subjects(RDFS.domain))
        )
        own = _own_namespaces(onto.graph, declared_classes | declared_props)
        problems: list[Problem] = []
        for s, cls in graph.subject_objects(RDF.type):
            if isinstance(cls, URIRef) and cls not in declared_classes and not _open(cls):
                problems.append(self._problem(s, f"{_short(cls)} is not a class of the {self.domain} ontology"))
        foreign: Counter[URIRef] = Counter()
        for p in set(graph.predicates()):
            if not isinstance(p, URIRef) or p in declared_props or _open(p):
                continue
            if any(str(p).startswith(ns) for ns in own):
                s = next(iter(graph.subjects(p, None)))
                problems.append(self._problem(s, f"{_short(p)} is not a property of the {self.domain} ontology"))
            else:
                foreign[p] += 1
        for p in sorted(foreign):
            self.warnings.append(
                Problem(str(self.path), None, f"{_short(p)} is not in the ontology: kept, but questions do not walk it")
            )
        from ont_platform.ingest.imports import disjoint_problems  # pyshacl's helpers: loaded when a load checks

        resources = {n for n in graph.all_nodes() if isinstance(n, URIRef)}
        for problem in disjoint_problems(onto.graph, graph, resources, str(self.path), onto.superclasses):
            problems.append(problem)
        if problems:
            raise DatasetError(problems[: self.limits.max_problems])
        if self.mode == "off":
            return
        violations = self._shacl(graph)
        self.shacl = ShaclReport("full", resources=len(set(graph.subjects())), triples=len(graph))
        if violations:
            raise DatasetError(
                [
                    self._problem(URIRef(v.focus), f"{v.message}{_path(v.path)}")
                    for v in violations[: self.limits.max_problems]
                ]
            )

    def _shacl(self, graph: Graph) -> list[Violation]:
        """The shapes' violations on the data with the ontology's hierarchy beside it."""
        from ont_platform.ontology.shacl import check
        from ont_platform.validation.shapes import Triples, compiled

        hierarchy = [
            (s, p, o)
            for p in (RDFS.subClassOf, RDFS.subPropertyOf)
            for s, o in self.spec.ontology.graph.subject_objects(p)
        ]
        shapes = compiled(self.spec)
        if shapes is not None:
            return list(shapes.violations(Triples([*graph, *hierarchy])))
        merged = Graph()
        for t in graph:
            merged.add(t)
        for t in hierarchy:
            merged.add(t)
        return list(check(merged, self.spec))

    def _problem(self, resource: object, reason: str) -> Problem:
        file, line = self.origin(str(resource)) if isinstance(resource, URIRef) else (str(self.path), None)
        where = f"{reason} [{_short(resource)}]" if isinstance(resource, URIRef) else reason
        return Problem(file, line, where)

    def _record(self) -> str:
        from ont_platform.ingest.datasets import domain_record

        ds = term(dataset_iri(self.domain))
        text = f"{ds} {term(RDF.type)} {term(ONT.Dataset)} .\n{ds} {term(ONT.domain)} {plain(self.domain)} .\n"
        for name in self.counts:
            text += f"{ds} {term(ONT.dataFile)} {plain(name)} .\n"
        return text + domain_record(self.spec)


def _line(t: tuple[object, object, object]) -> str:
    return " ".join(_nt(x) for x in t) + " .\n"


def _nt(x: object) -> str:
    if isinstance(x, (URIRef, BNode, Literal)):
        return x.n3()
    raise InputError(f"not an RDF term: {x!r}")


def _open(iri: URIRef) -> bool:
    return str(iri).startswith(OPEN_VOCABULARIES)


def _own_namespaces(graph: Graph, terms: set[object]) -> set[str]:
    """The namespaces the ontology's own terms live in (the part of each IRI up to its last ``#`` or ``/``)."""
    out = set()
    for t in terms:
        if isinstance(t, URIRef) and not _open(t):
            text = str(t)
            cut = max(text.rfind("#"), text.rfind("/"))
            if cut > 0:
                out.add(text[: cut + 1])
    return out


def _short(iri: object) -> str:
    text = str(iri)
    return text.rsplit("#", 1)[-1] if "#" in text else text.rstrip("/").rsplit("/", 1)[-1] or text


def _path(path: str | None) -> str:
    return f" ({_short(path)})" if path else ""


def _first_line(text: str, iri: str) -> int | None:
    """The first line of ``text`` that writes ``iri``: in full (``<…>``, or as RDF/XML writes it) or as a
    prefixed name of a prefix the text declares."""
    forms = [f"<{iri}>", f'"{iri}"']
    for prefix, ns in re.findall(r"@?prefix\s+([A-Za-z][\w.-]*)?:\s*<([^>]*)>", text, flags=re.IGNORECASE):
        if iri.startswith(ns) and len(iri) > len(ns):
            forms.append(f"{prefix}:{iri[len(ns) :]}")
    best = None
    for form in forms:
        at = text.find(form)
        if at >= 0 and (best is None or at < best):
            best = at
    return None if best is None else text.count("\n", 0, best) + 1


def _error_line(message: str) -> int | None:
    """The line a parser's message points at, when it says one."""
    m = re.search(r"line (\d+)|(\d+):\d+", message)
    if m is None:
        return None
    return int(m.group(1) or m.group(2))


__all__ = ["RDF_SUFFIXES", "RdfDataset", "data_files", "holds_rdf"]
