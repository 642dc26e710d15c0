// The page of `purr view`: lists the executions, those the model allows
// or those its checks forbid, in groups (by final state, rf, condition or
// failed checks) that the server counts and pages, narrowed by a filter;
// draws the one chosen with the relations and sets ticked (and what
// fails, for a forbidden one), fitted to its pane or zoomed; and follows
// the server's check as it enumerates and as the files change.
"use strict";

const itemsPerFetch = 100;
const openAllUpTo = 100; // lists of at most this many executions open every group

const page = {
  version: -1,
  st: null,          // the last state
  list: "allowed",   // the list shown: allowed or forbidden
  by: { allowed: "state", forbidden: "checks" }, // the grouping, per list
  filter: "",
  selected: { allowed: 0, forbidden: 0 }, // the index of the execution drawn, per list
  open: new Map(),   // a group's label → open or closed, as the user chose
  ticked: new Set(), // names ticked, kept across refreshes
  seen: new Set(),   // names offered so far
  drawing: 0,        // counts requests, so that a late answer is dropped
  listing: 0,        // the same for the list
  progress: "",      // the last progress the server reported
  zoom: "fit",       // "fit", or a scale
  lastGroups: 0,     // when the groups were last fetched (ms)
  relisted: false,   // the filter or the grouping changed
};

function el(tag, attrs, ...children) {
  const e = document.createElement(tag);
  for (const [k, v] of Object.entries(attrs || {})) {
    if (k === "class") e.className = v; else e.setAttribute(k, v);
  }
  for (const c of children) e.append(c);
  return e;
}

async function getJSON(url) {
  const res = await fetch(url, { cache: "no-store" });
  if (!res.ok) throw new Error(await res.text());
  return res.json();
}

function listParams(extra) {
  const q = new URLSearchParams({ list: page.list, by: page.by[page.list] });
  if (page.filter) q.set("q", page.filter);
  for (const [k, v] of Object.entries(extra || {})) q.set(k, String(v));
  return q;
}

// refresh reads the state of the check, then the list.
async function refresh() {
  const st = await getJSON("/state");
  const changed = st.version !== page.version;
  page.st = st;
  page.version = st.version;
  document.getElementById("title").textContent = st.test + " under " + st.model;
  document.getElementById("summary").textContent = st.summary || (st.lists.allowed.done ? "" : "checking…");
  const cuts = [st.cut, st.lists[page.list].cut].filter(c => c);
  const cut = document.getElementById("cut");
  cut.hidden = !cuts.length;
  cut.textContent = cuts.length ? "Cut: " + cuts.join("; ") + "." : "";
  // A name ticked by default is ticked when it first appears: the server
  // offers the names of the executions it has built so far.
  let ticked = false;
  for (const c of st.relations.concat(st.sets)) {
    if (page.seen.has(c.name)) continue;
    page.seen.add(c.name);
    if (c.default) { page.ticked.add(c.name); ticked = true; }
  }
  choices("relations", "rel", st.relations);
  choices("sets", "set", st.sets);
  status();
  await render(changed);
  if (ticked && !changed) draw();
}

// status says how far the check is.
function status() {
  const st = page.st;
  const a = st.lists.allowed, f = st.lists.forbidden;
  let s = "version " + st.version + ": ";
  s += a.done ? a.count.toLocaleString() + " executions" : "checking… " + a.count.toLocaleString() + " executions so far";
  document.getElementById("status").textContent = s;
  document.getElementById("allowed-count").textContent = "(" + a.count.toLocaleString() + (a.done ? "" : "…") + ")";
  document.getElementById("forbidden-count").textContent =
    f.error ? "(?)" : !f.started ? "" : "(" + f.count.toLocaleString() + (f.done ? "" : "…") + ")";
}

