// One benchmark round of one client, in a fresh Node, Deno or Bun process (bench/run.mjs starts it).
//
//   node bench/client.mjs <client> <url> <era> <rows-json> [soak-calls] [warm-up-seconds]
//   deno run -A bench/client.mjs …    bun bench/client.mjs …
//
// client: "mcpwasm" (the JS package as each runtime imports it: js/src/index.node.js in Node and
//         Bun, js/src/index.js in Deno, over js/dist/mcpwasm.wasm), "ts" (the
//         TypeScript SDK v2 client, @modelcontextprotocol/client), "bare" (a hand-written
//         JSON-RPC loop over the runtime's fetch: the floor for any client built on fetch) or
//         "bare-http" (the same loop over node:http: the floor for any client in this process);
// era:    "legacy" (2025-11-25: initialize, Mcp-Session-Id) or "modern" (2026-07-28);
// rows:   a JSON array of {name, tool: "echo"|"payload", bytes?, conc, warmup, minCalls, seconds,
//         maxCalls}.
//
// Only the client's own module is imported (dynamically, after the clock starts), so the start-up
// figures are the client's: performance.now() is measured from the process's time origin (process
// start) at import done, init done (mcpwasm), connected, and first tools/list answered.
//
// After the first tools/list, the first 100 sequential echo calls are timed (marks.cold100: ms from
// the first call's start to the hundredth's answer: what a process pays before V8 has optimised
// the client's code), then the process warms up for warm-up-seconds (default 0) before the rows,
// the same for every client: V8 compiles a WebAssembly module's hot functions again, optimised, on
// background threads once they have run enough, and JavaScript's the same way, so rows measured
// before that compare start-up costs instead of per-call costs. The warm-up makes every kind of
// call its rows make, one after the other: sequential echo calls for half of the time, then each
// result size of its payload rows for an even share of the other half (at least one call each; a
// process with no payload rows, as the bare floors', makes the echo half alone — the echo warm-up
// is the same for every client, and a payload warm-up warms nothing such a process measures):
// a payload's code (the validation of a long string, the copies) is other code than an echo's,
// and warmed up with echo calls alone a 1 MB row measured its own compilation (with one warm-up
// call and 0.4 s: 7.4–8.3 ms of CPU per call for mcpwasm instead of 3.1–3.8 ms, and 2.7–3.3 against
// 2.1–2.6 ms for the TS SDK).
//
// Each row: `warmup` calls at the row's concurrency, then with `conc` callers at least `minCalls`
// calls, more until `seconds` have passed, at most `maxCalls`, timed with hrtime; CPU is this process's own process.cpuUsage() (user + system, all threads)
// over the timed calls. Every answer is checked (echo text, payload length); a wrong answer fails
// the round. The result is printed as one line "RESULT <json>" on stdout.
//
// With soak-calls > 0 (mcpwasm only) it instead runs that many echo calls, 64 at a time, and
// reports moduleStats() (goroutines, Go heap, calls in flight) and the JS heap before and after
// (both after a GC; run with --expose-gc).

const [clientKind, url, era, rowsJSON, soakArg, warmArg] = process.argv.slice(2);
const rows = JSON.parse(rowsJSON ?? "[]");
const SOAK = Number(soakArg ?? 0);
const WARM_SECONDS = Number(warmArg ?? 0);
const LEGACY = "2025-11-25";
const MODERN = "2026-07-28";
if (!["mcpwasm", "ts", "bare", "bare-http"].includes(clientKind)) fail(`unknown client ${clientKind}`);
if (!["legacy", "modern"].includes(era)) fail(`unknown era ${era}`);

function fail(message) {
  process.stderr.write(`bench client: ${message}\n`);
  process.exit(1);
}

const marks = {};
const mark = (name) => { marks[name] = performance.now(); };

let client; // {call(tool, args) → result, list() → tools result, close(), version}

// What the package's export conditions give each runtime (js/package.json): "deno" → the browser
// entry (fetch), "bun" and "node" → the Node entry (plain http: over node:net in both; https: in
// Bun keeps fetch).
const MCPWASM_ENTRY = globalThis.Deno ? "../js/src/index.js" : "../js/src/index.node.js";

