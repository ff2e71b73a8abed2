// mcpwasm for Node, Bun and Deno (the "node", "bun" and "deno" export
// conditions): the browser entry point, with init() reading mcpwasm.wasm
// from disk by default and HTTP requests made with Node's modules where
// they behave as with fetch (nodehttp.js: in Node http: and https:, in Bun
// and Deno http: only, their https: staying with their fetch).
import * as buffer from "node:buffer";
import { readFile } from "node:fs/promises";
import { decodeUTF8 } from "./lane.js";
import { initWith } from "./loader.js";
import { createNodeHTTP } from "./nodehttp.js";

export * from "./index.js";

/** init loads and starts the module; by default it reads mcpwasm.wasm next to the package (see index.d.ts). */
export const init = initWith({
  readFile,
  nodeHTTP: createNodeHTTP(globalThis.Deno ? "deno" : globalThis.process?.versions?.bun ? "bun" : "node"),
  decodeString: typeof buffer.isAscii === "function" ? decodeString : undefined,
  holdLoop,
});

/**
 * holdLoop keeps Node's event loop busy (a timer that keeps it alive) until
 * the function it returns is called: loader.js holds it for init() and
 * client.js for each connect(). Whenever the loop has nothing left that
 * keeps it alive, Node waits, on the main thread, until every task V8 runs
 * in the background is done (its SpinEventLoop drains the platform's tasks
 * when uv_run returns). In a fresh process those tasks are the WebAssembly
 * module's validation and the optimised compiles of its hot functions, and
 * a start-up step hits that point between its steps (an awaited compile, a
 * socket Node opens on the next tick): in Node 20, init() lost ≈ 15 ms so
 * and the first socket of connect() 13–39 ms (docs/architecture.md,
 * "Start-up in Node"). Held, the loop goes on while those tasks run beside
 * it. The steps held end by themselves (connect has its own timeouts), and
 * the release runs on every way out, so a script still ends when its work
 * ends.
 */
function holdLoop() {
  const timer = setInterval(() => {}, 2 ** 31 - 1);
  return () => clearInterval(timer);
}

/**
 * decodeString turns a long string's UTF-8 bytes into a string: those of
 * an ASCII string (most multi-megabyte tool results) as Latin-1, the same
 * characters, which Node makes 2.5–6× faster than TextDecoder makes UTF-8
 * (docs/architecture.md, "Long strings"); any other with the lane's
 * default decoder.
 */
function decodeString(bytes) {
  if (buffer.isAscii(bytes)) return buffer.Buffer.from(bytes.buffer, bytes.byteOffset, bytes.length).toString("latin1");
  return decodeUTF8(bytes);
}
