"""Checks a domain's ontology must pass before any data is loaded with it.

A user's ontology drives the loader (which classes and relations a table may name), the shapes (derived domain
and range checks) and the question reader (the words of classes and relations, the types a chain passes
through). So it is checked when the domain is created, and every finding names the term:

* errors: no class; a relation whose domain or range names a class the ontology does not declare; two terms
  that share a table name; an ontology that is inconsistent, or has unsatisfiable classes, for the HermiT
  reasoner (owlready2);
* warnings: a class or relation without an ``rdfs:label`` (questions cannot name it except by its local name),
  without a Korean or an English label, a relation without ``rdfs:domain`` or ``rdfs:range`` (nothing checks
  its ends' types, and questions cannot be type-checked through it).

The reasoner runs only when asked (``reasoner=True``) and only when owlready2 can start Java; when it cannot,
the report says so as a warning. ``owl:imports`` are dropped before reasoning, so nothing is ever fetched.
Results are cached by the ontology's text: a folder loaded twice is reasoned about once.
"""

from __future__ import annotations

import io
import shutil
import threading
from dataclasses import dataclass, field
from typing import TYPE_CHECKING

from rdflib import OWL, RDF, RDFS, Graph, Literal, URIRef

from ont_platform.errors import OntologyError
from ont_platform.ontology.model import local_name

if TYPE_CHECKING:
    from ont_platform.domains.base import Domain

_reasoned: dict[str, list[str]] = {}
_reasoner_lock = threading.Lock()


@dataclass
class OntologyReport:
    """What :func:`check_ontology` found: ``errors`` make the ontology unusable, ``warnings`` are worth fixing."""

    domain: str
    errors: list[str] = field(default_factory=list)
    warnings: list[str] = field(default_factory=list)
    reasoner: str = "not run"
    """``"consistent"``, ``"not run"`` or why it could not run."""

    def raise_errors(self) -> None:
        if self.errors:
            raise OntologyError(f"the ontology of {self.domain!r} cannot be used: " + "; ".join(self.errors))


def check_ontology(domain: Domain, *, reasoner: bool = False) -> OntologyReport:
    """Check ``domain``'s ontology (see the module docstring)."""
    report = OntologyReport(domain.name)
    try:
        onto = domain.ontology
    except OntologyError as exc:
        report.errors.append(str(exc))
        return report
    g = onto.graph
    declared = set(onto.classes.values()) | set(onto.relation_classes.values())
    declared |= {c for c in g.subjects(RDF.type, OWL.Class) if isinstance(c, URIRef)}
    declared |= {c for c in g.subjects(RDF.type, RDFS.Class) if isinstance(c, URIRef)}
    for name, cls in sorted(onto.classes.items()):
        _labels(report, g, cls, f"class {name}")
    for notation, rel in sorted(onto.relations.items()):
        what = f"relation {notation}"
        _labels(report, g, rel.iri, what)
        for side, allowed in (("domain", rel.domain), ("range", rel.range)):
            if not allowed:
                if not _inherits(g, rel.iri, RDFS.domain if side == "domain" else RDFS.range):
                    report.warnings.append(
                        f"{what} has no rdfs:{side}: its {'subjects' if side == 'domain' else 'objects'} "
                        "are not type-checked and questions cannot be checked through it"
                    )
                continue
            unknown = sorted(local_name(c) for c in allowed if c not in declared)
            if unknown:
                report.errors.append(
                    f"{what}: rdfs:{side} names {', '.join(unknown)}, which the ontology does not declare as a class"
                )
    if reasoner and not report.errors:
        report.reasoner = _reason(domain, report)
    return report


def _inherits(g: Graph, prop: URIRef, key: URIRef) -> bool:
    return any(g.value(sup, key) is not None for sup in g.objects(prop, RDFS.subPropertyOf))


def _labels(report: OntologyReport, g: Graph, term: URIRef, what: str) -> None:
    # a label without a language tag is read as English (univ-bench's labels, most published ontologies')
    langs = {lit.language or "en" for lit in g.objects(term, RDFS.label) if isinstance(lit, Literal)}
    if not langs:
        report.warnings.append(f"{what} has no rdfs:label: questions can name it only by its local name")
        return
    missing = [lang for lang in ("ko", "en") if lang not in langs]
    if missing:
        report.warnings.append(f"{what} has no rdfs:label in {' or '.join(missing)}")


def _reason(domain: Domain, report: OntologyReport) -> str:
    key = domain.fingerprint()
    with _reasoner_lock:
        if key not in _reasoned:
            _reasoned[key] = _run_hermit(domain.graph)
    found = _reasoned[key]
    if found and found[0].startswith("!"):
        report.warnings.append(f"the reasoner did not run: {found[0][1:]}")
        return "not run"
    if found and found[0] == "inconsistent":
        report.errors.append("the HermiT reasoner finds the ontology inconsistent")
        return "inconsistent"
    for iri in found:
        report.errors.append(
            f"class {local_name(URIRef(iri))} is unsatisfiable (the HermiT reasoner proves it can have no member)"
        )
    return "consistent" if not found else "unsatisfiable classes"


def _run_hermit(graph: Graph) -> list[str]:
    """Unsatisfiable class IRIs, ``["inconsistent"]``, or ``["!why it could not run"]``."""
    if shutil.which("java") is None:
        return ["!no Java runtime (HermiT needs one)"]
    try:
        import owlready2
    except ImportError:  # pragma: no cover - a core dependency
        return ["!owlready2 is not installed"]
    g = Graph()
    for t in graph:
        if t[1] != OWL.imports:  # owlready2 would fetch an import it has not loaded
            g.add(t)
    data = g.serialize(format="nt", encoding="utf-8")
    owlready2.reasoning.JAVA_MEMORY = min(owlready2.reasoning.JAVA_MEMORY, 512)
    world = owlready2.World()
    try:
        world.get_ontology("https://w3id.org/ont-platform/user-check#").load(
            fileobj=io.BytesIO(data), format="ntriples"
        )
        owlready2.sync_reasoner_hermit(world, debug=0, ignore_unsupported_datatypes=True)
        return sorted(c.iri for c in world.inconsistent_classes() if c.iri != str(OWL.Nothing))
    except owlready2.OwlReadyInconsistentOntologyError:
        return ["inconsistent"]
    except Exception as exc:  # a JVM that cannot start, a parse owlready2 refuses
        return [f"!{type(exc).__name__}: {str(exc)[:200]}"]
    finally:
        world.close()
