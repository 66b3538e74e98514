"""Input checks shared by every backend before RDF text reaches a parser."""

from __future__ import annotations

import re

from ont_platform.errors import RDFSyntaxError

_DTD = re.compile(rb"<!\s*(DOCTYPE|ENTITY)", re.IGNORECASE)


def refuse_dtd(data: bytes) -> None:
    """Refuse RDF text that declares a DOCTYPE or ENTITY.

    An entity bomb of a few hundred bytes costs rdflib minutes and pyoxigraph about a gigabyte, so such
    input is refused before any parser sees it. No RDF format we accept needs a DTD.
    """
    if _DTD.search(data):
        raise RDFSyntaxError("RDF input declares a DOCTYPE or ENTITY; refused before parsing")
