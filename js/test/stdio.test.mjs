// stdio servers in Node (issue 14): mcpwasm/node spawns the real
// @modelcontextprotocol/server-filesystem and server-memory and speaks to
// them through the wasm client's port transport, alone and in the
// manager's configuration next to HTTP servers; the child is ended on
// close and its stderr surfaced.
import { test, describe, before, after } from "node:test";
import assert from "node:assert/strict";
import { readFileSync } from "node:fs";
import { mkdtemp, writeFile, readFile, rm } from "node:fs/promises";
import { tmpdir } from "node:os";
import path from "node:path";
import { init, Client, McpError, McpManager, connectStdio, stdioPort } from "../src/node.js";
import { repo, startPeer, text, waitFor } from "./helpers.mjs";

await init();

const FS = path.join(repo, "node_modules/@modelcontextprotocol/server-filesystem/dist/index.js");
const MEMORY = path.join(repo, "node_modules/@modelcontextprotocol/server-memory/dist/index.js");

// alive reports whether a process exists.
function alive(pid) {
  try {
    process.kill(pid, 0);
    return true;
  } catch (e) {
    return e.code !== "ESRCH";
  }
}

// ended reports whether a process has ended: gone, or a zombie its parent
// (init, once that parent is gone too) has not reaped yet.
function ended(pid) {
  if (!alive(pid)) return true;
  try {
    const stat = readFileSync(`/proc/${pid}/stat`, "utf8");
    return stat.slice(stat.lastIndexOf(")") + 2).startsWith("Z");
  } catch {
    return false; // no /proc here: a zombie counts as running
  }
}

describe("real stdio servers through connectStdio", () => {
  let dir;
  before(async () => { dir = await mkdtemp(path.join(tmpdir(), "mcpwasm-stdio-")); });
  after(async () => { await rm(dir, { recursive: true, force: true }); });

  test("server-filesystem: tools work, stderr is surfaced, close ends the child", async () => {
    await writeFile(path.join(dir, "hello.txt"), "hello from the disk");
    const stderr = [];
    const c = new Client({ name: "stdio-test", version: "1.0.0" });
    const info = await connectStdio(c, { command: process.execPath, args: [FS, dir], onStderr: (line) => stderr.push(line) });
    assert.equal(info.era, "legacy");
    assert.equal(info.serverInfo.name, "secure-filesystem-server");
    assert.ok(alive(info.port.pid));
    assert.equal(text(await c.callTool({ name: "read_text_file", arguments: { path: path.join(dir, "hello.txt") } })), "hello from the disk");
    const w = await c.callTool({ name: "write_file", arguments: { path: path.join(dir, "new.txt"), content: "written" } });
    assert.ok(!w.isError, text(w));
    assert.equal(await readFile(path.join(dir, "new.txt"), "utf8"), "written");
    const outside = await c.callTool({ name: "read_text_file", arguments: { path: "/etc/passwd" } });
    assert.equal(outside.isError, true);
    assert.ok(stderr.some((l) => /Secure MCP Filesystem Server running on stdio/.test(l)), stderr.join("\n"));
    await c.close();
    const exit = await info.port.exited;
    assert.deepEqual(exit, { code: 0, signal: null }, "it exited by itself once its stdin closed");
    assert.equal(alive(info.port.pid), false, "no orphan process");
  });

  test("server-memory: env reaches the server", async () => {
    const file = path.join(dir, "memory.jsonl");
    const c = new Client({ name: "stdio-test", version: "1.0.0" });
    const info = await connectStdio(c, { command: process.execPath, args: [MEMORY], env: { MEMORY_FILE_PATH: file } });
    await c.callTool({ name: "create_entities", arguments: { entities: [{ name: "Ada", entityType: "person", observations: ["wrote the first program"] }] } });
    const graph = JSON.parse(text(await c.callTool({ name: "read_graph", arguments: {} })));
    assert.deepEqual(graph.entities.map((e) => e.name), ["Ada"]);
    await c.close();
    await info.port.exited;
    assert.match(await readFile(file, "utf8"), /wrote the first program/);
  });

  test("a malformed line is a warning, not the end (a fault wrapper around server-memory)", async () => {
    // our own fault: one line of garbage before the real server's output
    const wrapper = `process.stdout.write("this is not json\\n");
      const { spawn } = require("node:child_process");
      const child = spawn(process.execPath, [${JSON.stringify(MEMORY)}], { stdio: ["pipe", "inherit", "inherit"], env: { ...process.env, MEMORY_FILE_PATH: ${JSON.stringify(path.join(dir, "m2.jsonl"))} } });
      process.stdin.pipe(child.stdin);
      child.on("exit", (code) => process.exit(code ?? 0));`;
    const warnings = [];
    const c = new Client({ name: "stdio-test", version: "1.0.0" }, { onWarning: (m) => warnings.push(m) });
    const info = await connectStdio(c, { command: process.execPath, args: ["-e", wrapper] });
    const { tools } = await c.listTools();
    assert.ok(tools.some((t) => t.name === "read_graph"));
    await waitFor(() => warnings.length > 0, 5000, "a warning");
    assert.match(warnings[0], /malformed message from the port.*this is not json/);
    await c.close();
    await info.port.exited;
  });

  test("a server that exits ends the session with its status and stderr", async () => {
    const c = new Client({ name: "stdio-test", version: "1.0.0" });
    const script = `process.stdin.once("data", () => { process.stderr.write("cannot open the database\\n"); process.exit(3); });`;
    await assert.rejects(connectStdio(c, { command: process.execPath, args: ["-e", script] }),
      (e) => e instanceof McpError && ["closed", "transport"].includes(e.kind) && /status 3/.test(e.message) && /cannot open the database/.test(e.message));
    const c2 = new Client({ name: "stdio-test", version: "1.0.0" });
    await assert.rejects(connectStdio(c2, { command: "/nonexistent/mcp-server" }), (e) => e instanceof McpError && /could not start/.test(e.message));
  });
});