// render lists the groups of the list chosen, keeping those shown (and
// their executions) unless fresh, and draws the execution chosen.
async function render(fresh) {
  const st = page.st;
  const forbidden = page.list === "forbidden";
  document.getElementById("show-allowed").classList.toggle("on", !forbidden);
  document.getElementById("show-forbidden").classList.toggle("on", forbidden);
  document.getElementById("list-note").hidden = !forbidden;
  document.getElementById("group-by").value = page.by[page.list];
  const ls = st.lists[page.list];
  const error = document.getElementById("error");
  const message = st.error || (forbidden ? ls.error : "");
  error.hidden = !message;
  error.textContent = message || "";

  const ticket = ++page.listing;
  page.lastGroups = Date.now();
  let res;
  try {
    res = await getJSON("/groups?" + listParams());
  } catch (e) {
    return;
  }
  if (ticket !== page.listing) return;
  const list = document.getElementById("executions");
  if (fresh) list.replaceChildren();
  document.getElementById("count").textContent = "(" + res.total.toLocaleString() +
    (page.filter ? " kept by the filter" : "") + ")";
  const total = res.total;
  const shown = new Map();
  for (const li of list.querySelectorAll(":scope > li.group")) shown.set(li.dataset.key, li);
  const loads = [];
  res.groups.forEach((g, i) => {
    let li = shown.get(g.key);
    shown.delete(g.key);
    if (!li) li = groupLi(g);
    li.dataset.count = String(g.count);
    li.querySelector(".n").textContent = "(" + g.count.toLocaleString() + ")";
    list.append(li); // in the server's order
    const open = page.open.has(g.label) ? page.open.get(g.label) : total <= openAllUpTo || i === 0;
    setOpen(li, open);
    if (open) loads.push(fill(li));
  });
  for (const li of shown.values()) li.remove();
  for (const li of list.querySelectorAll(":scope > li.empty, :scope > li.more-groups")) li.remove();
  if (res.more) list.append(el("li", { class: "more-groups empty" }, res.more + " more groups: narrow them with the filter"));
  if (!res.groups.length && !message) {
    const empty = !ls.started || !ls.done ? "checking…" :
      page.filter ? "no execution is kept by the filter" :
      forbidden ? "no candidate execution fails the model's checks" : "no execution";
    list.append(el("li", { class: "empty" }, empty));
  }
  await Promise.all(loads);
  if (ticket !== page.listing) return;
  // Choose the first execution listed when none is chosen, or when the
  // filter or grouping changed and the one chosen is not listed.
  const first = list.querySelector("li[data-index]");
  const listed = list.querySelector(`li[data-index="${page.selected[page.list]}"]`);
  if (first && (!page.selected[page.list] || page.relisted && !listed)) {
    page.selected[page.list] = Number(first.dataset.index);
  }
  page.relisted = false;
  markSelected();
  if (fresh || !document.querySelector("#drawing svg")) draw();
}

function groupLi(g) {
  const li = el("li", { class: "group", "data-key": g.key });
  const head = el("button", { type: "button", "aria-expanded": "false" }, el("span", { class: "arrow" }, "▸"));
  const label = el("span", { class: "label" });
  if (g.checks) {
    label.append("fails ");
    g.checks.forEach((c, i) => {
      if (i > 0) label.append(", ");
      label.append(checkName(c));
    });
  } else {
    label.append(g.label);
  }
  head.append(label, el("span", { class: "n" }));
  head.addEventListener("click", () => {
    const open = head.getAttribute("aria-expanded") !== "true";
    page.open.set(g.label, open);
    setOpen(li, open);
    if (open) fill(li);
  });
  li.dataset.label = g.label;
  li.append(head, el("ol", { class: "items", hidden: "" }));
  return li;
}

function setOpen(li, open) {
  const head = li.querySelector(":scope > button");
  head.setAttribute("aria-expanded", String(open));
  head.querySelector(".arrow").textContent = open ? "▾" : "▸";
  li.querySelector(":scope > ol").hidden = !open;
}

// fill lists the executions of an open group: the first ones, then more
// as the group grows while the check enumerates, up to what was shown.
async function fill(li, more) {
  const ol = li.querySelector(":scope > ol");
  const have = ol.querySelectorAll(":scope > li[data-index]").length;
  const count = Number(li.dataset.count);
  const want = more ? have + itemsPerFetch : Math.max(itemsPerFetch, have);
  if (have >= Math.min(count, want)) return;
  const ticket = page.listing;
  const res = await getJSON("/items?" + listParams({ key: li.dataset.key, from: have, n: Math.min(want - have, 1000) }));
  if (ticket !== page.listing || ol.querySelectorAll(":scope > li[data-index]").length !== have) return;
  const by = page.by[page.list];
  for (const x of res.items) ol.append(itemLi(x, by));
  ol.querySelector(":scope > li.more")?.remove();
  const left = res.total - (have + res.items.length);
  if (left > 0) {
    const m = el("li", { class: "more" }, left.toLocaleString() + " more…");
    m.addEventListener("click", () => fill(li, true));
    ol.append(m);
  }
  markSelected();
}

