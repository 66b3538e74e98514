"""Dataset folders (SPEC section 3) to RDF: every row checked, every problem reported with file and line.

A folder holds the tables of one domain: ``onchain_nodes.csv`` + ``onchain_edges.csv``, ``kg_nodes.csv`` +
``kg_edges.csv`` + ``kg_chunks.csv``, or ``pages.csv`` (+ ``columns.csv``, ``predicates.csv``), with an
optional ``meta.json``. :func:`build_dataset` turns it into one :class:`Batch` or raises
:class:`DatasetError` listing every problem; it never writes to a store, so the caller can commit the batch
whole or not at all.
"""

from __future__ import annotations

import json
import re
from dataclasses import dataclass, field
from datetime import date, datetime, timezone
from decimal import Decimal, InvalidOperation
from pathlib import Path

from rdflib import RDFS, SKOS, URIRef

from ont_platform.errors import DatasetError, InputError, Problem
from ont_platform.ingest.addresses import AddressError, normalize_address
from ont_platform.ingest.builder import Batch
from ont_platform.ingest.tables import Row, read_table
from ont_platform.limits import DEFAULT_LIMITS, Limits
from ont_platform.namespaces import OC, ONT, PG, dataset_iri, mint
from ont_platform.ontology import DomainOntology, load_domain

_TX_HASH = re.compile(r"^0[xX][0-9a-fA-F]{1,64}$")
_UINT = re.compile(r"^[0-9]+$")
_BOOL = {"true": "true", "1": "true", "yes": "true", "false": "false", "0": "false", "no": "false"}

DOMAIN_FILES = {
    "onchain": ("onchain_nodes.csv", "onchain_edges.csv"),
    "kg": ("kg_nodes.csv", "kg_edges.csv", "kg_chunks.csv"),
    "pages": ("pages.csv",),
}


@dataclass
class BuiltDataset:
    """A checked dataset, ready to commit."""

    domain: str
    batch: Batch
    as_of: date | None
    warnings: list[Problem] = field(default_factory=list)
    counts: dict[str, int] = field(default_factory=dict)


def detect_domain(folder: Path) -> str:
    """The domain whose first table is in ``folder``; exactly one must be."""
    if not folder.is_dir():
        raise InputError(f"not a dataset folder: {folder}")
    found = [d for d, files in DOMAIN_FILES.items() if (folder / files[0]).is_file()]
    if len(found) != 1:
        expected = ", ".join(files[0] for files in DOMAIN_FILES.values())
        what = "none" if not found else " and ".join(found)
        raise InputError(f"{folder}: a dataset folder holds one of {expected}; found {what}")
    return found[0]


def build_dataset(folder: str | Path, *, limits: Limits = DEFAULT_LIMITS) -> BuiltDataset:
    """Read and check every table of the dataset in ``folder``; raise DatasetError with all problems found."""
    path = Path(folder)
    domain = detect_domain(path)
    onto = load_domain(domain)
    problems: list[Problem] = []
    as_of = _read_meta(path, problems)
    built = BuiltDataset(domain, Batch(), as_of)
    builder = {"onchain": _onchain, "kg": _kg, "pages": _pages}[domain]
    builder(path, onto, built, problems, limits)
    if problems:
        raise DatasetError(problems[: limits.max_problems])
    ds = dataset_iri(domain)
    built.batch.typed(ds, ONT.Dataset)
    built.batch.lit(ds, ONT.domain, domain)
    if as_of is not None:
        built.batch.lit(ds, ONT.asOf, as_of.isoformat(), "date")
    return built


def _read_meta(folder: Path, problems: list[Problem]) -> date | None:
    meta = folder / "meta.json"
    if not meta.is_file():
        return None
    try:
        doc = json.loads(meta.read_text(encoding="utf-8"))
    except (OSError, UnicodeDecodeError, json.JSONDecodeError) as exc:
        problems.append(Problem("meta.json", None, f"not valid JSON: {exc}"))
        return None
    except RecursionError:
        problems.append(Problem("meta.json", None, "nested too deeply to be a meta file"))
        return None
    if not isinstance(doc, dict):
        problems.append(Problem("meta.json", None, "must be a JSON object"))
        return None
    raw = doc.get("as_of")
    if raw is None:
        return None
    try:
        return date.fromisoformat(str(raw))
    except ValueError:
        problems.append(Problem("meta.json", None, f"as_of must be YYYY-MM-DD, got {raw!r}"))
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


def _unique_id(value: str, seen: dict[str, int], kind: str, file: str, row: Row, problems: list[Problem]) -> bool:
    if not value:
        problems.append(Problem(file, row.line, f"empty {kind}"))
        return False
    if value in seen:
        problems.append(Problem(file, row.line, f"duplicate {kind} {value!r} (first on line {seen[value]})"))
        return False
    seen[value] = row.line
    return True


