// Admin page: ask a question, show the answer card, draw its path, show the SPARQL.
// Every piece of data reaches the page through textContent or setAttribute, never as markup.
"use strict";

const SVG_NS = "http://www.w3.org/2000/svg";

const INTENTS = {
  path_exists: "경로 있음", token_flow: "자금 흐름", cluster_lookup: "동일 주체 추정",
  label_lookup: "클래스 조회", no_path: "경로 없음",
};
const DECISIONS = { answer: "답함", refuse: "답하지 않음", max_hops: "홉 한도 초과" };
const STATUSES = { ran: "실행함", clarify: "되물음", unsupported: "지원하지 않음" };
const CONFIDENCE = { low: "낮음", mid: "중간", high: "높음" };

const NODE_W = 256;
const NODE_H = 74;
const COL_GAP = 404;
const ROW_GAP = 112;
const PAD = 24;

const $ = (id) => document.getElementById(id);

// -- small DOM helpers ---------------------------------------------------------------------------------------

function el(tag, attrs, ...children) {
  const node = document.createElement(tag);
  for (const [name, value] of Object.entries(attrs || {})) {
    if (value !== null && value !== undefined) node.setAttribute(name, String(value));
  }
  for (const child of children) {
    node.append(child instanceof Node ? child : document.createTextNode(String(child)));
  }
  return node;
}

function svg(tag, attrs, text) {
  const node = document.createElementNS(SVG_NS, tag);
  for (const [name, value] of Object.entries(attrs || {})) {
    if (value !== null && value !== undefined) node.setAttribute(name, String(value));
  }
  if (text !== undefined) node.textContent = String(text);
  return node;
}

function clear(node) {
  while (node.firstChild) node.removeChild(node.firstChild);
}

function short(text, max) {
  const s = String(text);
  if (s.length <= max) return s;
  if (/^0x[0-9a-f]+$/i.test(s)) return `${s.slice(0, 8)}…${s.slice(-6)}`;
  return `${s.slice(0, max - 1)}…`;
}

function setStatus(message, kind) {
  const status = $("status");
  status.textContent = message;
  status.className = `status ${kind || ""}`.trim();
}

async function api(method, path, body) {
  const init = { method, headers: { Accept: "application/json" } };
  if (body !== undefined) {
    init.headers["Content-Type"] = "application/json";
    init.body = JSON.stringify(body);
  }
  const response = await fetch(path, init);
  let data = null;
  try {
    data = await response.json();
  } catch (err) {
    data = null;
  }
  if (!response.ok) {
    const message = data && typeof data.message === "string" ? data.message : `HTTP ${response.status}`;
    throw new Error(message);
  }
  return data;
}

// -- domains and examples ----------------------------------------------------------------------------------------

let DOMAINS = [];

// The family decides how an answer looks (its contract); the domain is any loaded one, bundled or a user's.
function familyOf(domain) {
  const info = DOMAINS.find((d) => d.domain === domain);
  return info ? info.family : null;
}

function fillExamples() {
  const select = $("example");
  clear(select);
  select.append(el("option", { value: "" }, "예시 질문 고르기…"));
  const info = DOMAINS.find((d) => d.domain === $("domain").value);
  for (const question of (info && info.examples) || []) {
    select.append(el("option", { value: question }, short(question, 70)));
  }
}

async function loadDomains() {
  try {
    DOMAINS = await api("GET", "/api/v1/domains");
  } catch (err) {
    setStatus(`도메인 목록을 읽지 못했습니다: ${err.message}`, "error");
    return;
  }
  const select = $("domain");
  clear(select);
  for (const d of DOMAINS) {
    select.append(el("option", { value: d.domain }, `${d.domain} · ${d.title || d.contract || ""}`));
  }
  const first = DOMAINS.find((d) => d.family === "transfers");
  if (first) select.value = first.domain;
  fillExamples();
}

// -- the answer card ---------------------------------------------------------------------------------------------

function badge(text, kind, label) {
  return el("span", { class: `badge ${kind}`, title: label || null }, text);
}

