// What real servers do to the client that must not hang it, lose a call or
// leave the caller guessing (issue 10), through the JS package.
import { test, describe, before, after } from "node:test";
import assert from "node:assert/strict";
import { init, Client, McpError, ErrorCode } from "../src/index.node.js";
import { modernServer, startPeer, text, waitFor } from "./helpers.mjs";

await init();

describe("server-everything (legacy era)", () => {
  let server;
  before(async () => { server = await startPeer("everything", ["--transport", "streamableHttp"]); });
  after(async () => { await server?.stop(); });

  const connect = async (elicitation) => {
    const c = new Client({ name: "mcpwasm-js-test", version: "1.0.0" }, { elicitation, elicitationModes: ["form", "url"] });
    await c.connect(server.url);
    return c;
  };

  test("a -32042 without elicitation/complete rejects within the call's timeout, carrying the elicitation", async () => {
    const c = await connect(() => ({ action: "accept" }));
    try {
      const started = Date.now();
      await assert.rejects(
        c.callTool({ name: "trigger-url-elicitation", arguments: { url: "https://example.com/a", errorPath: true, elicitationId: "js-a" } }, { timeout: 500 }),
        (e) => e instanceof McpError && e.kind === "url-elicitation" && e.code === ErrorCode.URLElicitationRequired &&
          e.data?.elicitations?.[0]?.url === "https://modelcontextprotocol.io" && /timed out/.test(e.message));
      assert.ok(Date.now() - started < 10000);
    } finally {
      await c.close();
    }
  });

  test("a handler that says the user is done (completed: true) gets the call retried", async () => {
    const urls = [];
    const c = await connect((params) => { urls.push(params.url); return { action: "accept", completed: true }; });
    try {
      const r = await c.callTool({ name: "trigger-url-elicitation", arguments: { url: "https://example.com/b", errorPath: true, elicitationId: "js-b" } });
      assert.match(text(r), /User completed the URL elicitation flow/);
      assert.deepEqual(urls, ["https://modelcontextprotocol.io", "https://example.com/b"]);
    } finally {
      await c.close();
    }
  });

  test("a session the server forgot (400 'No valid session ID provided') is re-initialized", async () => {
    const c = await connect(undefined);
    try {
      const old = c.sessionId;
      assert.ok(old);
      const res = await fetch(server.url, { method: "DELETE", headers: { "mcp-session-id": old, "mcp-protocol-version": c.protocolVersion } });
      assert.ok(res.ok, `DELETE answered ${res.status}`);
      const { tools } = await c.listTools();
      assert.ok(tools.length > 0);
      assert.notEqual(c.sessionId, old);
    } finally {
      await c.close();
    }
  });
});

describe("the TypeScript SDK v2 server", () => {
  let server;
  before(async () => { server = await startPeer("ts"); });
  after(async () => { await server?.stop(); });

  test("onToolsListChanged and a listen() for the same notifications: one change, one callback each", async () => {
    let clientCalls = 0;
    let listenCalls = 0;
    const progress = [];
    let onWire = 0;
    const c = new Client({ name: "mcpwasm-js-test", version: "1.0.0" }, {
      onToolsListChanged: () => { clientCalls++; },
      onMessage: (dir, m) => { if (dir === "in" && m.method === "notifications/tools/list_changed") onWire++; },
    });
    await c.connect(server.url);
    try {
      const sub = await c.listen({ toolsListChanged: true }, {
        onNotification: (method) => { if (method === "notifications/tools/list_changed") listenCalls++; },
      });
      await c.callTool({ name: "change_tools" });
      await waitFor(() => onWire === 2, 10000, "one copy per stream on the wire");
      // Handlers run in arrival order: once a later call's progress has
      // been handled, so has every copy of the change.
      await c.callTool({ name: "progress", arguments: { steps: 1, delayMs: 1 } }, { onprogress: (p) => progress.push(p) });
      await waitFor(() => progress.length === 1, 5000, "progress");
      assert.equal(clientCalls, 1);
      assert.equal(listenCalls, 1);
      await sub.close();
    } finally {
      await c.close();
    }
  });

  test("an aborted call rejects with McpError kind abort, the signal's reason as cause", async () => {
    const c = new Client({ name: "mcpwasm-js-test", version: "1.0.0" });
    await c.connect(server.url);
    try {
      const reason = new Error("user gave up");
      const ac = new AbortController();
      const p = c.callTool({ name: "slow", arguments: { ms: 10000 } }, { signal: ac.signal });
      setTimeout(() => ac.abort(reason), 50);
      await assert.rejects(p, (e) => e instanceof McpError && e.kind === "abort" && e.cause === reason && e.code === ErrorCode.RequestTimeout);
      const ac2 = new AbortController();
      ac2.abort();
      await assert.rejects(c.callTool({ name: "slow", arguments: { ms: 10000 } }, { signal: ac2.signal }),
        (e) => e instanceof McpError && e.kind === "abort" && e.cause?.name === "AbortError");
    } finally {
      await c.close();
    }
  });
});

