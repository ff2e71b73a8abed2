// What one benchmark round does in every runtime it runs in: bench/client.mjs (a Node, Deno or
// Bun process) and bench/page.mjs (a Chromium page) import it. It sets up the client under test,
// checks what it negotiated, times the first 100 calls, warms up, and measures each row; the
// caller supplies what differs: how each client's module is imported, which fetch the bare loop
// uses, and how CPU time is read (process.cpuUsage() in a process; in a page, the bench reads the
// browser's processes from outside).
//
// Only the client's own module is imported (dynamically, after the clock starts), so the start-up
// figures are the client's: performance.now() is measured from the time origin (process start, or
// the page's navigation) at import done, init done (mcpwasm), connected, and first tools/list
// answered.
//
// After the first tools/list, the first 100 sequential echo calls are timed (marks.cold100: ms from
// the first call's start to the hundredth's answer: what a process pays before the engine has
// optimised the client's code), then the client warms up for warmSeconds before the rows, the same
// for every client: engines compile a WebAssembly module's hot functions again, optimised, on
// background threads once they have run enough, and JavaScript's the same way, so rows measured
// before that compare start-up costs instead of per-call costs. The warm-up makes every kind of
// call its rows make, one after the other: sequential echo calls for half of the time, then each
// result size of its payload rows for an even share of the other half (at least one call each; a
// client with no payload rows, as the bare floors', makes the echo half alone — the echo warm-up
// is the same for every client, and a payload warm-up warms nothing such a client measures): a
// payload's code (the validation of a long string, the copies) is other code than an echo's, and
// warmed up with echo calls alone a 1 MB row measured its own compilation (with one warm-up call
// and 0.4 s: 7.4–8.3 ms of CPU per call for mcpwasm instead of 3.1–3.8 ms, and 2.7–3.3 against
// 2.1–2.6 ms for the TS SDK).
//
// Each row: `warmup` calls at the row's concurrency, then with `conc` callers at least `minCalls`
// calls, more until `seconds` have passed, at most `maxCalls`, timed with performance.now(). Every
// answer is checked (echo text, payload length); a wrong answer fails the round.

export const LEGACY = "2025-11-25";
export const MODERN = "2026-07-28";
export const CLIENT_KINDS = ["mcpwasm", "ts", "bare", "bare-http"];

/**
 * setupClient connects one client and returns {call(tool, args) → result, list() → tools result,
 * close(), version(), stats?()}, recording start-up marks in marks.
 *   kind: "mcpwasm" | "ts" | "bare" | "bare-http"
 *   env.importMcpwasm() → the package's module as this runtime imports it
 *   env.importTS() → @modelcontextprotocol/client
 *   env.fetch: the bare loop's fetch (the runtime's own, or a node:http one for "bare-http")
 */
export async function setupClient(kind, url, era, env, marks) {
  const mark = (name) => { marks[name] = performance.now(); };
  if (kind === "mcpwasm") {
    const m = await env.importMcpwasm();
    mark("imported");
    await m.init(env.initOptions);
    mark("init");
    const c = new m.Client({ name: "bench-mcpwasm", version: "1.0.0" }, { protocolVersions: [era === "legacy" ? LEGACY : MODERN] });
    await c.connect(url);
    mark("connected");
    return {
      call: (name, args) => c.callTool({ name, arguments: args }),
      list: () => c.listTools(),
      close: () => c.close(),
      version: () => c.protocolVersion,
      stats: () => m.moduleStats(),
    };
  }
  if (kind === "ts") {
    const { Client, StreamableHTTPClientTransport } = await env.importTS();
    mark("imported");
    mark("init");
    const c = new Client(
      { name: "bench-ts", version: "1.0.0" },
      { versionNegotiation: { mode: era === "legacy" ? "legacy" : { pin: MODERN } } },
    );
    await c.connect(new StreamableHTTPClientTransport(new URL(url)));
    mark("connected");
    return {
      call: (name, args) => c.callTool({ name, arguments: args }),
      list: () => c.listTools(),
      close: () => c.close(),
      version: () => c.getNegotiatedProtocolVersion?.(),
    };
  }
  if (kind === "bare" || kind === "bare-http") {
    mark("imported");
    mark("init");
    const bare = await setupBare(env.fetch, url, era);
    mark("connected");
    return bare;
  }
  throw new Error(`unknown client ${kind}`);
}

