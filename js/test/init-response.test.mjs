// init from a Response (streaming compilation), as a page would with fetch.
import { test } from "node:test";
import assert from "node:assert/strict";
import { readFile } from "node:fs/promises";
import { init, Client, moduleStats } from "../src/index.node.js";

test("init({ response }) compiles from a Response (or a Promise of one)", async () => {
  const bytes = await readFile(new URL("../dist/mcpwasm.wasm", import.meta.url));
  await init({ response: Promise.resolve(new Response(bytes, { headers: { "content-type": "application/wasm" } })) });
  const c = new Client({ name: "x", version: "1" });
  assert.equal(c.protocolVersion, undefined);
  const s = moduleStats();
  assert.equal(s.clients >= 1, true);
  assert.equal(typeof s.goroutines, "number");
});