test("a refused connection in Node is a network error without a CORS hint", async () => {
  const net = await import("node:net");
  const port = await new Promise((resolve) => {
    const s = net.createServer();
    s.listen(0, "127.0.0.1", () => { const p = s.address().port; s.close(() => resolve(p)); });
  });
  const c = new Client({ name: "mcpwasm-js-test", version: "1.0.0" });
  try {
    await assert.rejects(c.connect(`http://127.0.0.1:${port}/mcp`), (e) => e instanceof McpError && e.kind === "transport" &&
      !/CORS|Access-Control/.test(e.message) && /ECONNREFUSED|network error/.test(e.message));
  } finally {
    await c.close();
  }
});

test("retry: true repeats a 503 with Retry-After for a safe request, never a plain tools/call", async () => {
  const seen = { "tools/list": 0, "tools/call": 0 };
  let failing = 0;
  const { url, server: srv } = await modernServer((m, res, json) => {
    seen[m.method]++;
    if (failing > 0) { failing--; res.statusCode = 503; res.setHeader("retry-after", "0"); return res.end("busy"); }
    if (m.method === "tools/list") return json({ resultType: "complete", tools: [{ name: "charge", inputSchema: { type: "object" } }] });
    return json({ resultType: "complete", content: [{ type: "text", text: "charged" }] });
  });
  const c = new Client({ name: "mcpwasm-js-test", version: "1.0.0" }, { retry: { attempts: 3, delay: 1 }, cache: false });
  try {
    await c.connect(url);
    failing = 2;
    const { tools } = await c.listTools();
    assert.equal(tools.length, 1);
    assert.equal(seen["tools/list"], 3, "two 503s, then the answer");
    failing = 1;
    await assert.rejects(c.callTool({ name: "charge" }), (e) => e instanceof McpError && e.kind === "http" && e.status === 503);
    assert.equal(seen["tools/call"], 1, "a tool that does not say it is idempotent is not repeated");
  } finally {
    await c.close();
    srv.close();
  }
});