// checkName is a failed check's name after a swatch of its colour.
function checkName(name) {
  const c = (page.st.checks || []).find(c => c.name === name);
  const span = el("span", { class: "check", "data-check": name });
  if (c && c.colour) span.append(el("span", { class: "swatch", style: "background:" + c.colour }));
  span.append(name);
  return span;
}

// itemLi lists an execution by what its group does not say: its state,
// rf and co.
function itemLi(x, by) {
  const li = el("li", { "data-index": String(x.index), title: "state " + x.state + "\nrf " + x.rf + "\nco " + x.co });
  const parts = [];
  if (by !== "state") parts.push(x.state || "(no state)");
  if (by !== "rf") parts.push("rf " + (x.rf || "none"));
  li.append(x.index + ": " + parts.join(" · "));
  if (x.co) li.append(" ", el("span", { class: "co" }, "co " + x.co));
  if (x.holds) li.append(" ", el("span", { class: "holds", title: "the condition holds" }, "✔ cond"));
  if (x.flags) li.append(" ", el("span", { class: "flag" }, "⚑" + x.flags));
  if (page.list === "allowed" && x.fails) {
    li.append(" ", el("span", { class: "fails", title: "fails " + x.fails.join(", ") }, "✘ " + x.fails.join(",")));
  }
  li.addEventListener("click", () => select(li));
  return li;
}

function select(li) {
  page.selected[page.list] = Number(li.dataset.index);
  markSelected();
  li.scrollIntoView({ block: "nearest" });
  draw();
}

function markSelected() {
  for (const li of document.querySelectorAll("#executions li[data-index]")) {
    li.classList.toggle("selected", li.dataset.index === String(page.selected[page.list]));
  }
}

// step moves the choice to the next (1) or previous (-1) execution
// listed, opening the next group or listing more at the end of one.
async function step(dir) {
  const visible = () => [...document.querySelectorAll("#executions ol:not([hidden]) > li[data-index]")];
  let items = visible();
  let i = items.findIndex(li => li.classList.contains("selected"));
  if (i < 0) {
    if (items.length) select(items[0]);
    return;
  }
  if (dir > 0 && i === items.length - 1) {
    // The end of what is listed: more of this group, else the next group.
    const group = items[i].closest("li.group");
    if (group.querySelector(":scope > ol > li.more")) {
      await fill(group, true);
    } else {
      let next = group.nextElementSibling;
      while (next && !next.classList.contains("group")) next = next.nextElementSibling;
      if (!next) return;
      page.open.set(next.dataset.label, true);
      setOpen(next, true);
      await fill(next);
    }
    items = visible();
  }
  const to = items[i + dir];
  if (to) select(to);
}

function choose(list) {
  if (page.list === list || !page.st) return;
  page.list = list;
  render(true).then(refreshSoon);
}

function choices(id, kind, list) {
  const box = document.getElementById(id);
  const names = list.map(c => c.name).join(",");
  if (box.dataset.names === names) return; // keep the boxes as they are
  box.dataset.names = names;
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
  const index = page.selected[page.list];
  if (!index) { drawing.replaceChildren(); return; }
  const q = new URLSearchParams({ x: String(index), list: page.list });
  for (const input of document.querySelectorAll("aside input[type=checkbox]")) {
    if (input.checked) q.append(input.dataset.kind, input.value);
  }
  const res = await fetch("/svg?" + q, { cache: "no-store" });
  if (ticket !== page.drawing) return;
  if (res.status === 404) {
    // Gone with a change of the files: the first listed, if any, instead;
    // else keep the choice for when it comes back.
    drawing.replaceChildren();
    const first = document.querySelector("#executions li[data-index]");
    if (first && first.dataset.index !== String(index)) select(first);
    return;
  }
  if (!res.ok) { drawing.replaceChildren(el("p", { class: "empty" }, await res.text())); return; }
  const doc = new DOMParser().parseFromString(await res.text(), "image/svg+xml");
  const svg = document.importNode(doc.documentElement, true);
  svg.dataset.width = svg.getAttribute("width");
  svg.dataset.height = svg.getAttribute("height");
  if (!svg.getAttribute("viewBox")) svg.setAttribute("viewBox", "0 0 " + svg.dataset.width + " " + svg.dataset.height);
  drawing.replaceChildren(svg);
  drawing.dataset.version = String(page.version);
  zoom();
}