function fact(list, term, value) {
  if (value === null || value === undefined || value === "" || (Array.isArray(value) && !value.length)) return;
  list.append(el("dt", {}, term), el("dd", {}, Array.isArray(value) ? value.join(", ") : String(value)));
}

function renderCard(domain, answer, report) {
  const badges = $("badges");
  const facts = $("answer-facts");
  clear(badges);
  clear(facts);
  clear($("failures"));
  let text = "";
  if (familyOf(domain) === "transfers") {
    badges.append(badge(`의도: ${answer.intent} · ${INTENTS[answer.intent] || ""}`, "intent"));
    badges.append(badge(`확신도: ${CONFIDENCE[answer.confidence] || answer.confidence}`, `conf-${answer.confidence}`));
    text = answer.answer_ko;
    fact(facts, "질문 id", answer.q_id);
    fact(facts, "인용 노드", answer.cited_nodes);
  } else if (familyOf(domain) === "entities") {
    badges.append(badge(`결정: ${answer.decision} · ${DECISIONS[answer.decision] || ""}`, `decision-${answer.decision}`));
    text = answer.reason;
    fact(facts, "답", answer.answer);
    fact(facts, "요인", answer.factors);
    fact(facts, "근거", answer.evidence);
    fact(facts, "주의", answer.hedge);
  } else {
    badges.append(badge(`상태: ${answer.status} · ${STATUSES[answer.status] || ""}`, `status-${answer.status}`));
    text = answer.hedge;
    fact(facts, "질문", answer.question);
    fact(facts, "필터", answer.parsed_filter);
    fact(facts, "사용한 열", answer.columns_used);
    fact(facts, "페이지 수", answer.count);
  }
  if (report) {
    badges.append(report.grounding_ok
      ? badge("근거 확인됨", "grounded", "검증기: 인용한 엣지·트랜잭션·청크·노드가 모두 그래프에 있습니다")
      : badge("근거 없음", "ungrounded", "검증기: 그래프에 없는 것을 인용했습니다"));
    badges.append(report.ok
      ? badge("검증 통과", "verified")
      : badge(`검증 실패 ${report.failures.length}건`, "failed"));
    for (const f of report.failures) {
      $("failures").append(el("li", {}, el("strong", {}, f.check), ` ${f.detail}`));
    }
  } else {
    badges.append(badge("검증하지 못함", "failed"));
  }
  $("answer-text").textContent = text || "";
  $("answer-card").hidden = false;
}

// -- the path as a graph -------------------------------------------------------------------------------------

function pathOf(domain, answer) {
  // Normalised edges {from, to, label, full, kind} and nodes in order of appearance.
  const edges = [];
  if (familyOf(domain) === "transfers") {
    for (const e of answer.path) {
      const observed = e.tx_hash !== null && e.tx_hash !== undefined;
      edges.push({
        from: e.from, to: e.to, kind: observed ? "observed" : "inferred",
        label: observed ? short(e.tx_hash, 18) : `추론 · ${short(e.edge_id, 14)}`,
        full: observed ? `${e.edge_id} · tx ${e.tx_hash}` : `${e.edge_id} · 트랜잭션 없음 (추론된 관계)`,
      });
    }
  } else if (familyOf(domain) === "entities") {
    for (const h of answer.path) {
      const grounded = h.chunk_id !== null && h.chunk_id !== undefined;
      edges.push({
        from: h.src, to: h.dst, kind: grounded ? "observed" : "ungrounded",
        label: `${short(h.rel, 14)} · ${grounded ? short(h.chunk_id, 14) : "근거 없음"}`,
        full: `${h.rel} · chunk ${grounded ? h.chunk_id : "없음"}`,
      });
    }
  }
  const nodes = [];
  const add = (id) => { if (id && !nodes.includes(id)) nodes.push(id); };
  edges.forEach((e) => { add(e.from); add(e.to); });
  if (familyOf(domain) === "transfers") (answer.cited_nodes || []).forEach(add);
  if (familyOf(domain) === "entities" && answer.answer) add(answer.answer);
  return { nodes, edges };
}

