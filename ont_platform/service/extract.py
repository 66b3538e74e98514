"""Extraction for the HTTP service: read a document, find entities and relations, and pass them through the guard.

* :func:`read_html` hands HTML (already fetched by :mod:`.fetch`) to trafilatura for the main text and the
  title; :func:`read_text` takes plain text as it is.
* :class:`LexiconExtractor` finds what the graph and the ontology already name: graph nodes by their ids,
  labels, aliases and addresses, ontology classes and relations by their labels, sentence by sentence. A
  relation is proposed when a sentence names two nodes and a relation whose domain and range fit them; its
  evidence is the sentence (``chunk_text``), its offset in the text and the source URL.
* :class:`LLMExtractor` asks an OpenAI-compatible chat endpoint (only when one is configured) and, through the
  guard, asks again with the guard's list of errors until the output passes or the re-asks run out.

Both return an :class:`Attempt`; :func:`guarded` validates it with an
:class:`~ont_platform.validation.OntologyGuard` and builds the response of seed 001.
"""

from __future__ import annotations

import json
import re
import time
from abc import ABC, abstractmethod
from dataclasses import dataclass, field
from typing import Any, ClassVar

from rdflib import URIRef

from ont_platform import jsonl
from ont_platform.errors import MissingDependency, ValidatorError
from ont_platform.ontology import DomainOntology, Relation, local_name
from ont_platform.qa.analyzer import morphs
from ont_platform.qa.context import Context, node_iri
from ont_platform.qa.lexicon import Mention, word_bounded
from ont_platform.service.fetch import FetchError, FetchFailed, post_json
from ont_platform.service.settings import LLMSettings
from ont_platform.sparql.kg import node_info
from ont_platform.validation import (
    LLM,
    OntologyGuard,
    ValidationIssue,
    ValidationResult,
)

_SENTENCE_END = re.compile(r"(?<=[.!?。！？])\s+|\n\s*")
MAX_SENTENCE_CHARS = 2_000
MAX_EVIDENCE = 5
"""Most evidence items kept per entity or relation (the first mentions)."""


@dataclass
class Document:
    """Text to extract from: the main text, where it came from and what was noticed while reading it."""

    text: str
    url: str | None = None
    title: str | None = None
    warnings: list[ValidationIssue] = field(default_factory=list)

    def warn(self, code: str, message: str) -> None:
        self.warnings.append(ValidationIssue(code=code, path="$", message=message))


def _cut(doc: Document, max_chars: int) -> Document:
    if len(doc.text) > max_chars:
        doc.warn("text_truncated", f"the text has {len(doc.text)} characters; only the first {max_chars} were read")
        doc.text = doc.text[:max_chars]
    return doc


def read_text(text: str, url: str | None = None, *, max_chars: int = 200_000) -> Document:
    """A document from plain text (offsets in the response count characters of this text)."""
    doc = Document(text=text, url=url)
    if not text.strip():
        doc.warn("empty_text", "the text is empty")
    return _cut(doc, max_chars)


def read_html(html: str | bytes, url: str | None = None, *, max_chars: int = 200_000) -> Document:
    """The main text and title of an HTML page, by trafilatura (which never fetches anything here).

    When trafilatura finds no main text (a very short page), the page's whole visible text is used instead,
    with a warning. Offsets in the response count characters of the text returned here.
    """
    try:
        import trafilatura
    except ImportError as exc:  # pragma: no cover - the server extra installs it
        raise MissingDependency("reading HTML needs trafilatura: pip install 'ont_platform[server]'") from exc
    found = trafilatura.bare_extraction(
        html,
        url=url,
        with_metadata=True,
        include_comments=False,
        include_tables=True,
        include_images=False,
        include_links=False,
    )
    text = (getattr(found, "text", None) or "") if found is not None else ""
    title = getattr(found, "title", None) if found is not None else None
    doc = Document(text=text, url=url, title=title or None)
    if not text.strip():
        whole = trafilatura.html2txt(html) or ""
        doc.text = whole
        if whole.strip():
            doc.warn("no_main_text", "no main text was found; the whole visible text of the page was read")
        else:
            doc.warn("empty_text", "the page has no readable text")
    if doc.title is None:
        meta = trafilatura.extract_metadata(html)
        doc.title = getattr(meta, "title", None) if meta is not None else None
    return _cut(doc, max_chars)


