// The package's tests of its Node HTTP client (js/test/rawhttp.test.mjs,
// js/test/nodehttp.test.mjs), run in Deno, where the Node entry point (its
// "deno" export condition) sends plain http: requests over node:net as in
// Node and Bun: byte-by-byte answers, chunks, kept-alive and stale
// connections, refused heads, bodies over the limit or cut short,
// compressed answers, proxies and a replaced fetch, all through Deno's
// node:net, node:zlib and node:stream. Deno runs node:test files with
// `deno test`; this test passes when every one of theirs does.
import { test } from "node:test";
import assert from "node:assert/strict";
import { execFile } from "node:child_process";
import path from "node:path";
import { fileURLToPath } from "node:url";

const repo = path.resolve(path.dirname(fileURLToPath(import.meta.url)), "../..");
const deno = path.join(repo, "node_modules", ".bin", "deno");
const FILES = ["test/rawhttp.test.mjs", "test/nodehttp.test.mjs"];

test("Deno: the Node HTTP client's own tests (rawhttp, nodehttp) pass over Deno's node:net", async () => {
  const { code, out } = await new Promise((resolve) => {
    execFile(deno, ["test", "--allow-all", "--quiet", "--no-check", ...FILES], {
      cwd: path.join(repo, "js"),
      timeout: 300000,
      maxBuffer: 16 << 20,
      env: { ...process.env, NO_COLOR: "1", DENO_NO_UPDATE_CHECK: "1" },
    }, (err, stdout, stderr) => resolve({ code: err ? (err.code ?? err.signal) : 0, out: `${stdout}\n${stderr}` }));
  });
  const summary = /(ok|FAILED) \| (\d+) passed(?: \((\d+) steps?\))? \| (\d+) failed/.exec(out);
  assert.ok(summary, `no summary line from deno test:\n${out.slice(-4000)}`);
  assert.equal(code, 0, `deno test failed:\n${out.slice(-8000)}`);
  assert.equal(Number(summary[4]), 0, out.slice(-8000));
  // Every test of both files ran (none filtered out or skipped by the runtime).
  assert.ok(Number(summary[2]) >= 20, `only ${summary[2]} tests ran:\n${out.slice(-4000)}`);
});