# --- onchain -------------------------------------------------------------------------------------------------


def _onchain(folder: Path, onto: DomainOntology, built: BuiltDataset, problems: list[Problem], limits: Limits) -> None:
    nodes = read_table(folder / "onchain_nodes.csv", ("node_id", "address", "onto_class"), ("label",), problems, limits)
    edges = read_table(
        folder / "onchain_edges.csv",
        ("edge_id", "rel", "from", "to", "tx_hash"),
        ("value", "token", "block_number", "timestamp"),
        problems,
        limits,
    )
    if nodes is None or edges is None:
        return
    batch, nf, ef = built.batch, nodes.name, edges.name
    node_class: dict[str, URIRef] = {}
    seen: dict[str, int] = {}
    by_address: dict[str, int] = {}
    unknown = onto.class_iri("Unknown")
    for row in nodes.rows:
        node_id = row.get("node_id")
        if not _unique_id(node_id, seen, "node_id", nf, row, problems):
            continue
        cls = _class_of(onto, row.get("onto_class"), nf, row, problems)
        label = row.get("label")
        if cls is None or not _check_label(label, nf, row, problems, limits):
            continue
        raw = row.get("address")
        try:
            norm: str | None = normalize_address(raw)
        except AddressError as exc:
            norm = None
            built.warnings.append(Problem(nf, row.line, f"{node_id}: {exc}; no address_norm, class Unknown"))
            assert unknown is not None, "the onchain ontology declares oc:Unknown"
            cls = unknown
        if norm is not None:
            if cls == unknown:
                problems.append(Problem(nf, row.line, f"{node_id}: class Unknown is for addresses that fail normalisation, but {raw!r} is valid"))
                continue
            if norm in by_address:
                problems.append(Problem(nf, row.line, f"address {norm} already used on line {by_address[norm]}"))
                continue
            by_address[norm] = row.line
        node = mint("onchain", "node", node_id)
        node_class[node_id] = cls
        batch.mark(node, nf, row.line)
        batch.typed(node, cls)
        batch.lit(node, ONT.id, node_id)
        if raw:
            batch.lit(node, OC.rawAddress, raw)
        if norm is not None:
            batch.lit(node, OC.addressNorm, norm)
        if label:
            batch.lit(node, RDFS.label, label)
    seen_edges: dict[str, int] = {}
    for row in edges.rows:
        edge_id = row.get("edge_id")
        if not _unique_id(edge_id, seen_edges, "edge_id", ef, row, problems):
            continue
        rel = onto.relations.get(row.get("rel"))
        if rel is None:
            problems.append(Problem(ef, row.line, f"unknown rel {row.get('rel')!r} (known: {', '.join(sorted(onto.relations))})"))
            continue
        src, dst = row.get("from"), row.get("to")
        bad = [n for n in (src, dst) if n not in node_class]
        if bad:
            problems.append(Problem(ef, row.line, f"{edge_id}: unknown node(s) {', '.join(map(repr, bad))}"))
            continue
        tx = row.get("tx_hash")
        if rel.inferred:
            if tx:
                problems.append(Problem(ef, row.line, f"{edge_id}: {rel.notation} is inferred and cannot have a tx_hash"))
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
                problems.append(Problem(ef, row.line, f"{edge_id}: {end} node {node_id!r} has a class outside the {rel.notation} {'domain' if end == 'from' else 'range'}"))
                ok = False
        attrs = _onchain_attrs(row, ef, edge_id, problems)
        if not ok or attrs is None:
            continue
        edge = mint("onchain", "edge", edge_id)
        s, o = mint("onchain", "node", src), mint("onchain", "node", dst)
        batch.mark(edge, ef, row.line)
        batch.typed(edge, rel.resource_class)
        batch.lit(edge, ONT.id, edge_id)
        batch.add(edge, ONT.source, s)
        batch.add(edge, ONT.target, o)
        batch.add(edge, ONT.kind, rel.iri)
        if tx:
            batch.lit(edge, OC.txHash, tx.lower())
        for prop, (value, dtype) in attrs.items():
            batch.lit(edge, prop, value, dtype)
        batch.add(s, rel.iri, o)
    built.counts.update(nodes=len(node_class), edges=len(seen_edges))