def sentences(text: str) -> list[tuple[int, str]]:
    """(offset, sentence) pairs: split after ``.``, ``!``, ``?`` and at line breaks; long runs cut at
    :data:`MAX_SENTENCE_CHARS`."""
    out: list[tuple[int, str]] = []
    pos = 0
    for m in [*_SENTENCE_END.finditer(text), None]:
        end = m.start() if m is not None else len(text)
        piece = text[pos:end]
        lead = len(piece) - len(piece.lstrip())
        piece = piece.strip()
        start = pos + lead
        while piece:
            out.append((start, piece[:MAX_SENTENCE_CHARS]))
            start += MAX_SENTENCE_CHARS
            piece = piece[MAX_SENTENCE_CHARS:]
        if m is not None:
            pos = m.end()
    return out


@dataclass
class Attempt:
    """An extractor's first output and, if it can fix its output, the function the guard re-asks."""

    output: Any
    reask: LLM | None = None


class Extractor(ABC):
    """Turns a :class:`Document` into an extraction payload (``{"entities": [...], "relations": [...]}``)."""

    name: ClassVar[str] = "extractor"

    @abstractmethod
    def extract(self, doc: Document) -> Attempt:
        """The first output for ``doc``."""


# -- the built-in extractor ---------------------------------------------------------------------------------------


class LexiconExtractor(Extractor):
    """Entities and relations the graph and ontology of one domain already name (no model, no network).

    Names are matched exactly (spacing and case aside); a name shared by several nodes is left out with a
    warning rather than guessed. Relation direction follows the ontology's domain and range; when both
    directions fit, the node named first is the source, and the confidence is lower.
    """

    name = "lexicon"

    def __init__(self, ctx: Context, *, time_limit_s: float | None = None) -> None:
        self.ctx = ctx
        self.time_limit_s = time_limit_s
        """Longest one :meth:`extract` may read; the rest of a text is left unread, with a warning (as a text
        over ``max_text_chars`` is cut), so that a huge text costs its sender that much time and no more."""
        self._classes: dict[str, URIRef | None] = {}

    def _node_class(self, node_id: str) -> URIRef | None:
        """The most specific class of the domain a graph node has (None when it has none)."""
        if node_id not in self._classes:
            rows = self.ctx.for_question().run_select(node_info(node_iri(self.ctx.domain, node_id)))
            known = {URIRef(str(r["cls"])) for r in rows if r.get("cls") is not None} & set(
                self.ctx.onto.classes.values()
            )
            best = None
            for c in sorted(known):
                if best is None or best in self.ctx.onto.superclasses(c):
                    best = c
            self._classes[node_id] = best
        return self._classes[node_id]

    def extract(self, doc: Document) -> Attempt:
        onto, lex = self.ctx.onto, self.ctx.lexicon
        relations_by_iri = {str(r.iri): r for r in onto.relations.values()}
        entities: dict[str, dict[str, Any]] = {}
        relations: dict[tuple[str, str, str], dict[str, Any]] = {}
        ambiguous: set[str] = set()
        deadline = None if self.time_limit_s is None else time.monotonic() + self.time_limit_s
        for n, (offset, sentence) in enumerate(sentences(doc.text), 1):
            if deadline is not None and time.monotonic() > deadline:
                doc.warn(
                    "text_truncated",
                    f"extraction stopped after {self.time_limit_s:g} s: the text from character "
                    f"{offset} on was not read",
                )
                break
            chunk_id = f"s{n}"
            ms = morphs(sentence)
            names, _ = lex.find_names(sentence)
            names = word_bounded(names, ms, sentence)
            terms = lex.find_terms(sentence, ms, skip=names)
            spans: dict[tuple[int, int], list[Mention]] = {}
            for m in names:
                spans.setdefault((m.start, m.end), []).append(m)
            nodes: list[tuple[int, str, URIRef | None]] = []
            for (start, end), group in sorted(spans.items()):
                surface = sentence[start:end]
                if len({m.ref for m in group}) > 1:
                    if surface not in ambiguous:
                        ambiguous.add(surface)
                        doc.warn(
                            "ambiguous_name",
                            f"{surface!r} names several nodes "
                            f"({', '.join(sorted({m.ref for m in group}))}); it was left out",
                        )
                    continue
                node_id = group[0].ref
                cls = self._node_class(node_id)
                entity_id = f"E_{node_id}"
                if entity_id not in entities:
                    entities[entity_id] = {"id": entity_id, "label": surface, "type": "individual"}
                    if cls is not None:
                        entities[entity_id]["ontology_class"] = local_name(cls)
                    entities[entity_id].update(confidence=1.0, evidence=[])
                _add_evidence(entities[entity_id], doc.url, offset + start, chunk_id)
                if all(node_id != seen for _, seen, _ in nodes):
                    nodes.append((start, node_id, cls))
            for term in terms:
                if term.kind == "class":
                    cls = URIRef(term.ref)
                    entity = entities.setdefault(
                        f"E_class_{local_name(cls)}",
                        {
                            "id": f"E_class_{local_name(cls)}",
                            "label": sentence[term.start : term.end],
                            "type": "class",
                            "ontology_class": local_name(cls),
                            "confidence": 1.0,
                            "evidence": [],
                        },
                    )
                    _add_evidence(entity, doc.url, offset + term.start, chunk_id)
                elif term.kind == "relation" and term.ref in relations_by_iri:
                    rel = relations_by_iri[term.ref]
                    pairs = _pairs(onto, rel, nodes)
                    for source, target in pairs:
                        key = (source, rel.notation, target)
                        relation = relations.setdefault(
                            key,
                            {
                                "id": f"R_{len(relations) + 1}",
                                "source_id": f"E_{source}",
                                "predicate": rel.notation,
                                "target_id": f"E_{target}",
                                "confidence": 0.9 if len(pairs) == 1 else 0.6,
                                "evidence": [],
                            },
                        )
                        _add_evidence(relation, doc.url, offset, chunk_id, sentence)
        return Attempt({"entities": list(entities.values()), "relations": list(relations.values())})


