// Tests of the benchmark's instrument (not of anyone's speed): the bench server answers both
// eras with JSON or SSE answers (and CORS when asked) and exits when its parent goes away, and one
// round of every client reports checked figures, in a process (bench/client.mjs) and in a
// Chromium page (bench/chromium.mjs, bench/page.mjs), and a small whole run (bench/run.mjs) writes
// its figures, the goals checked against them, and each part's duration. Run: node --test bench/bench.test.mjs (needs
// js/dist/mcpwasm.wasm: bash scripts/build-wasm.sh).
import { test } from "node:test";
import assert from "node:assert/strict";
import { spawn, execFile } from "node:child_process";
import { once } from "node:events";
import { mkdtemp, readFile, rm } from "node:fs/promises";
import os from "node:os";
import path from "node:path";
import { fileURLToPath } from "node:url";
import { startChromiumHost } from "./chromium.mjs";
import { roundOrder } from "./order.mjs";

const repo = path.resolve(path.dirname(fileURLToPath(import.meta.url)), "..");

function startServer(args) {
  const child = spawn(process.execPath, [path.join(repo, "bench/server.mjs"), ...args], { stdio: ["pipe", "pipe", "inherit"] });
  return new Promise((resolve, reject) => {
    let out = "";
    child.on("exit", (code) => reject(new Error(`bench server exited (${code}) before listening`)));
    child.stdout.on("data", (d) => {
      out += d;
      const m = /LISTENING (\S+)/.exec(out);
      if (m) {
        child.removeAllListeners("exit");
        resolve({ url: m[1], child });
      }
    });
  });
}

// The runtimes bench/run.mjs runs client processes in (the Node running this test, and the
// binaries of the deno and bun npm packages), with the arguments before the script.
const HOSTS = {
  node: [process.execPath, "--no-warnings"],
  deno: [path.join(repo, "node_modules/.bin/deno"), "run", "--allow-all", "--quiet"],
  bun: [path.join(repo, "node_modules/.bin/bun")],
};

function runClient(client, url, era, rows, host = "node") {
  const [bin, ...pre] = HOSTS[host];
  return new Promise((resolve, reject) => {
    execFile(bin, [...pre, path.join(repo, "bench/client.mjs"), client, url, era, JSON.stringify(rows), "0", "0.05"], { timeout: 60000, env: { ...process.env, DENO_NO_UPDATE_CHECK: "1" } }, (err, stdout, stderr) => {
      if (err) return reject(new Error(`${client} ${era}: ${err.message}\n${stderr}`));
      const m = /^RESULT (.*)$/m.exec(stdout);
      if (!m) return reject(new Error(`${client} ${era}: no RESULT line in ${stdout}`));
      resolve(JSON.parse(m[1]));
    });
  });
}

const ROWS = [
  { name: "seq", tool: "echo", conc: 1, warmup: 2, minCalls: 5, seconds: 0, maxCalls: 5 },
  { name: "c8", tool: "echo", conc: 8, warmup: 0, minCalls: 16, seconds: 0, maxCalls: 16 },
  { name: "10KB", tool: "payload", bytes: 10240, conc: 1, warmup: 0, minCalls: 2, seconds: 0, maxCalls: 2 },
];

for (const answers of ["json", "sse"]) {
  test(`one round of each client, both eras, ${answers} answers`, async (t) => {
    const { url, child } = await startServer(answers === "json" ? ["--json"] : []);
    t.after(() => child.kill());
    for (const client of ["mcpwasm", "ts", "bare", "bare-http"]) {
      for (const [era, version] of [["legacy", "2025-11-25"], ["modern", "2026-07-28"]]) {
        const r = await runClient(client, url, era, ROWS);
        assert.equal(r.client, client);
        assert.equal(r.version, version, `${client} ${era}`);
        assert.deepEqual(r.rows.map((x) => [x.name, x.calls]), [["seq", 5], ["c8", 16], ["10KB", 2]]);
        for (const x of r.rows) {
          assert.ok(x.rate > 0 && x.cpuUs > 0, `${client} ${era} ${x.name}: ${JSON.stringify(x)}`);
        }
        assert.ok(r.marks.imported <= r.marks.connected && r.marks.connected <= r.marks.listed, JSON.stringify(r.marks));
        assert.ok(r.marks.cold100 > 0, `the first 100 calls are timed: ${JSON.stringify(r.marks)}`);
      }
    }
  });
}