def _onchain_attrs(row: Row, file: str, edge_id: str, problems: list[Problem]) -> dict[URIRef, tuple[str, str | None]] | None:
    out: dict[URIRef, tuple[str, str | None]] = {}
    value, token, block, ts = row.get("value"), row.get("token"), row.get("block_number"), row.get("timestamp")
    if value:
        if not _UINT.match(value):
            problems.append(Problem(file, row.line, f"{edge_id}: value must be a whole number of base units, got {value[:40]!r}"))
            return None
        out[OC.value] = (value.lstrip("0") or "0", None)  # exact digits, never int64/float
    if token:
        if token.upper() == "ETH":
            out[OC.token] = ("ETH", None)
        else:
            try:
                out[OC.token] = (normalize_address(token), None)
            except AddressError as exc:
                problems.append(Problem(file, row.line, f"{edge_id}: token must be ETH or a contract address: {exc}"))
                return None
    if block:
        if not _UINT.match(block):
            problems.append(Problem(file, row.line, f"{edge_id}: block_number must be a whole number, got {block[:40]!r}"))
            return None
        out[OC.blockNumber] = (block.lstrip("0") or "0", "integer")
    if ts:
        stamp = _timestamp(ts)
        if stamp is None:
            problems.append(Problem(file, row.line, f"{edge_id}: timestamp must be unix seconds or ISO 8601, got {ts[:40]!r}"))
            return None
        out[OC.timestamp] = (stamp, "dateTime")
    return out


def _timestamp(text: str) -> str | None:
    try:
        if _UINT.match(text):
            secs = int(text)
            if secs > 32503680000:  # year 3000: anything later is an error, not a date
                return None
            moment = datetime.fromtimestamp(secs, tz=timezone.utc)
        else:
            moment = datetime.fromisoformat(text.replace("Z", "+00:00"))
            if moment.tzinfo is None:
                moment = moment.replace(tzinfo=timezone.utc)
    except (ValueError, OverflowError, OSError):
        return None
    return moment.astimezone(timezone.utc).strftime("%Y-%m-%dT%H:%M:%SZ")


# --- kg ------------------------------------------------------------------------------------------------------


def _kg(folder: Path, onto: DomainOntology, built: BuiltDataset, problems: list[Problem], limits: Limits) -> None:
    nodes = read_table(folder / "kg_nodes.csv", ("node_id", "class", "label"), ("aliases",), problems, limits)
    edges = read_table(folder / "kg_edges.csv", ("edge_id", "src", "rel", "dst", "chunk_id", "grounded"), (), problems, limits)
    chunks = read_table(folder / "kg_chunks.csv", ("chunk_id", "text"), (), problems, limits)
    if nodes is None or edges is None or chunks is None:
        return
    batch = built.batch
    chunk_ids: dict[str, int] = {}
    for row in chunks.rows:
        cid = row.get("chunk_id")
        if not _unique_id(cid, chunk_ids, "chunk_id", chunks.name, row, problems):
            continue
        if not row.get("text"):
            problems.append(Problem(chunks.name, row.line, f"chunk {cid!r} has no text"))
            continue
        chunk = mint("kg", "chunk", cid)
        batch.mark(chunk, chunks.name, row.line)
        batch.typed(chunk, ONT.Chunk)
        batch.lit(chunk, ONT.id, cid)
        batch.lit(chunk, ONT.text, row.get("text"))
    node_class: dict[str, URIRef] = {}
    seen: dict[str, int] = {}
    for row in nodes.rows:
        node_id = row.get("node_id")
        if not _unique_id(node_id, seen, "node_id", nodes.name, row, problems):
            continue
        cls = _class_of(onto, row.get("class"), nodes.name, row, problems)
        label = row.get("label")
        if not label:
            problems.append(Problem(nodes.name, row.line, f"{node_id}: label is required"))
            continue
        aliases = [a.strip() for a in row.get("aliases").split("|") if a.strip()]
        if cls is None or not all(_check_label(t, nodes.name, row, problems, limits) for t in [label, *aliases]):
            continue
        node = mint("kg", "node", node_id)
        node_class[node_id] = cls
        batch.mark(node, nodes.name, row.line)
        batch.typed(node, cls)
        batch.lit(node, ONT.id, node_id)
        batch.lit(node, RDFS.label, label)
        for alias in dict.fromkeys(aliases):
            batch.lit(node, SKOS.altLabel, alias)
    seen_edges: dict[str, int] = {}
    for row in edges.rows:
        edge_id = row.get("edge_id")
        if not _unique_id(edge_id, seen_edges, "edge_id", edges.name, row, problems):
            continue
        rel = onto.relations.get(row.get("rel"))
        if rel is None:
            problems.append(Problem(edges.name, row.line, f"unknown rel {row.get('rel')!r} (known: {', '.join(sorted(onto.relations))})"))
            continue
        src, dst, cid = row.get("src"), row.get("dst"), row.get("chunk_id")
        bad = [n for n in (src, dst) if n not in node_class]
        grounded = _BOOL.get(row.get("grounded").lower())
        if bad:
            problems.append(Problem(edges.name, row.line, f"{edge_id}: unknown node(s) {', '.join(map(repr, bad))}"))
            continue
        if grounded is None:
            problems.append(Problem(edges.name, row.line, f"{edge_id}: grounded must be true or false, got {row.get('grounded')!r}"))
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
        edge, s, o = mint("kg", "edge", edge_id), mint("kg", "node", src), mint("kg", "node", dst)
        batch.mark(edge, edges.name, row.line)
        batch.typed(edge, rel.resource_class)
        batch.lit(edge, ONT.id, edge_id)
        batch.add(edge, ONT.source, s)
        batch.add(edge, ONT.target, o)
        batch.add(edge, ONT.kind, rel.iri)
        batch.lit(edge, ONT.grounded, grounded, "boolean")
        if cid:
            batch.add(edge, ONT.chunk, mint("kg", "chunk", cid))
        batch.add(s, rel.iri, o)
    built.counts.update(nodes=len(node_class), edges=len(seen_edges), chunks=len(chunk_ids))


