// The package in the runtimes its users deploy to, each from the npm
// package that ships its binary (deno, bun, workerd; scripts/node-deps.sh
// installs them), each loading mcpwasm the way that runtime does:
//  - Deno: mcpwasm from node_modules (the "deno" condition: the Node entry,
//    plain http: over node:net), the module read from disk, and in a second
//    process from bytes;
//  - Bun: mcpwasm from node_modules (the "bun" condition), read from disk;
//  - workerd (Cloudflare Workers' runtime): a Worker bundled the way wrangler
//    bundles one (the "workerd" condition; the .wasm a precompiled
//    WebAssembly.Module, no run-time compilation), init() at module scope,
//    a client per request.
// Each runs tests/runtimes/scenario.mjs against the official Go SDK demo
// server over Streamable HTTP in both eras (pages of tools, progress,
// elicitation, sampling, cancellation, close) and over WebSocket against
// server-everything behind the WebSocket bridge. Test names say the runtime.
import { test, describe, before, after } from "node:test";
import assert from "node:assert/strict";
import { execFile, spawn } from "node:child_process";
import { mkdir, rm, writeFile, symlink, copyFile, access } from "node:fs/promises";
import net from "node:net";
import path from "node:path";
import { fileURLToPath } from "node:url";
import { promisify } from "node:util";
import { startPeer } from "../../js/test/helpers.mjs";

const here = path.dirname(fileURLToPath(import.meta.url));
const repo = path.resolve(here, "../..");
const app = path.join(repo, "build", "runtimes");
const bin = (name) => path.join(repo, "node_modules", ".bin", name);
const exec = promisify(execFile);

let mcp; // demoserve: both eras, 10 tools a page
let wsPeer; // server-everything behind the WebSocket bridge
let mcpURL;
let wsURL;

before(async () => {
  try {
    await access(path.join(repo, "js", "dist", "mcpwasm.wasm"));
  } catch {
    throw new Error("js/dist/mcpwasm.wasm is missing: run bash scripts/build-wasm.sh (scripts/test.sh does)");
  }
  // An app directory with mcpwasm in its node_modules, as a user has it.
  await rm(app, { recursive: true, force: true });
  await mkdir(path.join(app, "node_modules"), { recursive: true });
  await symlink(path.join(repo, "js"), path.join(app, "node_modules", "mcpwasm"), "dir");
  await writeFile(path.join(app, "package.json"), JSON.stringify({ name: "mcpwasm-runtime-tests", private: true, type: "module", dependencies: { mcpwasm: "*" } }));
  for (const f of ["scenario.mjs", "deno.mjs", "bun.mjs", "worker.mjs", "worker-errors.mjs"]) await copyFile(path.join(here, f), path.join(app, f));
  [mcp, wsPeer] = await Promise.all([startPeer("go", ["--modern", "--page-size", "10", "--max-life", "10m"]), startPeer("ws-bridge", [])]);
  mcpURL = `${mcp.url}/mcp`;
  wsURL = wsPeer.url.replace(/^http/, "ws");
});
after(async () => {
  await Promise.all([mcp?.stop(), wsPeer?.stop()]);
});

/** runScript runs a runtime's runner and returns the reports it printed. */
async function runScript(runtime, cmd, args) {
  let out;
  try {
    out = await exec(cmd, args, { cwd: app, timeout: 120000, maxBuffer: 16 << 20, env: { ...process.env, NO_COLOR: "1", DENO_NO_UPDATE_CHECK: "1" } });
  } catch (e) {
    throw new Error(`${runtime}: the runner failed (${e.code ?? e.signal}):\n${e.stdout}\n${e.stderr}`);
  }
  const line = out.stdout.split("\n").find((l) => l.startsWith("RESULT "));
  assert.ok(line, `${runtime}: no RESULT line:\n${out.stdout}\n${out.stderr}`);
  return JSON.parse(line.slice(7));
}