describe("stdioPort", () => {
  test("lines in, lines out; a too-long line is dropped and reported; stderr by line", async () => {
    const script = `
      process.stdout.write('{"a":1}\\n' + "x".repeat(300) + "\\n" + '{"b":"é"}\\r\\n\\n');
      process.stderr.write("one\\ntwo\\n");
      process.stdin.on("data", (d) => process.stdout.write(JSON.stringify({ echo: String(d) }) + "\\n"));
    `;
    const stderr = [];
    const port = stdioPort({ command: process.execPath, args: ["-e", script], maxMessageSize: 100, onStderr: (l) => stderr.push(l) });
    const got = [];
    let ended;
    port.start((m) => got.push(m), (e) => { ended = e ?? "orderly"; });
    await waitFor(() => got.length >= 3 && stderr.length >= 2, 5000, "the lines");
    assert.deepEqual(got, ['{"a":1}', "mcpwasm: a line of 300 bytes from the server was dropped (maxMessageSize 100)", '{"b":"é"}']);
    assert.deepEqual(stderr, ["one", "two"]);
    port.send('{"jsonrpc":"2.0","method":"x"}');
    await waitFor(() => got.length === 4, 5000, "the echo");
    assert.deepEqual(JSON.parse(got[3]), { echo: '{"jsonrpc":"2.0","method":"x"}\n' });
    port.close();
    assert.deepEqual(await port.exited, { code: 0, signal: null });
    assert.equal(ended, undefined, "no onEnd after close");
    assert.throws(() => port.send("{}"), /closed/);
  });

  test("close escalates: SIGTERM, then SIGKILL for a server that ignores both", async () => {
    const script = `process.on("SIGTERM", () => {}); process.stdin.resume(); process.stdin.on("end", () => {}); process.stdout.write("ready\\n"); setInterval(() => {}, 1000);`;
    const port = stdioPort({ command: process.execPath, args: ["-e", script], closeTimeout: 200 });
    const got = [];
    port.start((m) => got.push(m), () => {});
    await waitFor(() => got.length === 1, 5000, "ready");
    const started = Date.now();
    port.close();
    const exit = await port.exited;
    assert.deepEqual(exit, { code: null, signal: "SIGKILL" });
    assert.ok(Date.now() - started >= 400, "after stdin closed and SIGTERM");
    assert.equal(alive(port.pid), false);
  });

  test("close ends the processes the server started too (its process group)", { skip: process.platform === "win32" && "no process groups" }, async (t) => {
    // our own fault: a wrapper that starts a child of its own (holding none
    // of the pipes, never reading its input) and ignores the end of its input
    const tmp = await mkdtemp(path.join(tmpdir(), "mcpwasm-group-"));
    t.after(() => rm(tmp, { recursive: true, force: true }));
    const pidfile = path.join(tmp, "grandchild.pid");
    const grandchild = `require("node:fs").writeFileSync(${JSON.stringify(pidfile)}, String(process.pid)); setTimeout(() => {}, 120000);`;
    const script = `require("node:child_process").spawn(process.execPath, ["-e", ${JSON.stringify(grandchild)}], { stdio: "ignore" });
      process.stdin.resume(); process.stdin.on("end", () => {}); process.stdout.write("ready\\n");`;
    const port = stdioPort({ command: process.execPath, args: ["-e", script], closeTimeout: 200 });
    const got = [];
    port.start((m) => got.push(m), () => {});
    await waitFor(() => got.length === 1, 5000, "ready");
    let pid;
    await waitFor(() => {
      try {
        pid = Number(readFileSync(pidfile, "utf8"));
      } catch {
        return false;
      }
      return pid > 0;
    }, 5000, "the grandchild's pid");
    assert.equal(ended(pid), false, "the server's child runs");
    port.close();
    assert.deepEqual(await port.exited, { code: null, signal: "SIGTERM" });
    // not ours to wait for: its end is seen when it happens
    await waitFor(() => ended(pid), 5000, "the server's child to end with it");
  });
});

