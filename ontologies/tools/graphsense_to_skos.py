"""Convert the GraphSense concepts taxonomy (``concepts.yaml``) into SKOS Turtle.

Usage::

    python ontologies/tools/graphsense_to_skos.py PATH/TO/concepts.yaml ontologies/graphsense-concepts.ttl

The upstream file (graphsense/graphsense-tagpack-tool, ``src/tagpack/db/concepts.yaml``, MIT licence)
publishes no per-concept IRIs, so concepts are minted under ``https://w3id.org/ont-platform/graphsense#``
with the concept's ``id`` as local name. Each concept becomes a ``skos:Concept`` with ``skos:notation`` (the
id, which is what tag packs and datasets write in their ``class`` column), ``skos:prefLabel``,
``skos:definition``, ``skos:broader``, ``skos:example`` and ``rdfs:seeAlso`` where the YAML has them.

Only ``broader`` is converted: upstream's ``narrower`` lists are partial and in places contradict
``broader`` (for example ``entity`` lists ``item``, whose ``broader`` is ``concept``), while every
``broader`` resolves. ``skos:narrower`` is the inverse of ``skos:broader`` and can be derived from it.

The output is deterministic: running the script twice on the same input gives the same bytes.
"""

from __future__ import annotations

import argparse
import re
import sys
from pathlib import Path
from typing import Any

import yaml
from rdflib import Graph, Literal, Namespace, URIRef
from rdflib.namespace import DCTERMS, OWL, RDF, RDFS, SKOS, XSD

GS = Namespace("https://w3id.org/ont-platform/graphsense#")
ONTOLOGY_IRI = URIRef("https://w3id.org/ont-platform/graphsense")
SCHEME = GS.taxonomy

SOURCE_REPO = "https://github.com/graphsense/graphsense-tagpack-tool"
SOURCE_PATH = "src/tagpack/db/concepts.yaml"
SOURCE_COMMIT = "a14a1597359297e5111236aa76b93a7e03110dd3"
LICENSE_TEXT = """\
MIT License

Copyright (c) 2021 Austrian Institute of Technology GmbH
Copyright (c) Iknaio Cryptoasset Analytics GmbH

Permission is hereby granted, free of charge, to any person obtaining a copy
of this software and associated documentation files (the "Software"), to deal
in the Software without restriction, including without limitation the rights
to use, copy, modify, merge, publish, distribute, sublicense, and/or sell
copies of the Software, and to permit persons to whom the Software is
furnished to do so, subject to the following conditions:

The above copyright notice and this permission notice shall be included in all
copies or substantial portions of the Software.

THE SOFTWARE IS PROVIDED "AS IS", WITHOUT WARRANTY OF ANY KIND, EXPRESS OR
IMPLIED, INCLUDING BUT NOT LIMITED TO THE WARRANTIES OF MERCHANTABILITY,
FITNESS FOR A PARTICULAR PURPOSE AND NONINFRINGEMENT. IN NO EVENT SHALL THE
AUTHORS OR COPYRIGHT HOLDERS BE LIABLE FOR ANY CLAIM, DAMAGES OR OTHER
LIABILITY, WHETHER IN AN ACTION OF CONTRACT, TORT OR OTHERWISE, ARISING FROM,
OUT OF OR IN CONNECTION WITH THE SOFTWARE OR THE USE OR OTHER DEALINGS IN THE
SOFTWARE.
"""

_ID = re.compile(r"^[a-z][a-z0-9_]*$")


class TaxonomyError(ValueError):
    """The YAML document is not a concepts taxonomy this script understands."""


def _clean(text: Any) -> str:
    """Collapse the whitespace that YAML folded scalars leave behind."""
    return " ".join(str(text).split())


def _as_list(value: Any) -> list[Any]:
    if value is None:
        return []
    if isinstance(value, list):
        return value
    return [value]


