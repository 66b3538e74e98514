"""SPARQL text, built in one place.

Every query the library runs on its own behalf is written by a function in this package from a typed plan.
Values enter the text only through :mod:`ont_platform.rdf_terms` (escaped literals, validated IRIs) and only
after the node they name was looked up in the graph; no user text is ever pasted in. Every query is a read
with a ``LIMIT`` and only bounded property paths (``p/p?/p?``), never ``*`` or ``+``.
"""

from ont_platform.sparql.common import PREFIXES, alt_path, bounded_path

__all__ = ["PREFIXES", "alt_path", "bounded_path"]