# --- pages ---------------------------------------------------------------------------------------------------

_OPS = {">", ">=", "<", "<=", "=", "!="}


def _pages(folder: Path, onto: DomainOntology, built: BuiltDataset, problems: list[Problem], limits: Limits) -> None:
    batch = built.batch
    columns = dict(onto.columns)
    extra = folder / "columns.csv"
    if extra.is_file():
        table = read_table(extra, ("column", "label_ko", "type"), ("aliases",), problems, limits)
        for row in table.rows if table else []:
            name, ctype = row.get("column"), row.get("type")
            if not re.fullmatch(r"[a-z][a-z0-9_]{0,63}", name):
                problems.append(Problem(extra.name, row.line, f"column name must be lower_snake_case, got {name!r}"))
                continue
            if ctype not in ("integer", "decimal", "date"):
                problems.append(Problem(extra.name, row.line, f"type must be integer, decimal or date, got {ctype!r}"))
                continue
            prop = PG[name]
            labels = [row.get("label_ko"), *[a.strip() for a in row.get("aliases").split("|") if a.strip()]]
            from ont_platform.ontology.model import Column

            columns[name] = Column(name, prop, ctype, tuple(labels))
            batch.lit(prop, PG.column, name)
            batch.lit(prop, PG.columnType, ctype)
            batch.lit(prop, RDFS.label, row.get("label_ko"), lang="ko")
            for alias in labels[1:]:
                batch.lit(prop, SKOS.altLabel, alias, lang="ko")
    preds = folder / "predicates.csv"
    if preds.is_file():
        table = read_table(preds, ("phrase", "op", "value"), ("applies_to",), problems, limits)
        for row in table.rows if table else []:
            phrase, op, value, applies = row.get("phrase"), row.get("op"), row.get("value"), row.get("applies_to")
            if not phrase or op not in _OPS:
                problems.append(Problem(preds.name, row.line, f"needs a phrase and an op in {sorted(_OPS)}"))
                continue
            try:
                Decimal(value)
            except InvalidOperation:
                problems.append(Problem(preds.name, row.line, f"value must be a number, got {value!r}"))
                continue
            if applies and applies not in columns:
                problems.append(Problem(preds.name, row.line, f"applies_to names unknown column {applies!r}"))
                continue
            node = mint("pages", "node", f"predicate:{phrase}")
            batch.typed(node, PG.VaguePredicate)
            batch.lit(node, PG.phrase, phrase)
            batch.lit(node, PG.op, op)
            batch.lit(node, PG.value, value, "decimal")
            if applies:
                batch.lit(node, PG.appliesTo, applies)
    table = read_table(folder / "pages.csv", ("url",), tuple(columns), problems, limits)
    if table is None:
        return
    seen: dict[str, int] = {}
    for row in table.rows:
        url = row.get("url")
        if not _unique_id(url, seen, "url", table.name, row, problems):
            continue
        if not re.fullmatch(r"https?://[^\s<>\"{}|\\^`]+", url):
            problems.append(Problem(table.name, row.line, f"not an http(s) URL: {url[:80]!r}"))
            continue
        typed: list[tuple[URIRef, str, str]] = []
        for name, col in columns.items():
            cell = row.get(name)
            if not cell:
                continue  # empty cells carry no value and never match a filter
            value = _typed_cell(cell, col.type)
            if value is None:
                problems.append(Problem(table.name, row.line, f"{name} must be {col.type}, got {cell[:40]!r}"))
                break
            typed.append((col.iri, value, col.type))
        else:
            page = mint("pages", "page", url)
            batch.mark(page, table.name, row.line)
            batch.typed(page, PG.WebPage)
            batch.lit(page, ONT.id, url)
            batch.lit(page, PG.url, url, "anyURI")
            for prop, value, ctype in typed:
                batch.lit(page, prop, value, ctype)
    built.counts.update(pages=len(seen), columns=len(columns))


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
