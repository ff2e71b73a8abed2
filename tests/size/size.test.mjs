// The size gate of `make size` (scripts/size.sh) as a test of `make test`:
// every WebAssembly module within its gzip budget, and neither module's own
// code calling encoding/json, fmt or net/url (a call that slips in — say a
// native-only helper made reachable from a function the hosts link —
// costs tens of kilobytes). Sizes are deterministic for a toolchain, so
// this gate is fair; timings are never gated.
import { test } from "node:test";
import assert from "node:assert/strict";
import { spawnSync } from "node:child_process";
import { fileURLToPath } from "node:url";

const repo = fileURLToPath(new URL("../..", import.meta.url));

test("make size: every module within its budget, no encoding/json, fmt or net/url of its own", () => {
  const r = spawnSync("bash", ["scripts/size.sh"], { cwd: repo, encoding: "utf8", timeout: 10 * 60 * 1000 });
  const out = `${r.stdout}${r.stderr}`;
  assert.equal(r.error, undefined, `scripts/size.sh did not run: ${r.error}`);
  assert.equal(r.status, 0, `scripts/size.sh failed:\n${out}`);
  assert.match(out, /size: every module is within its budget/);
  for (const line of out.split("\n").filter((l) => /budget|within|not linked|not imported/.test(l))) console.log(line.trim());
});
