"""Dataset folders (SPEC section 3) to RDF: every row checked, every problem reported with file and line.

A folder holds the tables of one domain: ``onchain_nodes.csv`` + ``onchain_edges.csv``, ``kg_nodes.csv`` +
``kg_edges.csv`` + ``kg_chunks.csv``, or ``pages.csv`` (+ ``columns.csv``, ``predicates.csv``), with an
optional ``meta.json``. kg tables beside an ``ontology.ttl`` (and ``shapes.ttl``) are checked against that
ontology instead of the bundled one: which domain a folder holds is :func:`ont_platform.domains.domain_of_folder`'s
answer, and the domain's ontology and shapes drive every check below.

:func:`open_dataset` reads the folder as a stream: :meth:`DatasetLoad.chunks` reads the tables row by row,
checks each row and yields the N-Triples of the valid ones in chunks, so a large dataset is never held in memory
whole. Problems do not stop the reading (every one is reported); once the last row is read the generator raises
:class:`DatasetError` listing them, or the SHACL violations it found, *before* it ends. A store that consumes
the chunks in one transaction (:meth:`ont_platform.storage.Store.add_ntriples_stream`) therefore commits a
dataset whole or not at all. :func:`build_dataset` runs the same stream into one ``bytes`` object.

SHACL at load (``shacl=``): ``"full"`` validates the batch as one graph (the compiled shapes, or pyshacl for
shapes they do not cover); ``"rows"`` validates every resource on its own row with the compiled shapes
(:mod:`ont_platform.validation.rowwise`), as the rows stream by, and the few shapes that one row cannot decide
on a sample; ``"sample"`` validates only a bounded set of resources chosen while streaming
(:class:`~ont_platform.ingest.builder.ShaclSample`: the first resource of each row signature, a seeded sample of
each table, every row that produced a warning, each with the neighbours its shapes look at); ``"auto"`` (the
default) is the whole batch up to :data:`FULL_SHACL_MAX_TRIPLES` triples and the rows above (the sample when the
shapes cannot be compiled); ``"off"`` skips it. :class:`ShaclReport` says what ran and names every shape that
was checked on a sample only. The row checks of a large folder (:data:`BESIDE_MIN_BYTES`) run in a second
interpreter (:mod:`ont_platform.ingest.beside`, :func:`check_beside`). Read with ``settle_later`` (a load of a
new domain), the stream is the text that process produced as it checked the rows, sent over a pipe: this
process reads no table, and the store's engine has its core (the duplicate reading was ~300 s of CPU at 10M
transfers). Otherwise both read the folder, and the stream meets the checks' outcome, and the digest of the
text they checked, before its last chunk. Either way :meth:`DatasetLoad.settle` (or the end of the stream)
raises their problems before the store keeps the write. See docs/validation.md.

Before anything else, :func:`check_folder` looks at every file a dataset folder may hold (the tables,
``meta.json``, ``columns.csv``, ``predicates.csv``, ``ontology.ttl``, ``shapes.ttl``): each must be a regular
file inside the folder (a symbolic link may point to another file of the folder) and within its size limit
(tables: ``Limits.max_file_bytes``; :data:`META_MAX_BYTES` and :data:`ONTOLOGY_MAX_BYTES`), or the dataset is
refused with a :class:`DatasetError` naming the file. Ids and text cells follow the one text policy of
:mod:`ont_platform.text_policy`; which columns hold ids and which long text is said where each table is opened.
"""

from __future__ import annotations

import contextlib
import hashlib
import json
import logging
import os
import re
import time
from collections.abc import Callable, Generator, Iterator, Mapping
from dataclasses import dataclass, field
from datetime import UTC, date, datetime
from decimal import Decimal, InvalidOperation
from pathlib import Path
from typing import TYPE_CHECKING, Literal, get_args
from urllib.parse import unquote

from rdflib import RDF, RDFS, SKOS, URIRef

from ont_platform.domains import Domain, domain_of_folder
from ont_platform.domains.registry import ONTOLOGY_FILE, SHAPES_FILE
from ont_platform.errors import DatasetError, InputError, Problem
from ont_platform.families import DEFAULT_FAMILY, Dataset, TableFamily, families, get_family
from ont_platform.ingest.addresses import AddressError, normalize_address
from ont_platform.ingest.beside import Beside, finish, send
from ont_platform.ingest.builder import (
    ChunkWriter,
    Key,
    Minter,
    ShaclSample,
    datatype_suffix,
    plain,
    tagged,
    term,
    typed,
)
from ont_platform.ingest.idlines import IdLines
from ont_platform.ingest.tables import (
    FileRefused,
    Row,
    TableReader,
    check_regular,
    open_table,
    read_regular,
    read_table,
)
from ont_platform.jsonl import TooDeep, loads
from ont_platform.limits import DEFAULT_LIMITS, Limits
from ont_platform.namespaces import OC, ONT, PG, dataset_iri
from ont_platform.ontology import DomainOntology
from ont_platform.ontology.model import Column
from ont_platform.text_policy import TextKind

if TYPE_CHECKING:  # the checks import pyshacl's helpers: loaded when a load validates, not with the package
    from rdflib import Graph

    from ont_platform.ontology.shacl import Violation
    from ont_platform.validation.rowwise import RowChecker
    from ont_platform.validation.shapes import CompiledShapes, RowPlan

log = logging.getLogger(__name__)

_TX_HASH = re.compile(r"^0[xX][0-9a-fA-F]{1,64}$")
_UINT = re.compile(r"^[0-9]+$")
_BOOL = {"true": "true", "1": "true", "yes": "true", "false": "false", "0": "false", "no": "false"}


META_MAX_BYTES = 1024 * 1024
"""Largest ``meta.json`` a dataset folder may hold (it holds one date)."""
ONTOLOGY_MAX_BYTES = 16 * 1024 * 1024
"""Largest ``ontology.ttl`` or ``shapes.ttl`` a dataset folder may hold (the bundled ones are a few tens of
kilobytes; the text is also stored in the graph, see :func:`domain_record`)."""

_ONCHAIN_NODE_KINDS: Mapping[str, TextKind] = {"node_id": "id"}
_ONCHAIN_EDGE_KINDS: Mapping[str, TextKind] = {"edge_id": "id", "from": "id", "to": "id"}
_KG_NODE_KINDS: Mapping[str, TextKind] = {"node_id": "id"}
_KG_EDGE_KINDS: Mapping[str, TextKind] = {"edge_id": "id", "src": "id", "dst": "id", "chunk_id": "id"}
_KG_CHUNK_KINDS: Mapping[str, TextKind] = {"chunk_id": "id", "text": "text"}
"""Text-policy kinds of the columns that are not labels: ids (NFKC, one script) and long text (line breaks)."""

ShaclMode = Literal["auto", "full", "rows", "sample", "off"]
SHACL_MODES: tuple[str, ...] = get_args(ShaclMode)

FULL_SHACL_MAX_TRIPLES = 10_000
"""In ``"auto"`` mode, batches up to this many triples are validated as one graph; larger ones row by row."""

BESIDE_MIN_BYTES = 8 * 1024 * 1024
"""Tables at least this large (all of a folder's together) have their row checks run by a second process,
beside the load, when the machine has two cores or more (:mod:`ont_platform.ingest.beside`). Below it the
second interpreter's start (about a second) would cost more than it saves."""

