// The Tasks card of the example web app: tool calls that run as MCP tasks
// (2025-11-25 experimental tasks or the 2026-07-28 tasks extension), with
// their live status, a Cancel button, and resumption after a page reload:
// the ids of running tasks are kept in localStorage per server URL, and
// reconnecting to that server picks them up again (client.getTask).

import { $, h, clear } from "./dom.js";

const STORE = "mcpwasm-example:tasks";
const MAX_STORED = 50;

function load() {
  try {
    const v = JSON.parse(localStorage.getItem(STORE) || "[]");
    return Array.isArray(v) ? v : [];
  } catch {
    return [];
  }
}

function save(list) {
  localStorage.setItem(STORE, JSON.stringify(list.slice(-MAX_STORED)));
}

function remember(url, id, tool) {
  const list = load().filter((t) => !(t.url === url && t.id === id));
  list.push({ url, id, tool, startedAt: Date.now() });
  save(list);
}

function forget(url, id) {
  save(load().filter((t) => !(t.url === url && t.id === id)));
}

const TERMINAL = new Set(["completed", "failed", "cancelled"]);
const rows = new Map(); // task id → {li, task}

/** clearTasks empties the card (on disconnect); stored ids stay for the next connect. */
export function clearTasks() {
  for (const { ac } of rows.values()) ac?.abort(new DOMException("disconnected", "AbortError"));
  rows.clear();
  renderEmpty();
}

function renderEmpty() {
  const list = $("tasks-list");
  if (!list.children.length || !rows.size) {
    clear(list).append(h("li", { class: "muted small empty" }, "No tasks. Tick “Run as a task” when calling a tool."));
  }
}

function paint(row, state) {
  row.li.dataset.status = state.status;
  row.status.textContent = state.status;
  row.message.textContent = state.statusMessage || "";
  row.cancel.hidden = TERMINAL.has(state.status);
}

/**
 * track shows a task in the card and waits for it; onResult(result) or
 * onError(e) is called when it ends (not when the wait is aborted).
 */
export function track(task, { url, tool, onResult, onError }) {
  const list = $("tasks-list");
  list.querySelector(".empty")?.remove();
  const status = h("span", { class: "chip task-status" });
  const message = h("span", { class: "task-message small muted" });
  const ac = new AbortController();
  const cancel = h("button", { type: "button", class: "ghost small task-cancel", onclick: async () => {
    cancel.disabled = true;
    try {
      paint(row, await task.cancel());
    } catch (e) {
      message.textContent = `cancel failed: ${e.message}`;
    } finally {
      cancel.disabled = false;
    }
  } }, "Cancel");
  const li = h("li", { class: "task", dataset: { taskId: task.id, tool } },
    h("div", { class: "task-head" }, h("strong", {}, tool), status),
    h("code", { class: "task-id small", title: task.id }, task.id),
    message, h("div", { class: "row" }, cancel));
  const old = rows.get(task.id);
  old?.ac.abort(new DOMException("replaced", "AbortError"));
  old?.li.remove();
  const row = { li, task, status, message, cancel, ac };
  rows.set(task.id, row);
  list.prepend(li);
  paint(row, task.state);
  remember(url, task.id, tool);
  task.wait({ signal: ac.signal, onStatus: (s) => paint(row, s) }).then((result) => {
    paint(row, task.state);
    forget(url, task.id);
    onResult?.(result);
  }, (e) => {
    if (ac.signal.aborted) return; // disconnected: the task goes on, and is resumed on the next connect
    paint(row, task.state);
    if (TERMINAL.has(task.status) || e.kind === "rpc") forget(url, task.id);
    onError?.(e);
  });
  return row;
}

/** resume picks up the tasks stored for url (after a reload) and tracks them. */
export async function resume(client, url, callbacks) {
  const stored = load().filter((t) => t.url === url);
  let n = 0;
  for (const t of stored) {
    try {
      const task = await client.getTask(t.id);
      track(task, { url, tool: t.tool, ...callbacks(t.tool, task) });
      n++;
    } catch {
      forget(url, t.id); // expired, or unknown to this server (session-scoped tasks)
    }
  }
  return n;
}

renderEmpty();