// The floor: JSON-RPC over fetch with no protocol machinery beyond what the server requires.
async function setupBare(fetch, url, era) {
  let id = 0;
  let session;
  const base = { "content-type": "application/json", accept: "application/json, text/event-stream" };
  const meta = {
    "io.modelcontextprotocol/protocolVersion": MODERN,
    "io.modelcontextprotocol/clientInfo": { name: "bench-bare", version: "1.0.0" },
    "io.modelcontextprotocol/clientCapabilities": {},
  };
  async function rpc(method, params, name) {
    const myId = ++id;
    const headers = { ...base };
    if (era === "legacy") {
      if (session) { headers["mcp-session-id"] = session; headers["mcp-protocol-version"] = LEGACY; }
    } else {
      headers["mcp-protocol-version"] = MODERN;
      headers["mcp-method"] = method;
      if (name) headers["mcp-name"] = name;
      params = { ...params, _meta: meta };
    }
    const r = await fetch(url, { method: "POST", headers, body: JSON.stringify({ jsonrpc: "2.0", id: myId, method, params }) });
    if (era === "legacy" && !session) session = r.headers.get("mcp-session-id") ?? undefined;
    const type = r.headers.get("content-type") ?? "";
    let msg;
    if (type.startsWith("application/json")) {
      msg = await r.json();
    } else if (type.startsWith("text/event-stream")) {
      // The answer is the data of the event whose message carries our id.
      const body = await r.text();
      for (const event of body.split(/\r?\n\r?\n/)) {
        const data = event.split(/\r?\n/).filter((l) => l.startsWith("data:")).map((l) => l.slice(l[5] === " " ? 6 : 5)).join("\n");
        if (!data) continue;
        const m = JSON.parse(data);
        if (m.id === myId) { msg = m; break; }
      }
    } else {
      throw new Error(`HTTP ${r.status} ${type}: ${await r.text()}`);
    }
    if (!msg) throw new Error(`no answer to ${method} (HTTP ${r.status})`);
    if (msg.error) throw new Error(`${method}: ${msg.error.code} ${msg.error.message}`);
    return msg.result;
  }
  if (era === "legacy") {
    await rpc("initialize", { protocolVersion: LEGACY, capabilities: {}, clientInfo: { name: "bench-bare", version: "1.0.0" } });
    const r = await fetch(url, {
      method: "POST",
      headers: { ...base, "mcp-session-id": session, "mcp-protocol-version": LEGACY },
      body: JSON.stringify({ jsonrpc: "2.0", method: "notifications/initialized" }),
    });
    await r.arrayBuffer();
  }
  return {
    call: (name, args) => rpc("tools/call", { name, arguments: args }, name),
    list: () => rpc("tools/list", {}),
    close: async () => {
      if (session) await (await fetch(url, { method: "DELETE", headers: { "mcp-session-id": session, "mcp-protocol-version": LEGACY } })).arrayBuffer();
    },
    version: () => (era === "legacy" ? LEGACY : MODERN),
  };
}

function check(row, result, i) {
  const t = result?.content?.[0]?.text;
  if (row.tool === "echo") {
    if (t !== `x${i}`) throw new Error(`${row.name}: echo answered ${JSON.stringify(t)?.slice(0, 80)}, want "x${i}"`);
  } else if (typeof t !== "string" || t.length !== row.bytes) {
    throw new Error(`${row.name}: payload answered ${typeof t === "string" ? t.length : typeof t} bytes, want ${row.bytes}`);
  }
}

/**
 * runCalls makes calls through client with row.conc callers: at least min, then more until ms
 * have passed, at most max. It resolves with the number of calls made.
 */
export async function runCalls(client, row, min, ms = 0, max = min) {
  let next = 0;
  const end = performance.now() + ms;
  const one = async () => {
    for (;;) {
      const i = next;
      if (i >= max || (i >= min && performance.now() >= end)) return;
      next++;
      const args = row.tool === "echo" ? { text: `x${i}` } : { bytes: row.bytes };
      check(row, await client.call(row.tool, args), i);
    }
  };
  await Promise.all(Array.from({ length: Math.min(row.conc, max) }, one));
  return next;
}

/**
 * startRound checks a connected client (its tools/list and the era it negotiated), times its
 * first 100 calls and warms it up; it returns the round's result object without rows:
 * {client, era, runtime, version, marks, rows: []}.
 */
export async function startRound(client, kind, era, runtime, marks, rows, warmSeconds) {
  const listed = await client.list();
  marks.listed = performance.now();
  if (!listed?.tools?.some((t) => t.name === "echo")) throw new Error("tools/list did not list echo");
  const version = client.version();
  if ((era === "legacy") !== (version < MODERN)) throw new Error(`asked for the ${era} era, negotiated ${version}`);
  const out = { client: kind, era, runtime, version, marks, rows: [] };
  const echo1 = { name: "cold", tool: "echo", conc: 1 };
  const c0 = performance.now();
  await runCalls(client, echo1, 100);
  marks.cold100 = performance.now() - c0;
  if (warmSeconds > 0) {
    const sizes = [...new Set(rows.filter((r) => r.tool === "payload").map((r) => r.bytes))];
    await runCalls(client, echo1, 1, (warmSeconds / 2) * 1000, 1e9);
    for (const bytes of sizes) await runCalls(client, { name: `warm-up ${bytes}`, tool: "payload", bytes, conc: 1 }, 1, (warmSeconds / 2 / sizes.length) * 1000, 1e9);
  }
  return out;
}

/**
 * measureRow runs one row: its warm-up calls, then the timed calls between cpu.start() and
 * cpu.stop(calls) (which resolves with the CPU µs per call). It resolves with
 * {name, calls, secs, rate, cpuUs}.
 */
export async function measureRow(client, row, cpu) {
  if (row.warmup > 0) await runCalls(client, row, row.warmup);
  await cpu.start();
  const t0 = performance.now();
  const calls = await runCalls(client, row, row.minCalls, row.seconds * 1000, row.maxCalls);
  const secs = (performance.now() - t0) / 1000;
  const cpuUs = await cpu.stop(calls);
  return { name: row.name, calls, secs, rate: calls / secs, cpuUs };
}
