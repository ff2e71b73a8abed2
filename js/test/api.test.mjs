// The API's edges: option validation, errors, a closed client, bad input.
import { test, before, after } from "node:test";
import assert from "node:assert/strict";
import { init, Client, McpError, ErrorCode, throwIfToolError } from "../src/index.node.js";
import { startPeer, text } from "./helpers.mjs";

await init();
let server;
before(async () => { server = await startPeer("ts", []); });
after(() => server?.stop());

test("unknown options are rejected", async () => {
  assert.throws(() => new Client({ name: "x", version: "1" }, { sampler: () => {} }), /unknown option "sampler"/);
  assert.throws(() => new Client({ name: "x", version: "1" }, { sampling: "yes" }), /must be a function/);
  assert.throws(() => new Client({ name: "x" }), /\{name, version\}/);
  // Options of the right JS type the Go side still refuses throw too,
  // instead of leaving a client whose every call hangs.
  assert.throws(() => new Client({ name: "x", version: "1" }, { capabilities: "all" }), (e) => e instanceof TypeError && /client options/.test(e.message));
  const c = new Client({ name: "x", version: "1" });
  await assert.rejects(c.connect(server.url, { transprot: "sse" }), /unknown option "transprot"/);
  await assert.rejects(c.connect(server.url, { transport: "carrier-pigeon" }), /unknown transport/);
  await c.connect(server.url);
  await assert.rejects(c.callTool({ name: "echo" }, { timout: 5 }), /unknown option "timout"/);
  await c.close();
});

test("errors carry code, message, data and kind", async () => {
  const c = new Client({ name: "x", version: "1" });
  await c.connect(server.url);
  try {
    const e = await c.request("no/such/method").catch((x) => x);
    assert.ok(e instanceof McpError);
    assert.equal(e.code, ErrorCode.MethodNotFound);
    assert.equal(e.kind, "rpc");
    assert.throws(() => throwIfToolError({ content: [{ type: "text", text: "nope" }], isError: true }, "t"), /tool "t" failed: nope/);
    assert.deepEqual(throwIfToolError({ content: [] }), { content: [] });
  } finally {
    await c.close();
  }
});

test("a closed client rejects, and the instance keeps working", async () => {
  const c = new Client({ name: "x", version: "1" });
  await c.connect(server.url);
  await c.close();
  await assert.rejects(c.listTools(), (e) => e instanceof McpError && e.kind === "closed" && e.code === ErrorCode.ConnectionClosed);
  await c.close(); // twice is fine
  const d = c.clone();
  await d.connect(server.url);
  assert.equal(text(await d.callTool({ name: "echo", arguments: { text: "fresh session" } })), "fresh session");
  await d.close();
});

test("bad input never kills the instance", async () => {
  const c = new Client({ name: "x", version: "1" }, {
    onToolsListChanged: () => { throw new Error("callback bug"); },
  });
  await c.connect(server.url);
  try {
    await assert.rejects(c.request("tools/call", [1, 2, 3]), McpError);
    await assert.rejects(c.connect("ftp://example.com/mcp"), /http or https/);
    await assert.rejects(c.connect("http://127.0.0.1:1/mcp"), McpError, "nothing listens on port 1");
  } finally {
    await c.close();
  }
  const d = new Client({ name: "x", version: "1" });
  await d.connect(server.url);
  assert.equal(text(await d.callTool({ name: "echo", arguments: { text: "still fine" } })), "still fine");
  await d.close();
});

test("a JS fetch can be injected", async () => {
  const seen = [];
  const c = new Client({ name: "x", version: "1" });
  await c.connect(server.url, {
    fetch: (input, init) => {
      seen.push(init?.method ?? "GET");
      return fetch(input, init);
    },
  });
  await c.listTools();
  await c.close();
  assert.ok(seen.filter((m) => m === "POST").length >= 2, `saw ${seen}`);
});

test("the headers option, a plain object or a Headers object, goes with every request", async (t) => {
  for (const [name, headers] of [["plain object", { "X-Custom": "v1" }], ["Headers", new Headers({ "X-Custom": "v1" })]]) {
    await t.test(name, async () => {
      const seen = [];
      const c = new Client({ name: "x", version: "1" });
      await c.connect(server.url, {
        headers,
        fetch: (input, init) => {
          seen.push(new Headers(init?.headers).get("x-custom"));
          return fetch(input, init);
        },
      });
      await c.listTools();
      await c.close();
      assert.ok(seen.length >= 2, `requests: ${seen.length}`);
      assert.deepEqual(seen.filter((v) => v !== "v1"), [], "every request carries the header");
    });
  }
});

// A 307 in front of a real server (servers redirect /mcp to /mcp/ and the
// like): Node's fetch is asked for redirect "error" first (js/src/host.js),
// so the helper must send the refused request again, following, and keep
// following for that URL.
test("a redirected endpoint works: the request is sent again, following", async () => {
  const http = await import("node:http");
  const seen = [];
  const redirector = http.createServer((req, res) => {
    seen.push(req.method);
    req.resume();
    res.writeHead(307, { location: server.url }).end();
  });
  await new Promise((r) => redirector.listen(0, "127.0.0.1", r));
  const c = new Client({ name: "x", version: "1" }, { protocolVersions: ["2025-11-25"] });
  try {
    await c.connect(`http://127.0.0.1:${redirector.address().port}/old/mcp`);
    for (let i = 0; i < 3; i++) assert.equal(text(await c.callTool({ name: "echo", arguments: { text: `r${i}` } })), `r${i}`);
    const posts = seen.filter((m) => m === "POST").length;
    // initialize (refused, then followed), notifications/initialized and three calls (followed at once).
    assert.equal(posts, 6, `POSTs at the redirecting URL: ${seen}`);
  } finally {
    await c.close();
    redirector.close();
  }
});
