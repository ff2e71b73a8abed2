// The connection-state surface (client.closed, isConnected), era control by
// name, a closed client leaving the module, and event listeners the module
// adds returning undefined — against the official Go SDK demo server.
import { test, before, after } from "node:test";
import assert from "node:assert/strict";
import { init, Client, McpError, moduleStats } from "../src/index.node.js";
import { startPeer, text, waitFor } from "./helpers.mjs";

await init();
let server;
before(async () => { server = await startPeer("go", ["--modern", "--max-life", "5m"]); });
after(() => server?.stop());
const url = () => `${server.url}/mcp`;

test("a closed client leaves the module; it can connect again", async () => {
  const base = moduleStats().clients;
  const c = new Client({ name: "lifecycle", version: "1.0.0" });
  assert.equal(moduleStats().clients, base + 1);
  for (let i = 0; i < 3; i++) {
    await c.connect(url());
    assert.equal(text(await c.callTool({ name: "echo", arguments: { text: `round ${i}` } })), `round ${i}`);
    await c.close();
    assert.equal(moduleStats().clients, base, `after close number ${i + 1}`);
  }
  await c.close(); // closing twice is fine
  assert.equal(moduleStats().calls, 0);
  await assert.rejects(c.listTools(), (e) => e instanceof McpError && /not connected/.test(e.message));
  await c.close();
  assert.equal(moduleStats().clients, base);
});

test("closed and isConnected follow the session", async () => {
  const c = new Client({ name: "lifecycle", version: "1.0.0" });
  assert.equal(c.isConnected, false);
  const first = c.closed;
  let settled = false;
  first.then(() => { settled = true; });
  await c.connect(url());
  assert.equal(c.isConnected, true);
  await new Promise((r) => setTimeout(r, 20));
  assert.equal(settled, false, "closed stays pending while connected");
  await c.close();
  assert.equal(await first, undefined, "close() resolves closed with undefined");
  assert.equal(c.isConnected, false);
  assert.notEqual(c.closed, first, "the next connection gets a new Promise");
});

test("a session that fails settles closed with the McpError", async () => {
  const peer = await startPeer("go", ["--max-life", "1m"]);
  const c = new Client({ name: "lifecycle", version: "1.0.0" });
  try {
    // legacy era over HTTP+SSE: the GET stream ends when the server goes away
    await c.connect(`${peer.url}/sse`, { transport: "sse" });
    assert.equal(c.isConnected, true);
    const closed = c.closed;
    await peer.stop();
    const err = await closed;
    assert.ok(err instanceof McpError, `closed resolved with ${err}`);
    assert.equal(c.isConnected, false);
  } finally {
    await c.close();
    await peer.stop();
  }
});

test("era picks the protocol generation by name", async () => {
  const cases = [
    { era: "modern", want: "2026-07-28" },
    { era: "legacy", want: "2025-11-25" },
    { era: "auto", want: "2026-07-28" },
    { era: "legacy", protocolVersions: ["2026-07-28", "2025-06-18"], want: "2025-06-18" },
  ];
  for (const tc of cases) {
    for (const where of ["client", "connect"]) {
      const opts = { era: tc.era, protocolVersions: tc.protocolVersions };
      const c = new Client({ name: "era", version: "1.0.0" }, where === "client" ? opts : undefined);
      try {
        const info = await c.connect(url(), where === "connect" ? opts : undefined);
        assert.equal(info.protocolVersion, tc.want, `${where} ${JSON.stringify(opts)}`);
        assert.equal(info.era, tc.want === "2026-07-28" ? "modern" : "legacy");
      } finally {
        await c.close();
      }
    }
  }
  assert.throws(() => new Client({ name: "era", version: "1" }, { era: "future" }), /unknown era "future"/);
  assert.throws(() => new Client({ name: "era", version: "1" }, { era: "modern", protocolVersions: ["2025-11-25"] }), /leaves none/);
  const c = new Client({ name: "era", version: "1" });
  await assert.rejects(c.connect(url(), { era: "old" }), TypeError);
  await c.close();
});

test("the module's abort listeners return undefined", async () => {
  const returned = [];
  const proto = EventTarget.prototype;
  const add = proto.addEventListener;
  proto.addEventListener = function (type, listener, opts) {
    if (type === "abort" && typeof listener === "function" && !listener.__wrapped) {
      const wrapped = function (...args) {
        const r = listener.apply(this, args);
        returned.push(r);
        return r;
      };
      wrapped.__wrapped = true;
      listener.__wrapper = wrapped;
      return add.call(this, type, wrapped, opts);
    }
    return add.call(this, type, listener?.__wrapper ?? listener, opts);
  };
  const remove = proto.removeEventListener;
  proto.removeEventListener = function (type, listener, opts) {
    return remove.call(this, type, listener?.__wrapper ?? listener, opts);
  };
  const c = new Client({ name: "listeners", version: "1.0.0" });
  try {
    await c.connect(url());
    const ac = new AbortController();
    const call = c.callTool({ name: "slow", arguments: { ms: 10000 } }, { signal: ac.signal });
    await new Promise((r) => setTimeout(r, 100));
    ac.abort(new Error("stop"));
    await assert.rejects(call, /stop/);
  } finally {
    proto.addEventListener = add;
    proto.removeEventListener = remove;
    await c.close();
  }
  assert.ok(returned.length >= 1, "the abort listener ran");
  assert.deepEqual(returned.filter((r) => r !== undefined), [], "every listener returned undefined");
});

test("close() during connect leaves no session behind", async () => {
  const base = moduleStats();
  for (const era of ["legacy", "modern"]) {
    const c = new Client({ name: "racer", version: "1.0.0" }, { era });
    const connecting = c.connect(url());
    await c.close();
    const r = await Promise.allSettled([connecting]);
    if (r[0].status === "rejected") assert.match(r[0].reason.message, /closed while connecting/);
    await c.close();
  }
  assert.equal(moduleStats().clients, base.clients);
  // A session left running keeps its goroutines (and, legacy, its server session).
  await waitFor(() => moduleStats().goroutines <= base.goroutines, 5000, `goroutines back to ${base.goroutines}`);
});