/** check asserts what a scenario report must show. */
function check(runtime, r, { ws = false } = {}) {
  const who = `${runtime}, ${r.era} era`;
  assert.equal(r.error, undefined, `${who}: ${JSON.stringify(r.error)} after ${r.steps.join(", ")}`);
  const want = r.era === "modern" ? "2026-07-28" : "2025-11-25";
  assert.deepEqual(r.info, { era: r.era, protocolVersion: want, server: r.info.server, connected: true }, who);
  assert.ok(r.pages >= 5, `${who}: ${r.pages} pages of tools`);
  assert.equal(new Set(r.tools).size, r.tools.length, `${who}: no tool twice`);
  assert.ok(r.tools.includes("page_tool_24") && r.tools.includes("slow"), `${who}: every page`);
  assert.deepEqual(r.progress, { values: [1, 2, 3], isError: false }, `${who}: progress`);
  assert.deepEqual(r.long, { same: true, length: 240001 }, `${who}: a long result's text`);
  assert.deepEqual(r.longASCII, { same: true, length: 320000 }, `${who}: a long ASCII result's text`);
  assert.equal(r.elicit.action, "accept", who);
  assert.equal(r.elicit.content.age, 7, who);
  assert.equal(r.sample, `${runtime}-model: answered by ${runtime}`, who);
  assert.equal(r.asked.length, 2, `${who}: ${r.asked}`);
  assert.match(r.cancel.message ?? "", /cancelled by the/, `${who}: the aborted call rejected with the abort reason`);
  assert.ok(r.cancel.ms < 10000, `${who}: cancelled in ${r.cancel.ms} ms`);
  assert.equal(r.callsAfterCancel, 0, `${who}: no call left in the module`);
  assert.equal(r.closedWith, null, `${who}: closed resolved with undefined`);
  assert.equal(r.connectedAfterClose, false, who);
  assert.equal(r.clientsAfterClose, 0, `${who}: the closed client left the module`);
  if (ws) {
    assert.equal(r.ws?.era, "legacy", `${who}: WebSocket: ${JSON.stringify(r.ws)}`);
    assert.match(r.ws.echo, /ws from/, who);
    assert.equal(r.clientsAfterWS, 0, who);
  }
}

describe("Deno", () => {
  test("Deno: read from disk, both eras, WebSocket", async () => {
    const reports = await runScript("deno", bin("deno"), ["run", "--quiet", "--cached-only", "--allow-net=127.0.0.1", `--allow-read=${repo}`, "--allow-env", "deno.mjs", "url", mcpURL, wsURL]);
    for (const r of reports) check("deno-url", r, { ws: r.era === "legacy" });
  });
  test("Deno: from bytes", async () => {
    const reports = await runScript("deno", bin("deno"), ["run", "--quiet", "--cached-only", "--allow-net=127.0.0.1", `--allow-read=${repo}`, "--allow-env", "deno.mjs", "bytes", mcpURL]);
    for (const r of reports) check("deno-bytes", r);
  });
});

describe("Bun", () => {
  test("Bun: from disk, both eras, WebSocket", async () => {
    const reports = await runScript("bun", bin("bun"), ["bun.mjs", mcpURL, wsURL]);
    for (const r of reports) check("bun", r, { ws: r.era === "legacy" });
  });
});

/** freePort finds a free port on 127.0.0.1 for a server that cannot report its own. */
function freePort() {
  return new Promise((resolve, reject) => {
    const s = net.createServer();
    s.on("error", reject);
    s.listen(0, "127.0.0.1", () => {
      const { port } = s.address();
      s.close(() => resolve(port));
    });
  });
}

/**
 * bundleWorker bundles entry (in the app directory) as wrangler does:
 * conditions workerd, worker, browser; a .wasm import stays a module of its
 * own (CompiledWasm), copied next to the bundle.
 */
export async function bundleWorker(entry, outdir, nodePaths = [], conditions = ["workerd", "worker", "browser"]) {
  const esbuild = await import("esbuild");
  await mkdir(outdir, { recursive: true });
  const wasms = new Map();
  await esbuild.build({
    entryPoints: [entry], bundle: true, format: "esm", platform: "browser", conditions,
    outfile: path.join(outdir, "worker.js"), logLevel: "silent", nodePaths,
    plugins: [{
      name: "compiled-wasm",
      setup(b) {
        b.onResolve({ filter: /\.bin$/ }, (a) => ({ path: a.path, external: true }));
        b.onResolve({ filter: /\.wasm$/ }, async (a) => {
          if (a.pluginData === "compiled-wasm") return undefined;
          // esbuild's own resolution (a package's exports included), then external.
          const r = await b.resolve(a.path, { resolveDir: a.resolveDir, kind: a.kind, importer: a.importer, pluginData: "compiled-wasm" });
          if (r.errors.length) return { errors: r.errors };
          const file = r.path;
          const name = path.basename(file);
          wasms.set(name, file);
          return { path: `./${name}`, external: true };
        });
      },
    }],
  });
  for (const [name, file] of wasms) await copyFile(file, path.join(outdir, name));
  return [...wasms.keys()];
}