# Terms formatted once. Predicates and classes of the core vocabulary, and the datatype suffixes in use.
_TYPE = term(RDF.type)
_ID = term(ONT.id)
_SOURCE, _TARGET, _KIND = term(ONT.source), term(ONT.target), term(ONT.kind)
_GROUNDED, _CHUNK, _TEXT = term(ONT.grounded), term(ONT.chunk), term(ONT.text)
_LABEL, _ALT = term(RDFS.label), term(SKOS.altLabel)
_RAW, _NORM, _TX = term(OC.rawAddress), term(OC.addressNorm), term(OC.txHash)
_VALUE, _TOKEN, _BLOCK, _STAMP = term(OC.value), term(OC.token), term(OC.blockNumber), term(OC.timestamp)
_CHUNK_CLASS, _DATASET_CLASS, _DOMAIN, _AS_OF = term(ONT.Chunk), term(ONT.Dataset), term(ONT.domain), term(ONT.asOf)
_WEBPAGE, _URL = term(PG.WebPage), term(PG.url)
_XSD_INTEGER, _XSD_DATETIME = datatype_suffix("integer"), datatype_suffix("dateTime")
_XSD_BOOLEAN, _XSD_DATE = datatype_suffix("boolean"), datatype_suffix("date")
_XSD_ANYURI, _XSD_DECIMAL = datatype_suffix("anyURI"), datatype_suffix("decimal")


@dataclass(frozen=True, slots=True)
class ShaclReport:
    """Which SHACL pass ran over a load and how much it covered."""

    mode: str
    """``"full"`` (the batch as one graph), ``"rows"`` (every resource on its own row), ``"sampled"`` (the
    chosen resources and their neighbours) or ``"off"``."""
    resources: int = 0
    """Resources validated (distinct subjects of the validated graph; in ``"rows"``, each row's resources)."""
    triples: int = 0
    """Triples validated."""
    sampled_shapes: tuple[str, ...] = ()
    """Shapes checked on a sample only (with ``"rows"``: the ones one row cannot decide; with ``"sampled"``: all
    of them), each with the reason."""
    sample_resources: int = 0
    """Resources in that sample."""


@dataclass
class BuiltDataset:
    """A checked dataset in one piece (:func:`build_dataset`): for tests, tools and small folders."""

    domain: str
    data: bytes
    as_of: date | None
    warnings: list[Problem] = field(default_factory=list)
    counts: dict[str, int] = field(default_factory=dict)
    triples: int = 0
    shacl: ShaclReport = ShaclReport("off")

    def text(self) -> str:
        """The N-Triples document."""
        return self.data.decode("utf-8")


def shacl_mode(value: bool | str) -> ShaclMode:
    """``True`` means ``"auto"``, ``False`` means ``"off"``; strings must be one of :data:`SHACL_MODES`."""
    if value is True:
        return "auto"
    if value is False:
        return "off"
    if isinstance(value, str) and value in SHACL_MODES:
        return value  # type: ignore[return-value]
    raise InputError(f"shacl must be True, False or one of {', '.join(SHACL_MODES)}; got {value!r}")


def open_dataset(
    folder: str | Path,
    *,
    limits: Limits = DEFAULT_LIMITS,
    shacl: bool | str = "off",
    ontology: str | Path | None = None,
    shapes: str | Path | None = None,
) -> Dataset:
    """Prepare to stream the dataset at ``folder`` (a folder of tables, or RDF data: a file or a folder of
    files, see :func:`ont_platform.domains.domain_of_folder`); for tables nothing is read beyond ``meta.json``
    until :meth:`DatasetLoad.chunks` is iterated. ``ontology`` and ``shapes``: files for a dataset that does not
    bring its own. Raises :class:`InputError` when the path is not a dataset."""
    path = Path(folder)
    mode = shacl_mode(shacl)
    if path.is_dir():
        check_folder(path, limits)
    spec = domain_of_folder(path, ontology=ontology, shapes=shapes)
    return get_family(spec.family).open_dataset(path, spec, limits, mode)


def table_dataset(folder: Path, spec: Domain, limits: Limits, mode: str) -> DatasetLoad:
    """A folder of CSV tables of ``spec``'s family, read by :class:`DatasetLoad`."""
    check_folder(folder, limits)
    return DatasetLoad(folder, spec, limits, shacl_mode(mode))


def check_folder(folder: Path, limits: Limits = DEFAULT_LIMITS) -> None:
    """Refuse a folder holding a dataset file that is not a regular file of the folder (a FIFO, a device, a
    link out of the folder) or is over its size limit, before any file is read: raise DatasetError naming
    each such file. Files that are not there are not looked for (the domain check says what is missing)."""
    if not folder.is_dir():
        return  # domain_of_folder says so
    sizes = {name: limits.max_file_bytes for family in families() for name in family.tables}
    sizes.update(
        {
            "columns.csv": limits.max_file_bytes,
            "predicates.csv": limits.max_file_bytes,
            "meta.json": META_MAX_BYTES,
            ONTOLOGY_FILE: ONTOLOGY_MAX_BYTES,
            SHAPES_FILE: ONTOLOGY_MAX_BYTES,
        }
    )
    problems = []
    for name, limit in sizes.items():
        path = folder / name
        if os.path.lexists(path):
            why = check_regular(path, limit, folder)
            if why is not None:
                problems.append(Problem(name, None, why))
    if problems:
        raise DatasetError(problems)


def build_dataset(folder: str | Path, *, limits: Limits = DEFAULT_LIMITS, shacl: bool | str = "off") -> BuiltDataset:
    """Read and check every table of the dataset in ``folder`` into one N-Triples document; raise
    DatasetError with all problems found."""
    path = Path(folder)
    check_folder(path, limits)
    load = table_dataset(path, domain_of_folder(path), limits, shacl_mode(shacl))
    data = b"".join(load.chunks())
    return BuiltDataset(load.domain, data, load.as_of, load.warnings, load.counts, load.triples, load.shacl)


class _Terms(dict[URIRef, str]):
    """``<…>`` of ontology terms (classes, relation properties), formatted on first use."""

    def __missing__(self, key: URIRef) -> str:
        value = self[key] = term(key)
        return value


RowText = Callable[[Row], "tuple[str, str] | None"]
"""Formats an already-checked row again as (its id, its lines): for a neighbour the SHACL sample needs."""

Reread = tuple[TableReader, RowText]


