// The page's answers to server requests, as modal dialogs: elicitation
// (a form generated from requestedSchema, or URL mode with explicit
// consent) and sampling (human in the loop: the request is shown, the
// reply is written or drafted by the configured LLM, edited, approved).
// One dialog at a time; later requests wait their turn. A request the
// server cancels (its AbortSignal) closes its dialog.

import { McpError } from "/mcpwasm/src/index.js";
import { h, json, pre, safeHref } from "./dom.js";
import { schemaForm } from "./schema-form.js";
import { renderBlocks } from "./content.js";
import { draftReply } from "./llm.js";

let turn = Promise.resolve();

/** exclusive runs fn once every earlier dialog has closed. */
function exclusive(fn) {
  const p = turn.then(fn, fn);
  turn = p.catch(() => {});
  return p;
}

/**
 * modal shows a <dialog> built by build(done) and resolves with what done
 * was called with. Escape (the dialog's cancel event) resolves with
 * onEscape(); the signal aborting rejects with its reason.
 */
function modal({ label, className, signal, onEscape, build }) {
  return exclusive(() => new Promise((resolve, reject) => {
    if (signal?.aborted) {
      reject(signal.reason);
      return;
    }
    const dlg = h("dialog", { class: ["modal", className], "aria-label": label });
    let settled = false;
    const finish = (ok, v) => {
      if (settled) return;
      settled = true;
      signal?.removeEventListener("abort", onAbort);
      if (dlg.open) dlg.close();
      dlg.remove();
      if (ok) resolve(v);
      else reject(v);
    };
    const onAbort = () => finish(false, signal.reason);
    signal?.addEventListener("abort", onAbort, { once: true });
    dlg.addEventListener("cancel", (e) => {
      e.preventDefault();
      try {
        finish(true, onEscape());
      } catch (err) {
        finish(false, err);
      }
    });
    dlg.append(build((v) => finish(true, v), (e) => finish(false, e)));
    document.body.append(dlg);
    dlg.showModal();
    dlg.querySelector("[autofocus]")?.focus();
  }));
}

function header(kicker, title) {
  return h("header", { class: "modal-head" }, h("div", { class: "kicker" }, kicker), h("h2", {}, title));
}

/** elicit answers an elicitation request (form or URL mode). */
export function elicit(params, { signal, serverName = "The server", onEvent } = {}) {
  if (params?.mode === "url") return elicitURL(params, { signal, serverName, onEvent });
  const schema = params?.requestedSchema || { type: "object", properties: {} };
  return modal({
    label: "Elicitation request",
    className: "elicit",
    signal,
    onEscape: () => ({ action: "cancel" }),
    build(done) {
      const form = schemaForm(schema, { idPrefix: "elicit" });
      const errors = h("div", { class: "form-errors", role: "alert" });
      const f = h("form", { class: "modal-body", novalidate: true, onsubmit: (e) => {
        e.preventDefault();
        const r = form.read();
        if (!r.ok) {
          errors.textContent = `Please fix: ${r.errors.join("; ")}`;
          f.querySelector("[aria-invalid=true]")?.focus();
          return;
        }
        done({ action: "accept", content: r.value });
      } },
      header(`${serverName} asks for information`, "Elicitation"),
      h("p", { class: "server-message" }, String(params?.message ?? "")),
      form.empty ? h("p", { class: "muted" }, "No fields: accepting just confirms.") : form.element,
      h("p", { class: "note" }, "Only share what you want this server to know. Decline says no; Cancel dismisses without answering."),
      errors,
      h("div", { class: "modal-actions" },
        h("button", { type: "button", class: "ghost", onclick: () => done({ action: "cancel" }) }, "Cancel"),
        h("button", { type: "button", class: "secondary", onclick: () => done({ action: "decline" }) }, "Decline"),
        h("button", { type: "submit", class: "primary", autofocus: form.empty ? true : undefined }, "Accept")));
      queueMicrotask(() => f.querySelector("input, select, textarea")?.focus());
      return f;
    },
  });
}