test("a GET stream that keeps ending without a message is given up, and the application is told", async () => {
  const http = await import("node:http");
  let gets = 0;
  const srv = http.createServer(async (req, res) => {
    if (req.method === "GET") {
      gets++;
      res.writeHead(200, { "content-type": "text/event-stream" });
      return res.end(`retry: 1\nid: ${gets}\ndata: \n\n`);
    }
    if (req.method === "DELETE") return res.end();
    let body = "";
    for await (const c of req) body += c;
    const m = JSON.parse(body);
    if (m.method === "server/discover") { res.statusCode = 400; return res.end("Bad Request"); }
    if (m.id === undefined) { res.statusCode = 202; return res.end(); }
    res.setHeader("content-type", "application/json");
    if (m.method === "initialize") res.setHeader("mcp-session-id", "s1");
    const result = m.method === "initialize"
      ? { protocolVersion: "2025-11-25", capabilities: { tools: {} }, serverInfo: { name: "hostile", version: "1" } }
      : { tools: [] };
    res.end(JSON.stringify({ jsonrpc: "2.0", id: m.id, result }));
  });
  await new Promise((r) => srv.listen(0, "127.0.0.1", r));
  const warnings = [];
  let gaveUp;
  const told = new Promise((r) => { gaveUp = r; });
  const c = new Client({ name: "mcpwasm-js-test", version: "1.0.0" }, {
    onWarning: (w) => { warnings.push(w); if (/gave up/.test(w)) gaveUp(); },
  });
  try {
    await c.connect(`http://127.0.0.1:${srv.address().port}/mcp`);
    assert.equal(c.backgroundStreamError, undefined);
    await told;
    assert.equal(gets, 5, "one connection per attempt, no more");
    assert.match(c.backgroundStreamError, /gave up re-opening the server's event stream after 5 attempts/);
    assert.deepEqual((await c.listTools()).tools, [], "calls still work");
  } finally {
    await c.close();
    srv.close();
  }
});

test("a JSON answer is read whole whether or not it announces its length, in any chunking, and an abort mid-body settles the call", async () => {
  const http = await import("node:http");
  let mode = "length";
  let stall = null; // set: the next tools/call answer sends half its body and waits
  const srv = http.createServer(async (req, res) => {
    let body = "";
    for await (const c of req) body += c;
    const m = JSON.parse(body);
    const result = m.method === "server/discover"
      ? { resultType: "complete", supportedVersions: ["2026-07-28"], capabilities: { tools: {} }, ttlMs: 0, cacheScope: "public" }
      : m.method === "tools/list"
        ? { resultType: "complete", tools: [{ name: "big", inputSchema: { type: "object" } }] }
        : { resultType: "complete", content: [{ type: "text", text: "é".repeat(200_000) + m.params.arguments.tag }] };
    const text = Buffer.from(JSON.stringify({ jsonrpc: "2.0", id: m.id, result }));
    const headers = { "content-type": "application/json" };
    if (mode === "length") headers["content-length"] = String(text.length);
    res.writeHead(200, headers);
    if (stall && m.method === "tools/call") {
      res.write(text.subarray(0, text.length >> 1));
      stall(res);
      return;
    }
    // Uneven chunks, flushed one by one.
    for (let i = 0, k = 1; i < text.length; i += k, k = k * 3 + 7) {
      res.write(text.subarray(i, i + k));
      await new Promise((r) => setImmediate(r));
    }
    res.end();
  });
  await new Promise((r) => srv.listen(0, "127.0.0.1", r));
  const c = new Client({ name: "mcpwasm-js-test", version: "1.0.0" }, { cache: false });
  try {
    await c.connect(`http://127.0.0.1:${srv.address().port}/mcp`);
    for (const m of ["length", "chunked"]) {
      mode = m;
      const r = await c.callTool({ name: "big", arguments: { tag: m } });
      assert.equal(r.content[0].text, "é".repeat(200_000) + m, `${m}: the whole body, decoded`);
    }
    let held;
    const stalled = new Promise((r) => { stall = (res) => { held = res; r(); }; });
    const ac = new AbortController();
    const call = c.callTool({ name: "big", arguments: { tag: "x" } }, { signal: ac.signal });
    await stalled;
    ac.abort(new Error("enough"));
    await assert.rejects(call, (e) => e instanceof McpError && e.kind === "abort" && e.cause?.message === "enough");
    held.destroy();
    stall = null;
    mode = "length";
    const r = await c.callTool({ name: "big", arguments: { tag: "after" } });
    assert.ok(r.content[0].text.endsWith("after"), "the session goes on after the aborted body");
  } finally {
    await c.close();
    srv.close();
  }
});

// bodyMeter wraps fetch so that each answer's body is counted as the client
// pulls it (through a reader or arrayBuffer() alike): pulled() is the total.
function bodyMeter() {
  let total = 0;
  const fetchFn = async (u, init) => {
    const r = await globalThis.fetch(u, init);
    if (!r.body) return r;
    const src = r.body.getReader();
    const counted = new ReadableStream({
      async pull(ctl) {
        const { done, value } = await src.read();
        if (done) return ctl.close();
        total += value.byteLength;
        ctl.enqueue(value);
      },
      cancel(reason) { return src.cancel(reason); },
    }, { highWaterMark: 0 });
    return new Response(counted, { status: r.status, statusText: r.statusText, headers: r.headers });
  };
  return { fetch: fetchFn, pulled: () => total };
}

test("a small compressed JSON answer that inflates past maxMessageSize is read only up to the limit (its Content-Length does not bound it)", async () => {
  const zlib = await import("node:zlib");
  const limit = 1 << 20;
  const inflated = 48 << 20;
  const { url, server: srv } = await modernServer(async (m, res, json) => {
    if (m.params?.arguments?.small) {
      // small and uncompressed, with a Content-Length: read whole in one step
      const body = Buffer.from(JSON.stringify({ jsonrpc: "2.0", id: m.id, result: { resultType: "complete", content: [{ type: "text", text: "small" }] } }));
      res.writeHead(200, { "content-type": "application/json", "content-length": body.length });
      return res.end(body);
    }
    const head = `{"jsonrpc":"2.0","id":${m.id},"result":{"resultType":"complete","content":[{"type":"text","text":"`;
    const gz = zlib.gzipSync(Buffer.concat([Buffer.from(head), Buffer.alloc(inflated, 0x78), Buffer.from(`"}]}}`)]), { level: 9 });
    res.writeHead(200, { "content-type": "application/json", "content-encoding": "gzip", "content-length": gz.length });
    res.end(gz);
  });
  const meter = bodyMeter();
  const c = new Client({ name: "mcpwasm-js-test", version: "1.0.0" }, { cache: false });
  try {
    await c.connect(url, { maxMessageSize: limit, fetch: meter.fetch });
    let before = meter.pulled();
    await assert.rejects(c.callTool({ name: "bomb" }), (e) => e instanceof McpError && /more than 1048576 bytes/.test(e.message));
    const pulled = meter.pulled() - before;
    assert.ok(pulled > limit, `the client read ${pulled} bytes, not past the limit`);
    assert.ok(pulled < 8 * limit, `the client read ${pulled} of the ${inflated} bytes the answer inflates to`);
    before = meter.pulled();
    const r = await c.callTool({ name: "bomb", arguments: { small: true } });
    assert.equal(r.content[0].text, "small", "the session goes on");
    assert.ok(meter.pulled() - before > 0, "the small answer came through the same fetch");
  } finally {
    await c.close();
    srv.close();
  }
});

test("an endless JSON answer is cut off after maxMessageSize: the call rejects as too large, the rest is not read, the session goes on", async () => {
  const limit = 1 << 20;
  const cap = 64 << 20; // the server gives up by itself after this much
  let endless = null; // settles with the bytes written and whether the client hung up
  const { url, server: srv } = await modernServer(async (m, res, json) => {
    if (m.method === "tools/list") return json({ resultType: "complete", tools: [{ name: "endless", inputSchema: { type: "object" } }] });
    if (m.params.arguments?.small) return json({ resultType: "complete", content: [{ type: "text", text: "small" }] });
    res.writeHead(200, { "content-type": "application/json" });
    let written = 0;
    let hungUp = false;
    const closed = new Promise((r) => res.once("close", () => { hungUp = !res.writableFinished; r(); }));
    const chunk = Buffer.from("x".repeat(65536));
    res.write(`{"jsonrpc":"2.0","id":${m.id},"result":{"resultType":"complete","content":[{"type":"text","text":"`);
    while (written < cap && !res.destroyed) {
      written += chunk.length;
      if (!res.write(chunk)) await Promise.race([new Promise((r) => res.once("drain", r)), closed]);
    }
    if (!res.destroyed) res.end(`"}]}}`);
    await closed;
    endless({ written, hungUp });
  });
  const c = new Client({ name: "mcpwasm-js-test", version: "1.0.0" }, { cache: false });
  try {
    await c.connect(url, { maxMessageSize: limit });
    const served = new Promise((r) => { endless = r; });
    await assert.rejects(c.callTool({ name: "endless" }), (e) => e instanceof McpError && /more than 1048576 bytes/.test(e.message));
    const { written, hungUp } = await served;
    assert.ok(hungUp, "the client cancelled the body");
    assert.ok(written < 16 * limit, `the server wrote ${written} bytes before the client hung up`);
    const r = await c.callTool({ name: "endless", arguments: { small: true } });
    assert.equal(r.content[0].text, "small", "the session goes on");
  } finally {
    await c.close();
    srv.close();
  }
});