function layout(nodes, edges) {
  const neighbours = new Map(nodes.map((n) => [n, []]));
  for (const e of edges) {
    neighbours.get(e.from).push(e.to);
    neighbours.get(e.to).push(e.from);
  }
  const layer = new Map();
  let base = 0;
  for (const root of nodes) {
    if (layer.has(root)) continue;
    layer.set(root, base);
    const queue = [root];
    let deepest = base;
    while (queue.length) {
      const n = queue.shift();
      for (const m of neighbours.get(n)) {
        if (!layer.has(m)) {
          layer.set(m, layer.get(n) + 1);
          deepest = Math.max(deepest, layer.get(m));
          queue.push(m);
        }
      }
    }
    base = deepest + 1;
  }
  const columns = new Map();
  for (const n of nodes) {
    const col = layer.get(n);
    if (!columns.has(col)) columns.set(col, []);
    columns.get(col).push(n);
  }
  const tallest = Math.max(1, ...[...columns.values()].map((c) => c.length));
  const pos = new Map();
  for (const [col, members] of columns) {
    const offset = ((tallest - members.length) * ROW_GAP) / 2;
    members.forEach((n, row) => pos.set(n, { x: PAD + col * COL_GAP, y: PAD + 22 + offset + row * ROW_GAP }));
  }
  const width = PAD * 2 + (Math.max(...columns.keys()) * COL_GAP) + NODE_W;
  const height = PAD * 2 + 22 + tallest * ROW_GAP - (ROW_GAP - NODE_H) + 20;
  return { pos, width, height };
}

