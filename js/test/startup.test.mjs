// Start-up in Node: what a fresh process pays before its first answer.
// Node 20 defines fetch's classes (Headers, Request, Response, …) and the
// web streams as getters that load their implementation (undici, ≈ 45 ms
// on the 2-core machine) the first time they are read; a client that reads
// one on its way to the first tools/list pays that in its start-up
// (docs/architecture.md, "Start-up in Node"). On the Node entry point's
// plain-http path the package needs none of them, so it must read none.
// (Each test file runs in a process of its own, so nothing here was read
// before this file's code ran.) And Node waits on its main thread for V8's
// background tasks (in a fresh process: the module's validation and
// optimised compiles) whenever its event loop has nothing that keeps it
// alive, so init and connect keep it busy while they run (holdLoop in
// index.node.js), and must let it go on every way out.
import { test, after } from "node:test";
import assert from "node:assert/strict";
import { spawn } from "node:child_process";

// The globals to watch: read by the package only where the path needs
// them (the fetch path of other runtimes, a Headers object given as an
// option).
const LAZY = ["Headers", "Request", "Response", "FormData", "Blob", "File", "ReadableStream", "WritableStream",
  "TransformStream", "CompressionStream", "DecompressionStream", "WebSocket", "EventSource"];

// watch replaces each global in LAZY with a getter that notes its reads
// (and returns what the original gives), before the package is imported.
function watch() {
  const reads = [];
  for (const name of LAZY) {
    const d = Object.getOwnPropertyDescriptor(globalThis, name);
    if (!d?.configurable) continue;
    const original = d.get ? () => d.get.call(globalThis) : () => d.value;
    Object.defineProperty(globalThis, name, {
      configurable: true,
      enumerable: d.enumerable,
      get() {
        reads.push({ name, stack: new Error().stack.split("\n").slice(2, 5).join("\n") });
        return original();
      },
      set(v) {
        Object.defineProperty(globalThis, name, { configurable: true, enumerable: d.enumerable, writable: true, value: v });
      },
    });
  }
  return reads;
}

const reads = watch();
const { init, Client } = await import("../src/index.node.js");
const { startPeer, text } = await import("./helpers.mjs");

// The official Go SDK server, both eras on one endpoint.
const peer = await startPeer("go", ["--modern", "--max-life", "2m"]);
after(() => peer.stop());
const url = `${peer.url}/mcp`;

test("init, connect, tools/list and tools/call in Node read none of fetch's lazily loaded globals", async (t) => {
  await init();
  for (const era of [{ name: "modern", versions: ["2026-07-28"] }, { name: "legacy", versions: ["2025-11-25"] }]) {
    await t.test(era.name, async () => {
      const c = new Client({ name: "startup", version: "1" }, { protocolVersions: era.versions });
      // With headers as a plain object, and without.
      await c.connect(url, { headers: { "x-startup": "1" } });
      assert.equal(c.protocolVersion, era.versions[0]);
      assert.ok((await c.listTools()).tools.some((tool) => tool.name === "echo"));
      assert.equal(text(await c.callTool({ name: "echo", arguments: { text: "hi" } })), "hi");
      await c.close();
      const d = new Client({ name: "startup", version: "1" }, { protocolVersions: era.versions });
      await d.connect(url);
      await d.close();
    });
  }
  assert.deepEqual(reads.map((r) => `${r.name}\n${r.stack}`), []);
});

test("the watch sees a read (the test above can fail)", () => {
  const before = reads.length;
  assert.equal(typeof Headers, "function");
  // (Loading undici, Node 20 reads some of the others itself.)
  assert.ok(reads.slice(before).some((r) => r.name === "Headers"), "the read of Headers is seen");
});

// A fresh process (init runs once per realm): the timers that keep Node's
// loop alive, counted while init and connect run and after they ended, on
// their ways out that succeed and that fail; and the script ends by itself.
test("init and connect keep Node's event loop busy while they run and let it go however they end", async () => {
  const script = `
    const { init, Client } = await import(${JSON.stringify(new URL("../src/index.node.js", import.meta.url).href)});
    const timers = () => process.getActiveResourcesInfo().filter((r) => r === "Timeout").length;
    const base = timers();
    const out = {};
    const during = async (name, p) => {
      out[name] = timers() - base;
      await p.catch((e) => { out[name + " error"] = e.constructor.name; });
      out["after " + name] = timers() - base;
    };
    await during("init of bytes that are no module", init({ bytes: new Uint8Array([0, 97, 115, 109, 9, 9, 9, 9]) }));
    await during("init", init());
    const c = new Client({ name: "startup", version: "1" });
    await during("connect", c.connect(${JSON.stringify(url)}));
    const refused = new Client({ name: "startup", version: "1" });
    await during("connect refused", refused.connect("http://127.0.0.1:1/mcp"));
    const aborted = new Client({ name: "startup", version: "1" });
    await during("connect aborted", aborted.connect(${JSON.stringify(url)}, { signal: AbortSignal.abort() }));
    await c.close();
    console.log(JSON.stringify(out));
  `;
  const child = spawn(process.execPath, ["--input-type=module", "-e", script], { stdio: ["ignore", "pipe", "inherit"] });
  let out = "";
  child.stdout.on("data", (d) => { out += d; });
  const killer = setTimeout(() => child.kill("SIGKILL"), 20000);
  const [code, signal] = await new Promise((r) => child.on("exit", (code, signal) => r([code, signal])));
  clearTimeout(killer);
  assert.equal(signal, null, "the script ended by itself (it was killed after 20 s)");
  assert.equal(code, 0);
  assert.deepEqual(JSON.parse(out), {
    "init of bytes that are no module": 1, "init of bytes that are no module error": "CompileError", "after init of bytes that are no module": 0,
    init: 1, "after init": 0,
    connect: 1, "after connect": 0,
    "connect refused": 1, "connect refused error": "McpError", "after connect refused": 0,
    "connect aborted": 1, "connect aborted error": "McpError", "after connect aborted": 0,
  });
});
