// Round trips of the mcpwasm JS package (the Go client in WebAssembly)
// against the official TypeScript SDK v2 client (@modelcontextprotocol/client)
// and a bare fetch loop, in one Node process, against the same server (the
// TypeScript SDK v2 server, in a child process), sequential and 64
// concurrent, with the client CPU time per call; then a soak run that checks
// memory, goroutines and pending calls do not grow over many calls.
//
// Usage: node bench/node-bench.mjs [--calls N] [--soak N] [--era modern|legacy]
import { Client as TSClient, StreamableHTTPClientTransport } from "@modelcontextprotocol/client";
import { init, Client, moduleStats } from "../js/src/index.js";
import { startPeer } from "../js/test/helpers.mjs";

const args = process.argv.slice(2);
const flag = (name, def) => {
  const i = args.indexOf(name);
  return i >= 0 ? args[i + 1] : def;
};
const CALLS = Number(flag("--calls", 3000));
const SOAK = Number(flag("--soak", 100000));
const ERA = flag("--era", "modern");

// measure runs n calls of fn with the given concurrency and reports calls/s
// and client CPU µs per call (this process: the clients under test).
async function measure(fn, n, concurrency) {
  for (let i = 0; i < 200; i++) await fn(i); // warm-up
  const cpu0 = process.cpuUsage();
  const t0 = process.hrtime.bigint();
  let next = 0;
  const worker = async () => {
    while (next < n) await fn(next++);
  };
  await Promise.all(Array.from({ length: concurrency }, worker));
  const secs = Number(process.hrtime.bigint() - t0) / 1e9;
  const cpu = process.cpuUsage(cpu0);
  return { rate: n / secs, cpuPerCall: (cpu.user + cpu.system) / n };
}

const server = await startPeer("ts", ["--port", "0"]);
const versions = ERA === "legacy" ? ["2025-11-25"] : ["2026-07-28"];
const meta = {
  "io.modelcontextprotocol/protocolVersion": "2026-07-28",
  "io.modelcontextprotocol/clientInfo": { name: "bare", version: "1" },
  "io.modelcontextprotocol/clientCapabilities": {},
};

// A bare fetch loop: the floor for any HTTP client in this process.
let id = 0;
async function bare(i) {
  const r = await fetch(server.url, {
    method: "POST",
    headers: { "content-type": "application/json", accept: "application/json, text/event-stream", "mcp-protocol-version": "2026-07-28", "mcp-method": "tools/call", "mcp-name": "echo" },
    body: JSON.stringify({ jsonrpc: "2.0", id: ++id, method: "tools/call", params: { name: "echo", arguments: { text: `x${i}` }, _meta: meta } }),
  });
  await r.json();
}

const ts = new TSClient({ name: "bench-ts", version: "1.0.0" }, ERA === "legacy" ? { versionNegotiation: { mode: "legacy" } } : undefined);
await ts.connect(new StreamableHTTPClientTransport(new URL(server.url)));
const tsCall = (i) => ts.callTool({ name: "echo", arguments: { text: `x${i}` } });

await init();
const ours = new Client({ name: "bench-mcpwasm", version: "1.0.0" }, { protocolVersions: versions });
await ours.connect(server.url);
const oursCall = (i) => ours.callTool({ name: "echo", arguments: { text: `x${i}` } });

const rows = [];
for (const [name, fn] of [["bare fetch", bare], ["TS SDK v2 client", tsCall], ["mcpwasm (wasm)", oursCall]]) {
  const seq = await measure(fn, CALLS, 1);
  const par = await measure(fn, CALLS, 64);
  rows.push({ name, seq, par });
}
console.log(`\nround trips: tools/call echo against the TypeScript SDK v2 server (${ERA} era), ${CALLS} calls each`);
console.log(`${"client".padEnd(20)} ${"seq calls/s".padStart(12)} ${"seq CPU µs/call".padStart(16)} ${"64× calls/s".padStart(12)} ${"64× CPU µs/call".padStart(16)}`);
for (const r of rows) {
  console.log(`${r.name.padEnd(20)} ${r.seq.rate.toFixed(0).padStart(12)} ${r.seq.cpuPerCall.toFixed(0).padStart(16)} ${r.par.rate.toFixed(0).padStart(12)} ${r.par.cpuPerCall.toFixed(0).padStart(16)}`);
}
const [, tsr, mine] = rows;
console.log(`mcpwasm / TS SDK: sequential ${(mine.seq.rate / tsr.seq.rate).toFixed(2)}× throughput, ${(mine.seq.cpuPerCall / tsr.seq.cpuPerCall).toFixed(2)}× CPU; ` +
  `64 concurrent ${(mine.par.rate / tsr.par.rate).toFixed(2)}× throughput, ${(mine.par.cpuPerCall / tsr.par.cpuPerCall).toFixed(2)}× CPU`);

if (SOAK > 0) {
  // Soak: the module's goroutines, Go heap and pending calls must not grow.
  const before = { ...moduleStats(), heap: process.memoryUsage().heapUsed };
  const par = 64;
  let n = 0;
  await Promise.all(Array.from({ length: par }, async () => {
    while (n < SOAK) {
      n++;
      await oursCall(n);
    }
  }));
  global.gc?.();
  const after = { ...moduleStats(), heap: process.memoryUsage().heapUsed };
  console.log(`\nsoak: ${SOAK} calls, 64 concurrent`);
  console.log(`  goroutines ${before.goroutines} -> ${after.goroutines}, Go heap ${mb(before.goHeap)} -> ${mb(after.goHeap)} MB, ` +
    `pending ${before.calls} -> ${after.calls}, JS heap ${mb(before.heap)} -> ${mb(after.heap)} MB`);
}

function mb(b) {
  return b === undefined ? "?" : (b / 1048576).toFixed(1);
}

await ours.close();
await ts.close();
await server.stop();
process.exit(0);
