// Test helpers: real MCP servers as child processes, and the package.
import { spawn } from "node:child_process";
import { fileURLToPath } from "node:url";
import path from "node:path";

export const repo = path.resolve(path.dirname(fileURLToPath(import.meta.url)), "../..");

/**
 * startPeer starts a real MCP server and resolves with {url, stop}.
 * kind: "ts" (TypeScript SDK v2 server), "tasks" (TypeScript SDK v2 server
 * with the 2026-07-28 tasks extension), "everything" (server-everything),
 * "ws-bridge" (server-everything behind a WebSocket bridge), "go" (the
 * official Go SDK server, harness/demoserver; needs the MCPWASM_DEMOSERVE
 * binary that scripts/test.sh builds).
 */
export function startPeer(kind, args = []) {
  let cmd, argv;
  switch (kind) {
    case "ts":
      cmd = process.execPath;
      argv = [path.join(repo, "harness/testpeers/node/ts-server.mjs"), ...args];
      break;
    case "tasks":
      cmd = process.execPath;
      argv = [path.join(repo, "harness/testpeers/node/tasks-server.mjs"), ...args];
      break;
    case "everything":
      cmd = process.execPath;
      argv = [path.join(repo, "harness/testpeers/node/everything.mjs"), ...args];
      break;
    case "ws-bridge":
      cmd = process.execPath;
      argv = [path.join(repo, "harness/testpeers/node/ws-bridge.mjs"), ...args];
      break;
    case "go":
      cmd = process.env.MCPWASM_DEMOSERVE;
      if (!cmd) throw new Error("set MCPWASM_DEMOSERVE to a built harness/demoserver/demoserve binary (scripts/test.sh does)");
      argv = args;
      break;
    default:
      throw new Error(`unknown peer ${kind}`);
  }
  const child = spawn(cmd, argv, { stdio: ["pipe", "pipe", "pipe"] });
  let stderr = "";
  child.stderr.on("data", (d) => { stderr = (stderr + d).slice(-8192); });
  return new Promise((resolve, reject) => {
    let out = "";
    const timer = setTimeout(() => { child.kill(); reject(new Error(`${kind}: no LISTENING line in 30s\n${stderr}`)); }, 30000);
    child.on("exit", (code) => { clearTimeout(timer); reject(new Error(`${kind} exited (${code}) before listening\n${stderr}`)); });
    child.stdout.on("data", (d) => {
      out += d;
      const m = /LISTENING (\S+)/.exec(out);
      if (!m) return;
      clearTimeout(timer);
      child.removeAllListeners("exit");
      resolve({
        url: m[1],
        stderr: () => stderr,
        stop: () => new Promise((r) => {
          if (child.exitCode !== null) return r();
          child.on("exit", () => r());
          child.stdin.end();
          setTimeout(() => child.kill("SIGKILL"), 3000).unref();
        }),
      });
    });
  });
}

/** text joins the text content blocks of a tool result. */
export function text(result) {
  return (result.content || []).filter((c) => c.type === "text").map((c) => c.text).join("\n");
}

/** waitFor polls cond until it is true (or fails after ms). */
export async function waitFor(cond, ms = 5000, what = "condition") {
  const end = Date.now() + ms;
  for (;;) {
    if (await cond()) return;
    if (Date.now() > end) throw new Error(`timed out waiting for ${what}`);
    await new Promise((r) => setTimeout(r, 20));
  }
}

// modernServer starts a server of the test's own on 127.0.0.1, for faults
// real servers do not produce: a 2026-07-28 endpoint that answers
// server/discover (tools only) and hands every other message to
// handle(m, res, json), where json(result) answers m with that result.
// It resolves to { url, server }; close the server when done.
export async function modernServer(handle) {
  const http = await import("node:http");
  const server = http.createServer(async (req, res) => {
    let body = "";
    for await (const c of req) body += c;
    const m = JSON.parse(body);
    const json = (result) => { res.setHeader("content-type", "application/json"); res.end(JSON.stringify({ jsonrpc: "2.0", id: m.id, result })); };
    if (m.method === "server/discover") return json({ resultType: "complete", supportedVersions: ["2026-07-28"], capabilities: { tools: {} }, ttlMs: 0, cacheScope: "public" });
    return handle(m, res, json);
  });
  await new Promise((r) => server.listen(0, "127.0.0.1", r));
  return { url: `http://127.0.0.1:${server.address().port}/mcp`, server };
}