class DatasetLoad:
    """One dataset folder on its way into a store: :meth:`chunks` streams it once.

    After the stream has ended, ``warnings``, ``counts``, ``triples`` and ``shacl`` describe what it held.
    Row-origin information for SHACL messages is kept as the id-to-line maps the duplicate checks need
    anyway, one per table, so it costs no memory of its own.
    """

    def __init__(
        self,
        folder: Path,
        spec: Domain,
        limits: Limits,
        mode: ShaclMode,
        *,
        beside: bool | None = None,
        on_refused: Callable[[], None] | None = None,
    ) -> None:
        """``beside``: run the row checks in a second process (``None``: when the tables reach
        :data:`BESIDE_MIN_BYTES` and there are two cores). ``on_refused`` is called once, as soon as the batch
        is known to be refused."""
        self.folder = folder
        self.spec = spec
        """The domain the folder's tables belong to."""
        family = get_family(spec.family)
        if not isinstance(family, TableFamily):
            raise InputError(f"the {spec.family} family does not read tables")
        self._family: TableFamily = family
        self.domain = spec.name
        self.onto = spec.ontology
        self.limits = limits
        self.mode: ShaclMode = mode
        self._problems: list[Problem] = []
        self.as_of = _read_meta(folder, self._problems)
        self.warnings: list[Problem] = []
        self.counts: dict[str, int] = {}
        self.triples = 0
        self.shacl = ShaclReport("off")
        self._rows: RowChecker | None = None
        self._row_plan: RowPlan | None = None
        self._shapes: CompiledShapes | None = None
        if mode in ("auto", "rows", "full", "sample"):
            from ont_platform.validation.rowwise import RowChecker
            from ont_platform.validation.shapes import compiled

            self._shapes = compiled(spec)
        if mode in ("auto", "rows") and self._shapes is not None:
            foreign = [rel.iri for rel in self.onto.relations.values()]
            self._row_plan = self._shapes.row_plan(foreign)
            self._rows = RowChecker(self._shapes, foreign, self.types_of, self._row_plan)
        needs_sample = mode == "sample" or (
            mode in ("auto", "rows") and (self._row_plan is None or bool(self._row_plan.sampled))
        )
        self._sample: ShaclSample | None = ShaclSample() if needs_sample else None
        self._typed: list[tuple[str, Callable[[str], str | None]]] = []
        """(IRI prefix, id → class IRI) of the resources the tables define, for the row checks."""
        self._origins: list[tuple[str, str, dict[str, int] | IdLines]] = []
        self._extra: list[str] = []
        self._rereaders: dict[str, Reread] = {}
        self._started = False
        self._beside = beside
        self._on_refused = on_refused
        self.checks_beside: Beside | None = None
        """The second process running this load's row checks, once :meth:`chunks` has started it."""
        self._unsettled: bytes | None = None
        self._relayed: bool | None = None
        """With ``settle_later`` and the checks beside: whether the text they sent came to its end (``None``:
        this process read the tables itself)."""

    def problem(self, file: str, line: int, reason: str) -> None:
        """Record a problem of one row (``file:line: reason``): the load is refused, and every problem recorded
        is reported. A family's table reader (:meth:`ont_platform.families.Family.read_tables`) calls this
        for a row it cannot take, and goes on reading."""
        self._problems.append(Problem(file, line, reason))

    def chunks(self, *, settle_later: bool = False) -> Iterator[bytes]:
        """The batch as UTF-8 N-Triples chunks; raises DatasetError before the end if anything is wrong.

        ``settle_later``: when the row checks run beside the load, this process does not read the tables at
        all: the chunks are the text the second process produced as it checked the rows, passed on as it comes,
        and the stream ends without waiting for the checks' outcome. :meth:`settle` must then be called before
        the batch is committed (a store's bulk load finishes its files meanwhile): it raises the problems found,
        and only after it do ``counts``, ``warnings``, ``triples`` and ``shacl`` describe the batch. Call
        :meth:`close` when the batch will not be committed."""
        if self._started:
            raise InputError("a dataset stream can be read only once; open the dataset again")
        self._started = True
        beside = self._start_beside(relay=settle_later)
        ended = False
        try:
            if beside is not None and settle_later:
                yield from self._relay(beside)
                ended = True
                return
            last = yield from self._stream(beside, settle_later)
            ended = True
            if last is not None:
                yield last
        finally:
            if beside is not None and not (ended and settle_later):
                beside.stop()

    def _relay(self, beside: Beside) -> Iterator[bytes]:
        """The chunks the checks beside produced, as they send them (see :meth:`chunks`)."""
        self._relayed = False
        while True:
            piece = beside.read()
            if piece is None:  # they ended before the text did: settle() raises why
                return
            if not piece:
                self._relayed = True
                return
            yield piece

    def settle(self) -> None:
        """Wait for the outcome of the row checks run beside a stream read with ``settle_later``: raise their
        problems, or refuse a load whose text is not the text they checked. Without such checks, nothing to do."""
        beside, digest = self.checks_beside, self._unsettled
        if beside is None or (digest is None and self._relayed is None):
            return
        self._unsettled = None
        try:
            self._meet(beside, digest)
        finally:
            self._relayed = None
            beside.stop()

    def close(self) -> None:
        """Stop the row checks run beside this load, if they still run (a load that will not be committed)."""
        if self.checks_beside is not None:
            self.checks_beside.stop()

    def _stream(self, beside: Beside | None, settle_later: bool) -> Generator[bytes, None, bytes | None]:
        """Yields every chunk but the last, which it returns: the caller yields it once the batch is decided."""
        writer = ChunkWriter()
        keep: list[bytes] | None = [] if self.mode in ("auto", "full") and beside is None else None
        rows = self._rows if beside is None else None
        # in "auto" a batch that stays small is validated as one graph: its rows wait until it outgrows that
        waiting: list[str] | None = [] if rows is not None and self.mode == "auto" else None
        digest = hashlib.blake2b(digest_size=16) if beside is not None else None  # only the checks beside compare it
        refused = False
        for n, text in enumerate(self._family.read_tables(self)):
            if beside is not None and n % 256 == 0 and beside.failed():
                refused = True
                break  # the checks beside found a problem: their list is the whole one
            if waiting is not None:
                waiting.append(text)
                if writer.triples > FULL_SHACL_MAX_TRIPLES:
                    assert rows is not None
                    for earlier in waiting:
                        rows.add(earlier)
                    waiting = None
            elif rows is not None and len(rows.violations) < self.limits.max_problems:
                rows.add(text)  # every row is checked, also after a violation: all of them are reported
            if self._problems or (rows is not None and rows.violations):
                if not refused and self._on_refused is not None:
                    self._on_refused()
                refused = True
                continue  # the batch will be refused: keep checking rows, stop producing output
            chunk = writer.add(text)
            if chunk is not None:
                keep = self._keep(keep, chunk, writer.triples)
                if digest is not None:
                    digest.update(chunk)
                yield chunk
        if beside is not None and (refused or self._problems):
            self._meet(beside, None)  # raises: the problems found beside are the whole list
        if self._problems:
            if rows is not None and waiting is None:
                self._shacl_problems(rows.finish())
            raise DatasetError(self._problems[: self.limits.max_problems])
        ds = term(dataset_iri(self.domain))
        text = f"{ds} {_TYPE} {_DATASET_CLASS} .\n{ds} {_DOMAIN} {plain(self.domain)} .\n"
        if self.as_of is not None:
            text += f"{ds} {_AS_OF} {typed(self.as_of.isoformat(), _XSD_DATE)} .\n"
        text += domain_record(self.spec)
        self._extra.append(text)
        writer.add(text)
        last = writer.flush()
        if last is not None:
            keep = self._keep(keep, last, writer.triples)
            if digest is not None:
                digest.update(last)
        self.triples = writer.triples
        if beside is not None:
            assert digest is not None
            if settle_later:
                self._unsettled = digest.digest()
            else:
                self._meet(beside, digest.digest())
            return last
        if rows is not None and keep is None:  # validated row by row (in "auto": it outgrew the one graph)
            for earlier in waiting or ():
                rows.add(earlier)
            rows.add(text)
        self._validate(keep)
        return last

    def _start_beside(self, *, relay: bool = False) -> Beside | None:
        """The second process for the row checks, when this load has them and is large enough to gain;
        ``relay``: it also sends the text it produces, for this process to pass on instead of reading the
        tables itself."""
        if self._rows is None or self._beside is False:
            return None
        if self._beside is None:
            size = 0
            for name in self.spec.tables:
                with contextlib.suppress(OSError):
                    size += (self.folder / name).stat().st_size
            if size < BESIDE_MIN_BYTES or _usable_cores() < 2:
                return None
        try:
            self.checks_beside = Beside(
                "ont_platform.ingest.datasets:check_beside",
                self.folder,
                self.spec,
                self.limits,
                self.mode,
                data=relay,
            )
        except OSError as exc:  # no interpreter to start (an embedded Python): the checks run here
            log.warning("the row checks run in the load's own process: no second one started (%s)", exc)
            return None
        self._sample = None  # the second process takes the sample too
        return self.checks_beside

    def _meet(self, beside: Beside, digest: bytes | None) -> None:
        """Take the outcome of the checks run beside: raise their problems (or this stream's own), or refuse
        a load whose text differs from what they checked; else adopt their SHACL report."""
        waited = time.perf_counter()
        problems, shacl, theirs, summary = beside.result()
        log.info("the load waited %.1f s for the row checks beside it", time.perf_counter() - waited)
        self.shacl = shacl
        if problems:
            raise DatasetError(problems[: self.limits.max_problems])
        if self._problems:  # the checks beside saw none: the tables changed between the two readings
            raise DatasetError(self._problems[: self.limits.max_problems])
        if self._relayed is not None:  # their text is the text the store took in, if it came to its end
            if not self._relayed or summary is None:
                why = "the row checks beside the load ended before the text they sent did"
                raise DatasetError([Problem(str(self.folder), None, why)])
            self.counts, self.warnings, self.triples = summary
            return
        if digest is None or theirs != digest:
            why = "the tables changed while they were loaded (the rows checked are not the rows read)"
            raise DatasetError([Problem(str(self.folder), None, why)])

    def _keep(self, keep: list[bytes] | None, chunk: bytes, triples: int) -> list[bytes] | None:
        """Chunks kept for a whole-batch SHACL pass; in ``auto`` mode dropped once the batch outgrows it."""
        if keep is None or (self.mode == "auto" and triples > FULL_SHACL_MAX_TRIPLES):
            return None
        keep.append(chunk)
        return keep

    def types_of(self, resource: str) -> frozenset[str] | None:
        """The classes (IRIs) of a resource the tables define, by its IRI; ``None`` for another IRI."""
        for prefix, lookup in self._typed:
            if resource.startswith(prefix):
                found = lookup(unquote(resource[len(prefix) :]))
                if found is not None:
                    return frozenset((found,))
        return None

    def _shacl_problems(self, violations: list[Violation]) -> None:
        for v in violations:
            if len(self._problems) >= self.limits.max_problems:
                break
            file, line = self.origin(v.focus)
            where = f" ({v.path.rsplit('#', 1)[-1]})" if v.path else ""
            self._problems.append(Problem(file, line, f"{v.message}{where} [{v.focus.rsplit('/', 1)[-1]}]"))

    def _validate(self, whole: list[bytes] | None) -> None:
        if self.mode == "off":
            return
        from rdflib import Graph

        from ont_platform.ontology.shacl import check
        from ont_platform.validation.shapes import Triples

        shapes = self._shapes
        if whole is not None:  # the batch as one graph
            batch = Graph()
            batch.parse(data=b"".join(whole), format="nt")
            # the shapes run compiled (~15x pyshacl); pyshacl when a shapes file needs more than they cover
            violations = shapes.violations(Triples(batch)) if shapes is not None else check(batch, self.spec)
            self.shacl = ShaclReport("full", resources=len(set(batch.subjects())), triples=len(batch))
            self._raise(violations)
            return
        rows, plan = self._rows, self._row_plan
        violations = rows.finish() if rows is not None else []
        sampled: list[str] = []
        graph: Graph | None = None
        if self._sample is not None:
            graph = self._sampled_graph()
            if shapes is None:  # nothing compiled: pyshacl on the sample, for every shape
                from ont_platform.validation.shapes import not_compiled

                violations += check(graph, self.spec)
                why, names = not_compiled(self.spec)
                sampled = [f"{name}: the shapes do not compile ({why})" for name in names]
            elif plan is None:  # "sample" asked for
                violations += shapes.violations(Triples(graph))
                sampled = ['every shape (shacl="sample")']
            else:
                only = [i for i, name in enumerate(shapes.names) if name in plan.sampled]
                violations += shapes.violations(Triples(graph), only=only)
                sampled = [f"{name}: {why}" for name, why in plan.sampled.items()]
        sample_size = len(set(graph.subjects())) if graph is not None else 0
        if rows is not None:
            self.shacl = ShaclReport(
                "rows",
                resources=rows.stats.resources,
                triples=rows.stats.triples,
                sampled_shapes=tuple(sampled),
                sample_resources=sample_size,
            )
        else:
            assert graph is not None
            self.shacl = ShaclReport(
                "sampled",
                resources=sample_size,
                triples=len(graph),
                sampled_shapes=tuple(sampled),
                sample_resources=sample_size,
            )
        self._raise(violations)

    def _sampled_graph(self) -> Graph:
        """The sampled resources with the neighbours their shapes look at (the neighbours' rows read again)."""
        from rdflib import Graph

        assert self._sample is not None
        texts = [p.text for p in self._sample.picked()]
        for kind, (reader, fn) in self._rereaders.items():
            needed = self._sample.needed(kind)
            if not needed:
                continue
            for row in reader.rows():
                found = fn(row)
                if found is not None and found[0] in needed:
                    needed.discard(found[0])
                    texts.append(found[1])
        graph = Graph()
        graph.parse(data="".join([*texts, *self._extra]).encode("utf-8"), format="nt")
        return graph

    def _raise(self, violations: list[Violation]) -> None:
        if violations:
            self._shacl_problems(sorted(set(violations), key=lambda v: (v.focus, v.path or "", v.message)))
            raise DatasetError(self._problems[: self.limits.max_problems])

    def origin(self, resource: str) -> tuple[str, int | None]:
        """The file and line that produced ``resource`` (an IRI), or the folder when no row did."""
        for prefix, file, lines in self._origins:
            if resource.startswith(prefix):
                line = lines.get(unquote(resource[len(prefix) :]))
                if line is not None:
                    return file, line
        return str(self.folder), None