test("one round of each client in Deno and Bun (modern, JSON answers)", async (t) => {
  const { url, child } = await startServer(["--json"]);
  t.after(() => child.kill());
  for (const [host, label] of [["deno", /^Deno \d/], ["bun", /^Bun \d/]]) {
    for (const client of ["mcpwasm", "ts", "bare"]) {
      const r = await runClient(client, url, "modern", ROWS, host);
      assert.equal(r.client, client);
      assert.match(r.runtime, label, `${client} in ${host}`);
      assert.equal(r.version, "2026-07-28", `${client} in ${host}`);
      assert.deepEqual(r.rows.map((x) => [x.name, x.calls]), [["seq", 5], ["c8", 16], ["10KB", 2]]);
      for (const x of r.rows) assert.ok(x.rate > 0 && x.cpuUs > 0, `${client} in ${host} ${x.name}: ${JSON.stringify(x)}`);
    }
  }
});

test("one round of each client in a Chromium page (modern, JSON answers, the page on another origin)", async (t) => {
  const { url, child } = await startServer(["--json", "--cors"]);
  t.after(() => child.kill());
  const host = await startChromiumHost();
  t.after(() => host.stop());
  for (const client of ["mcpwasm", "ts", "bare"]) {
    const r = await host.round(client, url, "modern", ROWS, 0.05, 60000);
    assert.equal(r.client, client);
    assert.match(r.runtime, /^Chromium \d/, client);
    assert.equal(r.version, "2026-07-28", client);
    assert.deepEqual(r.rows.map((x) => [x.name, x.calls]), [["seq", 5], ["c8", 16], ["10KB", 2]]);
    // CPU is read from /proc in steps of a clock tick: a row of a few calls may read zero.
    for (const x of r.rows) assert.ok(x.rate > 0 && x.cpuUs >= 0, `${client} ${x.name}: ${JSON.stringify(x)}`);
    assert.ok(r.marks.imported <= r.marks.connected && r.marks.connected <= r.marks.listed, JSON.stringify(r.marks));
  }
  // A round that fails reports why, and the page's browser is gone after it.
  await assert.rejects(host.round("mcpwasm", url.replace("/mcp", "/nothing-here"), "modern", ROWS, 0, 60000), /404|not found|HTTP/i);
});