def parse_concepts(text: str) -> tuple[dict[str, Any], list[dict[str, Any]]]:
    """Return the scheme header and the concepts of a ``concepts.yaml`` text, checked.

    Concepts are keyed by their ``id`` field (one upstream key differs from its id). Raises
    :class:`TaxonomyError` for a missing field, a malformed or duplicate id, or a ``broader`` that does
    not resolve.
    """
    doc = yaml.safe_load(text)
    if not isinstance(doc, dict) or not isinstance(doc.get("scheme"), dict):
        raise TaxonomyError("expected a mapping with a 'scheme' header")
    concepts: list[dict[str, Any]] = []
    seen: set[str] = set()
    for key, body in doc.items():
        if key == "scheme":
            continue
        if not isinstance(body, dict) or body.get("type") != "concept":
            raise TaxonomyError(f"entry {key!r} is not a concept")
        cid = body.get("id")
        if not isinstance(cid, str) or not _ID.match(cid):
            raise TaxonomyError(f"entry {key!r} has a malformed id {cid!r}")
        if cid in seen:
            raise TaxonomyError(f"duplicate concept id {cid!r}")
        for field in ("prefLabel", "description"):
            if not _clean(body.get(field) or ""):
                raise TaxonomyError(f"concept {cid!r} has no {field}")
        seen.add(cid)
        concepts.append(body)
    for body in concepts:
        parent = body.get("broader")
        if parent is not None and parent not in seen:
            raise TaxonomyError(f"concept {body['id']!r} has an unknown broader {parent!r}")
    roots = [c["id"] for c in concepts if c.get("broader") is None]
    if len(roots) != 1:
        raise TaxonomyError(f"expected exactly one root concept, found {roots}")
    return doc["scheme"], concepts


def build_graph(scheme: dict[str, Any], concepts: list[dict[str, Any]]) -> Graph:
    """Build the SKOS graph (also a small OWL 2 DL ontology of individuals)."""
    g = Graph()
    g.bind("gs", GS)
    g.bind("skos", SKOS)
    g.bind("owl", OWL)
    g.bind("dcterms", DCTERMS)

    version = _clean(scheme.get("version", "0"))
    g.add((ONTOLOGY_IRI, RDF.type, OWL.Ontology))
    g.add((ONTOLOGY_IRI, OWL.versionIRI, URIRef(f"{ONTOLOGY_IRI}/{version}")))
    g.add((ONTOLOGY_IRI, OWL.versionInfo, Literal(version)))
    g.add((ONTOLOGY_IRI, DCTERMS.title, Literal("GraphSense concepts taxonomy as SKOS", lang="en")))
    g.add((ONTOLOGY_IRI, DCTERMS.source, URIRef(f"{SOURCE_REPO}/blob/{SOURCE_COMMIT}/{SOURCE_PATH}")))
    g.add((ONTOLOGY_IRI, DCTERMS.license, URIRef("https://opensource.org/licenses/MIT")))
    g.add(
        (
            ONTOLOGY_IRI,
            RDFS.comment,
            Literal("Generated by ontologies/tools/graphsense_to_skos.py; do not edit by hand.", lang="en"),
        )
    )

    # Declarations that keep the file inside OWL 2 DL: SKOS classes and the structural properties are
    # used as classes and object properties over individuals, the lexical ones as annotations.
    for cls in (SKOS.Concept, SKOS.ConceptScheme):
        g.add((cls, RDF.type, OWL.Class))
    for prop in (SKOS.broader, SKOS.inScheme, SKOS.topConceptOf, SKOS.hasTopConcept):
        g.add((prop, RDF.type, OWL.ObjectProperty))
    for prop in (
        SKOS.prefLabel,
        SKOS.definition,
        SKOS.notation,
        SKOS.example,
        RDFS.seeAlso,
        RDFS.comment,
        DCTERMS.title,
        DCTERMS.source,
        DCTERMS.license,
        DCTERMS.creator,
        DCTERMS.modified,
        DCTERMS.description,
    ):
        g.add((prop, RDF.type, OWL.AnnotationProperty))

    g.add((SCHEME, RDF.type, SKOS.ConceptScheme))
    g.add((SCHEME, RDF.type, OWL.NamedIndividual))
    g.add((SCHEME, DCTERMS.title, Literal(_clean(scheme.get("title", "Concepts Taxonomy")), lang="en")))
    if scheme.get("creator"):
        g.add((SCHEME, DCTERMS.creator, Literal(_clean(scheme["creator"]))))
    if scheme.get("description"):
        g.add((SCHEME, DCTERMS.description, Literal(_clean(scheme["description"]), lang="en")))
    if scheme.get("lastmod"):
        g.add((SCHEME, DCTERMS.modified, Literal(str(scheme["lastmod"]), datatype=XSD.date)))

    for body in concepts:
        node = GS[body["id"]]
        g.add((node, RDF.type, SKOS.Concept))
        g.add((node, RDF.type, OWL.NamedIndividual))
        g.add((node, SKOS.inScheme, SCHEME))
        g.add((node, SKOS.notation, Literal(body["id"])))
        g.add((node, SKOS.prefLabel, Literal(_clean(body["prefLabel"]), lang="en")))
        g.add((node, SKOS.definition, Literal(_clean(body["description"]), lang="en")))
        parent = body.get("broader")
        if parent is None:
            g.add((node, SKOS.topConceptOf, SCHEME))
            g.add((SCHEME, SKOS.hasTopConcept, node))
        else:
            g.add((node, SKOS.broader, GS[parent]))
        for example in _as_list(body.get("example")):
            g.add((node, SKOS.example, Literal(_clean(example))))
        for see in _as_list(body.get("seeAlso")):
            g.add((node, RDFS.seeAlso, URIRef(_clean(see))))
    return g