def check_beside(
    folder: Path,
    spec: Domain,
    limits: Limits,
    mode: ShaclMode,
    *,
    failed: Callable[[], None],
    out: int | None = None,
) -> tuple[list[Problem], ShaclReport, bytes, tuple[dict[str, int], list[Problem], int] | None]:
    """The second process's side of a load (:class:`~ont_platform.ingest.beside.Beside`): the same stream with
    every row checked. With ``out`` (the data pipe) each chunk is sent there as it is made, for the load to take
    in; a stream that fails stops sending without the end mark. Returns the problems (none when it passed), the
    SHACL report, the digest of the text it produced (without ``out``) and, when it passed, the batch's counts, warnings and
    number of triples; ``failed`` is called as soon as the batch is known to be refused."""
    load = DatasetLoad(folder, spec, limits, mode, beside=False, on_refused=failed)
    digest = hashlib.blake2b(digest_size=16)
    try:
        for chunk in load.chunks():
            if out is None:
                digest.update(chunk)
            else:  # the load takes in this very text: no digest to compare (~20 s of CPU at 10M transfers)
                send(out, chunk)
    except DatasetError as exc:
        if out is not None:
            os.close(out)  # no end mark: the load's stream stops, and its settle() raises these problems
        return exc.problems, load.shacl, b"", None
    if out is not None:
        finish(out)
    return [], load.shacl, digest.digest(), (load.counts, load.warnings, load.triples)