/** workerdConfig writes a workerd config serving the bundle in dir on port, allowed to reach 127.0.0.1. */
export async function workerdConfig(dir, port, wasms, bindings = "", extraModules = []) {
  const modules = [`(name = "worker.js", esModule = embed "worker.js")`, ...wasms.map((w) => `(name = "${w}", wasm = embed "${w}")`), ...extraModules];
  const config = `using Workerd = import "/workerd/workerd.capnp";
const config :Workerd.Config = (
  services = [
    (name = "main", worker = .worker),
    (name = "loopback", network = (allow = ["local", "private", "public"])),
  ],
  sockets = [(name = "http", address = "127.0.0.1:${port}", http = (), service = "main")],
);
const worker :Workerd.Worker = (
  modules = [${modules.join(", ")}],
  compatibilityDate = "2025-09-01",
  compatibilityFlags = ["nodejs_compat"],
  globalOutbound = "loopback",${bindings}
);
`;
  await writeFile(path.join(dir, "config.capnp"), config);
  return path.join(dir, "config.capnp");
}

/** startWorkerd serves config and resolves with {url, stop, stderr} once it answers. */
export async function startWorkerd(config, port) {
  const child = spawn(bin("workerd"), ["serve", config], { cwd: path.dirname(config), stdio: ["ignore", "pipe", "pipe"] });
  let stderr = "";
  child.stdout.on("data", (d) => { stderr = (stderr + d).slice(-32768); });
  child.stderr.on("data", (d) => { stderr = (stderr + d).slice(-32768); });
  let exited = null;
  child.on("exit", (code, signal) => { exited = code ?? signal; });
  const url = `http://127.0.0.1:${port}`;
  const stop = () => new Promise((r) => {
    if (child.exitCode !== null || child.signalCode !== null) return r();
    child.on("exit", () => r());
    child.kill("SIGTERM");
    setTimeout(() => child.kill("SIGKILL"), 3000).unref();
  });
  // workerd prints nothing when it listens: try to connect, boundedly.
  for (let i = 0; i < 200; i++) {
    if (exited !== null) throw new Error(`workerd exited (${exited}) before serving:\n${stderr}`);
    const ok = await new Promise((r) => {
      const s = net.connect(port, "127.0.0.1", () => { s.destroy(); r(true); });
      s.on("error", () => r(false));
    });
    if (ok) return { url, stop, stderr: () => stderr };
    await new Promise((r) => setTimeout(r, 50));
  }
  await stop();
  throw new Error(`workerd did not listen on ${port} in 10 s:\n${stderr}`);
}

describe("workerd", () => {
  let w;
  before(async () => {
    const dir = path.join(app, "workerd");
    const wasms = await bundleWorker(path.join(app, "worker.mjs"), dir);
    assert.deepEqual(wasms, ["mcpwasm.wasm"], "the workerd entry point imports the module");
    const port = await freePort();
    w = await startWorkerd(await workerdConfig(dir, port, wasms), port);
  });
  after(() => w?.stop());

  const get = async (p) => {
    const res = await fetch(`${w.url}${p}`);
    const text = await res.text();
    assert.equal(res.status, 200, `workerd: ${p}: HTTP ${res.status}: ${text}\n${w.stderr()}`);
    return JSON.parse(text);
  };

  for (const era of ["modern", "legacy"]) {
    test(`workerd: a client per request, ${era} era${era === "legacy" ? ", WebSocket" : ""}`, async () => {
      const q = new URLSearchParams({ mcp: mcpURL, era });
      if (era === "legacy") q.set("ws", wsURL);
      check("workerd", await get(`/run?${q}`), { ws: era === "legacy" });
    });
  }

  test("workerd: a WebSocket client kept from an earlier request fails cleanly and leaks no call", async () => {
    const kept = await get(`/ws-keep?${new URLSearchParams({ ws: wsURL })}`);
    assert.equal(kept.kept, true);
    const r = await get("/ws-reuse");
    assert.notEqual(r.resolved, true, `workerd: ${JSON.stringify(r)}`);
    assert.equal(r.isMcpError, true, `workerd: ${JSON.stringify(r)}`);
    assert.equal(r.stats.calls, 0, `workerd: calls left in the module: ${JSON.stringify(r.stats)}`);
    assert.equal(r.stats.clients, 0, `workerd: clients left in the module: ${JSON.stringify(r.stats)}`);
    const stats = await get("/stats");
    assert.equal(stats.calls, 0);
  });

  test("workerd: a Go timer armed while handling an earlier request does not stall a later one", async () => {
    const q = new URLSearchParams({ mcp: mcpURL });
    assert.deepEqual(await get(`/timer-arm?${q}`), { armed: true });
    const r = await get(`/timer-check?${q}`);
    assert.notEqual(r.resolved, true, `workerd: the call outlived its timeout: ${JSON.stringify(r)}`);
    assert.match(r.message, /time/i, `workerd: the call timed out: ${JSON.stringify(r)}`);
    assert.ok(r.ms < 6000, `workerd: timed out after ${r.ms} ms`);
  });

  test("workerd: no event handler returned a value", () => {
    assert.doesNotMatch(w.stderr(), /returned a value/, "workerd warned about a listener's return value");
  });
});

