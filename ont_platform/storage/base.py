"""The store interface every backend implements.

Layers above the store speak two plain languages to it: N-Triples text for writes and SPARQL text for reads.
That keeps the backends interchangeable (Oxigraph embedded, rdflib, a remote SPARQL 1.1 endpoint) and lets a
loader build a whole batch once and hand it over in one atomic call.

Query results come back as rdflib terms (:class:`rdflib.URIRef`, :class:`rdflib.Literal`,
:class:`rdflib.BNode`), the common currency of Python RDF code. Literals keep their lexical form: an
``xsd:integer`` above 2^63 is never squeezed through int64 or float.
"""

from __future__ import annotations

from abc import ABC, abstractmethod
from collections.abc import Callable, Iterable, Iterator, Mapping, Sequence
from enum import Enum
from pathlib import Path
from typing import ClassVar

from rdflib.term import BNode, Literal, Node, URIRef

Row = Mapping[str, Node | None]
"""One solution of a SELECT query: variable name (without ``?``) to term, ``None`` when unbound."""


class ResultRow(dict[str, Node | None]):
    """One solution as rdflib's result rows give it: by variable name (``row["name"]``), as an attribute
    (``row.name``) or by position in the projection (``row[0]``), and unpacked in that order (``a, b = row``
    needs ``row.values()``; iterating a row gives its variable names, as a dict does)."""

    def __getitem__(self, key: str | int) -> Node | None:
        if isinstance(key, int):
            return list(self.values())[key]
        return super().__getitem__(key)

    def __getattr__(self, name: str) -> Node | None:
        try:
            return super().__getitem__(name)
        except KeyError:
            raise AttributeError(name) from None

    def asdict(self) -> dict[str, Node]:
        """The bound variables only, as rdflib's ``ResultRow.asdict``."""
        return {k: v for k, v in self.items() if v is not None}


class Rows(list[Row]):
    """The solutions of a SELECT, in order: a plain list that also says whether it was cut at a row limit.

    ``truncated`` is true when the query had more solutions than the ``max_rows`` it was run with, so a
    caller can say "first 10,000 rows" instead of passing a partial result off as the whole.
    """

    truncated: bool
    entailed: list[tuple[tuple[Node, Node, Node], ...]] | None
    """With reasoning (``KnowledgeGraph.query(..., reasoning=True)``), for each row in order: the entailed (not
    stated) triples among those the query's triple patterns name for that row. ``None`` without reasoning."""

    def __init__(self, rows: Iterable[Row] = (), *, truncated: bool = False) -> None:
        super().__init__(rows)
        self.truncated = truncated
        self.entailed = None

    @classmethod
    def capped(cls, rows: Iterable[Row], max_rows: int | None) -> Rows:
        """The first ``max_rows`` of ``rows`` (all when ``None``), marked truncated when there were more."""
        if max_rows is None:
            return cls(rows)
        out = cls()
        for row in rows:
            if len(out) >= max_rows:
                out.truncated = True
                break
            out.append(row)
        return out


def check_max_rows(max_rows: int | None) -> None:
    """Refuse a row limit that is not a positive number (a bool or zero is a caller's mistake)."""
    if max_rows is not None and (isinstance(max_rows, bool) or not isinstance(max_rows, int) or max_rows < 1):
        from ont_platform.errors import InputError

        raise InputError(f"max_rows must be a positive number of rows or None, not {max_rows!r}")