test("the Chromium rounds refuse to start without a browser, naming what to install", async () => {
  await assert.rejects(startChromiumHost("/nonexistent/chromium"), /no Chromium at \/nonexistent\/chromium \(bash scripts\/browser-deps\.sh/);
});

test("the server answers CORS preflights only with --cors", async (t) => {
  for (const [flags, allowed] of [[["--json", "--cors"], true], [["--json"], false]]) {
    const { url, child } = await startServer(flags);
    t.after(() => child.kill());
    const r = await fetch(url, { method: "OPTIONS", headers: { origin: "http://127.0.0.1:1", "access-control-request-method": "POST", "access-control-request-headers": "content-type, mcp-method" } });
    await r.arrayBuffer();
    assert.equal(r.headers.get("access-control-allow-origin"), allowed ? "http://127.0.0.1:1" : null, flags.join(" "));
  }
});

// post sends one JSON-RPC message and resolves with {type, message, session}.
async function post(url, body, headers = {}) {
  const r = await fetch(url, {
    method: "POST",
    headers: { "content-type": "application/json", accept: "application/json, text/event-stream", ...headers },
    body: JSON.stringify(body),
  });
  assert.equal(r.status, 200, await r.clone().text());
  const type = r.headers.get("content-type");
  const text = await r.text();
  const message = type.startsWith("application/json") ? JSON.parse(text) : JSON.parse(/^data: ?(.*)$/m.exec(text)[1]);
  return { type, message, session: r.headers.get("mcp-session-id") };
}

const META = { "io.modelcontextprotocol/protocolVersion": "2026-07-28", "io.modelcontextprotocol/clientInfo": { name: "t", version: "1" }, "io.modelcontextprotocol/clientCapabilities": {} };

test("the server answers both eras with the content type asked for", async (t) => {
  for (const [flag, want] of [[["--json"], "application/json"], [[], "text/event-stream"]]) {
    const { url, child } = await startServer(flag);
    t.after(() => child.kill());
    const call = { jsonrpc: "2.0", id: 2, method: "tools/call", params: { name: "payload", arguments: { bytes: 1000 } } };

    const modern = await post(url, { ...call, params: { ...call.params, _meta: META } }, { "mcp-protocol-version": "2026-07-28", "mcp-method": "tools/call", "mcp-name": "payload" });
    assert.ok(modern.type.startsWith(want), `modern: ${modern.type}, want ${want}`);
    assert.equal(modern.message.result.content[0].text.length, 1000);

    const init = await post(url, { jsonrpc: "2.0", id: 1, method: "initialize", params: { protocolVersion: "2025-11-25", capabilities: {}, clientInfo: { name: "t", version: "1" } } });
    assert.equal(init.message.result.protocolVersion, "2025-11-25");
    assert.ok(init.session, "no Mcp-Session-Id");
    const legacy = await post(url, call, { "mcp-session-id": init.session, "mcp-protocol-version": "2025-11-25" });
    assert.ok(legacy.type.startsWith(want), `legacy: ${legacy.type}, want ${want}`);
    assert.equal(legacy.message.result.content[0].text.length, 1000);
  }
});

test("the server exits when its parent goes away (stdin closes)", async () => {
  const { child } = await startServer([]);
  const exited = once(child, "exit");
  child.stdin.end();
  const timer = setTimeout(() => child.kill("SIGKILL"), 5000);
  const [code, signal] = await exited;
  clearTimeout(timer);
  assert.equal(signal, null, "it had to be killed");
  assert.equal(code, 0);
});

test("rounds rotate the order of the clients: each first, and each after every other, equally often", () => {
  const clients = ["mcpwasm", "ts", "bare"];
  assert.deepEqual(roundOrder(clients, 1), ["mcpwasm", "ts", "bare"]);
  assert.deepEqual(roundOrder(clients, 2), ["ts", "bare", "mcpwasm"]);
  assert.deepEqual(roundOrder(clients, 3), ["bare", "mcpwasm", "ts"]);
  assert.deepEqual(roundOrder(clients, 4), ["mcpwasm", "ts", "bare"]);
  assert.deepEqual(clients, ["mcpwasm", "ts", "bare"], "the list given is left as it was");
  // Over 6 rounds run back to back, every client runs first twice and follows each other client
  // the same number of times.
  const seq = [1, 2, 3, 4, 5, 6].flatMap((r) => roundOrder(clients, r));
  const first = {};
  const after = {};
  for (let r = 0; r < 6; r++) first[seq[r * 3]] = (first[seq[r * 3]] ?? 0) + 1;
  for (let i = 1; i < seq.length; i++) {
    const k = `${seq[i - 1]}>${seq[i]}`;
    after[k] = (after[k] ?? 0) + 1;
  }
  assert.deepEqual(first, { mcpwasm: 2, ts: 2, bare: 2 });
  assert.ok(Object.keys(after).length === 6, `every ordered pair occurs: ${JSON.stringify(after)}`);
  assert.throws(() => roundOrder(clients, 0), RangeError);
});

test("a small whole run writes its figures, the goals checked against them, and how long each part took; the bare node:http floor only when asked; the other runtimes apart", async (t) => {
  const out = await mkdtemp(path.join(os.tmpdir(), "bench-run-"));
  t.after(() => rm(out, { recursive: true, force: true }));
  const run = (extra) => new Promise((resolve, reject) => {
    execFile(process.execPath, [path.join(repo, "bench/run.mjs")], {
      timeout: 180000,
      env: {
        ...process.env, BENCH_QUICK: "1", BENCH_NODES: "20", BENCH_ERAS: "modern", BENCH_ANSWERS: "json",
        BENCH_ROWS: "seq", BENCH_SECONDS: "0.05", BENCH_WARMUP: "0.05", BENCH_SOAK: "200", BENCH_NATIVE_CALLS: "20",
        BENCH_OUT: out, ...extra,
      },
    }, (err, stdout, stderr) => (err ? reject(new Error(`${err.message}\n${stdout}\n${stderr}`)) : resolve(stdout)));
  });
  const read = async (name = "bench") => ({ json: JSON.parse(await readFile(path.join(out, `${name}.json`), "utf8")), md: await readFile(path.join(out, `${name}.md`), "utf8") });

  await run({});
  let { json, md } = await read();
  assert.deepEqual(json.settings.CLIENTS, ["mcpwasm", "ts", "bare"]);
  assert.deepEqual([...new Set(json.results.map((r) => r.client))].sort(), ["bare", "mcpwasm", "ts"]);
  assert.equal(json.failures.length, 0, json.failures.join("\n"));
  const d = json.durations;
  for (const part of ["node", "soak", "native", "total"]) assert.ok(d[part] > 0, `${part}: ${JSON.stringify(d)}`);
  assert.ok(d.total >= d.node + d.soak + d.native, JSON.stringify(d));
  assert.match(md, /min \(Node rounds \d+\.\d, soak \d+\.\d, native \d+\.\d, servers, warm-up and builds \d+\.\d\)/);
  assert.match(md, /per round \(mcpwasm, TS SDK v2, bare fetch; then TS SDK v2, bare fetch, mcpwasm; …\)/);
  assert.doesNotMatch(md, /bare node:http calls\/s/);
  // The other runtimes are not in make bench's run, and it says where they are.
  assert.deepEqual(json.settings.RUNTIMES, []);
  assert.ok(!json.results.some((r) => ["deno", "bun", "chromium"].includes(r.node)), "no other runtime's rounds");
  assert.match(md, /Deno, Bun and Chromium are measured by `make bench-runtimes`, in \[bench-runtimes\.md\]/);
  assert.match(md, /!\[mcpwasm ÷ TS SDK v2 per row\]\(bench\.svg\)/);
  // The native rows' server collects at GOGC=400, and the page says so.
  assert.equal(json.settings.SERVER_GOGC, 400);
  assert.match(md, /official Go SDK server \(harness\/gobench server, its GC at GOGC=400/);
  // The goals, checked against the figures: one round, so each median is that round's figure.
  const row = (client) => json.results.find((r) => r.client === client).out.rows[0];
  const nat = (client) => json.native.find((r) => r.client === client).out;
  const goal = (text, value, ok) => {
    const line = md.split("\n").find((l) => l.startsWith(`| ${text} |`));
    assert.ok(line, `no goal line "${text}" in bench.md`);
    assert.ok(line.includes(`| ${ok ? 1 : 0} of 1 | ${value.toFixed(2)}×`), `${line} (want ${ok ? 1 : 0} of 1, ${value.toFixed(2)}×)`);
  };
  const rate = row("mcpwasm").rate / row("ts").rate;
  goal("Node rows: calls/s ≥ 1.0× the TS SDK client's", rate, rate >= 1);
  const cpu = row("mcpwasm").cpuUs / row("ts").cpuUs;
  goal("Node rows: CPU per call ≤ 1.0× the TS SDK client's", cpu, cpu <= 1);
  const bare = row("mcpwasm").rate / row("bare").rate;
  goal("sequential echo: calls/s ≥ 0.8× the bare fetch loop's", bare, bare >= 0.8);
  const listed = json.results.find((r) => r.client === "mcpwasm").out.marks.listed / json.results.find((r) => r.client === "ts").out.marks.listed;
  goal("start-up to the first tools/list ≤ 1.0× the TS SDK client's", listed, listed <= 1);
  const native = nat("mcpwasm").rate / nat("gosdk").rate;
  goal("native: calls/s ≥ 1.5× the Go SDK client's", native, native >= 1.5);
  const soak = json.soak[0].out.soak;
  const grew = soak.after.goroutines > soak.before.goroutines || soak.after.calls > soak.before.calls ||
    soak.after.goHeap > soak.before.goHeap + 1024 * 1024 || soak.after.jsHeap > soak.before.jsHeap + 1024 * 1024;
  assert.match(md, new RegExp(`\\| soak: no growth over 200 calls \\| ${grew ? "[0-3]" : "4"} of 4 \\| .*goroutines ${soak.before.goroutines} → ${soak.after.goroutines}`));

  await run({ BENCH_CLIENTS: "mcpwasm,ts,bare,bare-http", BENCH_SOAK: "0", BENCH_NATIVE: "0" });
  ({ json, md } = await read());
  assert.ok(json.results.some((r) => r.client === "bare-http" && r.out?.rows[0]?.rate > 0), "the node:http floor ran");
  assert.match(md, /bare node:http calls\/s/);
  assert.deepEqual(Object.keys(json.durations).sort(), ["node", "total"]);
  assert.match(md, /\| Node rows: calls\/s ≥ 1\.0× the TS SDK client's \| [01] of 1 \|/);
  assert.doesNotMatch(md, /\| (native|soak):/, "no goal lines for parts that did not run");

  // make bench-runtimes: the other runtimes alone, in a file of their own, no chart (its bars are Node's and native's).
  await run({ BENCH_NODES: "", BENCH_RUNTIMES: "deno", BENCH_SOAK: "0", BENCH_NATIVE: "0", BENCH_NAME: "bench-runtimes" });
  ({ json, md } = await read("bench-runtimes"));
  assert.equal(json.failures.length, 0, json.failures.join("\n"));
  assert.deepEqual([...new Set(json.results.map((r) => r.node))], ["deno"]);
  assert.deepEqual([...new Set(json.results.map((r) => r.client))].sort(), ["bare", "mcpwasm", "ts"]);
  assert.ok(json.results.every((r) => r.out?.rows[0]?.rate > 0), "every Deno round measured");
  assert.deepEqual(Object.keys(json.durations).sort(), ["runtimes", "total"]);
  assert.match(md, /^# Benchmarks: Deno\n/);
  assert.match(md, /Written by `make bench-runtimes`/);
  assert.match(md, /\n## Deno\n/);
  assert.doesNotMatch(md, /How the Node rows are measured|The goals in this run|bench-runtimes\.svg/);
  await assert.rejects(readFile(path.join(out, "bench-runtimes.svg")), { code: "ENOENT" });
});
