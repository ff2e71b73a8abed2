// The Go runtime's timers on the JavaScript side (js/src/loader.js goTimers):
// a call's timeout still fires, and a Node script that closed its clients
// exits without waiting for a timeout Go no longer needs.
import { test } from "node:test";
import assert from "node:assert/strict";
import { spawn } from "node:child_process";
import { fileURLToPath } from "node:url";
import { init, Client, McpError } from "../src/index.node.js";
import { modernServer } from "./helpers.mjs";

await init();

// A modern server whose tool "slow" never answers (until the test ends).
async function server() {
  const held = [];
  const { url, server: srv } = await modernServer((m, res, json) => {
    if (m.method === "tools/list") return json({ resultType: "complete", tools: [{ name: "slow", inputSchema: { type: "object" } }, { name: "fast", inputSchema: { type: "object" } }] });
    if (m.params?.name === "fast") return json({ resultType: "complete", content: [{ type: "text", text: "fast" }] });
    held.push(res);
  });
  return {
    url,
    close() { for (const r of held) r.destroy(); srv.close(); },
  };
}

test("call timeouts fire, each at its own time, while other calls come and go", async () => {
  const s = await server();
  const c = new Client({ name: "mcpwasm-js-test", version: "1.0.0" }, { cache: false });
  try {
    await c.connect(s.url);
    const started = performance.now();
    const settled = (p) => p.then(() => { throw new Error("answered"); }, (e) => ({ e, ms: performance.now() - started }));
    const fast = async () => {
      for (let i = 0; i < 10; i++) assert.equal((await c.callTool({ name: "fast" })).content[0].text, "fast");
    };
    // The long timeout is armed first, and Go goes idle (the fast calls)
    // before the shorter one is armed: the timer must move earlier.
    const long = settled(c.callTool({ name: "slow" }, { timeout: 900 }));
    let longSettled = false;
    long.then(() => { longSettled = true; });
    await fast();
    const short = settled(c.callTool({ name: "slow" }, { timeout: 300 }));
    await fast();
    const a = await short;
    await new Promise((r) => setTimeout(r, 50));
    assert.equal(longSettled, false, "the 900 ms call is still waiting 50 ms after the 300 ms one timed out");
    const b = await long;
    for (const [r, ms] of [[a, 300], [b, 900]]) {
      assert.ok(r.e instanceof McpError && r.e.kind === "timeout", `a timeout error, got ${r.e}`);
      assert.ok(r.ms >= ms, `the ${ms} ms timeout fired after ${r.ms.toFixed(0)} ms`);
    }
    assert.ok(a.ms < b.ms, "the shorter timeout fired first");
  } finally {
    await c.close();
    s.close();
  }
});

test("a Node script that closed its client exits at once, though Go's timeout for the call is still armed", async () => {
  const s = await server();
  const script = `
    const { init, Client } = await import(${JSON.stringify(new URL("../src/index.node.js", import.meta.url).href)});
    await init();
    const c = new Client({ name: "t", version: "1" });
    await c.connect(${JSON.stringify(s.url)});
    await c.callTool({ name: "fast" }, { timeout: 600000 });
    await c.close();
    console.log("closed");
  `;
  try {
    const child = spawn(process.execPath, ["--input-type=module", "-e", script], { stdio: ["ignore", "pipe", "inherit"], cwd: fileURLToPath(new URL(".", import.meta.url)) });
    let out = "";
    child.stdout.on("data", (d) => { out += d; });
    const killer = setTimeout(() => child.kill("SIGKILL"), 20000);
    const [code, signal] = await new Promise((r) => child.on("exit", (code, signal) => r([code, signal])));
    clearTimeout(killer);
    assert.equal(out.trim(), "closed");
    assert.equal(signal, null, "the script exited by itself (it was killed after 20 s)");
    assert.equal(code, 0);
  } finally {
    s.close();
  }
});
