// McpManager (issue 14) against several real servers at once: the
// TypeScript SDK v2 server, server-everything and the official Go SDK demo
// server; one of them killed mid-session and restarted.
import { test, describe, before, after } from "node:test";
import assert from "node:assert/strict";
import net from "node:net";
import { init, McpManager, McpError, parseConfig, namespacedName } from "../src/index.node.js";
import { startPeer, text, waitFor } from "./helpers.mjs";

await init();

// freePort returns a port nothing listens on (a refused connection).
async function freePort() {
  return new Promise((resolve) => {
    const s = net.createServer();
    s.listen(0, "127.0.0.1", () => { const p = s.address().port; s.close(() => resolve(p)); });
  });
}

// events records a manager's events as [type, detail] pairs.
function events(m) {
  const log = [];
  for (const type of ["change", "status"]) m.addEventListener(type, (e) => log.push([type, e.detail]));
  return log;
}

const withServer = (s) => (x) => x.server === s;

describe("several real servers at once", () => {
  let ts, ev, demo, m, log, refused;
  const asked = [];
  before(async () => {
    [ts, ev, demo] = await Promise.all([startPeer("ts"), startPeer("everything"), startPeer("go", ["--modern"])]);
    refused = await freePort();
    m = new McpManager({
      mcpServers: {
        ts: { url: ts.url },
        everything: { url: ev.url, denyTools: ["get-env"] },
        demo: { url: `${demo.url}/mcp`, allowTools: ["echo", "elicit", "add", "change_tools"] },
        broken: { url: `http://127.0.0.1:${refused}/mcp` },
        off: { url: `http://127.0.0.1:${refused}/mcp`, disabled: true },
      },
    }, {
      clientInfo: { name: "manager-test", version: "1.0.0" },
      reconnect: { delay: 20, maxDelay: 50, attempts: 3 },
      sampling: (params, extra) => {
        asked.push(["sampling", extra.server]);
        return { role: "assistant", content: { type: "text", text: `reply to ${extra.server}` }, model: "test-model" };
      },
      elicitation: (params, extra) => {
        asked.push(["elicitation", extra.server]);
        return { action: "accept", content: { name: extra.server, age: 3 } };
      },
      roots: (extra) => ({ roots: [{ uri: `file:///${extra.server}`, name: extra.server }] }),
    });
    log = events(m);
  });
  after(async () => {
    await m?.close();
    await Promise.all([ts?.stop(), ev?.stop(), demo?.stop()]);
  });

  test("connect settles every server's first attempt; a refused one does not block the others", async () => {
    const states = await m.connect();
    const by = Object.fromEntries(states.map((s) => [s.name, s]));
    assert.deepEqual(states.map((s) => s.name), ["ts", "everything", "demo", "broken", "off"], "configuration order");
    for (const n of ["ts", "everything", "demo"]) {
      assert.equal(by[n].status, "connected", `${n}: ${by[n].error?.message}`);
      assert.ok(by[n].client, `${n} has its client`);
      assert.equal(m.client(n), by[n].client);
    }
    assert.equal(by.ts.serverInfo.name, "mcpwasm-ts-peer");
    assert.ok(["reconnecting", "failed"].includes(by.broken.status), by.broken.status);
    assert.ok(by.broken.error instanceof McpError && by.broken.error.kind === "transport", String(by.broken.error));
    assert.equal(by.broken.client, undefined);
    assert.equal(by.off.status, "closed");
    await waitFor(() => m.server("broken").status === "failed", 10000, "broken: failed after its attempts");
    const brokenStatuses = log.filter(([t, d]) => t === "status" && d.name === "broken").map(([, d]) => d.status);
    assert.deepEqual(brokenStatuses, ["reconnecting", "failed"], "attempts are bounded");
    const servers = log.filter(([t, d]) => t === "change" && d.kind === "servers").map(([, d]) => d.server).sort();
    assert.deepEqual(servers, ["demo", "everything", "ts"], "one change per server that connected");
  });

  test("the aggregate: namespaced, filtered, in server-name order", () => {
    const tools = m.tools();
    const names = tools.map((t) => t.name);
    assert.deepEqual(tools.filter(withServer("demo")).map((t) => t.toolName).sort(), ["add", "change_tools", "echo", "elicit"], "allowTools");
    assert.ok(names.includes("everything__echo") && !names.includes("everything__get-env"), "denyTools");
    assert.ok(names.includes("ts__content_mix"));
    const servers = tools.map((t) => t.server);
    assert.deepEqual(servers, [...servers].sort(), "grouped by server name");
    const add = m.tool("ts__add");
    assert.equal(add.toolName, "add");
    assert.equal(add.server, "ts");
    assert.deepEqual(add.outputSchema, { type: "object", properties: { sum: { type: "integer" } }, required: ["sum"] });
    assert.equal(new Set(names).size, names.length, "unique names");
    for (const n of names) assert.match(n, /^[A-Za-z0-9_-]{1,64}$/);
    const prompts = m.prompts().map((p) => p.name);
    assert.ok(prompts.includes("ts__greet") && prompts.includes("demo__greet") && prompts.includes("everything__simple-prompt"), prompts.join());
    const res = m.resources();
    assert.ok(res.some((r) => r.server === "ts" && r.uri === "test://static/text"));
    assert.ok(res.some((r) => r.server === "demo" && r.uri === "test://static/text"));
    assert.ok(m.resourceTemplates().some((r) => r.server === "ts"));
  });

  test("a call goes to the server that owns the tool", async () => {
    assert.equal(text(await m.callTool({ name: "ts__echo", arguments: { text: "to ts" } })), "to ts");
    assert.equal(text(await m.callTool({ name: "demo__echo", arguments: { text: "to demo" } })), "to demo");
    assert.equal(text(await m.callTool({ name: "everything__echo", arguments: { message: "to everything" } })), "Echo: to everything");
    const whoami = JSON.parse(text(await m.callTool({ name: "ts__whoami" })));
    assert.equal(whoami.clientInfo.name, "manager-test");
    const sum = await m.callTool({ name: "ts__add", arguments: { a: 2, b: 3 } });
    assert.deepEqual(sum.structuredContent, { sum: 5 });
    await assert.rejects(m.callTool({ name: "everything__get-env" }), (e) => e instanceof McpError && e.kind === "input" && /unknown tool/.test(e.message));
    await assert.rejects(m.callTool({ name: "demo__fail" }), (e) => e.kind === "input", "not in allowTools");
    await assert.rejects(m.callTool({ name: "broken__echo" }), (e) => e.kind === "closed" && /failed/.test(e.message));
    const greet = await m.getPrompt({ name: "demo__greet", arguments: { name: "Ada" } });
    assert.match(greet.messages[0].content.text, /Ada/);
    const read = await m.readResource({ uri: "test://static/text", server: "ts" });
    assert.equal(read.contents[0].text, "hello resource");
    const first = await m.readResource({ uri: "test://static/text" });
    assert.equal(first.contents[0].uri, "test://static/text", "found by its URI on a server that lists it");
    await assert.rejects(m.readResource({ uri: "test://nowhere" }), (e) => e.kind === "input");
  });

  test("handlers are told which server asks", async () => {
    asked.length = 0;
    const s1 = await m.callTool({ name: "everything__trigger-sampling-request", arguments: { prompt: "hi", maxTokens: 5 } });
    assert.match(text(s1), /reply to everything/);
    const s2 = await m.callTool({ name: "ts__sample", arguments: { prompt: "hi" } });
    assert.equal(text(s2), "test-model: reply to ts");
    const e1 = await m.callTool({ name: "demo__elicit" });
    assert.match(text(e1), /"name":"demo"/);
    const roots = await m.callTool({ name: "ts__roots" });
    assert.deepEqual(JSON.parse(text(roots)), ["file:///ts"]);
    assert.deepEqual(asked, [["sampling", "everything"], ["sampling", "ts"], ["elicitation", "demo"]]);
  });

  test("list-changed from one server: one change event, the aggregate updated", async () => {
    for (const server of ["ts", "demo"]) {
      const before = m.tools().filter(withServer(server)).length;
      const seen = [];
      const onChange = (e) => seen.push(e.detail);
      m.addEventListener("change", onChange);
      try {
        const added = text(await m.callTool({ name: `${server}__change_tools` }));
        await waitFor(() => seen.length > 0, 10000, `${server}: a change event`);
        assert.deepEqual(seen[0], { server, kind: "tools" });
        if (server === "ts") assert.ok(m.tool(`ts__${added}`), `ts__${added} in the aggregate`);
        else assert.equal(m.tools().filter(withServer("demo")).length, before, "demo's allowTools hides the new tool");
        // a later round trip: every notification before it has been handled
        await m.callTool({ name: `${server}__echo`, arguments: { text: "sync" } });
        await m.callTool({ name: "ts__progress", arguments: { steps: 1, delayMs: 1 } }, { onprogress: () => {} });
        assert.equal(seen.length, 1, `${server}: exactly one change event: ${JSON.stringify(seen)}`);
        if (server === "ts") assert.equal(m.tools().filter(withServer(server)).length, before + 1);
      } finally {
        m.removeEventListener("change", onChange);
      }
    }
  });

  test("add and remove at run time", async () => {
    const seen = events(m);
    // a status listener sees the aggregate as of that status
    const toolsAtStatus = [];
    const onStatus = (ev) => {
      if (ev.detail.name === "second") toolsAtStatus.push([ev.detail.status, m.tools().filter(withServer("second")).length]);
    };
    m.addEventListener("status", onStatus);
    const st = await m.add("second", { url: ts.url, allowTools: ["echo"] });
    assert.equal(st.status, "connected");
    assert.deepEqual(m.tools().filter(withServer("second")).map((t) => t.name), ["second__echo"]);
    assert.equal(text(await m.callTool({ name: "second__echo", arguments: { text: "again" } })), "again");
    await assert.rejects(m.add("second", { url: ts.url }), TypeError);
    await assert.rejects(m.add("bad", { url: ts.url, nonsense: 1 }), /unknown option "nonsense"/);
    await m.remove("second");
    assert.equal(m.server("second"), undefined);
    assert.equal(m.tools().filter(withServer("second")).length, 0);
    await assert.rejects(m.callTool({ name: "second__echo", arguments: { text: "x" } }), (e) => e.kind === "input");
    const mine = seen.filter(([, d]) => (d.name ?? d.server) === "second").map(([t, d]) => `${t}:${d.status ?? d.kind}`);
    assert.deepEqual(mine, ["status:connecting", "status:connected", "change:servers", "status:closed", "change:servers"]);
    m.removeEventListener("status", onStatus);
    assert.deepEqual(toolsAtStatus, [["connecting", 0], ["connected", 1], ["closed", 0]]);
  });
});

