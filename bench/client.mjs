// One benchmark round of one client, in a fresh Node, Deno or Bun process (bench/run.mjs starts it).
//
//   node bench/client.mjs <client> <url> <era> <rows-json> [soak-calls] [warm-up-seconds]
//   deno run -A bench/client.mjs …    bun bench/client.mjs …
//
// client: "mcpwasm" (the JS package as each runtime imports it: js/src/index.node.js in Node,
//         Bun and Deno, over js/dist/mcpwasm.wasm), "ts" (the
//         TypeScript SDK v2 client, @modelcontextprotocol/client), "bare" (a hand-written
//         JSON-RPC loop over the runtime's fetch: the floor for any client built on fetch) or
//         "bare-http" (the same loop over node:http: the floor for any client in this process);
// era:    "legacy" (2025-11-25: initialize, Mcp-Session-Id) or "modern" (2026-07-28);
// rows:   a JSON array of {name, tool: "echo"|"payload", bytes?, conc, warmup, minCalls, seconds,
//         maxCalls}.
//
// What a round does (start-up marks, the first 100 calls, the warm-up, the rows) is bench/round.mjs,
// which the Chromium rounds' page (bench/page.mjs) shares; here CPU is this process's own
// process.cpuUsage() (user + system, all threads) over each row's timed calls, and the result is
// printed as one line "RESULT <json>" on stdout.
//
// With soak-calls > 0 (mcpwasm only) it instead runs that many echo calls, 64 at a time, and
// reports moduleStats() (goroutines, Go heap, calls in flight) and the JS heap before and after
// (both after a GC; run with --expose-gc).

import { CLIENT_KINDS, runCalls, setupClient, startRound, measureRow } from "./round.mjs";

const [clientKind, url, era, rowsJSON, soakArg, warmArg] = process.argv.slice(2);
const rows = JSON.parse(rowsJSON ?? "[]");
const SOAK = Number(soakArg ?? 0);
const WARM_SECONDS = Number(warmArg ?? 0);
if (!CLIENT_KINDS.includes(clientKind)) fail(`unknown client ${clientKind}`);
if (!["legacy", "modern"].includes(era)) fail(`unknown era ${era}`);

function fail(message) {
  process.stderr.write(`bench client: ${message}\n`);
  process.exit(1);
}

// What the package's export conditions give each runtime (js/package.json): "node", "bun" and
// "deno" → the Node entry (plain http: over node:net in all three; https: in Bun and Deno keeps
// their fetch).
const MCPWASM_ENTRY = "../js/src/index.node.js";

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

const cpu = {
  start() { cpu.t0 = process.cpuUsage(); },
  stop(calls) { const c = process.cpuUsage(cpu.t0); return (c.user + c.system) / calls; },
};

let client;
function gcStats() {
  globalThis.gc?.();
  const s = client.stats?.() ?? {};
  return { goroutines: s.goroutines, goHeap: s.goHeap, calls: s.calls, jsHeap: process.memoryUsage().heapUsed };
}

try {
  const marks = {};
  client = await setupClient(clientKind, url, era, {
    importMcpwasm: () => import(MCPWASM_ENTRY),
    importTS: () => import("@modelcontextprotocol/client"),
    fetch: clientKind === "bare-http" ? httpFetch : globalThis.fetch,
  }, marks);
  const runtime = globalThis.Deno ? `Deno ${globalThis.Deno.version.deno}` : globalThis.Bun ? `Bun ${globalThis.Bun.version}` : `Node ${process.version}`;
  const out = await startRound(client, clientKind, era, runtime, marks, rows, WARM_SECONDS);
  out.node = process.version;
  if (SOAK > 0) {
    if (!client.stats) throw new Error("the soak needs moduleStats (mcpwasm only)");
    const echo = { name: "soak", tool: "echo", conc: 64 };
    await runCalls(client, echo, 1000);
    const before = gcStats();
    const t0 = performance.now();
    await runCalls(client, echo, SOAK);
    const secs = (performance.now() - t0) / 1000;
    // Let settled calls' goroutines and finalizers finish before the second reading.
    await new Promise((r) => setTimeout(r, 200));
    const after = gcStats();
    out.soak = { calls: SOAK, secs, before, after };
  } else {
    for (const row of rows) out.rows.push(await measureRow(client, row, cpu));
  }
  await client.close();
  process.stdout.write(`RESULT ${JSON.stringify(out)}\n`);
  process.exit(0);
} catch (err) {
  fail(err?.stack ?? String(err));
}