def _add_evidence(item: dict[str, Any], url: str | None, offset: int, chunk_id: str, chunk: str | None = None) -> None:
    if len(item["evidence"]) >= MAX_EVIDENCE:
        return
    ev: dict[str, Any] = {"offset": offset, "chunk_id": chunk_id}
    if url:
        ev["source_url"] = url
    if chunk is not None:
        ev["chunk_text"] = chunk
    if ev not in item["evidence"]:
        item["evidence"].append(ev)


def _pairs(onto: DomainOntology, rel: Relation, nodes: list[tuple[int, str, URIRef | None]]) -> list[tuple[str, str]]:
    """Ordered (source, target) node pairs of one sentence that the relation's domain and range admit."""
    out: list[tuple[str, str]] = []
    for i, (_, a, ca) in enumerate(nodes):
        for j, (_, b, cb) in enumerate(nodes):
            if a == b or ca is None or cb is None:
                continue
            if not (onto.is_a(ca, rel.domain) and onto.is_a(cb, rel.range)):
                continue
            reverse_fits = onto.is_a(cb, rel.domain) and onto.is_a(ca, rel.range)
            if reverse_fits and j < i:  # both directions fit: keep the text order only
                continue
            out.append((a, b))
    return out


# -- the LLM extractor --------------------------------------------------------------------------------------------

_FENCE = re.compile(r"^\s*```(?:json)?\s*(.*?)\s*```\s*$", re.DOTALL)
MAX_LLM_TEXT_CHARS = 24_000


class LLMExtractor(Extractor):
    """Extraction by an OpenAI-compatible chat completions endpoint (``POST {base_url}/chat/completions``).

    The prompt lists the domain's classes and relations; the answer's ``message.content`` is read as JSON
    (code fences removed). :meth:`extract` returns the first answer and a re-ask function that continues the
    same conversation with the guard's error list. ``transport`` (an ``httpx`` transport) replaces the
    network in tests; requests go through :func:`ont_platform.service.fetch.post_json`.
    """

    name = "llm"

    def __init__(self, settings: LLMSettings, onto: DomainOntology, *, transport: Any = None) -> None:
        self.settings = settings
        self.onto = onto
        self.transport = transport

    def system_prompt(self) -> str:
        classes = "; ".join(f"{name} ({self.onto.label(iri)})" for name, iri in sorted(self.onto.classes.items()))
        rels = "; ".join(
            f"{r.notation}: {'|'.join(local_name(c) for c in sorted(r.domain)) or 'any'} -> "
            f"{'|'.join(local_name(c) for c in sorted(r.range)) or 'any'}"
            for r in sorted(self.onto.relations.values(), key=lambda r: r.notation)
        )
        return (
            f"You extract entities and relations from a text for the '{self.onto.domain}' ontology.\n"
            'Answer with one JSON object and nothing else: {"entities": [{"id": "E_1", "label": "<name as written>", '
            '"type": "individual", "ontology_class": "<class>", "confidence": 0.9, "evidence": {"offset": 0}}], '
            '"relations": [{"id": "R_1", "source_id": "E_1", "predicate": "<relation>", "target_id": "E_2", '
            '"confidence": 0.9, "evidence": {"offset": 0, "chunk_text": "<the sentence that states it>"}}]}\n'
            f"Classes: {classes}.\nRelations (source class -> target class): {rels}.\n"
            "Use only these classes and relations; offsets count characters of the text; give no relation the "
            "text does not state."
        )

    def _complete(self, messages: list[dict[str, str]]) -> str:
        headers = {"Content-Type": "application/json"}
        if self.settings.api_key:
            headers["Authorization"] = f"Bearer {self.settings.api_key}"
        body = {"model": self.settings.model, "messages": messages, "temperature": self.settings.temperature}
        answer = post_json(
            f"{self.settings.base_url.rstrip('/')}/chat/completions",
            body,
            headers=headers,
            timeout_s=self.settings.timeout_s,
            max_bytes=self.settings.max_response_bytes,
            transport=self.transport,
        )
        try:
            content = answer["choices"][0]["message"]["content"]
        except (KeyError, IndexError, TypeError) as exc:
            raise FetchFailed(
                "the LLM endpoint's answer has no choices[0].message.content", code="bad_response"
            ) from exc
        if not isinstance(content, str):
            raise FetchFailed("the LLM endpoint's message content is not text", code="bad_response")
        return content

    def extract(self, doc: Document) -> Attempt:
        text = doc.text
        if len(text) > MAX_LLM_TEXT_CHARS:
            doc.warn("llm_text_truncated", f"only the first {MAX_LLM_TEXT_CHARS} characters were sent to the LLM")
            text = text[:MAX_LLM_TEXT_CHARS]
        messages = [{"role": "system", "content": self.system_prompt()}, {"role": "user", "content": text}]
        first = self._complete(messages)
        messages.append({"role": "assistant", "content": first})

        def reask(message: str) -> Any:
            messages.append({"role": "user", "content": message})
            content = self._complete(messages)
            messages.append({"role": "assistant", "content": content})
            return _with_source(_parse(content), doc.url)

        return Attempt(_with_source(_parse(first), doc.url), reask)


