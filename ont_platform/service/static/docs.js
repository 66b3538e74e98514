// The route list at /docs: reads /openapi.json from this server and writes every operation as text
// (textContent only: nothing from the document is ever treated as markup).
"use strict";

const METHODS = ["get", "post", "put", "patch", "delete"];

function el(tag, text, cls) {
  const node = document.createElement(tag);
  if (text !== undefined && text !== null) node.textContent = String(text);
  if (cls) node.className = cls;
  return node;
}

function details(op) {
  const list = el("dl");
  for (const p of op.parameters || []) {
    list.append(el("dt", `${p.name} (${p.in}${p.required ? ", required" : ""})`), el("dd", p.description || ""));
  }
  const body = op.requestBody && op.requestBody.content;
  if (body) list.append(el("dt", "body"), el("dd", Object.keys(body).join(", ")));
  for (const [status, resp] of Object.entries(op.responses || {})) {
    list.append(el("dt", status), el("dd", resp.description || ""));
  }
  return list;
}

async function main() {
  const target = document.getElementById("routes");
  let doc;
  try {
    const response = await fetch("/openapi.json", { headers: { Accept: "application/json" } });
    doc = await response.json();
  } catch (err) {
    target.replaceChildren(el("p", `Cannot read /openapi.json: ${err}`));
    return;
  }
  document.getElementById("title").textContent = `${doc.info.title} ${doc.info.version} · HTTP API`;
  const out = [el("p", doc.info.description || "", "muted")];
  for (const [path, item] of Object.entries(doc.paths || {})) {
    for (const method of METHODS) {
      const op = item[method];
      if (!op) continue;
      const section = el("section");
      const head = el("h2");
      head.append(el("span", method.toUpperCase(), "method"), el("span", path, "path"));
      section.append(head, el("p", op.summary || ""), details(op));
      out.push(section);
    }
  }
  target.replaceChildren(...out);
}

main();
