// mcpwasm for Node and Bun (the "node" and "bun" export conditions): the
// browser entry point, with init() reading mcpwasm.wasm from disk by
// default.
import { readFile } from "node:fs/promises";
import { initWith } from "./loader.js";

export * from "./index.js";

/** init loads and starts the module; by default it reads mcpwasm.wasm next to the package (see index.d.ts). */
export const init = initWith({ readFile });
