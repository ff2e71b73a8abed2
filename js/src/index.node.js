// mcpwasm for Node and Bun (the "node" and "bun" export conditions): the
// browser entry point, with init() reading mcpwasm.wasm from disk by
// default and, in Node, HTTP requests made with node:http where they
// behave as with fetch (nodehttp.js; Bun's node:http is made on its fetch,
// so Bun keeps fetch).
import { readFile } from "node:fs/promises";
import { initWith } from "./loader.js";
import { createNodeHTTP } from "./nodehttp.js";

export * from "./index.js";

/** init loads and starts the module; by default it reads mcpwasm.wasm next to the package (see index.d.ts). */
export const init = initWith({ readFile, nodeHTTP: globalThis.process?.versions?.bun ? undefined : createNodeHTTP() });