/** elicitURL asks for explicit consent before opening a server-provided URL. */
function elicitURL(params, { signal, serverName, onEvent }) {
  const href = safeHref(params.url);
  let host = "";
  try { host = new URL(params.url).host; } catch { /* shown as invalid below */ }
  return modal({
    label: "URL elicitation request",
    className: "elicit-url",
    signal,
    onEscape: () => ({ action: "cancel" }),
    build(done) {
      return h("div", { class: "modal-body" },
        header(`${serverName} asks you to open a page`, "Open a link?"),
        h("p", { class: "server-message" }, String(params.message ?? "")),
        h("div", { class: "url-box" },
          h("div", { class: "muted" }, "The full address:"),
          h("code", { class: "full-url" }, String(params.url ?? "")),
          host ? h("div", {}, "Site: ", h("strong", { class: "url-host" }, host)) : null),
        href
          ? h("p", { class: "note" }, "Nothing opens unless you say so. Opening it sends you to that site in a new tab; the server learns only that you accepted.")
          : h("p", { class: "warn" }, "This is not an http(s) address, so the page will not open it."),
        h("div", { class: "modal-actions" },
          h("button", { type: "button", class: "ghost", onclick: () => done({ action: "cancel" }) }, "Cancel"),
          h("button", { type: "button", class: "secondary", autofocus: true, onclick: () => done({ action: "decline" }) }, "Decline"),
          h("button", { type: "button", class: "primary", disabled: !href, onclick: () => {
            window.open(href, "_blank", "noopener,noreferrer");
            onEvent?.(`opened ${href}`);
            done({ action: "accept" });
          } }, "Open in a new tab")));
    },
  });
}

/**
 * sample answers a sampling/createMessage request with a reply the user
 * writes (or drafts with the configured LLM endpoint) and approves.
 */
export function sample(params, { signal, serverName = "The server", llm } = {}) {
  const rejected = () => new McpError(-1, "The user rejected the sampling request");
  return modal({
    label: "Sampling request",
    className: "sampling",
    signal,
    onEscape: () => { throw rejected(); },
    build(done, fail) {
      const reply = h("textarea", { id: "sampling-reply", rows: 5, required: true, autofocus: true, placeholder: "Write the model's reply…" });
      const model = h("input", { id: "sampling-model", type: "text", value: llm?.url && llm.model ? llm.model : "human-in-the-loop" });
      const stop = h("select", { id: "sampling-stop" }, ["endTurn", "maxTokens", "stopSequence"].map((v) => h("option", { value: v }, v)));
      const status = h("div", { class: "draft-status", role: "status" });
      const draftAbort = new AbortController();
      signal?.addEventListener("abort", () => draftAbort.abort(), { once: true });
      const draftBtn = h("button", { type: "button", class: "secondary", disabled: !llm?.url,
        title: llm?.url ? `Ask ${llm.url}` : "Configure an LLM endpoint in Settings to draft replies",
        onclick: async () => {
          draftBtn.disabled = true;
          status.textContent = "Drafting…";
          try {
            const d = await draftReply(llm, params, draftAbort.signal);
            reply.value = d.text;
            model.value = d.model;
            status.textContent = "Draft ready: review and edit it before approving.";
          } catch (e) {
            status.textContent = e.message;
          } finally {
            draftBtn.disabled = false;
          }
        } }, "Draft with LLM");
      const msgs = (params.messages || []).map((m) => h("div", { class: ["sample-msg", `role-${m.role}`] },
        h("div", { class: "role" }, String(m.role)), renderBlocks(m.content)));
      const facts = [
        ["max tokens", params.maxTokens],
        ["temperature", params.temperature],
        ["stop sequences", params.stopSequences?.length ? params.stopSequences.join(", ") : undefined],
        ["include context", params.includeContext],
        ["model hints", params.modelPreferences?.hints?.map((x) => x.name).filter(Boolean).join(", ") || undefined],
        ["tool choice", params.toolChoice?.mode],
      ].filter(([, v]) => v !== undefined && v !== "");
      const f = h("form", { class: "modal-body", onsubmit: (e) => {
        e.preventDefault();
        if (!reply.value.trim()) { reply.focus(); return; }
        draftAbort.abort();
        done({ role: "assistant", content: { type: "text", text: reply.value }, model: model.value.trim() || "human-in-the-loop", stopReason: stop.value });
      } },
      header(`${serverName} wants a model reply`, "Sampling"),
      params.systemPrompt ? h("div", { class: "system-prompt" }, h("span", { class: "muted" }, "System prompt: "), String(params.systemPrompt)) : null,
      h("div", { class: "sample-msgs" }, msgs),
      facts.length ? h("dl", { class: "facts" }, facts.map(([k, v]) => [h("dt", {}, k), h("dd", {}, String(v))])) : null,
      params.tools?.length ? h("details", { class: "offered-tools" }, h("summary", {}, `Tools offered: ${params.tools.map((t) => t.name).join(", ")}`), pre(json(params.tools))) : null,
      h("label", { for: "sampling-reply", class: "field-label" }, "Reply (you are the model; edit before approving)"),
      reply,
      h("div", { class: "row" },
        h("label", { for: "sampling-model", class: "field-label" }, "Model"), model,
        h("label", { for: "sampling-stop", class: "field-label" }, "Stop reason"), stop,
        draftBtn),
      status,
      h("div", { class: "modal-actions" },
        h("button", { type: "button", class: "secondary", onclick: () => { draftAbort.abort(); fail(rejected()); } }, "Reject"),
        h("button", { type: "submit", class: "primary" }, "Approve and send")));
      return f;
    },
  });
}
