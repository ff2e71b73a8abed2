#!/usr/bin/env node
// fakellm: an OpenAI-compatible Chat Completions endpoint of our own that
// answers from a script, for testing the example web app's model loop (no
// real model is reachable in tests: a fault server in the sense of
// DESIGN.md). It listens on 127.0.0.1 only and answers
//
//   POST /v1/chat/completions   the next scripted answer (non-streaming)
//   GET  /requests              the request bodies it received, as JSON (for assertions)
//   OPTIONS *                   CORS preflight (any origin; a page calls it from the browser)
//
// The script (--script FILE or --script-json TEXT) is {"steps": [step, …]}; a
// step is either {"tool_calls": [{"name", "arguments"}]} (an assistant message
// calling tools; ids are made up) or {"content": "text"} (the final answer).
// Which step answers is derived from the request alone (stateless, so several
// conversations may run): the number of assistant messages after the last
// user message. Before answering it checks the request, and answers HTTP 400
// with {"error": {"message"}} saying what is wrong when
//   - "tools" lacks a function named by the step's tool_calls (or by any step),
//   - an assistant tool call of the conversation has no "tool" message with
//     its tool_call_id after it.
// A final answer's content may hold {{results}}: it is replaced by one line per
// tool message since the last user message ("<tool name>: <content>"), so a test
// can see that the results reached the model. Past the last step it answers
// the last step again.
//
// Flags: --port N (default 0), --delay-ms N (before each answer, default 0),
// --max-requests N (default 1000; then 429), --max-life-ms N (default 900000).
// Prints "LISTENING http://127.0.0.1:<port>/v1/chat/completions" when ready;
// exits when stdin (a pipe) closes, on SIGTERM, or after --max-life-ms.
import http from "node:http";
import { readFileSync } from "node:fs";
import { parseArgs } from "node:util";
import { boundLife } from "../testpeers/node/lifetime.mjs";

const MAX_BODY = 4 << 20;

const { values: flags } = parseArgs({
  options: {
    port: { type: "string", default: "0" },
    script: { type: "string" },
    "script-json": { type: "string" },
    "delay-ms": { type: "string", default: "0" },
    "max-requests": { type: "string", default: "1000" },
    "max-life-ms": { type: "string", default: String(15 * 60 * 1000) },
  },
});

function die(msg) {
  process.stderr.write(`fakellm: ${msg}\n`);
  process.exit(2);
}

let script;
try {
  script = JSON.parse(flags["script-json"] ?? (flags.script ? readFileSync(flags.script, "utf8") : ""));
} catch (e) {
  die(`--script or --script-json must be JSON: ${e.message}`);
}
if (!Array.isArray(script?.steps) || script.steps.length === 0) die("the script needs a non-empty steps array");
for (const [i, s] of script.steps.entries()) {
  if (!Array.isArray(s.tool_calls) && typeof s.content !== "string") die(`step ${i}: needs tool_calls or content`);
}
const delayMs = Number(flags["delay-ms"]);
const maxRequests = Number(flags["max-requests"]);
const maxLifeMs = Number(flags["max-life-ms"]);
if (![delayMs, maxRequests, maxLifeMs].every((n) => Number.isFinite(n) && n >= 0)) die("numeric flags must be non-negative numbers");

const toolNames = new Set(script.steps.flatMap((s) => (s.tool_calls || []).map((c) => c.name)));
const received = [];
let served = 0;
let callSeq = 0;

const cors = {
  "access-control-allow-origin": "*",
  "access-control-allow-methods": "POST, GET, OPTIONS",
  "access-control-allow-headers": "content-type, authorization",
  "access-control-max-age": "600",
};

function send(res, status, body) {
  res.writeHead(status, { ...cors, "content-type": "application/json" });
  res.end(JSON.stringify(body));
}

