// The page of `purr view`: lists the executions, those the model allows
// or those its checks forbid, draws the one chosen with the relations and
// sets ticked (and what fails, for a forbidden one), and follows the
// server's version of the check (it changes when the test or the model
// file is saved).
"use strict";

const page = {
  version: -1,
  st: null,         // the last state
  list: "allowed",  // the list shown: allowed or forbidden
  selected: { allowed: 0, forbidden: 0 }, // the index of the execution drawn, per list
  present: false,   // whether the last check has it
  ticked: null,     // names ticked, kept across refreshes (null: defaults)
  drawing: 0,       // counts requests, so that a late answer is dropped
};

function el(tag, attrs, ...children) {
  const e = document.createElement(tag);
  for (const [k, v] of Object.entries(attrs || {})) {
    if (k === "class") e.className = v; else e.setAttribute(k, v);
  }
  for (const c of children) e.append(c);
  return e;
}

async function refresh() {
  const res = await fetch("/state", { cache: "no-store" });
  const st = await res.json();
  page.st = st;
  page.version = st.version;
  document.getElementById("title").textContent = st.test + " under " + st.model;
  document.getElementById("status").textContent =
    "version " + st.version + ", checked at " + new Date().toLocaleTimeString();
  document.getElementById("summary").textContent = st.summary || "";

  if (page.ticked === null) {
    page.ticked = new Set();
    for (const c of st.relations.concat(st.sets)) if (c.default) page.ticked.add(c.name);
  }
  choices("relations", "rel", st.relations);
  choices("sets", "set", st.sets);
  render();
}

// render lists the executions of the list chosen, and draws the one
// chosen.
function render() {
  const st = page.st;
  const forbidden = page.list === "forbidden";
  const forbiddenItems = st.forbidden.flatMap(g => g.executions);
  const items = forbidden ? forbiddenItems : st.executions;
  document.getElementById("show-allowed").classList.toggle("on", !forbidden);
  document.getElementById("show-forbidden").classList.toggle("on", forbidden);
  document.getElementById("allowed-count").textContent = "(" + st.executions.length + ")";
  document.getElementById("forbidden-count").textContent = st.forbiddenError ? "(?)" : "(" + forbiddenItems.length + ")";
  document.getElementById("list-note").hidden = !forbidden;
  const error = document.getElementById("error");
  const message = st.error || (forbidden ? st.forbiddenError : "");
  error.hidden = !message;
  error.textContent = message || "";

  const list = document.getElementById("executions");
  list.replaceChildren();
  document.getElementById("count").textContent = "(" + items.length + ")";
  // The execution chosen stays chosen across a failed check and its fix.
  page.present = items.some(x => x.index === page.selected[page.list]);
  if (!page.present && items.length) {
    page.selected[page.list] = items[0].index;
    page.present = true;
  }
  if (forbidden) {
    for (const g of st.forbidden) {
      const head = el("li", { class: "group" }, "fails ");
      g.checks.forEach((c, i) => {
        if (i > 0) head.append(", ");
        head.append(checkName(c));
      });
      head.append(" (" + g.executions.length + ")");
      list.append(head);
      for (const x of g.executions) list.append(itemLi(x));
    }
  } else {
    for (const x of st.executions) list.append(itemLi(x));
  }
  if (!items.length && !message) {
    list.append(el("li", { class: "empty" }, forbidden ? "no candidate execution fails the model's checks" : "no execution"));
  }
  draw();
}

// checkName is a failed check's name after a swatch of its colour.
function checkName(name) {
  const c = (page.st.checks || []).find(c => c.name === name);
  const span = el("span", { class: "check", "data-check": name });
  if (c && c.colour) span.append(el("span", { class: "swatch", style: "background:" + c.colour }));
  span.append(name);
  return span;
}

function itemLi(x) {
  const li = el("li", { "data-index": String(x.index) }, x.index + ": " + (x.state || "(no state)"));
  if (x.holds) li.append(" ", el("span", { class: "holds", title: "the condition holds" }, "✔ cond"));
  for (const f of x.flags || []) li.append(" ", el("span", { class: "flag" }, "⚑" + f));
  if (page.list === "allowed" && x.fails) {
    li.append(" ", el("span", { class: "fails", title: "fails " + x.fails.join(", ") }, "✘ " + x.fails.join(",")));
  }
  if (x.index === page.selected[page.list]) li.classList.add("selected");
  li.addEventListener("click", () => { page.selected[page.list] = x.index; markSelected(); draw(); });
  return li;
}

function markSelected() {
  for (const li of document.querySelectorAll("#executions li[data-index]")) {
    li.classList.toggle("selected", li.dataset.index === String(page.selected[page.list]));
  }
}

function choose(list) {
  if (page.list === list || !page.st) return;
  page.list = list;
  render();
}

function choices(id, kind, list) {
  const box = document.getElementById(id);
  box.replaceChildren();
  for (const c of list) {
    const input = el("input", { type: "checkbox", "data-kind": kind, value: c.name });
    input.checked = page.ticked.has(c.name);
    input.addEventListener("change", () => {
      if (input.checked) page.ticked.add(c.name); else page.ticked.delete(c.name);
      draw();
    });
    const label = el("label", {}, input);
    if (c.colour) label.append(el("span", { class: "swatch", style: "background:" + c.colour }));
    label.append(c.name);
    box.append(label);
  }
  if (!list.length) box.append(el("span", { class: "empty" }, "none"));
}

async function draw() {
  const drawing = document.getElementById("drawing");
  const ticket = ++page.drawing;
  if (!page.present) { drawing.replaceChildren(); return; }
  const q = new URLSearchParams({ x: String(page.selected[page.list]), list: page.list });
  for (const input of document.querySelectorAll("nav input[type=checkbox]")) {
    if (input.checked) q.append(input.dataset.kind, input.value);
  }
  const res = await fetch("/svg?" + q, { cache: "no-store" });
  if (ticket !== page.drawing) return;
  if (!res.ok) { drawing.replaceChildren(el("p", { class: "empty" }, await res.text())); return; }
  const doc = new DOMParser().parseFromString(await res.text(), "image/svg+xml");
  drawing.replaceChildren(document.importNode(doc.documentElement, true));
  drawing.dataset.version = String(page.version);
}

function listen() {
  const source = new EventSource("/events");
  source.onmessage = (ev) => {
    if (Number(ev.data) !== page.version) refresh();
  };
  source.onerror = () => {
    document.getElementById("status").textContent = "disconnected from purr view; retrying…";
  };
}

document.getElementById("show-allowed").addEventListener("click", () => choose("allowed"));
document.getElementById("show-forbidden").addEventListener("click", () => choose("forbidden"));
refresh().then(listen);