function drawGraph(domain, answer, facts) {
  const { nodes, edges } = pathOf(domain, answer);
  const box = $("graph");
  const list = $("path-list");
  clear(box);
  clear(list);
  if (!nodes.length) {
    box.append(el("p", { class: "empty" }, "그릴 경로가 없습니다."));
    return;
  }
  const { pos, width, height } = layout(nodes, edges);
  const picture = svg("svg", {
    viewBox: `0 0 ${width} ${height}`, width, height, role: "img", class: "path-graph",
    "aria-label": `경로: ${nodes.join(" → ")}`,
  });
  const defs = svg("defs");
  for (const kind of ["observed", "inferred", "ungrounded"]) {
    const marker = svg("marker", {
      id: `arrow-${kind}`, viewBox: "0 0 10 10", refX: 10, refY: 5, markerWidth: 8, markerHeight: 8,
      orient: "auto-start-reverse",
    });
    marker.append(svg("path", { d: "M 0 0 L 10 5 L 0 10 z", class: `arrowhead ${kind}` }));
    defs.append(marker);
  }
  picture.append(defs);

  const edgeLayer = svg("g", { class: "edges" });
  const labelLayer = svg("g", { class: "edge-labels" });
  edges.forEach((e) => {
    const a = pos.get(e.from);
    const b = pos.get(e.to);
    let d;
    let lx;
    let ly;
    if (b.x > a.x) {
      const x1 = a.x + NODE_W;
      const y1 = a.y + NODE_H / 2;
      const x2 = b.x;
      const y2 = b.y + NODE_H / 2;
      d = `M ${x1} ${y1} L ${x2 - 2} ${y2}`;
      lx = (x1 + x2) / 2;
      ly = (y1 + y2) / 2 - 10;
    } else {
      // Same column or backwards: an arc below the boxes.
      const x1 = a.x + NODE_W / 2;
      const y1 = a.y + NODE_H;
      const x2 = b.x + NODE_W / 2;
      const y2 = b.y + NODE_H;
      const dip = Math.max(y1, y2) + 46;
      d = `M ${x1} ${y1} Q ${(x1 + x2) / 2} ${dip} ${x2} ${y2 + 2}`;
      lx = (x1 + x2) / 2;
      ly = dip - 14;
    }
    const line = svg("path", { d, class: `edge ${e.kind}`, "marker-end": `url(#arrow-${e.kind})` });
    line.append(svg("title", {}, e.full));
    edgeLayer.append(line);
    const group = svg("g", { class: `edge-label ${e.kind}` });
    const w = e.label.length * 7.4 + 14; // corrected to the rendered width once drawn
    group.append(svg("rect", { x: lx - w / 2, y: ly - 13, width: w, height: 20, rx: 4 }));
    group.append(svg("text", { x: lx, y: ly + 1, "text-anchor": "middle" }, e.label));
    group.append(svg("title", {}, e.full));
    labelLayer.append(group);
    list.append(el("li", {}, `${e.from} → ${e.to}: ${e.full}`));
  });
  picture.append(edgeLayer);

  const nodeLayer = svg("g", { class: "nodes" });
  const start = nodes[0];
  const goal = familyOf(domain) === "entities" ? answer.answer : (edges.length ? edges[edges.length - 1].to : null);
  for (const id of nodes) {
    const p = pos.get(id);
    const info = facts.get(id);
    const cls = info && info.classes && info.classes.length ? info.classes[0] : null;
    const role = id === goal ? "goal" : id === start ? "start" : "";
    const group = svg("g", { class: `node ${role}`.trim(), transform: `translate(${p.x} ${p.y})` });
    group.append(svg("rect", { width: NODE_W, height: NODE_H, rx: 10 }));
    group.append(svg("text", { x: 12, y: 22, class: "node-id" }, short(id, 40)));
    group.append(svg("text", { x: 12, y: 43, class: "node-class" }, cls ? `${cls.name} · ${cls.label}` : "클래스 미상"));
    group.append(svg("text", { x: 12, y: 62, class: "node-label" }, info && info.label ? short(info.label, 60) : ""));
    const tip = [id, cls ? `${cls.name} (${cls.label})` : "클래스 미상", info && info.label, info && info.address]
      .filter(Boolean).join("\n");
    group.append(svg("title", {}, tip));
    nodeLayer.append(group);
  }
  picture.append(nodeLayer);
  picture.append(labelLayer);
  box.append(picture);
  // Text widths are known only once the picture is in the page: cut node text to the box, size label boxes.
  for (const text of picture.querySelectorAll(".node text")) fit(text, NODE_W - 22);
  for (const group of picture.querySelectorAll(".edge-label")) {
    const text = group.querySelector("text");
    const rect = group.querySelector("rect");
    const w = text.getComputedTextLength() + 14;
    rect.setAttribute("x", String(Number(text.getAttribute("x")) - w / 2));
    rect.setAttribute("width", String(w));
  }
}

function fit(text, width) {
  const full = text.textContent;
  let keep = full.length;
  while (keep > 1 && text.getComputedTextLength() > width) {
    keep -= 1;
    text.textContent = `${full.slice(0, keep)}…`;
  }
}

function drawPages(answer) {
  const box = $("graph");
  clear(box);
  clear($("path-list"));
  if (!answer.matched.length) {
    box.append(el("p", { class: "empty" }, "일치한 페이지가 없습니다."));
    return;
  }
  const table = el("table", { class: "matched" });
  table.append(el("thead", {}, el("tr", {}, el("th", {}, "URL"), el("th", {}, "근거 값"))));
  const body = el("tbody");
  for (const m of answer.matched) body.append(el("tr", {}, el("td", {}, m.url), el("td", {}, m.evidence)));
  table.append(body);
  box.append(table);
}

function withoutPrefixes(query) {
  return query.split("\n").filter((line) => !/^PREFIX\s/i.test(line)).join("\n");
}