def header(scheme: dict[str, Any], n_concepts: int) -> str:
    lines = [
        "GraphSense concepts taxonomy, converted to SKOS for ont_platform.",
        "",
        f"Source: {SOURCE_REPO}, file {SOURCE_PATH}, commit {SOURCE_COMMIT}.",
        (
            f"Upstream title: {_clean(scheme.get('title', ''))}, version {_clean(scheme.get('version', ''))}, "
            f"last modified {scheme.get('lastmod', '')}."
        ),
        f"Upstream creator: {_clean(scheme.get('creator', ''))}.",
        f"{n_concepts} concepts. Labels, definitions, examples and links are upstream's text, with whitespace",
        "collapsed; IRIs are minted here because upstream publishes none. Only skos:broader is converted",
        "(upstream's narrower lists are partial). Generated by ontologies/tools/graphsense_to_skos.py:",
        "regenerate instead of editing.",
        "",
        "The upstream file is distributed under the MIT License:",
        "",
        *LICENSE_TEXT.splitlines(),
    ]
    return "".join(f"# {line}".rstrip() + "\n" for line in lines) + "\n"


def render(text: str) -> str:
    """Return the Turtle document (header comment included) for a ``concepts.yaml`` text."""
    scheme, concepts = parse_concepts(text)
    body = build_graph(scheme, concepts).serialize(format="turtle")
    return header(scheme, len(concepts)) + body


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("concepts_yaml", type=Path, help="path to GraphSense concepts.yaml")
    parser.add_argument("output", type=Path, nargs="?", help="Turtle file to write (default: stdout)")
    args = parser.parse_args(argv)
    try:
        turtle = render(args.concepts_yaml.read_text(encoding="utf-8"))
    except (OSError, TaxonomyError, yaml.YAMLError) as exc:
        print(f"error: {exc}", file=sys.stderr)
        return 1
    if args.output is None:
        sys.stdout.write(turtle)
    else:
        args.output.write_text(turtle, encoding="utf-8")
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