def _usable_cores() -> int:
    if hasattr(os, "sched_getaffinity"):
        return len(os.sched_getaffinity(0))
    return os.cpu_count() or 1


def _read_meta(folder: Path, problems: list[Problem]) -> date | None:
    meta = folder / "meta.json"
    if not os.path.lexists(meta):
        return None
    try:
        doc = loads(read_regular(meta, META_MAX_BYTES, folder).decode("utf-8"), where="meta.json")
    except FileRefused as exc:
        problems.append(Problem("meta.json", None, str(exc)))
        return None
    except (OSError, UnicodeDecodeError, json.JSONDecodeError) as exc:
        problems.append(Problem("meta.json", None, f"not valid JSON: {str(exc)[:200]}"))
        return None
    except TooDeep:
        problems.append(Problem("meta.json", None, "nested too deeply to be a meta file"))
        return None
    if not isinstance(doc, dict):
        problems.append(Problem("meta.json", None, "must be a JSON object"))
        return None
    raw = doc.get("as_of")
    if raw is None:
        return None
    text = str(raw)  # a number too long for str() was refused by the JSON reader
    try:
        return date.fromisoformat(text)
    except ValueError:
        shown = repr(raw) if len(text) <= 40 else f"{text[:40]!r}... ({len(text)} characters)"
        problems.append(Problem("meta.json", None, f"as_of must be YYYY-MM-DD, got {shown}"))
        return None


def _class_of(onto: DomainOntology, name: str, file: str, row: Row, problems: list[Problem]) -> URIRef | None:
    cls = onto.class_iri(name)
    if cls is None:
        known = ", ".join(sorted(onto.classes))
        problems.append(Problem(file, row.line, f"unknown class {name!r} (known: {known})"))
    return cls


def _check_label(text: str, file: str, row: Row, problems: list[Problem], limits: Limits) -> bool:
    if len(text) > limits.max_label_chars:
        problems.append(Problem(file, row.line, f"label longer than {limits.max_label_chars} characters"))
        return False
    return True


def _unique_id(
    value: str, seen: dict[str, int] | IdLines, kind: str, file: str, row: Row, problems: list[Problem]
) -> bool:
    if not value:
        problems.append(Problem(file, row.line, f"empty {kind}"))
        return False
    first = seen.setdefault(value, row.line)
    if first != row.line:
        problems.append(Problem(file, row.line, f"duplicate {kind} {value!r} (first on line {first})"))
        return False
    return True


# --- onchain -------------------------------------------------------------------------------------------------


def _onchain_node_text(n: str, node_id: str, cls: str, raw: str, norm: str | None, label: str) -> str:
    text = f"{n} {_TYPE} {cls} .\n{n} {_ID} {plain(node_id)} .\n"
    if raw:
        text += f"{n} {_RAW} {plain(raw)} .\n"
    if norm is not None:
        text += f"{n} {_NORM} {plain(norm)} .\n"
    if label:
        text += f"{n} {_LABEL} {plain(label)} .\n"
    return text


def _class_text(cls: URIRef | None) -> str | None:
    return str(cls) if cls is not None else None


def read_transfers(load: DatasetLoad) -> Iterator[str]:
    """The rows of an on-chain folder (``onchain_nodes.csv``, ``onchain_edges.csv``) as checked N-Triples."""
    folder, onto, problems, limits, sample = load.folder, load.onto, load._problems, load.limits, load._sample
    nodes = open_table(
        folder / "onchain_nodes.csv",
        ("node_id", "address", "onto_class"),
        ("label",),
        problems,
        limits,
        kinds=_ONCHAIN_NODE_KINDS,
    )
    edges = open_table(
        folder / "onchain_edges.csv",
        ("edge_id", "rel", "from", "to", "tx_hash"),
        ("value", "token", "block_number", "timestamp"),
        problems,
        limits,
        kinds=_ONCHAIN_EDGE_KINDS,
    )
    if nodes is None or edges is None:
        return
    nf, ef = nodes.name, edges.name
    node_iri, edge_iri, terms = Minter(load.domain, "node"), Minter(load.domain, "edge"), _Terms()
    node_class: dict[str, URIRef] = {}
    seen: dict[str, int] = {}
    by_address: dict[str, int] = {}
    unknown = onto.class_iri("Unknown")
    load._origins.append((node_iri.bare, nf, seen))
    load._typed.append((node_iri.bare, lambda i: _class_text(node_class.get(i))))
    for row in nodes.rows():
        node_id = row.get("node_id")
        if not _unique_id(node_id, seen, "node_id", nf, row, problems):
            continue
        cls = _class_of(onto, row.get("onto_class"), nf, row, problems)
        label = row.get("label")
        if cls is None or not _check_label(label, nf, row, problems, limits):
            continue
        raw = row.get("address")
        flagged = False
        try:
            norm: str | None = normalize_address(raw)
        except AddressError as exc:
            norm = None
            load.warnings.append(Problem(nf, row.line, f"{node_id}: {exc}; no address_norm, class Unknown"))
            assert unknown is not None, "the onchain ontology declares oc:Unknown"
            cls, flagged = unknown, True
        if norm is not None:
            if cls == unknown:
                problems.append(
                    Problem(
                        nf,
                        row.line,
                        f"{node_id}: class Unknown is for addresses that fail normalisation, but {raw!r} is valid",
                    )
                )
                continue
            if norm in by_address:
                problems.append(Problem(nf, row.line, f"address {norm} already used on line {by_address[norm]}"))
                continue
            by_address[norm] = row.line
        node_class[node_id] = cls
        if problems:
            continue
        text = _onchain_node_text(node_iri(node_id), node_id, terms[cls], raw, norm, label)
        if sample is not None:
            sample.offer(nf, (cls, bool(raw), norm is not None, bool(label)), ("node", node_id), text, flagged=flagged)
        yield text
    del by_address

    def node_again(row: Row) -> tuple[str, str] | None:
        node_id = row.get("node_id")
        cls = node_class.get(node_id)
        if cls is None:
            return None
        raw = row.get("address")
        try:
            norm: str | None = normalize_address(raw)
        except AddressError:
            norm = None
        return node_id, _onchain_node_text(node_iri(node_id), node_id, terms[cls], raw, norm, row.get("label"))

    load._rereaders["node"] = (nodes, node_again)
    seen_edges = IdLines()  # the largest table: its ids are not kept as strings
    load._origins.append((edge_iri.bare, ef, seen_edges))
    for row in edges.rows():
        edge_id = row.get("edge_id")
        if not _unique_id(edge_id, seen_edges, "edge_id", ef, row, problems):
            continue
        rel = onto.relations.get(row.get("rel"))
        if rel is None:
            problems.append(
                Problem(ef, row.line, f"unknown rel {row.get('rel')!r} (known: {', '.join(sorted(onto.relations))})")
            )
            continue
        src, dst = row.get("from"), row.get("to")
        bad = [n for n in (src, dst) if n not in node_class]
        if bad:
            problems.append(Problem(ef, row.line, f"{edge_id}: unknown node(s) {', '.join(map(repr, bad))}"))
            continue
        tx = row.get("tx_hash")
        if rel.inferred:
            if tx:
                problems.append(
                    Problem(ef, row.line, f"{edge_id}: {rel.notation} is inferred and cannot have a tx_hash")
                )
                continue
            if src == dst:
                problems.append(Problem(ef, row.line, f"{edge_id}: {rel.notation} from a node to itself"))
                continue
        else:
            if not _TX_HASH.match(tx):
                what = "missing" if not tx else f"not 0x + 1..64 hex digits: {tx[:70]!r}"
                problems.append(Problem(ef, row.line, f"{edge_id}: tx_hash {what}"))
                continue
        ok = True
        for end, node_id in (("from", src), ("to", dst)):
            allowed = rel.domain if end == "from" else rel.range
            if not onto.is_a(node_class[node_id], allowed):
                problems.append(
                    Problem(
                        ef,
                        row.line,
                        f"{edge_id}: {end} node {node_id!r} has a class outside the {rel.notation} {'domain' if end == 'from' else 'range'}",
                    )
                )
                ok = False
        attrs = _onchain_attrs(row, ef, edge_id, problems)
        if not ok or attrs is None or problems:
            continue
        e, s, o, kind = edge_iri(edge_id), node_iri(src), node_iri(dst), terms[rel.iri]
        text = (
            f"{e} {_TYPE} {terms[rel.resource_class]} .\n{e} {_ID} {plain(edge_id)} .\n"
            f"{e} {_SOURCE} {s} .\n{e} {_TARGET} {o} .\n{e} {_KIND} {kind} .\n"
        )
        if tx:
            text += f'{e} {_TX} "{tx.lower()}" .\n'  # 0x + hex digits: nothing to escape
        for pred, lit in attrs:
            text += f"{e} {pred} {lit} .\n"
        text += f"{s} {kind} {o} .\n"
        if sample is not None:
            signature = (rel.notation, bool(tx), *(pred for pred, _ in attrs))
            sample.offer(ef, signature, ("edge", edge_id), text, (("node", src), ("node", dst)))
        yield text
    load.counts.update(nodes=len(node_class), edges=len(seen_edges))