test("a server killed mid-session reconnects when it comes back; the others keep working", async () => {
  const [ts, ev] = await Promise.all([startPeer("ts"), startPeer("everything")]);
  const port = new URL(ts.url).port;
  let ts2;
  const m = new McpManager({ mcpServers: { ts: { url: ts.url }, everything: { url: ev.url } } }, {
    healthCheck: 100,
    reconnect: { delay: 50, maxDelay: 200, attempts: 1000 },
  });
  const log = events(m);
  try {
    await m.connect();
    assert.ok(m.tool("ts__echo"));
    await ts.stop();
    await waitFor(() => m.server("ts").status === "reconnecting", 10000, "ts reconnecting");
    const down = m.server("ts");
    assert.ok(down.error instanceof McpError, String(down.error));
    assert.equal(down.client, undefined);
    assert.equal(m.client("ts"), undefined);
    assert.equal(m.tools().filter(withServer("ts")).length, 0, "its tools left the aggregate");
    await assert.rejects(m.callTool({ name: "ts__echo", arguments: { text: "x" } }), (e) => e.kind === "closed" && /reconnecting/.test(e.message));
    assert.equal(text(await m.callTool({ name: "everything__echo", arguments: { message: "still here" } })), "Echo: still here");
    ts2 = await startPeer("ts", ["--port", port]);
    await waitFor(() => m.server("ts").status === "connected", 15000, "ts connected again");
    assert.equal(text(await m.callTool({ name: "ts__echo", arguments: { text: "back" } })), "back");
    const statuses = log.filter(([t, d]) => t === "status" && d.name === "ts").map(([, d]) => d.status);
    assert.deepEqual(statuses.slice(-2), ["reconnecting", "connected"]);
    assert.ok(!statuses.includes("failed"));
    assert.deepEqual(log.filter(([t, d]) => t === "status" && d.name === "everything").map(([, d]) => d.status), ["connected"]);
  } finally {
    await m.close();
    await Promise.all([ts.stop(), ev.stop(), ts2?.stop()]);
  }
});