describe("example-edge (workerd)", () => {
  let w;
  before(async () => {
    const dir = path.join(app, "example-edge");
    const wasms = await bundleWorker(path.join(repo, "example-edge", "worker.js"), dir, [path.join(app, "node_modules")]);
    const port = await freePort();
    const bindings = `\n  bindings = [(name = "MCP_URL", text = "${mcpURL}")],`;
    w = await startWorkerd(await workerdConfig(dir, port, wasms, bindings), port);
  });
  after(() => w?.stop());

  const get = async (p) => {
    const res = await fetch(`${w.url}${p}`);
    return { status: res.status, body: await res.json() };
  };

  test("example-edge: /tools lists every page of tools", async () => {
    const { status, body } = await get("/tools");
    assert.equal(status, 200, JSON.stringify(body));
    const names = body.tools.map((t) => t.name);
    assert.ok(names.includes("page_tool_24") && names.includes("add"), names.join(", "));
    assert.equal(new Set(names).size, names.length);
  });

  test("example-edge: /call/<tool> passes the query as arguments, a client per request", async () => {
    for (let i = 0; i < 3; i++) {
      const { status, body } = await get(`/call/add?a=${i}&b=40`);
      assert.equal(status, 200, JSON.stringify(body));
      assert.deepEqual(body.structuredContent, { sum: 40 + i });
    }
    const echo = await get(`/call/echo?text=${encodeURIComponent("hi edge")}`);
    assert.equal(echo.body.content[0].text, "hi edge");
  });

  test("example-edge: errors come back as JSON with a status", async () => {
    const missing = await get("/call/no_such_tool");
    assert.ok(missing.status === 502 || missing.status === 422, `status ${missing.status}: ${JSON.stringify(missing.body)}`);
    const notFound = await get("/elsewhere");
    assert.equal(notFound.status, 404);
    assert.match(notFound.body.error, /\/tools/);
  });
});

describe("workerd without the workerd condition", () => {
  test("workerd: init() says what to do when the module has no URL or cannot be compiled, then takes a WebAssembly.Module", async () => {
    const dir = path.join(app, "workerd-errors");
    const wasms = await bundleWorker(path.join(app, "worker-errors.mjs"), dir, [], ["browser"]);
    await copyFile(path.join(repo, "js", "dist", "mcpwasm.wasm"), path.join(dir, "mcpwasm.bin"));
    const port = await freePort();
    const w = await startWorkerd(await workerdConfig(dir, port, wasms, "", ['(name = "mcpwasm.bin", data = embed "mcpwasm.bin")']), port);
    try {
      const res = await fetch(`${w.url}/`);
      const text = await res.text();
      assert.equal(res.status, 200, `workerd: ${text}\n${w.stderr()}`);
      const r = JSON.parse(text);
      assert.match(r.plain, /no URL \(import\.meta\.url is/, `workerd: plain init(): ${r.plain}`);
      assert.match(r.plain, /wasmModule/, `workerd: plain init() names the remedy: ${r.plain}`);
      assert.match(r.bytes, /forbids compiling WebAssembly at run time/, `workerd: init({ bytes }): ${r.bytes}`);
      assert.match(r.bytes, /import wasmModule from "mcpwasm\/mcpwasm\.wasm"/, `workerd: init({ bytes }) names the remedy: ${r.bytes}`);
      assert.equal(r.module, "ok", `workerd: init({ wasmModule }): ${r.module}`);
      assert.equal(r.clients, 0);
    } finally {
      await w.stop();
    }
  });
});
