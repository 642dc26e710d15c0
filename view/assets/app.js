// The page of `purr view`: lists the executions, draws the one chosen
// with the relations and sets ticked, and follows the server's version
// of the check (it changes when the test or the model file is saved).
"use strict";

const page = {
  version: -1,
  selected: 0,      // the index of the execution drawn
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
  page.version = st.version;
  document.getElementById("title").textContent = st.test + " under " + st.model;
  document.getElementById("status").textContent =
    "version " + st.version + ", checked at " + new Date().toLocaleTimeString();
  const error = document.getElementById("error");
  error.hidden = !st.error;
  error.textContent = st.error || "";
  document.getElementById("summary").textContent = st.summary || "";

  if (page.ticked === null) {
    page.ticked = new Set();
    for (const c of st.relations.concat(st.sets)) if (c.default) page.ticked.add(c.name);
  }
  choices("relations", "rel", st.relations);
  choices("sets", "set", st.sets);

  const list = document.getElementById("executions");
  list.replaceChildren();
  document.getElementById("count").textContent = "(" + st.executions.length + ")";
  // The execution chosen stays chosen across a failed check and its fix.
  page.present = st.executions.some(x => x.index === page.selected);
  if (!page.present && st.executions.length) {
    page.selected = st.executions[0].index;
    page.present = true;
  }
  for (const x of st.executions) {
    const li = el("li", { "data-index": String(x.index) }, x.index + ": " + (x.state || "(no state)"));
    if (x.holds) li.append(" ", el("span", { class: "holds", title: "the condition holds" }, "✔ cond"));
    for (const f of x.flags || []) li.append(" ", el("span", { class: "flag" }, "⚑" + f));
    if (x.index === page.selected) li.classList.add("selected");
    li.addEventListener("click", () => { page.selected = x.index; markSelected(); draw(); });
    list.append(li);
  }
  if (!st.executions.length && !st.error) {
    list.append(el("li", { class: "empty" }, "no execution"));
  }
  draw();
}

function markSelected() {
  for (const li of document.querySelectorAll("#executions li")) {
    li.classList.toggle("selected", li.dataset.index === String(page.selected));
  }
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
  const q = new URLSearchParams({ x: String(page.selected) });
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

refresh().then(listen);
