// The JS package against @modelcontextprotocol/server-everything (legacy
// era): server→client sampling, elicitation and roots answered from JS,
// progress, logs and subscriptions, over Streamable HTTP and HTTP+SSE.
import { test, describe, before, after } from "node:test";
import assert from "node:assert/strict";
import { init, Client } from "../src/index.node.js";
import { startPeer, text, waitFor } from "./helpers.mjs";

await init();

for (const transport of ["streamableHttp", "sse"]) {
  describe(`server-everything over ${transport}`, () => {
    let server;
    let client;
    const seen = { sampling: [], elicitation: [], roots: 0, logs: [], updates: [], progress: 0 };
    before(async () => {
      server = await startPeer("everything", ["--transport", transport]);
      client = new Client({ name: "mcpwasm-js-test", version: "1.0.0" }, {
        sampling: (params) => {
          seen.sampling.push(params);
          return { role: "assistant", model: "js-model", content: { type: "text", text: "sampled in js" }, stopReason: "endTurn" };
        },
        elicitation: (params) => {
          seen.elicitation.push(params);
          return params.mode === "url" ? { action: "accept" } : { action: "accept", content: { name: "Ada" } };
        },
        elicitationModes: ["form", "url"],
        roots: () => {
          seen.roots++;
          return { roots: [{ uri: "file:///from-js", name: "js" }] };
        },
        onLog: (m) => seen.logs.push(m),
        onResourceUpdated: (u) => seen.updates.push(u.uri),
        onProgress: () => { seen.progress++; },
      });
      const info = await client.connect(server.url);
      assert.equal(info.era, "legacy");
    });
    after(async () => {
      await client?.close();
      await server?.stop();
    });

    test("tools appear for the declared capabilities", async () => {
      await waitFor(async () => {
        const names = [];
        for await (const t of client.tools()) names.push(t.name);
        return names.includes("trigger-sampling-request") && names.includes("trigger-elicitation-request") && names.includes("get-roots-list");
      }, 10000, "capability-dependent tools");
    });

    test("server→client sampling answered by a JS callback", async () => {
      const r = await client.callTool({ name: "trigger-sampling-request", arguments: { prompt: "Say hi", maxTokens: 10 } });
      assert.match(text(r), /sampled in js/);
      assert.match(seen.sampling.at(-1).messages[0].content.text, /Say hi/);
    });

    test("server→client elicitation (form and URL)", async () => {
      const r = await client.callTool({ name: "trigger-elicitation-request" });
      assert.match(text(r).toLowerCase(), /accept/);
      await client.callTool({ name: "trigger-url-elicitation", arguments: { url: "https://example.com/verify" } });
      const url = seen.elicitation.find((e) => e.mode === "url");
      assert.equal(url.url, "https://example.com/verify");
    });

    test("roots asked by the server, and roots list changes", async () => {
      await waitFor(async () => text(await client.callTool({ name: "get-roots-list" })).includes("file:///from-js"), 10000, "roots");
      assert.ok(seen.roots > 0);
    });

    test("progress and logging", async () => {
      await client.callTool({ name: "trigger-long-running-operation", arguments: { duration: 1, steps: 2 } }, { onprogress: () => {} });
      await waitFor(() => seen.progress >= 2, 5000, "progress");
      await client.setLogLevel("debug");
      await client.subscribe("demo://resource/static/document/architecture.md");
      await waitFor(() => seen.logs.length > 0, 10000, "a log message");
    });

    test("resource subscriptions", async () => {
      await client.callTool({ name: "toggle-subscriber-updates" });
      await waitFor(() => seen.updates.includes("demo://resource/static/document/architecture.md"), 12000, "resources/updated");
      await client.callTool({ name: "toggle-subscriber-updates" });
      await client.unsubscribe("demo://resource/static/document/architecture.md");
    });
  });
}
