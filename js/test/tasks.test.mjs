// The tasks API of the JS package against real peers: server-everything's
// 2025-11-25 task tool (with its clarification elicitation) and a TypeScript
// SDK v2 server with the 2026-07-28 tasks extension (harness/testpeers/node/
// tasks-server.mjs, shapes checked with @modelcontextprotocol/ext-tasks).
import { test, describe, before, after } from "node:test";
import assert from "node:assert/strict";
import { init, Client, Task, McpError } from "../src/index.node.js";
import { startPeer, text } from "./helpers.mjs";

await init();

function newClient(asked, options) {
  return new Client({ name: "mcpwasm-js-tasks", version: "1.0.0" }, {
    elicitation: (params) => {
      asked.push(params.message);
      return { action: "accept", content: { interpretation: "comedy", name: "Ada" } };
    },
    ...options,
  });
}

describe("2025-11-25 tasks (server-everything)", () => {
  let server;
  let client;
  const asked = [];
  before(async () => {
    server = await startPeer("everything", ["--transport", "streamableHttp"]);
    client = newClient(asked);
    assert.equal((await client.connect(server.url)).era, "legacy");
  });
  after(async () => {
    await client?.close();
    await server?.stop();
  });

  test("callToolAsTask: a handle, statuses, input through the elicitation handler", async () => {
    const task = await client.callToolAsTask({ name: "simulate-research-query", arguments: { topic: "python", ambiguous: true } }, { ttl: 60000 });
    assert.ok(task instanceof Task);
    assert.ok(task.id);
    assert.equal(task.status, "working");
    assert.equal(task.pollInterval, 1000);
    const seen = [];
    const result = await task.wait({ onStatus: (s) => seen.push(s.status) });
    assert.match(text(result), /Research Report: python \(comedy\)/);
    assert.equal(task.status, "completed");
    assert.equal(asked.length, 1);
    assert.ok(seen.length > 0);
  });

  test("callTool on a task-only tool waits for the task; taskWait:false rejects with the id", async () => {
    const r = await client.callTool({ name: "simulate-research-query", arguments: { topic: "tides" } });
    assert.match(text(r), /Research Report: tides/);
    await assert.rejects(client.callTool({ name: "simulate-research-query", arguments: { topic: "owls" } }, { taskWait: false }), (e) => {
      assert.ok(e instanceof McpError);
      assert.equal(e.kind, "task");
      assert.ok(e.data.taskId);
      return true;
    });
  });

  test("listTasks, getTask, cancel; wait bounded by a signal", async () => {
    const task = await client.callToolAsTask({ name: "simulate-research-query", arguments: { topic: "rivers" } });
    const { tasks } = await client.listTasks();
    assert.ok(tasks.some((t) => t.id === task.id));
    const ac = new AbortController();
    setTimeout(() => ac.abort(new Error("enough")), 200);
    await assert.rejects(task.wait({ signal: ac.signal }), /enough/);
    const resumed = await client.getTask(task.id);
    assert.equal(resumed.id, task.id);
    await resumed.cancel();
    await assert.rejects(resumed.wait(), (e) => e.kind === "task-cancelled");
    assert.equal(resumed.status, "cancelled");
  });

  test("unknown task id", async () => {
    await assert.rejects(client.getTask("no-such-task"), (e) => e.kind === "rpc" && e.code === -32602);
  });
});

describe("2026-07-28 tasks extension (TS SDK v2 + ext-tasks)", () => {
  let server;
  let client;
  const asked = [];
  before(async () => {
    server = await startPeer("tasks");
    client = newClient(asked);
    assert.equal((await client.connect(server.url)).era, "modern");
  });
  after(async () => {
    await client?.close();
    await server?.stop();
  });

  test("callToolAsTask and wait, with structured output", async () => {
    const task = await client.callToolAsTask({ name: "slow_sum", arguments: { a: 2, b: 3 } });
    assert.equal(task.pollInterval, 100);
    const messages = [];
    const r = await task.wait({ onStatus: (s) => messages.push(s.statusMessage) });
    assert.deepEqual(r.structuredContent, { sum: 5 });
    assert.ok(messages.includes("done"));
  });

  test("input through tasks/update answered by the elicitation handler", async () => {
    const task = await client.callToolAsTask({ name: "ask_name" });
    const r = await task.wait();
    assert.equal(text(r), "Hello, Ada!");
    assert.ok(asked.includes("Please enter your name."));
  });

  test("callTool without opting in gets the task's result", async () => {
    const r = await client.callTool({ name: "slow_sum", arguments: { a: 40, b: 2, steps: 1 } });
    assert.equal(text(r), "42");
  });

  test("a direct answer is a completed handle", async () => {
    const task = await client.callToolAsTask({ name: "quick", arguments: { text: "hi" } });
    assert.equal(task.id, "");
    assert.equal(task.status, "completed");
    assert.equal(text(await task.wait()), "quick hi");
  });

  test("failed task rejects with the server's error", async () => {
    const task = await client.callToolAsTask({ name: "fail_task" });
    await assert.rejects(task.wait(), (e) => e.kind === "rpc" && e.code === -32603 && /on fire/.test(e.message));
    assert.equal(task.status, "failed");
  });

  test("survives a reload: a new client resumes by id and cancels", async () => {
    const task = await client.callToolAsTask({ name: "forever" });
    const id = task.id;
    const other = newClient([]);
    await other.connect(server.url);
    try {
      const resumed = await other.getTask(id);
      assert.equal(resumed.status, "working");
      assert.equal(resumed.statusMessage, "still going");
      const state = await resumed.cancel();
      assert.equal(state.id, id);
      await assert.rejects(resumed.wait(), (e) => e.kind === "task-cancelled");
      await assert.rejects(task.wait(), (e) => e.kind === "task-cancelled");
    } finally {
      await other.close();
    }
  });

  test("no tasks/list in this era", async () => {
    await assert.rejects(client.listTasks(), (e) => e.kind === "protocol");
  });
});
