// init: retryable after failure, idempotent, and every module source.
import { test } from "node:test";
import assert from "node:assert/strict";
import { readFile } from "node:fs/promises";
import { init, Client } from "../src/index.node.js";

const wasmURL = new URL("../dist/mcpwasm.wasm", import.meta.url);

test("a client before init fails clearly", () => {
  assert.throws(() => new Client({ name: "x", version: "1" }), /call `await init\(\)`/);
});

test("init rejects bad bytes, rejects unknown options, then succeeds when retried", async () => {
  await assert.rejects(init({ bytes: new Uint8Array([0, 1, 2, 3]) }), WebAssembly.CompileError);
  await assert.rejects(init({ wasmUrl: "typo" }), /unknown option "wasmUrl"/);
  await assert.rejects(init({ wasmModule: "not a module" }), /WebAssembly.Module/);
  const bytes = await readFile(wasmURL);
  const module = await WebAssembly.compile(bytes);
  await Promise.all([init({ wasmModule: module }), init({ wasmModule: module })]);
  await init(); // idempotent
  const c = new Client({ name: "x", version: "1" });
  assert.equal(c.era, undefined, "not connected yet");
});
