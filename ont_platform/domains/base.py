"""What one domain is: a name, an ontology with its shapes, and the behaviour of its kind of graph.

The shared machinery (loader, question answering, verifier, service, CLI) never compares domain names: it asks the
:class:`Domain` for its ontology, its shapes, and its *family* (:mod:`ont_platform.families`) for its tables, how
to answer, how to check an answer and which contract it answers with. Three families are built in, each written
once:

* ``entities`` — an entity–relation graph grounded in text chunks, answered with the HopDecision contract (seed
  003). Any OWL ontology drives it: the bundled ``kg`` domain is one instance, a user's ontology another;
* ``transfers`` — addresses and transfers (seed 000, the bundled ``onchain`` domain);
* ``inventory`` — a page inventory with metric columns, filtered rather than walked (seed 004, the bundled
  ``pages`` domain);

and a package can add its own (an entry point in the group ``ont_platform.families``).

A domain's ontology and shapes are read once, when first needed, and kept with the domain object: two graphs in
one process that use the same domain share them.
"""

from __future__ import annotations

import hashlib
import re
from dataclasses import dataclass, field
from functools import cached_property
from pathlib import Path
from typing import TYPE_CHECKING, Any

from rdflib import OWL, RDF, RDFS, Graph
from rdflib import Literal as RdfLiteral
from rdflib.namespace import DCTERMS

from ont_platform.errors import InputError, OntologyError
from ont_platform.families import DEFAULT_FAMILY, Family, get_family
from ont_platform.ontology.model import DomainOntology, read_ontology
from ont_platform.storage.rdf_io import refuse_dtd

if TYPE_CHECKING:
    from ont_platform.ontology.checks import OntologyReport

NAME = re.compile(r"[a-z][a-z0-9_-]{0,39}")
"""A domain name: lower-case letters, digits, ``_`` and ``-``, starting with a letter, at most 40 characters. It
becomes part of every instance IRI the domain mints (``id:films/node/f_01``)."""


@dataclass(frozen=True)
class Source:
    """Turtle text, from a file or given as text (``label`` names it in errors)."""

    label: str
    path: Path | None = None
    text: str | None = None

    def read(self) -> str:
        if self.text is not None:
            return self.text
        assert self.path is not None
        try:
            return self.path.read_text(encoding="utf-8")
        except (OSError, UnicodeDecodeError) as exc:
            raise OntologyError(f"cannot read {self.label}: {exc}") from exc


TURTLE_SUFFIXES = (".ttl", ".turtle")


def turtle_of(path: Path) -> str:
    """The Turtle text of an ontology or shapes file: the file itself, or (RDF/XML, N-Triples, JSON-LD …, by
    its suffix) the file read and written out as Turtle, so that what a store keeps is always Turtle."""
    text = Source(str(path), path=path).read()
    if path.suffix.lower() in TURTLE_SUFFIXES:
        return text
    from ont_platform.storage.base import RdfFormat
    from ont_platform.storage.rdf_io import parse_graph, serialize_graph

    try:
        fmt = RdfFormat.parse(path.suffix or "ttl")
        graph = parse_graph(text.encode("utf-8"), fmt, base=path.resolve().as_uri())
    except InputError as exc:  # an unknown suffix, or a file that does not parse (RDFSyntaxError)
        raise OntologyError(f"cannot read {path}: {exc}") from exc
    return serialize_graph(graph, RdfFormat.TURTLE).decode("utf-8")


def parse_turtle(sources: tuple[Source, ...], what: str) -> Graph:
    """One rdflib graph of every source; an unreadable one is an :class:`OntologyError` naming it."""
    g = Graph()
    for src in sources:
        text = src.read()
        try:
            refuse_dtd(text.encode("utf-8"))
        except InputError as exc:
            raise OntologyError(f"{what} {src.label} declares a DOCTYPE or ENTITY; refused") from exc
        try:
            g.parse(data=text, format="turtle")
        except Exception as exc:  # rdflib raises many types (BadSyntax, AssertionError, ValueError)
            raise OntologyError(f"cannot read {what} {src.label}: {exc}") from exc
    return g


