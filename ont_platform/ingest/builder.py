"""Accumulates a batch of triples as N-Triples text, remembering which table row made each resource.

The row map lets a SHACL failure on a resource be reported as the file and line that produced it.
"""

from __future__ import annotations

from dataclasses import dataclass, field

from rdflib import URIRef

from ont_platform.rdf_terms import RDF_TYPE, iri, literal, triple


@dataclass
class Batch:
    """Triples to add, with the origin of each minted resource."""

    lines: list[str] = field(default_factory=list)
    origin: dict[str, tuple[str, int]] = field(default_factory=dict)

    def add(self, s: URIRef, p: URIRef, o: URIRef) -> None:
        self.lines.append(triple(iri(s), iri(p), iri(o)))

    def typed(self, s: URIRef, cls: URIRef) -> None:
        self.lines.append(triple(iri(s), RDF_TYPE, iri(cls)))

    def lit(self, s: URIRef, p: URIRef, value: str, datatype: str | None = None, lang: str | None = None) -> None:
        self.lines.append(triple(iri(s), iri(p), literal(value, datatype, lang)))

    def mark(self, s: URIRef, file: str, line: int) -> None:
        self.origin[str(s)] = (file, line)

    def text(self) -> str:
        return "".join(self.lines)

    def __len__(self) -> int:
        return len(self.lines)
