"""Extract ontology.ttl, the part of schema.org that data.ttl uses, from a schema.org release file.

    python build_ontology.py SCHEMAORG_TTL          # e.g. schemaorg-current-https.ttl of release 30.0

The release file is not kept in this folder (see SOURCE.md for where it comes from). What is kept:

* every schema.org class that data.ttl uses as an rdf:type, and every schema.org property it uses;
* the super-properties of those properties, and their published inverses (schema:inverseOf);
* every class named by schema:domainIncludes / schema:rangeIncludes of the kept properties;
* the superclasses of every kept class, to the top (schema:Thing), and the classes kept terms are typed with
  (schema:DataType for schema:Text, schema:Date, ...).

For each kept term the published triples with these predicates are copied unchanged: rdf:type, rdfs:label,
rdfs:comment, rdfs:subClassOf, rdfs:subPropertyOf, schema:domainIncludes, schema:rangeIncludes,
schema:inverseOf. Nothing is added: no rdfs:domain / rdfs:range, no OWL axioms, no labels in other
languages. Objects outside schema.org (rdfs:label as the super-property of schema:name, rdfs:Class as the
superclass of schema:DataType, the OMG Commons class above schema:Country) are kept as objects but not
declared.
"""
from __future__ import annotations

import sys
from pathlib import Path

from rdflib import Graph, Namespace, URIRef
from rdflib.namespace import RDF, RDFS

HERE = Path(__file__).resolve().parent
SCHEMA = Namespace("https://schema.org/")
KEEP = [RDF.type, RDFS.label, RDFS.comment, RDFS.subClassOf, RDFS.subPropertyOf,
        SCHEMA.domainIncludes, SCHEMA.rangeIncludes, SCHEMA.inverseOf]
HEADER = """\
# A subset of the schema.org vocabulary, release {release}, file {file}
# (https://github.com/schemaorg/schemaorg, data/releases/{release}/{file}),
# extracted by build_ontology.py: the terms data.ttl uses and the terms they point to, with their published
# rdf:type, rdfs:label, rdfs:comment, rdfs:subClassOf, rdfs:subPropertyOf, schema:domainIncludes,
# schema:rangeIncludes and schema:inverseOf triples, unchanged.
# schema.org is licensed under the Creative Commons Attribution-ShareAlike License 3.0
# (https://creativecommons.org/licenses/by-sa/3.0/); this subset is shared under the same licence.

"""


def in_schema(term) -> bool:
    return isinstance(term, URIRef) and str(term).startswith(str(SCHEMA))


def main(source: Path, release: str) -> None:
    full = Graph()
    full.parse(source, format="turtle")
    data = Graph()
    data.parse(HERE / "data.ttl", format="turtle")

    classes = {o for o in data.objects(None, RDF.type) if in_schema(o)}
    props = {p for p in data.predicates() if in_schema(p)}
    missing = sorted(str(t) for t in classes | props if (t, None, None) not in full)
    if missing:
        raise SystemExit(f"terms not in the release: {missing}")

    # properties: super-properties and published inverses, to a fixed point
    todo = list(props)
    while todo:
        p = todo.pop()
        for q in list(full.objects(p, RDFS.subPropertyOf)) + list(full.objects(p, SCHEMA.inverseOf)):
            if in_schema(q) and q not in props:
                props.add(q)
                todo.append(q)
    for p in props:
        for c in list(full.objects(p, SCHEMA.domainIncludes)) + list(full.objects(p, SCHEMA.rangeIncludes)):
            if in_schema(c):
                classes.add(c)
    # classes: superclasses and the classes they are typed with, to a fixed point
    todo = list(classes)
    while todo:
        c = todo.pop()
        for d in list(full.objects(c, RDFS.subClassOf)) + list(full.objects(c, RDF.type)):
            if in_schema(d) and d not in classes:
                classes.add(d)
                todo.append(d)

    out = Graph()
    out.bind("schema", SCHEMA)
    out.bind("rdfs", RDFS)
    for term in sorted(classes | props):
        for pred in KEEP:
            for obj in full.objects(term, pred):
                out.add((term, pred, obj))
    body = out.serialize(format="turtle")
    text = HEADER.format(release=release, file=source.name) + body
    (HERE / "ontology.ttl").write_text(text, encoding="utf-8")
    print(f"ontology.ttl: {len(classes)} classes, {len(props)} properties, {len(out)} triples")


if __name__ == "__main__":
    if len(sys.argv) not in (2, 3):
        raise SystemExit("usage: python build_ontology.py SCHEMAORG_TTL [RELEASE]")
    src = Path(sys.argv[1])
    main(src, sys.argv[2] if len(sys.argv) == 3 else src.parent.name)
