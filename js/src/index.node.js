// mcpwasm for Node and Bun (the "node" and "bun" export conditions): the
// browser entry point, with init() reading mcpwasm.wasm from disk by
// default and, in Node, HTTP requests made with node:http where they
// behave as with fetch (nodehttp.js; Bun's node:http is made on its fetch,
// so Bun keeps fetch).
import * as buffer from "node:buffer";
import { readFile } from "node:fs/promises";
import { decodeUTF8 } from "./lane.js";
import { initWith } from "./loader.js";
import { createNodeHTTP } from "./nodehttp.js";

export * from "./index.js";

/** init loads and starts the module; by default it reads mcpwasm.wasm next to the package (see index.d.ts). */
export const init = initWith({
  readFile,
  nodeHTTP: globalThis.process?.versions?.bun ? undefined : createNodeHTTP(),
  decodeString: typeof buffer.isAscii === "function" ? decodeString : undefined,
});

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