async function setupMcpwasm() {
  const m = await import(MCPWASM_ENTRY);
  mark("imported");
  await m.init();
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

async function setupTS() {
  const { Client, StreamableHTTPClientTransport } = await import("@modelcontextprotocol/client");
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

// The floor: JSON-RPC over fetch with no protocol machinery beyond what the server requires.
// httpFetch is the little of fetch the bare loop uses, made on node:http with a kept-alive
// agent: the floor of the "bare-http" client (what any client can reach in Node).
async function httpFetch(u, init) {
  const http = await import("node:http");
  const agent = (httpFetch.agent ??= new http.Agent({ keepAlive: true, maxFreeSockets: 1024 }));
  return new Promise((resolve, reject) => {
    const headers = { ...init.headers };
    if (init.body !== undefined) headers["content-length"] = Buffer.byteLength(init.body);
    const req = http.request(u, { method: init.method, headers, agent }, (res) => {
      const chunks = [];
      res.on("data", (c) => chunks.push(c));
      res.on("error", reject);
      res.on("end", () => {
        const text = () => Buffer.concat(chunks).toString();
        resolve({
          status: res.statusCode,
          headers: { get: (n) => res.headers[n] ?? null },
          text: async () => text(),
          json: async () => JSON.parse(text()),
          arrayBuffer: async () => Buffer.concat(chunks),
        });
      });
    });
    req.on("error", reject);
    req.end(init.body);
  });
}

async function setupBare(fetch) {
  mark("imported");
  mark("init");
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
  mark("connected");
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

// run makes calls with row.conc callers: at least min, then more until ms have passed, at most
// max. It resolves with the number of calls made.
async function run(row, min, ms = 0, max = min) {
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

async function measure(row) {
  if (row.warmup > 0) await run(row, row.warmup);
  const cpu0 = process.cpuUsage();
  const t0 = process.hrtime.bigint();
  const calls = await run(row, row.minCalls, row.seconds * 1000, row.maxCalls);
  const secs = Number(process.hrtime.bigint() - t0) / 1e9;
  const cpu = process.cpuUsage(cpu0);
  return { name: row.name, calls, secs, rate: calls / secs, cpuUs: (cpu.user + cpu.system) / calls };
}

function gcStats() {
  globalThis.gc?.();
  const s = client.stats?.() ?? {};
  return { goroutines: s.goroutines, goHeap: s.goHeap, calls: s.calls, jsHeap: process.memoryUsage().heapUsed };
}

try {
  client = await { mcpwasm: setupMcpwasm, ts: setupTS, bare: () => setupBare(globalThis.fetch), "bare-http": () => setupBare(httpFetch) }[clientKind]();
  const listed = await client.list();
  mark("listed");
  if (!listed?.tools?.some((t) => t.name === "echo")) throw new Error("tools/list did not list echo");
  const version = client.version();
  if ((era === "legacy") !== (version < MODERN)) throw new Error(`asked for the ${era} era, negotiated ${version}`);
  const runtime = globalThis.Deno ? `Deno ${globalThis.Deno.version.deno}` : globalThis.Bun ? `Bun ${globalThis.Bun.version}` : `Node ${process.version}`;
  const out = { client: clientKind, era, node: process.version, runtime, version, marks, rows: [] };
  const echo1 = { name: "cold", tool: "echo", conc: 1 };
  const c0 = performance.now();
  await run(echo1, 100);
  marks.cold100 = performance.now() - c0;
  if (WARM_SECONDS > 0) {
    const sizes = [...new Set(rows.filter((r) => r.tool === "payload").map((r) => r.bytes))];
    await run(echo1, 1, (WARM_SECONDS / 2) * 1000, 1e9);
    for (const bytes of sizes) await run({ name: `warm-up ${bytes}`, tool: "payload", bytes, conc: 1 }, 1, (WARM_SECONDS / 2 / sizes.length) * 1000, 1e9);
  }
  if (SOAK > 0) {
    if (!client.stats) throw new Error("the soak needs moduleStats (mcpwasm only)");
    const echo = { name: "soak", tool: "echo", conc: 64 };
    await run(echo, 1000);
    const before = gcStats();
    const t0 = process.hrtime.bigint();
    await run(echo, SOAK);
    const secs = Number(process.hrtime.bigint() - t0) / 1e9;
    // Let settled calls' goroutines and finalizers finish before the second reading.
    await new Promise((r) => setTimeout(r, 200));
    const after = gcStats();
    out.soak = { calls: SOAK, secs, before, after };
  } else {
    for (const row of rows) out.rows.push(await measure(row));
  }
  await client.close();
  process.stdout.write(`RESULT ${JSON.stringify(out)}\n`);
  process.exit(0);
} catch (err) {
  fail(err?.stack ?? String(err));
}