def _onchain_attrs(row: Row, file: str, edge_id: str, problems: list[Problem]) -> list[tuple[str, str]] | None:
    """The optional cells of a transfer as (predicate, literal) pairs, or None after reporting a bad cell."""
    out: list[tuple[str, str]] = []
    value, token, block, ts = row.get("value"), row.get("token"), row.get("block_number"), row.get("timestamp")
    if value:
        if not _UINT.match(value):
            problems.append(
                Problem(file, row.line, f"{edge_id}: value must be a whole number of base units, got {value[:40]!r}")
            )
            return None
        out.append((_VALUE, f'"{value.lstrip("0") or "0"}"'))  # exact digits, never int64/float
    if token:
        if token.upper() == "ETH":
            out.append((_TOKEN, '"ETH"'))
        else:
            try:
                out.append((_TOKEN, plain(normalize_address(token))))
            except AddressError as exc:
                problems.append(Problem(file, row.line, f"{edge_id}: token must be ETH or a contract address: {exc}"))
                return None
    if block:
        if not _UINT.match(block):
            problems.append(
                Problem(file, row.line, f"{edge_id}: block_number must be a whole number, got {block[:40]!r}")
            )
            return None
        out.append((_BLOCK, f'"{block.lstrip("0") or "0"}"{_XSD_INTEGER}'))
    if ts:
        stamp = _timestamp(ts)
        if stamp is None:
            problems.append(
                Problem(file, row.line, f"{edge_id}: timestamp must be unix seconds or ISO 8601, got {ts[:40]!r}")
            )
            return None
        out.append((_STAMP, f'"{stamp}"{_XSD_DATETIME}'))
    return out


def _timestamp(text: str) -> str | None:
    try:
        if _UINT.match(text):
            secs = int(text)
            if secs > 32503680000:  # year 3000: anything later is an error, not a date
                return None
            moment = datetime.fromtimestamp(secs, tz=UTC)
        else:
            moment = datetime.fromisoformat(text.replace("Z", "+00:00"))
            if moment.tzinfo is None:
                moment = moment.replace(tzinfo=UTC)
    except (ValueError, OverflowError, OSError):
        return None
    return moment.astimezone(UTC).strftime("%Y-%m-%dT%H:%M:%SZ")


# --- kg ------------------------------------------------------------------------------------------------------


def _kg_chunk_text(c: str, cid: str, text: str) -> str:
    return f"{c} {_TYPE} {_CHUNK_CLASS} .\n{c} {_ID} {plain(cid)} .\n{c} {_TEXT} {plain(text)} .\n"


def _kg_node_text(n: str, node_id: str, cls: str, label: str, aliases: list[str]) -> str:
    text = f"{n} {_TYPE} {cls} .\n{n} {_ID} {plain(node_id)} .\n{n} {_LABEL} {plain(label)} .\n"
    for alias in dict.fromkeys(aliases):
        text += f"{n} {_ALT} {plain(alias)} .\n"
    return text


def _aliases(row: Row) -> list[str]:
    return [a.strip() for a in row.get("aliases").split("|") if a.strip()]


