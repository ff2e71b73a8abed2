// mcpwasm for Cloudflare Workers (the "workerd" export condition, which
// wrangler uses): the browser entry point, with init() starting the .wasm
// imported as a precompiled WebAssembly.Module, since Workers forbid
// compiling WebAssembly at run time. Call init() inside the fetch handler:
// Workers allow the random numbers the Go runtime needs at start only while
// handling a request.
import wasmModule from "../dist/mcpwasm.wasm";
import { initWith } from "./loader.js";

export * from "./index.js";

/** init loads and starts the module; by default the imported mcpwasm.wasm (see index.d.ts). */
export const init = initWith({ module: wasmModule });