@dataclass(frozen=True, eq=False)
class Domain:
    """One domain: its name, family, ontology and shapes.

    Build a user's domain with :meth:`from_files` (or :meth:`from_text`); the bundled ones come from
    :func:`ont_platform.domains.get_domain`. Equality is identity: a domain object stands for the ontology it was
    built from.
    """

    name: str
    family: str
    """The name of the domain's family (:func:`ont_platform.families.get_family`)."""
    ontology_sources: tuple[Source, ...]
    shapes_sources: tuple[Source, ...] = ()
    namespace: str | None = None
    """Where the domain's own terms live; ``None``: every term of the ontology that is not core vocabulary."""
    bundled: bool = False
    derive_shapes: bool = False
    """Whether entity, relation, domain and range shapes are derived from the ontology (a user's domain: the
    bundled ones ship them written out)."""
    extra: dict[str, Any] = field(default_factory=dict, compare=False)

    def __post_init__(self) -> None:
        if not isinstance(self.name, str) or not NAME.fullmatch(self.name):
            raise OntologyError(
                f"a domain name is lower-case letters, digits, '_' or '-', starting with a letter "
                f"(at most 40 characters); got {self.name!r}"
            )
        if not isinstance(self.family, str):
            raise OntologyError(f"a domain family is named by a string, got {type(self.family).__name__}")
        get_family(self.family)  # an unknown family is an OntologyError listing the known ones

    # -- building ----------------------------------------------------------------------------------------------

    @classmethod
    def from_files(
        cls,
        name: str | None,
        ontology: str | Path,
        shapes: str | Path | None = None,
        *,
        check: bool = True,
        family: str = DEFAULT_FAMILY,
    ) -> Domain:
        """An entity–relation domain driven by the OWL ontology in ``ontology`` (Turtle), with the SHACL shapes
        in ``shapes`` if given.

        ``name`` ``None`` takes the ontology's ``ont:domainName``. The ontology is read and checked now
        (:func:`ont_platform.ontology.checks.check_ontology`: labels, domains and ranges, names; ``check=True``
        also runs the reasoner when owlready2 and Java are there), so a broken ontology is an
        :class:`~ont_platform.errors.OntologyError` naming the term before any data is loaded. ``family``: a
        family whose folders may bring their own ontology (``entities``, or a plug-in's).
        """
        onto_path = Path(ontology)
        if not onto_path.is_file():
            raise OntologyError(f"no ontology file {onto_path}")
        shapes_path = Path(shapes) if shapes is not None else None
        if shapes_path is not None and not shapes_path.is_file():
            raise OntologyError(f"no shapes file {shapes_path}")
        onto_text = turtle_of(onto_path)
        shapes_text = turtle_of(shapes_path) if shapes_path is not None else None
        return cls.from_text(
            name,
            onto_text,
            shapes_text,
            ontology_label=str(onto_path),
            shapes_label=str(shapes_path) if shapes_path else None,
            check=check,
            family=family,
        )

    @classmethod
    def from_text(
        cls,
        name: str | None,
        ontology: str,
        shapes: str | None = None,
        *,
        ontology_label: str = "ontology.ttl",
        shapes_label: str | None = None,
        check: bool = True,
        family: str = DEFAULT_FAMILY,
    ) -> Domain:
        """Like :meth:`from_files`, from Turtle text (how a stored domain is read back)."""
        onto_src = Source(ontology_label, text=ontology)
        shapes_src = (Source(shapes_label or "shapes.ttl", text=shapes),) if shapes is not None else ()
        if name is None:
            name = declared_name(parse_turtle((onto_src,), "ontology"))
            if name is None:
                raise OntologyError(f"{ontology_label} declares no ont:domainName; give the domain a name")
        if not get_family(family).own_ontology:
            raise OntologyError(f"the {family} family does not take an ontology of its own")
        derive = get_family(family).mints_iris  # derived shapes speak of relation resources and ont:id
        domain = cls(name, family, (onto_src,), shapes_src, None, bundled=False, derive_shapes=derive)
        report = domain.check(reasoner=check)
        report.raise_errors()
        domain.extra["report"] = report
        return domain

    # -- what the machinery asks -------------------------------------------------------------------------------

    @cached_property
    def graph(self) -> Graph:
        """The ontology graph: the core vocabulary and the domain's own terms."""
        from ont_platform.resources import ontology_file

        core = Source("ontologies/core.ttl", path=ontology_file("core"))
        return parse_turtle((core, *self.ontology_sources), "ontology")

    @cached_property
    def ontology(self) -> DomainOntology:
        """The terms as the code needs them (classes, relations by table name, labels, columns)."""
        return read_ontology(self.name, self.graph, self.namespace)

    @cached_property
    def shapes(self) -> Graph:
        """The SHACL shapes a load and an ingest enforce: the core shapes (for a family written in the core
        vocabulary), the ones derived from the ontology (for a user's domain of such a family) and the domain's
        own."""
        from ont_platform.ontology.derived import derived_shapes
        from ont_platform.resources import shapes_file

        core = (Source("shapes/core.ttl", path=shapes_file("core")),) if self.behaviour.mints_iris else ()
        g = parse_turtle((*core, *self.shapes_sources), "shapes")
        if self.derive_shapes:
            g += derived_shapes(self.ontology)
        return g

    @property
    def behaviour(self) -> Family:
        """The domain's family: what every stage asks of this kind of graph."""
        return get_family(self.family)

    @property
    def tables(self) -> tuple[str, ...]:
        """The table files of the domain's dataset folders; the first tells what a folder holds."""
        return self.behaviour.tables

    @property
    def contract(self) -> str:
        """The name of the answer contract (``hop_decision``, ``onchain_answer``, ``page_filter_result``)."""
        return self.behaviour.contract

    @property
    def has_names(self) -> bool:
        """Whether questions name the domain's nodes (a page inventory is filtered, never named)."""
        return self.behaviour.has_names

    @property
    def has_chunks(self) -> bool:
        """Whether relations are grounded in text chunks."""
        return self.behaviour.has_chunks

    def title(self, lang: str = "ko") -> str:
        """What the domain is about, in a few words: the ontology's ``rdfs:label`` or ``dcterms:title`` in
        ``lang`` (else in any language), else the domain's name."""
        g = self.graph
        for onto in sorted(g.subjects(RDF.type, OWL.Ontology), key=str):
            if str(onto).startswith("https://w3id.org/ont-platform/core"):
                continue
            values = [v for p in (RDFS.label, DCTERMS.title) for v in g.objects(onto, p) if isinstance(v, RdfLiteral)]
            for v in values:
                if v.language == lang:
                    return str(v)
            if values:
                return str(values[0])
        return self.name

    def fingerprint(self) -> str:
        """A digest of the ontology and shapes text: the same domain read back from a store has the same one."""
        h = hashlib.sha256(self.family.encode())
        for src in (*self.ontology_sources, *self.shapes_sources):
            h.update(b"\0" + src.read().encode("utf-8"))
        return h.hexdigest()[:16]

    def check(self, *, reasoner: bool = False) -> OntologyReport:
        """Check the ontology for use: see :func:`ont_platform.ontology.checks.check_ontology`."""
        from ont_platform.ontology.checks import check_ontology

        return check_ontology(self, reasoner=reasoner)

    def __repr__(self) -> str:
        return f"Domain({self.name!r}, family={self.family!r}{', bundled' if self.bundled else ''})"


def declared_name(g: Graph) -> str | None:
    """The ``ont:domainName`` an ontology declares, if any."""
    from ont_platform.namespaces import ONT

    for value in g.objects(None, ONT.domainName):
        return str(value)
    return None