class RdfFormat(str, Enum):
    """Serialisations the stores read and write."""

    TURTLE = "turtle"
    NTRIPLES = "ntriples"
    JSONLD = "json-ld"
    RDFXML = "rdf/xml"
    NQUADS = "nquads"
    TRIG = "trig"

    @classmethod
    def parse(cls, name: str) -> RdfFormat:
        """Accept a format name or a file suffix (``ttl``, ``nt``, ``jsonld``, ``json-ld``, ``rdf``, ``owl``,
        ``xml``, ``nq``, ``trig``)."""
        key = name.lower().lstrip(".")
        aliases = {
            "turtle": cls.TURTLE,
            "ttl": cls.TURTLE,
            "ntriples": cls.NTRIPLES,
            "nt": cls.NTRIPLES,
            "n-triples": cls.NTRIPLES,
            "json-ld": cls.JSONLD,
            "jsonld": cls.JSONLD,
            "json": cls.JSONLD,
            "rdf/xml": cls.RDFXML,
            "rdfxml": cls.RDFXML,
            "xml": cls.RDFXML,
            "rdf": cls.RDFXML,
            "owl": cls.RDFXML,
            "nquads": cls.NQUADS,
            "n-quads": cls.NQUADS,
            "nq": cls.NQUADS,
            "trig": cls.TRIG,
        }
        if key not in aliases:
            from ont_platform.errors import InputError

            raise InputError(
                f"unknown RDF format {name!r}; use one of: turtle (ttl), ntriples (nt), json-ld (jsonld), "
                "rdf/xml (rdf, owl, xml), nquads (nq), trig"
            )
        return aliases[key]