test("a failed call over a broken connection starts reconnection (no health check)", async () => {
  const ts = await startPeer("ts");
  let fetched = 0;
  const m = new McpManager({ mcpServers: { ts: { url: ts.url } } }, {
    reconnect: { delay: 10, maxDelay: 20, attempts: 2 },
    connectOptions: { fetch: (input, init) => { fetched++; return fetch(input, init); } },
  });
  try {
    await m.connect();
    assert.ok(fetched > 0, "connectOptions.fetch carries the requests");
    await ts.stop();
    await assert.rejects(m.callTool({ name: "ts__echo", arguments: { text: "x" } }), (e) => e.kind === "transport");
    await waitFor(() => m.server("ts").status === "failed", 10000, "ts failed after its attempts");
    const again = await m.reconnect("ts");
    assert.equal(again.status, "reconnecting", "still down, retrying");
    await waitFor(() => m.server("ts").status === "failed", 10000, "ts failed again");
  } finally {
    await m.close();
  }
});

test("collisions are resolved deterministically, whatever the order servers connect in", async () => {
  const ts = await startPeer("ts");
  try {
    const names = [];
    for (const order of [["x.y", "x_y", "x"], ["x", "x_y", "x.y"]]) {
      const mcpServers = {};
      for (const n of order) mcpServers[n] = { url: ts.url, allowTools: ["echo", "add"] };
      const m = new McpManager({ mcpServers }, { separator: "_" });
      try {
        await m.connect();
        const tools = m.tools();
        names.push(tools.map((t) => `${t.name}=${t.server}/${t.toolName}`));
        // "x.y" and "x_y" both sanitize to "x_y": the first by name (x.y) keeps it
        assert.equal(m.tool("x_y_echo").server, "x.y");
        assert.equal(m.tool("x_y_echo_2").server, "x_y");
        const r = await m.callTool({ name: "x_y_echo_2", arguments: { text: "routed" } });
        assert.equal(text(r), "routed");
      } finally {
        await m.close();
      }
    }
    assert.deepEqual(names[0], names[1]);
    assert.deepEqual(names[0], ["x_echo=x/echo", "x_add=x/add", "x_y_echo=x.y/echo", "x_y_add=x.y/add", "x_y_echo_2=x_y/echo", "x_y_add_2=x_y/add"]);
  } finally {
    await ts.stop();
  }
});