// zoom sizes the drawing: to fit its pane, or at page.zoom's scale.
function zoom() {
  const svg = document.querySelector("#drawing svg");
  if (!svg) return;
  const pane = document.getElementById("drawing");
  const w = Number(svg.dataset.width), h = Number(svg.dataset.height);
  let scale = page.zoom;
  if (scale === "fit") {
    scale = Math.min((pane.clientWidth - 4) / w, (pane.clientHeight - 4) / h, 2);
  }
  svg.setAttribute("width", String(Math.max(1, Math.floor(w * scale))));
  svg.setAttribute("height", String(Math.max(1, Math.floor(h * scale))));
  svg.dataset.scale = String(scale);
  document.getElementById("zoom-level").textContent = Math.round(scale * 100) + "%" + (page.zoom === "fit" ? " (fit)" : "");
}

function zoomBy(factor) {
  const svg = document.querySelector("#drawing svg");
  const now = svg ? Number(svg.dataset.scale) : 1;
  page.zoom = Math.min(8, Math.max(0.1, now * factor));
  zoom();
}

// listen follows the server: a new version reads everything again;
// progress of the enumeration updates the counts and groups, at most
// once a second.
let pending = null;
function refreshSoon() {
  if (pending) return;
  // At once while nothing is listed yet: the first executions come first.
  const listed = document.querySelector("#executions li[data-index]");
  const wait = listed ? Math.max(0, 1000 - (Date.now() - page.lastGroups)) : 0;
  pending = setTimeout(() => { pending = null; refresh(); }, wait);
}

function listen() {
  const source = new EventSource("/events");
  source.onmessage = (ev) => {
    const [version] = ev.data.split(" ");
    if (Number(version) !== page.version) { refresh(); return; }
    if (ev.data !== page.progress) refreshSoon();
    page.progress = ev.data;
  };
  source.onerror = () => {
    document.getElementById("status").textContent = "disconnected from purr view; retrying…";
  };
}

document.getElementById("show-allowed").addEventListener("click", () => choose("allowed"));
document.getElementById("show-forbidden").addEventListener("click", () => choose("forbidden"));
document.getElementById("group-by").addEventListener("change", (ev) => {
  page.by[page.list] = ev.target.value;
  page.relisted = true;
  render(true);
});
let typing = null;
document.getElementById("filter").addEventListener("input", (ev) => {
  clearTimeout(typing);
  typing = setTimeout(() => { page.filter = ev.target.value.trim(); page.relisted = true; render(true); }, 200);
});
document.getElementById("zoom-fit").addEventListener("click", () => { page.zoom = "fit"; zoom(); });
document.getElementById("zoom-in").addEventListener("click", () => zoomBy(1.25));
document.getElementById("zoom-out").addEventListener("click", () => zoomBy(0.8));
document.getElementById("zoom-one").addEventListener("click", () => { page.zoom = 1; zoom(); });
window.addEventListener("resize", () => { if (page.zoom === "fit") zoom(); });
document.addEventListener("keydown", (ev) => {
  const t = ev.target;
  if (t instanceof HTMLInputElement || t instanceof HTMLSelectElement) {
    if (ev.key === "Escape" || ev.key === "Enter") t.blur();
    return;
  }
  if (ev.ctrlKey || ev.metaKey || ev.altKey) return;
  switch (ev.key) {
    case "j": case "ArrowDown": step(1); break;
    case "k": case "ArrowUp": step(-1); break;
    case "/": document.getElementById("filter").focus(); break;
    case "+": case "=": zoomBy(1.25); break;
    case "-": zoomBy(0.8); break;
    case "0": page.zoom = "fit"; zoom(); break;
    default: return;
  }
  ev.preventDefault();
});
refresh().then(listen);