function renderSparql(answer, queries) {
  // The on-chain contract carries the query that decided the answer; the others are shown as they ran, in
  // order, with the shared PREFIX lines written once.
  let main = answer.generated_query || "";
  if (!main && queries.length) {
    const prefixes = queries[0].split("\n").filter((line) => /^PREFIX\s/i.test(line)).join("\n");
    main = [prefixes, ...queries.map((q, i) => `# 질의 ${i + 1} / ${queries.length}\n${withoutPrefixes(q)}`)]
      .join("\n\n");
  }
  $("sparql").textContent = main || "(이 답을 내는 데 실행된 SPARQL 이 없습니다)";
  const list = $("query-list");
  clear(list);
  queries.forEach((q, i) => list.append(el("h3", {}, `질의 ${i + 1}`), el("pre", { class: "sparql" }, q)));
  $("all-queries-summary").textContent = `실행된 질의 전체 (${queries.length})`;
  $("all-queries").hidden = !answer.generated_query;
  $("sparql-panel").hidden = false;
}

// -- asking ------------------------------------------------------------------------------------------------------

async function nodeFacts(domain, ids) {
  const facts = new Map();
  await Promise.all(ids.slice(0, 60).map(async (id) => {
    try {
      facts.set(id, await api("GET", `/api/v1/nodes/${encodeURIComponent(domain)}/${encodeURIComponent(id)}`));
    } catch (err) {
      facts.set(id, null);
    }
  }));
  return facts;
}

async function ask(event) {
  event.preventDefault();
  const domain = $("domain").value;
  const question = $("question").value.trim();
  if (!question) {
    setStatus("질문을 입력하세요.", "error");
    return;
  }
  const button = $("ask-button");
  button.disabled = true;
  setStatus("답을 찾는 중…", "busy");
  try {
    const traced = await api("POST", "/api/v1/ask/trace", { domain, question, id: "q_admin" });
    const answer = traced.answer;
    let report = null;
    try {
      report = await api("POST", "/api/v1/verify", { answer, question });
    } catch (err) {
      report = null;
    }
    renderCard(domain, answer, report);
    $("path-title").textContent = familyOf(domain) === "inventory" ? "일치한 페이지" : "경로";
    const facts = familyOf(domain) === "inventory" ? new Map() : await nodeFacts(domain, pathOf(domain, answer).nodes);
    $("path-panel").hidden = false; // shown before drawing: text is measured while drawing
    if (familyOf(domain) === "inventory") {
      drawPages(answer);
    } else {
      drawGraph(domain, answer, facts);
    }
    renderSparql(answer, traced.queries || []);
    setStatus(report && report.ok ? "답했습니다. 검증을 통과했습니다." : "답했습니다.", "done");
  } catch (err) {
    setStatus(`오류: ${err.message}`, "error");
  } finally {
    button.disabled = false;
  }
}

// -- writes: the reports of the last ingests (GET /api/v1/writes) ------------------------------------------------

async function loadWrites() {
  let body;
  try {
    body = await api("GET", "/api/v1/writes");
  } catch (err) {
    $("writes-state").textContent = `쓰기 기록을 읽지 못했습니다: ${err.message}`;
    return;
  }
  $("writes-state").textContent = body.writable
    ? `API 토큰으로 쓰기를 받습니다. 최근 ${body.writes.length}건:`
    : "읽기 전용입니다 (API 토큰 없이 시작됨).";
  const list = $("writes-list");
  clear(list);
  for (const w of body.writes.slice().reverse()) {
    const verdict = w.accepted ? badge("반영", "conf-high") : badge("거부", "decision-refuse");
    const linked = Object.entries(w.linked || {}).map(([from, to]) => `${from}→${to}`);
    const errors = (w.errors || []).map((e) => `${e.code}: ${short(e.message, 120)}`);
    const item = el("li", {}, verdict, ` ${w.at} · ${w.domain} · ${w.kind} · ${w.client} · 트리플 +${w.triples_added}`);
    const details = el("dl", { class: "facts" });
    fact(details, "연결", linked);
    fact(details, "새 노드", w.created || []);
    fact(details, "오류", errors);
    fact(details, "기록", w.id);
    item.append(details);
    list.append(item);
  }
}

document.addEventListener("DOMContentLoaded", () => {
  $("ask-form").addEventListener("submit", ask);
  $("domain").addEventListener("change", fillExamples);
  $("example").addEventListener("change", () => {
    if ($("example").value) $("question").value = $("example").value;
  });
  loadDomains();
  loadWrites();
});