describe("McpManager of mcpwasm/node: stdio next to HTTP", () => {
  let ts, dir;
  before(async () => {
    ts = await startPeer("ts");
    dir = await mkdtemp(path.join(tmpdir(), "mcpwasm-manager-"));
    await writeFile(path.join(dir, "hello.txt"), "hi");
  });
  after(async () => {
    await ts?.stop();
    await rm(dir, { recursive: true, force: true });
  });

  test("one aggregate; a killed child is restarted; close ends every child", async () => {
    const stderr = [];
    const m = new McpManager({ mcpServers: {
      fs: { command: process.execPath, args: [FS, dir] },
      memory: { command: process.execPath, args: [MEMORY], env: { MEMORY_FILE_PATH: path.join(dir, "memory.jsonl") } },
      ts: { url: ts.url, allowTools: ["echo"] },
    } }, {
      onStderr: (line, { server }) => stderr.push(`${server}: ${line}`),
      reconnect: { delay: 50, maxDelay: 200, attempts: 20 },
    });
    try {
      const states = await m.connect();
      assert.deepEqual(states.map((s) => [s.name, s.status]), [["fs", "connected"], ["memory", "connected"], ["ts", "connected"]]);
      const names = m.tools().map((t) => t.name);
      assert.ok(names.includes("fs__read_text_file") && names.includes("memory__read_graph") && names.includes("ts__echo"), names.join());
      assert.equal(text(await m.callTool({ name: "fs__read_text_file", arguments: { path: path.join(dir, "hello.txt") } })), "hi");
      assert.equal(text(await m.callTool({ name: "ts__echo", arguments: { text: "http" } })), "http");
      assert.ok(stderr.some((l) => l.startsWith("fs: Secure MCP Filesystem Server")), stderr.join("\n"));

      // kill the memory server's process from outside
      const first = m.server("memory").pid;
      const fsPid = m.server("fs").pid;
      assert.ok(alive(first) && alive(fsPid), "the state carries the child's pid");
      process.kill(first, "SIGKILL");
      await waitFor(() => m.server("memory").status === "reconnecting", 10000, "memory reconnecting");
      assert.match(m.server("memory").error.message, /signal SIGKILL/);
      assert.equal(m.server("memory").pid, undefined);
      assert.equal(text(await m.callTool({ name: "ts__echo", arguments: { text: "still" } })), "still", "the others keep working");
      await waitFor(() => m.server("memory").status === "connected", 15000, "memory connected again");
      assert.ok(!(await m.callTool({ name: "memory__read_graph", arguments: {} })).isError);
      const second = m.server("memory").pid;
      assert.ok(alive(second));
      assert.notEqual(second, first, "a new process");

      await m.close();
      assert.deepEqual([alive(fsPid), alive(second)], [false, false], "no orphan processes");
    } finally {
      await m.close();
    }
  });
});