def _parse(content: str) -> Any:
    """The JSON inside an LLM's answer (code fences removed), or the text itself for the guard to reject."""
    m = _FENCE.match(content)
    body = m.group(1) if m else content
    try:
        return jsonl.loads(body, where="the LLM's answer")
    except (json.JSONDecodeError, jsonl.TooDeep):
        return content


def _with_source(output: Any, url: str | None) -> Any:
    """Evidence the LLM gave without a source URL gets the document's URL (we know where the text came from)."""
    if not url or not isinstance(output, dict):
        return output
    for key in ("entities", "relations"):
        items = output.get(key)
        if not isinstance(items, list):
            continue
        for item in items:
            evidence = item.get("evidence") if isinstance(item, dict) else None
            for ev in evidence if isinstance(evidence, list) else [evidence]:
                if isinstance(ev, dict) and "source_url" not in ev:
                    ev["source_url"] = url
    return output


# -- guard and response -------------------------------------------------------------------------------------------


async def guarded(
    doc: Document, attempt: Attempt, *, domain: str, extractor: str, validator: str = "lightweight", max_reasks: int = 2
) -> dict[str, Any]:
    """Validate an attempt with the guard (re-asking when the extractor can) and build the response:
    ``{url, title, domain, extractor, entities, relations, validation_passed, validation_errors, warnings,
    attempts}``. Entities and relations are those of the last output, as validated."""
    guard = OntologyGuard(
        validator, ontology=domain, llm=attempt.reask, max_reasks=max_reasks if attempt.reask is not None else 0
    )
    try:
        result = await guard.validate(attempt.output)
    except ValidatorError as exc:
        # The guard reports a failing LLM call as its own error; the endpoint's failure is the real one.
        cause = exc.__cause__
        if isinstance(cause, FetchError):
            raise cause from None
        raise
    return response(doc, result, domain=domain, extractor=extractor)


def response(doc: Document, result: ValidationResult, *, domain: str, extractor: str) -> dict[str, Any]:
    """Seed 001's response body from a document and the guard's result."""
    ext = result.extraction
    body: dict[str, Any] = {}
    if doc.url is not None:
        body["url"] = doc.url
    body.update(
        {
            "title": doc.title,
            "domain": domain,
            "extractor": extractor,
            "entities": [_item(e.model_dump(mode="json", exclude_none=True)) for e in ext.entities] if ext else [],
            "relations": [_item(r.model_dump(mode="json", exclude_none=True)) for r in ext.relations] if ext else [],
            "validation_passed": result.validation_passed,
            "validation_errors": [i.model_dump() for i in result.validation_errors],
            "warnings": [i.model_dump() for i in [*doc.warnings, *result.warnings]],
            "attempts": result.attempts,
        }
    )
    return body


def _item(data: dict[str, Any]) -> dict[str, Any]:
    """An entity or relation as JSON, without the empty ``attributes`` and ``evidence`` lists."""
    for key in ("attributes", "evidence"):
        if not data.get(key, True):
            del data[key]
    return data


__all__ = [
    "MAX_EVIDENCE",
    "Attempt",
    "Document",
    "Extractor",
    "LLMExtractor",
    "LexiconExtractor",
    "guarded",
    "read_html",
    "read_text",
    "response",
    "sentences",
]