test("namespacedName and parseConfig", () => {
  const cases = [
    { server: "fs", tool: "read_file", want: "fs__read_file" },
    { server: "my server", tool: "files.read", want: "my_server__files_read" },
    { server: "s", tool: "t/ü", want: "s__t__" },
  ];
  for (const c of cases) assert.equal(namespacedName(c.server, c.tool), c.want);
  const long = namespacedName("a".repeat(40), "b".repeat(40));
  assert.equal(long.length, 64);
  assert.notEqual(long, namespacedName("a".repeat(40), "b".repeat(41)), "a hash keeps long names apart");

  const cfg = parseConfig(JSON.stringify({ mcpServers: {
    web: { url: "https://example.com/mcp", headers: { Authorization: "Bearer x" } },
    legacy: { type: "sse", url: "https://example.com/sse" },
    local: { command: "npx", args: ["-y", "server"], env: { A: "1" } },
  } }));
  assert.equal(cfg.mcpServers.legacy.transport, "sse");
  assert.equal(cfg.mcpServers.local.transport, "stdio");
  const bad = [
    [{}, /mcpServers/],
    [{ mcpServers: { a: {} } }, /give a url/],
    [{ mcpServers: { a: { url: "x", command: "y" } } }, /not both/],
    [{ mcpServers: { a: { url: "x", transport: "pigeon" } } }, /unknown transport/],
    [{ mcpServers: { a: { command: "x", args: "y" } } }, /args must be/],
    [{ mcpServers: { a: { url: "x", allowTools: "echo" } } }, /allowTools/],
  ];
  for (const [c, re] of bad) assert.throws(() => parseConfig(c), re);
  assert.throws(() => new McpManager(undefined, { reconnect: { attempts: Infinity } }), /attempts/);
  assert.throws(() => new McpManager(undefined, { sampling: 1 }), /sampling/);
  assert.throws(() => new McpManager(undefined, { connectOptions: { headers: {} } }), /unknown option "headers"/);
});

test("a stdio server needs mcpwasm/node in the main entry", async () => {
  const m = new McpManager({ mcpServers: { local: { command: "true" } } }, { reconnect: { attempts: 1 } });
  const [s] = await m.connect();
  assert.equal(s.status, "failed");
  assert.match(s.error.message, /mcpwasm\/node/);
  await m.close();
});