def read_entities(load: DatasetLoad) -> Iterator[str]:
    """The rows of an entity–relation folder (``kg_nodes.csv``, ``kg_edges.csv``, ``kg_chunks.csv``) as checked
    N-Triples, against the folder's domain ontology (the bundled kg one or the user's own)."""
    folder, onto, problems, limits, sample = load.folder, load.onto, load._problems, load.limits, load._sample
    nodes = open_table(
        folder / "kg_nodes.csv", ("node_id", "class", "label"), ("aliases",), problems, limits, kinds=_KG_NODE_KINDS
    )
    edges = open_table(
        folder / "kg_edges.csv",
        ("edge_id", "src", "rel", "dst", "chunk_id", "grounded"),
        (),
        problems,
        limits,
        kinds=_KG_EDGE_KINDS,
    )
    chunks = open_table(folder / "kg_chunks.csv", ("chunk_id", "text"), (), problems, limits, kinds=_KG_CHUNK_KINDS)
    if nodes is None or edges is None or chunks is None:
        return
    node_iri, edge_iri, chunk_iri, terms = (
        Minter(load.domain, "node"),
        Minter(load.domain, "edge"),
        Minter(load.domain, "chunk"),
        _Terms(),
    )
    chunk_ids: dict[str, int] = {}
    load._origins.append((chunk_iri.bare, chunks.name, chunk_ids))
    load._typed.append((chunk_iri.bare, lambda i: str(ONT.Chunk) if i in chunk_ids else None))
    for row in chunks.rows():
        cid = row.get("chunk_id")
        if not _unique_id(cid, chunk_ids, "chunk_id", chunks.name, row, problems):
            continue
        if not row.get("text"):
            problems.append(Problem(chunks.name, row.line, f"chunk {cid!r} has no text"))
            continue
        if problems:
            continue
        text = _kg_chunk_text(chunk_iri(cid), cid, row.get("text"))
        if sample is not None:
            sample.offer(chunks.name, (), ("chunk", cid), text)
        yield text

    def chunk_again(row: Row) -> tuple[str, str] | None:
        cid = row.get("chunk_id")
        return (cid, _kg_chunk_text(chunk_iri(cid), cid, row.get("text"))) if cid in chunk_ids else None

    load._rereaders["chunk"] = (chunks, chunk_again)
    node_class: dict[str, URIRef] = {}
    seen: dict[str, int] = {}
    load._origins.append((node_iri.bare, nodes.name, seen))
    load._typed.append((node_iri.bare, lambda i: _class_text(node_class.get(i))))
    for row in nodes.rows():
        node_id = row.get("node_id")
        if not _unique_id(node_id, seen, "node_id", nodes.name, row, problems):
            continue
        cls = _class_of(onto, row.get("class"), nodes.name, row, problems)
        label = row.get("label")
        if not label:
            problems.append(Problem(nodes.name, row.line, f"{node_id}: label is required"))
            continue
        aliases = _aliases(row)
        if cls is None or not all(_check_label(t, nodes.name, row, problems, limits) for t in [label, *aliases]):
            continue
        node_class[node_id] = cls
        if problems:
            continue
        text = _kg_node_text(node_iri(node_id), node_id, terms[cls], label, aliases)
        if sample is not None:
            sample.offer(nodes.name, (cls, bool(aliases)), ("node", node_id), text)
        yield text

    def node_again(row: Row) -> tuple[str, str] | None:
        node_id = row.get("node_id")
        cls = node_class.get(node_id)
        if cls is None:
            return None
        return node_id, _kg_node_text(node_iri(node_id), node_id, terms[cls], row.get("label"), _aliases(row))

    load._rereaders["node"] = (nodes, node_again)
    seen_edges = IdLines()  # the largest table: its ids are not kept as strings
    load._origins.append((edge_iri.bare, edges.name, seen_edges))
    for row in edges.rows():
        edge_id = row.get("edge_id")
        if not _unique_id(edge_id, seen_edges, "edge_id", edges.name, row, problems):
            continue
        rel = onto.relations.get(row.get("rel"))
        if rel is None:
            problems.append(
                Problem(
                    edges.name, row.line, f"unknown rel {row.get('rel')!r} (known: {', '.join(sorted(onto.relations))})"
                )
            )
            continue
        src, dst, cid = row.get("src"), row.get("dst"), row.get("chunk_id")
        bad = [n for n in (src, dst) if n not in node_class]
        grounded = _BOOL.get(row.get("grounded").lower())
        if bad:
            problems.append(Problem(edges.name, row.line, f"{edge_id}: unknown node(s) {', '.join(map(repr, bad))}"))
            continue
        if grounded is None:
            problems.append(
                Problem(edges.name, row.line, f"{edge_id}: grounded must be true or false, got {row.get('grounded')!r}")
            )
            continue
        if cid and cid not in chunk_ids:
            problems.append(Problem(edges.name, row.line, f"{edge_id}: chunk {cid!r} is not in kg_chunks.csv"))
            continue
        if grounded == "true" and not cid:
            problems.append(Problem(edges.name, row.line, f"{edge_id}: grounded=true needs a chunk_id"))
            continue
        if src == dst:
            problems.append(Problem(edges.name, row.line, f"{edge_id}: relation from a node to itself"))
            continue
        wrong = [
            f"{end} {nid!r} is not in the {rel.notation} {what}"
            for end, nid, allowed, what in (("src", src, rel.domain, "domain"), ("dst", dst, rel.range, "range"))
            if not onto.is_a(node_class[nid], allowed)
        ]
        if wrong:
            problems.append(Problem(edges.name, row.line, f"{edge_id}: " + "; ".join(wrong)))
            continue
        if problems:
            continue
        e, s, o, kind = edge_iri(edge_id), node_iri(src), node_iri(dst), terms[rel.iri]
        text = (
            f"{e} {_TYPE} {terms[rel.resource_class]} .\n{e} {_ID} {plain(edge_id)} .\n"
            f"{e} {_SOURCE} {s} .\n{e} {_TARGET} {o} .\n{e} {_KIND} {kind} .\n"
            f"{e} {_GROUNDED} {typed(grounded, _XSD_BOOLEAN)} .\n"
        )
        needs: tuple[Key, ...] = (("node", src), ("node", dst))
        if cid:
            text += f"{e} {_CHUNK} {chunk_iri(cid)} .\n"
            needs += (("chunk", cid),)
        text += f"{s} {kind} {o} .\n"
        if sample is not None:
            sample.offer(edges.name, (rel.notation, grounded, bool(cid)), ("edge", edge_id), text, needs)
        yield text
    load.counts.update(nodes=len(node_class), edges=len(seen_edges), chunks=len(chunk_ids))


# --- pages ---------------------------------------------------------------------------------------------------

_OPS = {">", ">=", "<", "<=", "=", "!="}


