// The TypeScript declarations compile in strict mode against a usage file.
import { test } from "node:test";
import assert from "node:assert/strict";
import { execFileSync } from "node:child_process";
import path from "node:path";
import { repo } from "./helpers.mjs";

test("index.d.ts type-checks a realistic usage file (tsc --strict --noEmit)", () => {
  const tsc = path.join(repo, "node_modules/typescript/bin/tsc");
  try {
    execFileSync(process.execPath, [tsc, "-p", path.join(repo, "js/test/types/tsconfig.json")], { encoding: "utf8", stdio: "pipe" });
  } catch (e) {
    assert.fail(`tsc failed:\n${e.stdout}${e.stderr}`);
  }
});
