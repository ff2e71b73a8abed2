// The JS package against real servers: the TypeScript SDK v2 server (modern
// era with MRTR callbacks answered from JS, and its legacy sessions) and the
// official Go SDK server (both eras), driving the shared test-peer tool set.
import { test, describe, before, after } from "node:test";
import assert from "node:assert/strict";
import { init, Client, McpError, ErrorCode } from "../src/index.node.js";
import { startPeer, text, waitFor } from "./helpers.mjs";

await init();

const peers = [
  { name: "ts-modern", kind: "ts", args: ["--page-size", "10"], era: "modern", version: "2026-07-28" },
  { name: "ts-legacy", kind: "ts", args: ["--page-size", "10"], era: "legacy", version: "2025-11-25", versions: ["2025-11-25", "2025-06-18"] },
  { name: "go-modern", kind: "go", args: ["--modern", "--page-size", "10"], era: "modern", version: "2026-07-28" },
  { name: "go-legacy", kind: "go", args: ["--page-size", "10"], era: "legacy", version: "2025-11-25" },
];

for (const p of peers) {
  describe(p.name, () => {
    let server;
    let url;
    before(async () => {
      server = await startPeer(p.kind, p.args);
      url = p.kind === "go" ? server.url + "/mcp" : server.url;
    });
    after(() => server?.stop());

    // connect makes a client with options and connects it.
    async function connect(options = {}) {
      const client = new Client({ name: "mcpwasm-js-test", version: "1.0.0" }, options);
      await client.connect(url, p.versions ? { protocolVersions: p.versions } : undefined);
      return client;
    }

    test("handshake and session info", async () => {
      const c = await connect();
      try {
        assert.equal(c.era, p.era);
        assert.equal(c.protocolVersion, p.version);
        assert.ok(c.serverInfo?.name);
        assert.equal(c.instructions, "mcpwasm test peer");
        assert.ok(c.serverCapabilities.tools);
        await c.ping();
      } finally {
        await c.close();
      }
    });

    test("pagination: one page and every page", async () => {
      const c = await connect();
      try {
        const page = await c.listTools();
        assert.ok(page.nextCursor, "page size 10 paginates");
        assert.equal(page.tools.length, 10);
        const names = [];
        for await (const tool of c.tools()) names.push(tool.name);
        assert.equal(new Set(names).size, names.length, "no duplicates across pages");
        for (const want of ["echo", "add", "elicit", "page_tool_24"]) assert.ok(names.includes(want), want);
      } finally {
        await c.close();
      }
    });

    test("tool results, errors and structured output", async () => {
      const c = await connect();
      try {
        for await (const _ of c.tools()) { /* learn output schemas */ }
        assert.equal(text(await c.callTool({ name: "echo", arguments: { text: "héllo ☃" } })), "héllo ☃");
        const add = await c.callTool({ name: "add", arguments: { a: 40, b: 2 } });
        assert.deepEqual(add.structuredContent, { sum: 42 });

        const failed = await c.callTool({ name: "fail" });
        assert.equal(failed.isError, true, "isError results resolve");
        await assert.rejects(c.callToolOrThrow({ name: "fail" }), (e) => e instanceof McpError && e.kind === "tool" && e.code === ErrorCode.ToolError && e.code !== ErrorCode.InternalError && /it failed/.test(e.message));

        await assert.rejects(c.callTool({ name: "boom" }), (e) => e instanceof McpError && e.kind === "rpc" && /boom/.test(e.message) && typeof e.code === "number");
        await assert.rejects(c.callTool({ name: "bad_output" }), (e) => e instanceof McpError && e.kind === "output-schema" && e.data?.result?.structuredContent?.sum === "not a number");

        const mix = await c.callTool({ name: "content_mix" });
        assert.deepEqual(mix.content.map((x) => x.type).sort(), ["audio", "image", "resource", "resource_link", "text"]);
      } finally {
        await c.close();
      }
    });

    test("progress, cancellation and timeout", async () => {
      const c = await connect({ onProgress: () => {} });
      try {
        const seen = [];
        const r = await c.callTool({ name: "progress", arguments: { steps: 3, delayMs: 10 } }, {
          onprogress: (pr) => seen.push(pr.progress),
          timeout: 5000,
          resetTimeoutOnProgress: true,
        });
        assert.equal(text(r), "done");
        await waitFor(() => seen.length === 3, 3000, "progress");
        assert.deepEqual(seen, [1, 2, 3]);

        const count = async () => Number(text(await c.callTool({ name: "cancelled_count" })));
        const before = await count();
        const ac = new AbortController();
        setTimeout(() => ac.abort(new Error("user gave up")), 100);
        await assert.rejects(c.callTool({ name: "slow", arguments: { ms: 10000 } }, { signal: ac.signal }),
          (e) => e instanceof McpError && e.kind === "abort" && e.cause?.message === "user gave up" && /user gave up/.test(e.message));
        await waitFor(async () => (await count()) === before + 1, 5000, "the server saw the cancellation");

        await assert.rejects(c.callTool({ name: "slow", arguments: { ms: 10000 } }, { timeout: 150 }),
          (e) => e instanceof McpError && e.kind === "timeout" && e.code === ErrorCode.RequestTimeout);
        await waitFor(async () => (await count()) === before + 2, 5000, "the timeout cancelled on the wire");
      } finally {
        await c.close();
      }
    });

    test("sampling, elicitation and roots answered from JS", async () => {
      const asked = [];
      const c = await connect({
        samplingTools: true,
        sampling: async (params, { signal }) => {
          asked.push(["sampling", params]);
          assert.ok(signal === undefined || signal instanceof AbortSignal);
          return { role: "assistant", model: "js-model", content: { type: "text", text: "from js" } };
        },
        elicitation: async (params) => {
          asked.push(["elicitation", params]);
          await new Promise((r) => setTimeout(r, 10));
          return { action: "accept", content: { age: 7 } };
        },
        roots: async () => ({ roots: [{ uri: "file:///js", name: "js" }] }),
      });
      try {
        assert.equal(text(await c.callTool({ name: "sample", arguments: { prompt: "hi" } })), "js-model: from js");
        const elicited = JSON.parse(text(await c.callTool({ name: "elicit" })));
        assert.deepEqual(elicited, { action: "accept", content: { age: 7, name: "Ada", color: "green" } }, "schema defaults applied");
        assert.deepEqual(JSON.parse(text(await c.callTool({ name: "roots" }))), ["file:///js"]);
        const multi = JSON.parse(text(await c.callTool({ name: "multi_input" })));
        assert.equal(multi.name, "Ada");
        assert.deepEqual(multi.roots, ["file:///js"]);
        assert.match(multi.sample, /from js/);
        assert.ok(asked.some(([k, prm]) => k === "sampling" && prm.systemPrompt === "be brief"));
      } finally {
        await c.close();
      }
    });

    test("a throwing handler fails the request, not the client", async () => {
      const c = await connect({ sampling: () => { throw new Error("no LLM here"); } });
      try {
        const outcome = await c.callTool({ name: "sample", arguments: { prompt: "x" } }).then((r) => r, (e) => e);
        if (outcome instanceof Error) assert.match(outcome.message, /no LLM here/);
        else assert.ok(outcome.isError || /no LLM here|error/i.test(text(outcome)), text(outcome));
        assert.equal(text(await c.callTool({ name: "echo", arguments: { text: "alive" } })), "alive");
      } finally {
        await c.close();
      }
    });

    test("list changed, subscriptions and logging", async () => {
      let changed = 0;
      const updates = [];
      const logs = [];
      const c = await connect({
        logLevel: "info",
        onToolsListChanged: () => { changed++; },
        onResourceUpdated: (u) => updates.push(u.uri),
        onLog: (m) => logs.push(m.level),
      });
      try {
        await c.callTool({ name: "change_tools" });
        await waitFor(() => changed > 0, 10000, "tools/list_changed");
        await c.subscribe("test://static/text");
        await c.callTool({ name: "touch", arguments: { uri: "test://static/text" } });
        await waitFor(() => updates.includes("test://static/text"), 10000, "resources/updated");
        await c.unsubscribe("test://static/text");
        await c.callTool({ name: "log", arguments: { level: "warning" } });
        await waitFor(() => logs.includes("warning"), 5000, "log message");
        assert.ok(!logs.includes("debug"), "below the level");
      } finally {
        await c.close();
      }
    });

    test("resources, prompts and completion", async () => {
      const c = await connect();
      try {
        const r = await c.readResource({ uri: "test://static/text" });
        assert.equal(r.contents[0].text, "hello resource");
        const blob = await c.readResource({ uri: "test://static/blob" });
        assert.equal(blob.contents[0].blob, "AAECAwQFBgcICQoLDA0ODw==");
        const templates = [];
        for await (const t of c.resourceTemplates()) templates.push(t.uriTemplate);
        assert.ok(templates.includes("test://items/{id}"));
        const g = await c.getPrompt({ name: "greet", arguments: { name: "Ada" } });
        assert.match(g.messages[0].content.text, /Hello, Ada!/);
        const comp = await c.complete({ ref: { type: "ref/prompt", name: "greet" }, argument: { name: "style", value: "f" } });
        assert.deepEqual(comp.completion.values, ["formal"]);
      } finally {
        await c.close();
      }
    });

    test("64 concurrent calls", async () => {
      const c = await connect();
      try {
        const results = await Promise.all(Array.from({ length: 64 }, (_, i) => c.callTool({ name: "echo", arguments: { text: "x".repeat(i) } })));
        results.forEach((r, i) => assert.equal(text(r), "x".repeat(i)));
      } finally {
        await c.close();
      }
    });
  });
}
