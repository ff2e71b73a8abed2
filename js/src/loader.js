// Loading the WebAssembly module: once per realm, retryable after failure.
import { createHost } from "./host.js";
import { createLane } from "./lane.js";

const ABI = "mcpwasm-abi-2";
const INIT_OPTIONS = ["wasmURL", "wasmModule", "bytes", "response"];

let api = null; // the module's API object once ready
let pending = null; // the init in progress

export function checkOptions(options, allowed, where) {
  if (options === undefined || options === null) return {};
  if (typeof options !== "object") throw new TypeError(`${where}: options must be an object`);
  for (const key of Object.keys(options)) {
    if (!allowed.includes(key)) {
      throw new TypeError(`${where}: unknown option "${key}" (known: ${allowed.join(", ")})`);
    }
  }
  return options;
}

/**
 * init loads and starts the WebAssembly module. Call it once before making
 * clients; later calls return at once. It can be retried after a failure.
 *
 * Options (all optional, at most one source):
 *  - wasmURL: where to fetch mcpwasm.wasm (default: next to this package);
 *  - wasmModule: a precompiled WebAssembly.Module (Workers-style runtimes);
 *  - bytes: the module's bytes (ArrayBuffer or typed array);
 *  - response: a Response (or a Promise of one) for streaming compilation.
 */
export async function init(options) {
  const opts = checkOptions(options, INIT_OPTIONS, "init");
  if (api) return;
  if (!pending) {
    pending = start(opts).then(
      (a) => {
        api = a;
        pending = null;
      },
      (err) => {
        pending = null;
        throw err;
      },
    );
  }
  return pending;
}

/**
 * moduleStats reports the WebAssembly instance's bookkeeping: clients,
 * subscriptions and calls in flight, Go goroutines and Go heap bytes. For
 * leak checks and benchmarks.
 */
export function moduleStats() {
  return JSON.parse(bridge().stats());
}

/** bridge returns the module's API object; it throws before init. */
export function bridge() {
  if (!api) throw new Error("mcpwasm: call `await init()` before using the client");
  return api;
}

async function start(opts) {
  if (typeof globalThis.Go !== "function") {
    await import("../dist/wasm_exec.js");
  }
  const module = await compile(opts);
  const go = new globalThis.Go();
  unrefTimers(go);
  const lane = createLane(go);
  go.importObject.mcpwasm = lane.imports;
  const instance = await WebAssembly.instantiate(module, go.importObject);
  let registered;
  const ready = new Promise((resolve, reject) => {
    registered = resolve;
    globalThis.__mcpwasmRegister = resolve;
    // If the module exits before registering, init fails.
    go.run(instance).then(
      () => reject(new Error("mcpwasm: the module exited during start-up")),
      reject,
    );
  });
  try {
    const a = await ready;
    if (a.version !== ABI) throw new Error(`mcpwasm: module version ${a.version}, package expects ${ABI}`);
    const host = createHost(lane);
    lane.bind(instance.exports, host);
    a.setHost(host);
    a.lane = lane;
    return a;
  } finally {
    if (globalThis.__mcpwasmRegister === registered) delete globalThis.__mcpwasmRegister;
  }
}

// unrefTimers keeps the Go runtime's timers (request timeouts, retry
// delays) from holding a Node process open: Go arms a JavaScript timeout
// for its next timer and leaves it armed when the timer stops, so a script
// that closed every client would otherwise wait for a timeout it no longer
// needs. Pending requests keep the process alive through their fetches.
function unrefTimers(go) {
  const gojs = go.importObject?.gojs;
  const schedule = gojs?.["runtime.scheduleTimeoutEvent"];
  if (typeof schedule !== "function") return;
  gojs["runtime.scheduleTimeoutEvent"] = (sp) => {
    schedule(sp);
    const id = go.mem.getInt32((sp >>> 0) + 16, true);
    go._scheduledTimeouts?.get(id)?.unref?.();
  };
}

function isNode() {
  return typeof process === "object" && process !== null && typeof process.versions?.node === "string" && typeof Deno === "undefined";
}

async function compile(opts) {
  if (opts.wasmModule !== undefined) {
    if (!(opts.wasmModule instanceof WebAssembly.Module)) throw new TypeError("init: wasmModule must be a WebAssembly.Module");
    return opts.wasmModule;
  }
  if (opts.bytes !== undefined) return WebAssembly.compile(opts.bytes);
  if (opts.response !== undefined) return compileResponse(await opts.response);
  const url = opts.wasmURL !== undefined ? new URL(String(opts.wasmURL), import.meta.url) : new URL("../dist/mcpwasm.wasm", import.meta.url);
  if (url.protocol === "file:" && isNode()) {
    // Node and Bun: read the file (fetch has no file: URLs there).
    const { readFile } = await import("node:fs/promises");
    return WebAssembly.compile(await readFile(url));
  }
  return compileResponse(await fetch(url));
}

async function compileResponse(response) {
  if (!response.ok) throw new Error(`mcpwasm: fetching the module failed: HTTP ${response.status}`);
  if (typeof WebAssembly.compileStreaming === "function" && (response.headers.get("content-type") || "").startsWith("application/wasm")) {
    try {
      return await WebAssembly.compileStreaming(response.clone());
    } catch {
      // fall back below (for example a proxy that rewrote the type)
    }
  }
  return WebAssembly.compile(await response.arrayBuffer());
}