/** problem returns what is wrong with a request, or "". */
function problem(body) {
  if (!body || typeof body !== "object") return "the body is not a JSON object";
  if (!Array.isArray(body.messages) || body.messages.length === 0) return "messages is missing or empty";
  const offered = new Set((Array.isArray(body.tools) ? body.tools : [])
    .filter((t) => t?.type === "function" && t.function?.name).map((t) => t.function.name));
  const missing = [...toolNames].filter((n) => !offered.has(n));
  if (missing.length) return `tools lacks ${missing.join(", ")} (offered: ${[...offered].join(", ") || "none"})`;
  for (const [i, m] of body.messages.entries()) {
    for (const c of m?.role === "assistant" && Array.isArray(m.tool_calls) ? m.tool_calls : []) {
      const answered = body.messages.slice(i + 1).some((x) => x?.role === "tool" && x.tool_call_id === c.id);
      if (!answered) return `tool call ${c.id} (${c.function?.name}) has no tool message with its result`;
    }
  }
  return "";
}

function answer(body) {
  const msgs = body.messages;
  let lastUser = -1;
  msgs.forEach((m, i) => { if (m?.role === "user") lastUser = i; });
  const turn = msgs.slice(lastUser + 1);
  const step = script.steps[Math.min(turn.filter((m) => m?.role === "assistant").length, script.steps.length - 1)];
  let message;
  if (step.tool_calls) {
    message = {
      role: "assistant",
      content: null,
      tool_calls: step.tool_calls.map((c) => ({
        id: `call_${++callSeq}`,
        type: "function",
        function: { name: c.name, arguments: JSON.stringify(c.arguments ?? {}) },
      })),
    };
  } else {
    const names = new Map();
    for (const m of turn) for (const c of m?.tool_calls || []) names.set(c.id, c.function?.name);
    const results = turn.filter((m) => m?.role === "tool").map((m) => {
      const content = typeof m.content === "string" ? m.content : JSON.stringify(m.content);
      return `${names.get(m.tool_call_id) ?? m.tool_call_id}: ${content}`;
    }).join("\n");
    message = { role: "assistant", content: step.content.replaceAll("{{results}}", results) };
  }
  return {
    id: `chatcmpl-${served}`,
    object: "chat.completion",
    created: Math.floor(Date.now() / 1000),
    model: body.model || "fakellm",
    choices: [{ index: 0, message, finish_reason: message.tool_calls ? "tool_calls" : "stop" }],
    usage: { prompt_tokens: 0, completion_tokens: 0, total_tokens: 0 },
  };
}

const server = http.createServer((req, res) => {
  const { pathname } = new URL(req.url, "http://x");
  if (req.method === "OPTIONS") {
    res.writeHead(204, cors).end();
    return;
  }
  if (req.method === "GET" && pathname === "/requests") {
    send(res, 200, received);
    return;
  }
  if (req.method !== "POST" || pathname !== "/v1/chat/completions") {
    send(res, 404, { error: { message: `no such endpoint: ${req.method} ${pathname}` } });
    return;
  }
  if (++served > maxRequests) {
    send(res, 429, { error: { message: "fakellm: request limit reached" } });
    return;
  }
  const chunks = [];
  let size = 0;
  req.on("data", (d) => {
    size += d.length;
    if (size > MAX_BODY) {
      send(res, 413, { error: { message: "fakellm: body too large" } });
      req.destroy();
      return;
    }
    chunks.push(d);
  });
  req.on("end", () => {
    if (size > MAX_BODY) return;
    let body;
    try {
      body = JSON.parse(Buffer.concat(chunks).toString("utf8"));
    } catch (e) {
      send(res, 400, { error: { message: `fakellm: the body is not JSON: ${e.message}` } });
      return;
    }
    if (received.length < maxRequests) received.push(body);
    const bad = problem(body);
    if (bad) {
      send(res, 400, { error: { message: `fakellm: ${bad}` } });
      return;
    }
    const out = answer(body);
    setTimeout(() => send(res, 200, out), delayMs);
  });
});

server.listen(Number(flags.port), "127.0.0.1", () => {
  process.stdout.write(`LISTENING http://127.0.0.1:${server.address().port}/v1/chat/completions\n`);
});
boundLife(maxLifeMs, (why) => {
  process.stderr.write(`fakellm: stopping (${why})\n`);
  server.closeAllConnections();
  server.close(() => process.exit(0));
  setTimeout(() => process.exit(0), 1000).unref();
});
