// Tiny DOM helpers. Everything that comes from a server is inserted as text
// (textContent / createTextNode) or as an attribute value the browser does
// not execute; nothing is ever parsed as HTML.

/**
 * h creates an element. attrs: class, text (textContent), dataset (object),
 * on<Event> handlers (functions), and any other attribute (set with
 * setAttribute; false/null/undefined skip it, true sets it empty).
 * Children: nodes, strings (text nodes), arrays, null/undefined/false (skipped).
 */
export function h(tag, attrs = {}, ...children) {
  const el = document.createElement(tag);
  for (const [k, v] of Object.entries(attrs || {})) {
    if (v === undefined || v === null || v === false) continue;
    if (k === "class") el.className = Array.isArray(v) ? v.filter(Boolean).join(" ") : v;
    else if (k === "text") el.textContent = String(v);
    else if (k === "dataset") Object.assign(el.dataset, v);
    else if (k.startsWith("on") && typeof v === "function") el.addEventListener(k.slice(2).toLowerCase(), v);
    else if (k === "value" && ("value" in el)) el.value = v;
    else if (k === "checked" || k === "selected" || k === "disabled" || k === "hidden" || k === "required" || k === "multiple") el[k] = !!v;
    else el.setAttribute(k, v === true ? "" : String(v));
  }
  append(el, children);
  return el;
}

/** append adds children (see h) to el and returns el. */
export function append(el, children) {
  for (const c of children.flat(Infinity)) {
    if (c === undefined || c === null || c === false) continue;
    el.append(c instanceof Node ? c : document.createTextNode(String(c)));
  }
  return el;
}

/** clear removes every child of el and returns el. */
export function clear(el) {
  el.replaceChildren();
  return el;
}

/** $ is document.getElementById that fails loudly. */
export function $(id) {
  const el = document.getElementById(id);
  if (!el) throw new Error(`no element #${id}`);
  return el;
}

/** json pretty-prints a value for display (never throws). */
export function json(value) {
  try {
    const s = JSON.stringify(value, null, 2);
    return s === undefined ? String(value) : s;
  } catch {
    return String(value);
  }
}

/** pre is a <pre> block with text. */
export function pre(text, cls = "") {
  return h("pre", { class: ["code", cls] }, String(text));
}

/** time formats a Date as HH:MM:SS. */
export function time(d = new Date()) {
  return d.toTimeString().slice(0, 8);
}

let nextId = 0;
/** uid returns a page-unique id with a prefix. */
export function uid(prefix = "id") {
  nextId += 1;
  return `${prefix}-${nextId}`;
}

/** safeHref returns url if it is an http(s) URL, else null. */
export function safeHref(url) {
  try {
    const u = new URL(String(url));
    return u.protocol === "http:" || u.protocol === "https:" ? u.href : null;
  } catch {
    return null;
  }
}

/** externalLink makes a link that opens in a new tab without an opener. */
export function externalLink(href, text) {
  return h("a", { href, target: "_blank", rel: "noopener noreferrer" }, text ?? href);
}