def read_pages(load: DatasetLoad) -> Iterator[str]:
    """The rows of a page inventory (``pages.csv`` with ``columns.csv`` and ``predicates.csv``) as checked
    N-Triples.

    ``columns.csv`` types: ``integer``, ``decimal``, ``date``, ``boolean`` (cells ``true``/``false``), ``text``
    (any string) and ``rank`` (decimal positions where a smaller number is a higher rank: stored as a
    ``decimal`` column with ``pg:rankLike true``, the same flag the ontology gives a built-in rank column).
    A ``predicates.csv`` row must fit the column it names: a number for a numeric column, ``true``/``false``
    (with ``=`` or ``!=``) for a boolean one, a whole number of days with ``older_than_days`` /
    ``newer_than_days`` for a date one. Each row is its own resource, so two rows for one phrase never mix.
    """
    folder, onto, problems, limits, sample = load.folder, load.onto, load._problems, load.limits, load._sample
    numeric, date_ops, bools = ("integer", "decimal"), ("older_than_days", "newer_than_days"), ("true", "false")
    columns = dict(onto.columns)
    extra = folder / "columns.csv"
    if os.path.lexists(extra):  # open_table refuses what is not a regular file of the folder
        table = read_table(extra, ("column", "label_ko", "type"), ("aliases",), problems, limits)
        for row in table.rows if table else []:
            name, ctype = row.get("column"), row.get("type").lower()
            if not re.fullmatch(r"[a-z][a-z0-9_]{0,63}", name):
                problems.append(Problem(extra.name, row.line, f"column name must be lower_snake_case, got {name!r}"))
                continue
            if ctype not in ("integer", "decimal", "date", "boolean", "text", "rank"):
                problems.append(
                    Problem(
                        extra.name,
                        row.line,
                        f"type must be integer, decimal, date, boolean, text or rank, got {row.get('type')!r}",
                    )
                )
                continue
            rank, ctype = ctype == "rank", "decimal" if ctype == "rank" else ctype
            prop = PG[name]
            labels = [row.get("label_ko"), *[a.strip() for a in row.get("aliases").split("|") if a.strip()]]
            columns[name] = Column(name, prop, ctype, tuple(labels))
            p = term(prop)
            text = (
                f"{p} {term(PG.column)} {plain(name)} .\n{p} {term(PG.columnType)} {plain(ctype)} .\n"
                f"{p} {_LABEL} {tagged(row.get('label_ko'), 'ko')} .\n"
            )
            if rank:
                text += f"{p} {term(PG.rankLike)} {typed('true', _XSD_BOOLEAN)} .\n"
            for alias in labels[1:]:
                text += f"{p} {_ALT} {tagged(alias, 'ko')} .\n"
            load._extra.append(text)
            yield text
    preds = folder / "predicates.csv"
    if os.path.lexists(preds):
        table = read_table(preds, ("phrase", "op", "value"), ("applies_to",), problems, limits)
        predicate_iri = Minter(load.domain, "node")
        phrases_seen: set[str] = set()
        for row in table.rows if table else []:
            phrase, op, value, applies = row.get("phrase"), row.get("op"), row.get("value"), row.get("applies_to")
            if not phrase or op not in _OPS | set(date_ops):
                problems.append(
                    Problem(
                        preds.name, row.line, f"needs a phrase and an op in {sorted(_OPS | set(date_ops))}, got {op!r}"
                    )
                )
                continue
            if applies and applies not in columns:
                problems.append(Problem(preds.name, row.line, f"applies_to names unknown column {applies!r}"))
                continue
            target = columns[applies].type if applies else None
            if value.lower() in bools:
                kind, lexical, suffix = "boolean", value.lower(), _XSD_BOOLEAN
                if op not in ("=", "!="):
                    problems.append(Problem(preds.name, row.line, f"a true/false value needs = or !=, got {op!r}"))
                    continue
            else:
                try:
                    number = Decimal(value)
                except InvalidOperation:
                    number = Decimal("NaN")
                kind, lexical, suffix = ("date" if op in date_ops else "number"), format(number, "f"), _XSD_DECIMAL
                if not number.is_finite() or (
                    kind == "date" and (number != number.to_integral_value() or not 0 <= number <= 36_500)
                ):
                    want = "a whole number of days (0 to 36500)" if kind == "date" else "a number or true/false"
                    problems.append(Problem(preds.name, row.line, f"value must be {want}, got {value!r}"))
                    continue
                if kind == "date":
                    lexical = str(int(number))
            fits = {"boolean": ("boolean",), "date": ("date",), "number": numeric}[kind]
            if target is not None and target not in fits:
                problems.append(Problem(preds.name, row.line, f"{op} {value} does not fit {applies} ({target} column)"))
                continue
            # one resource per row: a phrase's later rows (other columns) must not merge into its first one
            key = f"predicate:{phrase}"
            if phrase in phrases_seen:
                key += f"|{applies}|{op}|{lexical}"
            phrases_seen.add(phrase)
            node = predicate_iri(key)
            text = (
                f"{node} {_TYPE} {term(PG.VaguePredicate)} .\n{node} {term(PG.phrase)} {plain(phrase)} .\n"
                f"{node} {term(PG.op)} {plain(op)} .\n{node} {term(PG.value)} {typed(lexical, suffix)} .\n"
            )
            if applies:
                text += f"{node} {term(PG.appliesTo)} {plain(applies)} .\n"
            load._extra.append(text)
            yield text
    text_columns: dict[str, TextKind] = {name: "text" for name, col in columns.items() if col.type == "text"}
    table_reader = open_table(folder / "pages.csv", ("url",), tuple(columns), problems, limits, kinds=text_columns)
    if table_reader is None:
        return
    name_of = table_reader.name
    cells = [
        (name, col.type, term(col.iri), datatype_suffix("string" if col.type == "text" else col.type))
        for name, col in columns.items()
    ]
    page_iri = Minter(load.domain, "page")
    seen: dict[str, int] = {}
    load._origins.append((page_iri.bare, name_of, seen))
    for row in table_reader.rows():
        url = row.get("url")
        if not _unique_id(url, seen, "url", name_of, row, problems):
            continue
        if not re.fullmatch(r"https?://[^\s<>\"{}|\\^`]+", url):
            problems.append(Problem(name_of, row.line, f"not an http(s) URL: {url[:80]!r}"))
            continue
        values: list[tuple[str, str, str]] = []
        for name, ctype, pred, suffix in cells:
            cell = row.get(name)
            if not cell:
                continue  # empty cells carry no value and never match a filter
            if ctype == "text":
                values.append((name, pred, plain(cell)))
                continue
            if ctype == "boolean":
                value_text = cell.lower() if cell.lower() in bools else None
            else:
                value_text = _typed_cell(cell, ctype)
            if value_text is None:
                want = "true or false" if ctype == "boolean" else ctype
                problems.append(Problem(name_of, row.line, f"{name} must be {want}, got {cell[:40]!r}"))
                break
            values.append((name, pred, typed(value_text, suffix)))
        else:
            if problems:
                continue
            page = page_iri(url)
            text = (
                f"{page} {_TYPE} {_WEBPAGE} .\n{page} {_ID} {plain(url)} .\n{page} {_URL} {typed(url, _XSD_ANYURI)} .\n"
            )
            for _name, pred, lit in values:
                text += f"{page} {pred} {lit} .\n"
            if sample is not None:
                sample.offer(name_of, tuple(n for n, _, _ in values), ("page", url), text)
            yield text
    load.counts.update(pages=len(seen), columns=len(columns))


def _typed_cell(cell: str, ctype: str) -> str | None:
    if ctype == "integer":
        return cell.lstrip("+") if re.fullmatch(r"[+-]?[0-9]+", cell) else None
    if ctype == "decimal":
        try:
            d = Decimal(cell)
        except InvalidOperation:
            return None
        return format(d, "f") if d.is_finite() else None
    try:
        return date.fromisoformat(cell).isoformat()
    except ValueError:
        return None


def domain_record(spec: Domain) -> str:
    """The N-Triples that let a store name a user's domain again: its ontology (and shapes) as Turtle text on
    the dataset resource. A bundled domain needs none: the library ships it."""
    if spec.bundled:
        return ""
    ds = term(dataset_iri(spec.name))
    text = f"{ds} {term(ONT.ontologyText)} {plain(spec.ontology_sources[0].read())} .\n"
    if spec.shapes_sources:
        text += f"{ds} {term(ONT.shapesText)} {plain(spec.shapes_sources[0].read())} .\n"
    if spec.family != DEFAULT_FAMILY:  # a record without one is read back in the default family
        text += f"{ds} {term(ONT.family)} {plain(spec.family)} .\n"
    return text