class Store(ABC):
    """A triple store holding one graph (the default graph of the backend, or the configured graph).

    Guarantees every backend keeps:

    * :meth:`add_ntriples`, :meth:`add_ntriples_stream`, :meth:`load_rdf` and :meth:`update` are all or
      nothing: after an error the store holds exactly what it held before.
    * :meth:`select` and :meth:`ask` never write.
    * Errors are :class:`ont_platform.errors.OntError` subclasses, never the engine's own exceptions.

    Bounded work. Every read takes ``timeout`` (seconds), and :meth:`select` takes ``max_rows``:

    * ``timeout=None`` means *no time limit*. It is for queries the library writes itself and knows to be
      bounded (a bound start node, a fixed number of hops, a ``LIMIT``); the embedded Oxigraph store runs them
      in this process at full speed.
    * A number means the query is stopped when it runs longer and :class:`~ont_platform.errors.QueryTimeout`
      is raised (with the limit in the message); the store is unchanged and answers the next query. Use it for
      every query written by someone else and wherever a slow plan must not hang a caller. Embedded Oxigraph
      runs such a query in a worker process forked from this one and kills it at the limit (pyoxigraph has no
      query timeout of its own); a remote endpoint gets it as the HTTP timeout; the rdflib backend cannot stop
      its pure-Python engine and only ignores it.
    * ``max_rows`` caps a SELECT's solutions; the result's :attr:`Rows.truncated` says whether some were cut.
    * ``untrusted`` marks query text a caller wrote (``KnowledgeGraph.select``, an answer's ``generated_query``):
      the embedded store runs it in a worker of its own, so that a slow one holds no worker the library's
      own questions wait for. Other backends have nothing to separate and ignore it.
    """

    backend: ClassVar[str]

    _generation: int = 0

    @property
    def generation(self) -> int | None:
        """A number that changes with every write made through this object, or ``None`` when the data can also
        change without it (a remote endpoint other clients write to, an rdflib graph the caller holds).

        What the library derives from the data and keeps between questions (the transfer index of
        :mod:`ont_platform.qa.adjacency`) is valid only while this number stays the one it was read at.
        """
        return self._generation

    @property
    def stamp(self) -> str | None:
        """A token naming the present state of the data that stays the same across processes and opens while
        the data does not change (:mod:`ont_platform.storage.stamp`), or ``None``: a store kept in memory, one
        whose data may change behind it, or one being written right now.

        Indexes derived from the data and kept beside it (:attr:`index_folder`) are tagged with it and used only
        while it is unchanged."""
        return None

    @property
    def index_folder(self) -> Path | None:
        """Where indexes derived from this store's data are kept between processes (a folder inside an on-disk
        store), or ``None`` when they are not kept."""
        return None

    @property
    def read_parallelism(self) -> int:
        """How many of the library's own bound reads are worth running at once (a guarded ingest splits its
        neighbourhood read over that many threads). 1 unless reads wait on a disk: then several at once overlap
        their waits."""
        return 1

    @property
    def index_writable(self) -> bool:
        """Whether this process may build and replace the indexes in :attr:`index_folder` (a store opened
        read-only only reads them)."""
        return False

    @property
    def redacted(self) -> tuple[str, ...]:
        """Values this store was configured with that must never appear in a log or an error (a remote
        endpoint's header values and URL credentials); empty for the embedded backends. A service that logs
        tracebacks scrubs them (:class:`ont_platform.redaction.SecretScrubber`)."""
        return ()

    def _bump(self) -> None:
        """Record a write (every write method of a backend that reports a :attr:`generation` calls this)."""
        self._generation += 1

    def select_nt(self, query: str) -> list[tuple[str | None, ...]]:
        """Run one of the library's own bulk reads (no time limit) and return each solution as a tuple of its
        terms in N-Triples syntax (``<iri>``, ``_:id``, ``"text"^^<datatype>``; ``None`` when unbound), in the
        order of the projected variables. Two terms are the same term exactly when their texts are equal.

        For reads of hundreds of thousands of rows, where building rdflib terms costs several times the
        query itself: the embedded Oxigraph store writes the text straight from its engine's terms.
        """
        rows = self.select(query)
        return [tuple(None if v is None else v.n3() for v in row.values()) for row in rows]

    def iter_values(self, query: str) -> Iterator[tuple[str | None, ...]]:
        """Run one of the library's own bulk reads (no time limit) and yield each solution as a tuple of its
        terms' values (an IRI's text, a literal's lexical form, a blank node's label; ``None`` when unbound),
        read lazily where the backend can (the embedded Oxigraph store): for reads of millions of rows that are
        consumed one at a time and never held together."""
        for row in self.select(query):
            yield tuple(None if v is None else str(v) for v in row.values())

    def triples(
        self,
        pattern: tuple[Node | None, Node | None, Node | None],
        *,
        timeout: float | None = None,
        max_rows: int | None = None,
        derived: Sequence[str] = (),
    ) -> tuple[list[tuple[Node, Node, Node]], bool]:
        """The triples matching one pattern (``None`` matches any term), at most ``max_rows`` of them, and whether
        more were left out: rdflib's ``Graph.triples`` over any backend.

        Why one SPARQL SELECT and not an engine's own pattern API: the interface speaks SPARQL to every backend
        (a remote endpoint has nothing else), and one triple pattern is a single index range scan on all of
        them, so its cost is the number of matches. A backend may override this with its native call
        (pyoxigraph ``quads_for_pattern``, rdflib ``Graph.triples``) as long as the answer is the same.

        A blank node cannot be named in SPARQL text (a label there is a fresh variable), so a blank node in the
        pattern becomes a variable restricted to blank nodes and the solutions are compared with it here. That
        works where a backend's blank node labels are stable between reads (embedded Oxigraph, rdflib) and
        costs a scan of every triple with a blank node in that place; the row cap then applies after the
        comparison. Raises :class:`~ont_platform.errors.InputError` for a term that is not an IRI, literal or
        blank node (a SPARQL variable, a path). ``derived``: derived graphs read together with the stated graph
        (:meth:`select_derived`).
        """
        from ont_platform.errors import InputError
        from ont_platform.rdf_terms import iri, literal

        check_max_rows(max_rows)
        if not isinstance(pattern, tuple) or len(pattern) != 3:
            raise InputError(f"a triple pattern is a tuple (subject, predicate, object), not {pattern!r}")
        names = ("s", "p", "o")
        where: list[str] = []
        blanks: dict[str, BNode] = {}
        for name, term in zip(names, pattern, strict=True):
            if term is None:
                where.append(f"?{name}")
            elif isinstance(term, BNode):
                where.append(f"?{name}")
                blanks[name] = term
            elif isinstance(term, URIRef):
                where.append(iri(str(term)))
            elif isinstance(term, Literal) and name == "o":
                where.append(
                    literal(str(term), str(term.datatype) if term.datatype is not None else None, term.language)
                )
            else:
                raise InputError(
                    f"cannot match {term!r} as the {dict(s='subject', p='predicate', o='object')[name]} "
                    "of a triple: use an IRI, a literal (objects only), a blank node or None"
                )
        free = [n for n, t in zip(names, pattern, strict=True) if t is None or isinstance(t, BNode)]
        filters = "".join(f" FILTER(isBlank(?{n}))" for n in blanks)
        body = " ".join(where)
        if free:
            query = f"SELECT {' '.join('?' + n for n in free)} WHERE {{ {body} .{filters} }}"
        else:
            query = f"SELECT (1 AS ?found) WHERE {{ {body} }}"
        if max_rows is not None and not blanks:
            query += f" LIMIT {max_rows + 1}"  # the engine stops there; the cap below marks the truncation
        cap = None if blanks else max_rows
        if derived:
            rows = self.select_derived(query, derived, timeout=timeout, max_rows=cap)
        else:
            rows = self.select(query, timeout=timeout, max_rows=cap)
        found: list[tuple[Node, Node, Node]] = []
        for row in rows:
            if any(row.get(n) != b for n, b in blanks.items()):
                continue
            found.append(tuple(row[n] if n in free else t for n, t in zip(names, pattern, strict=True)))  # type: ignore[arg-type]
            if max_rows is not None and len(found) > max_rows:
                return found[:max_rows], True
        return found, bool(rows.truncated)

    # -- derived graphs: computed from the stated graph by the library, kept beside it --------------------------

    @property
    def derived_writable(self) -> bool:
        """Whether this store can write derived graphs (:meth:`replace_derived`) now."""
        return False

    def derived_current(self, graph: str, version: str) -> bool:
        """Whether the derived graph ``graph`` was computed (by the code named ``version``) from the stated graph
        as it is now. A store without derived graphs has none current."""
        return False

    def replace_derived(self, graph: str, version: str, triples: Iterable[tuple[str, str, str]]) -> int:
        """Replace the derived graph ``graph`` by ``triples`` (terms in N-Triples syntax, blank nodes labelled as
        :meth:`select_nt` gives them), recorded as computed by ``version`` from the stated graph as it is now;
        returns how many triples it holds.

        Why a derived graph is not part of the store's graph: reasoning's entailments must never mix with the
        stated triples that answers cite and ``ont verify`` checks. Every other read and write (``select``,
        ``dump``, ``len``, the stamp) sees the stated graph only; :meth:`clear` drops derived graphs too."""
        from ont_platform.errors import StoreError

        raise StoreError(
            f"the {self.backend} backend keeps no derived graphs (reasoning): use the embedded oxigraph store"
        )

    def drop_derived(self, graph: str) -> None:
        """Remove the derived graph ``graph`` (nothing happens when there is none)."""
        return None  # a backend without derived graphs has none to remove

    def select_derived(
        self,
        query: str,
        graphs: Sequence[str],
        *,
        timeout: float | None = None,
        max_rows: int | None = None,
        untrusted: bool = False,
    ) -> Rows:
        """:meth:`select` over the stated graph together with the derived ``graphs`` (their union as the query's
        default graph)."""
        from ont_platform.errors import StoreError

        raise StoreError(
            f"the {self.backend} backend keeps no derived graphs (reasoning): use the embedded oxigraph store"
        )

    def ask_derived(
        self, query: str, graphs: Sequence[str], *, timeout: float | None = None, untrusted: bool = False
    ) -> bool:
        """:meth:`ask` over the stated graph together with the derived ``graphs``."""
        from ont_platform.errors import StoreError

        raise StoreError(
            f"the {self.backend} backend keeps no derived graphs (reasoning): use the embedded oxigraph store"
        )

    def in_derived(self, graphs: Sequence[str], triples: Sequence[tuple[Node, Node, Node]]) -> list[bool]:
        """For each triple, whether one of the derived ``graphs`` holds it (blank nodes compared by label)."""
        return [False] * len(triples)

    def all_triples(self) -> Iterator[tuple[Node, Node, Node]]:
        """Every triple of the graph, as rdflib terms, read lazily from one N-Triples :meth:`dump`.

        Why a dump and not a SELECT: the whole graph is what was asked for, so no row cap applies, and the
        dump is the one read every backend already makes complete (a remote endpoint's result cut at its row
        limit is paged and counted there). Terms are built one triple at a time by pyoxigraph's parser; only
        the N-Triples text is held whole. Blank nodes keep the labels the dump gives them, which are the ones
        :meth:`select` returns on the embedded Oxigraph and rdflib backends.
        """
        import pyoxigraph as ox

        from ont_platform.storage._terms import from_oxigraph

        data = self.dump(RdfFormat.NTRIPLES)
        for quad in ox.parse(data, format=ox.RdfFormat.N_TRIPLES):
            yield from_oxigraph(quad.subject), from_oxigraph(quad.predicate), from_oxigraph(quad.object)  # type: ignore[misc]

    @abstractmethod
    def select(
        self, query: str, *, timeout: float | None = None, max_rows: int | None = None, untrusted: bool = False
    ) -> Rows:
        """Run a SPARQL SELECT and return its solutions in order, at most ``max_rows`` of them (see above)."""

    @abstractmethod
    def ask(self, query: str, *, timeout: float | None = None, untrusted: bool = False) -> bool:
        """Run a SPARQL ASK, stopped after ``timeout`` seconds when one is given (see above)."""

    @abstractmethod
    def add_ntriples(self, data: str) -> None:
        """Add the triples of an N-Triples document, all or nothing."""

    def add_ntriples_stream(self, chunks: Iterable[bytes], *, before_commit: Callable[[], None] | None = None) -> None:
        """Add an N-Triples document given as UTF-8 ``bytes`` chunks, all or nothing.

        Only the concatenation matters: a chunk may end anywhere, even inside a line. If iterating ``chunks``
        raises, that exception propagates unchanged and nothing is written. ``before_commit`` is called once
        every chunk has been read and before anything is kept; if it raises, that exception propagates
        unchanged and nothing is written. This default reads every chunk first and makes one
        :meth:`add_ntriples` call; the embedded Oxigraph store overrides it to parse the chunks as they come,
        in one transaction, so a large batch is never held whole in memory.
        """
        from ont_platform.errors import InputError, RDFSyntaxError

        parts: list[bytes] = []
        for chunk in chunks:
            if not isinstance(chunk, bytes | bytearray | memoryview):
                raise InputError(f"N-Triples chunks must be bytes, got {type(chunk).__name__}")
            parts.append(bytes(chunk))
        try:
            text = b"".join(parts).decode("utf-8")
        except UnicodeDecodeError as exc:
            raise RDFSyntaxError(f"N-Triples must be UTF-8 (byte {exc.start} is not)") from exc
        del parts
        if before_commit is not None:
            before_commit()
        self.add_ntriples(text)

    @abstractmethod
    def update(self, sparql_update: str) -> None:
        """Run a SPARQL UPDATE request, all or nothing."""

    @abstractmethod
    def dump(self, fmt: RdfFormat = RdfFormat.NTRIPLES) -> bytes:
        """Serialise the whole graph."""

    @abstractmethod
    def load_rdf(self, data: bytes, fmt: RdfFormat) -> None:
        """Parse RDF text and add its triples, all or nothing. Syntax errors raise RDFSyntaxError."""

    @abstractmethod
    def __len__(self) -> int:
        """Number of triples in the graph."""

    @abstractmethod
    def clear(self) -> None:
        """Remove every triple."""

    @abstractmethod
    def close(self) -> None:
        """Release the backend (files, locks, connections). Idempotent."""

    def __enter__(self) -> Store:
        return self

    def __exit__(self, *exc: object) -> None:
        self.close()
