// Loading the WebAssembly module: once per realm, retryable after failure.
import { createHost } from "./host.js";
import { createLane } from "./lane.js";

const ABI = "mcpwasm-abi-3";
const INIT_OPTIONS = ["wasmURL", "wasmModule", "bytes", "response"];

let api = null; // the module's API object once ready
let pending = null; // the init in progress
let deferred = null; // starts an instantiated module at first use (Workers, see start)

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
export function init(options) {
  return initFrom(options, {});
}

/**
 * initWith returns an init function whose default source (when the caller
 * names none) is defaults.module (a WebAssembly.Module: the workerd entry
 * point imports the .wasm as one) or the file next to the package read
 * with defaults.readFile (the Node entry point). defaults.nodeHTTP is the
 * Node entry point's HTTP client (nodehttp.js) the fetch helper uses where
 * it applies, defaults.decodeString its decoder of long strings (see
 * createLane), and defaults.holdLoop keeps Node's event loop busy for the
 * time of a start-up step (init, and each client's connect) and returns
 * its release: see holdLoop in index.node.js. The browser entry point uses
 * none of them, so it imports nothing Node-specific.
 */
export function initWith(defaults) {
  return (options) => initFrom(options, defaults);
}

async function initFrom(options, defaults) {
  const opts = checkOptions(options, INIT_OPTIONS, "init");
  const sources = INIT_OPTIONS.filter((k) => opts[k] !== undefined);
  if (sources.length > 1) throw new TypeError(`init: give one module source, not ${sources.join(" and ")}`);
  if (api || deferred) return;
  if (!pending) {
    const release = defaults.holdLoop?.();
    pending = start(opts, defaults).then(
      (a) => {
        release?.();
        if (a.deferred) deferred = a.deferred;
        else api = a;
        pending = null;
      },
      (err) => {
        release?.();
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
  if (!api && deferred) {
    const boot = deferred;
    deferred = null;
    api = boot();
  }
  if (!api) throw new Error("mcpwasm: call `await init()` before using the client");
  return api;
}

async function start(opts, defaults) {
  if (typeof globalThis.Go !== "function") {
    await import("../dist/wasm_exec.js");
  }
  const module = await compile(opts, defaults);
  const go = new globalThis.Go();
  // GC settings of the instance, read by the Go runtime at start-up: the
  // live heap of a client is small (a few MB) and every collection runs on
  // the page's only thread, so collecting at every doubling of it spends CPU
  // on each call; collecting at 4x (GOGC 300) with a soft limit keeps the
  // collections rare and the instance's memory (which WebAssembly never
  // gives back) bounded. See docs/architecture.md.
  go.env = { GOGC: "300", GOMEMLIMIT: "64MiB" };
  const rearm = goTimers(go, isWorkers());
  const lane = createLane(go, defaults.decodeString);
  go.importObject.mcpwasm = lane.imports;
  lane.beforeResume(rearm);
  const instance = await WebAssembly.instantiate(module, go.importObject);
  if (!randomAllowed()) {
    // Cloudflare Workers allow random numbers (which the Go runtime needs
    // to start) only while handling a request: an init() at module scope
    // gets this far, and the module starts at the first client, inside a
    // request. Go runs main up to its registration synchronously.
    return { deferred: () => withRearm(bootNow(go, instance, lane, defaults), rearm) };
  }
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
    const a = await ready.catch((e) => { throw explainStartError(e); });
    if (a.version !== ABI) throw new Error(`mcpwasm: module version ${a.version}, package expects ${ABI}`);
    attachLane(a, instance, lane, defaults);
    return withRearm(a, rearm);
  } finally {
    if (globalThis.__mcpwasmRegister === registered) delete globalThis.__mcpwasmRegister;
  }
}

function randomAllowed() {
  try {
    globalThis.crypto.getRandomValues(new Uint8Array(1));
    return true;
  } catch {
    return false;
  }
}

// attachLane connects the module's fast lane (lane.js) and its fetch helper
// (host.js) to the API object a, with the entry point's defaults (see
// initWith): its HTTP client (nodehttp.js) for the helper, and holdLoop for
// the clients' connect.
function attachLane(a, instance, lane, defaults) {
  const host = createHost(lane, defaults.nodeHTTP);
  lane.bind(instance.exports, host);
  a.setHost(host);
  a.lane = lane;
  a.holdLoop = defaults.holdLoop;
}

// bootNow starts an instantiated module and returns its API object at once.
function bootNow(go, instance, lane, defaults) {
  let a;
  const register = (x) => { a = x; };
  globalThis.__mcpwasmRegister = register;
  let failure;
  go.run(instance).catch((e) => { failure = e; });
  if (globalThis.__mcpwasmRegister === register) delete globalThis.__mcpwasmRegister;
  if (!a) throw explainStartError(failure ?? new Error("mcpwasm: the module did not start"));
  if (a.version !== ABI) throw new Error(`mcpwasm: module version ${a.version}, package expects ${ABI}`);
  attachLane(a, instance, lane, defaults);
  return a;
}

function isWorkers() {
  return globalThis.navigator?.userAgent === "Cloudflare-Workers";
}

// goTimers runs the Go runtime's timeouts on one JavaScript timer, and
// returns rearm (Workers) or null.
//
// Go keeps one timeout armed for its next timer (a call's timeout, a retry
// delay). It clears it whenever it is resumed without a JavaScript event
// (every call the lane starts and every answer it delivers) and arms it
// again, for the same time, when it goes idle. wasm_exec.js turned each of
// those into a clearTimeout and a setTimeout: a timer object and a timer
// list insertion per resume, ≈ 10 µs of every call while any call is in
// flight. Here a clear only forgets the id, and an arm for a time no
// earlier than the armed timer's only records it; the one timer resumes Go
// for the timeouts that are due when it fires, as wasm_exec.js's did, and
// is armed again for the next.
//
// In Node the timer is unref'd: Go leaves its timeout armed when its timer
// stops, so a script that closed every client would otherwise wait for a
// timeout it no longer needs (pending requests keep the process alive
// through their fetches). Workers drop a request's timeouts when it ends,
// so a timeout armed while handling one request never fires, and a later
// request that needs a Go timer (a timeout, a backoff, a close handshake's
// bound) would hang: rearm arms the timer again from the current request;
// the API functions and the lane call it first.
function goTimers(go, workers) {
  const gojs = go.importObject?.gojs;
  if (typeof gojs?.["runtime.scheduleTimeoutEvent"] !== "function" || typeof gojs["runtime.clearTimeoutEvent"] !== "function" ||
    typeof go._nextCallbackTimeoutID !== "number") {
    return null; // another wasm_exec.js: keep its timers
  }
  const due = new Map(); // Go's timeout id → when it is due (Date.now() clock)
  let timer = null; // the armed JavaScript timer, or null
  let timerAt = Infinity; // when it fires
  const arm = (at) => {
    if (timer !== null) {
      try { clearTimeout(timer); } catch { /* a timer of an ended request */ }
    }
    timerAt = at;
    timer = setTimeout(fire, Math.max(0, at - Date.now()));
    if (!workers) timer?.unref?.();
  };
  const fire = () => {
    timer = null;
    timerAt = Infinity;
    const now = Date.now();
    for (const [id, at] of due) {
      if (at > now || go.exited) continue;
      // As wasm_exec.js does: resume until Go took the timeout (it clears
      // the id when it does).
      for (let i = 0; i < 8 && due.has(id) && !go.exited; i++) go._resume();
      due.delete(id);
    }
    armNext();
  };
  const armNext = () => {
    let next = Infinity;
    for (const at of due.values()) next = Math.min(next, at);
    if (next < Infinity) arm(next);
  };
  gojs["runtime.scheduleTimeoutEvent"] = (sp) => {
    sp >>>= 0;
    const id = go._nextCallbackTimeoutID++;
    const at = Date.now() + Number(go.mem.getBigInt64(sp + 8, true));
    due.set(id, at);
    if (at < timerAt) arm(at);
    go.mem.setInt32(sp + 16, id, true);
  };
  gojs["runtime.clearTimeoutEvent"] = (sp) => {
    due.delete(go.mem.getInt32((sp >>> 0) + 8, true));
  };
  if (!workers) return null;
  return () => {
    if (due.size === 0) return;
    timerAt = Infinity;
    armNext();
  };
}

// withRearm has every API function re-arm the Go timeouts first (Workers).
function withRearm(a, rearm) {
  if (!rearm) return a;
  for (const [name, f] of Object.entries(a)) {
    if (typeof f === "function") a[name] = (...args) => { rearm(); return f(...args); };
  }
  return a;
}

// Hints for the errors of runtimes with rules of their own, so a failed
// init says what to do instead of only what went wrong.
const WORKERS_MODULE_HINT = 'import the .wasm as a module and pass it: import wasmModule from "mcpwasm/mcpwasm.wasm"; await init({ wasmModule }) ' +
  '(wrangler does this by itself when it bundles mcpwasm with the "workerd" condition)';

function explainStartError(e) {
  const msg = String(e?.message ?? e);
  if (/handling a request|request context|outside of a request|within global scope/i.test(msg)) {
    return new Error(`mcpwasm: the module could not start here: ${msg}. Cloudflare Workers allow random numbers and timers only while handling a request: call await init() inside your fetch handler, not at module scope.`, { cause: e });
  }
  return e;
}

async function compileBytes(bytes) {
  try {
    return await WebAssembly.compile(bytes);
  } catch (e) {
    if (/disallowed|code generation/i.test(String(e?.message))) {
      throw new Error(`mcpwasm: this runtime forbids compiling WebAssembly at run time (${e.message}): ${WORKERS_MODULE_HINT}.`, { cause: e });
    }
    throw e;
  }
}

function moduleURL(opts) {
  try {
    // The literal form lets bundlers (Vite, webpack, Rollup, Parcel) find
    // and emit the .wasm next to the code that loads it.
    return opts.wasmURL !== undefined ? new URL(String(opts.wasmURL), import.meta.url) : new URL("../dist/mcpwasm.wasm", import.meta.url);
  } catch (e) {
    const where = opts.wasmURL !== undefined ? `wasmURL ${JSON.stringify(String(opts.wasmURL))}` : "mcpwasm.wasm";
    const remedy = isWorkers() ? `In Cloudflare Workers, ${WORKERS_MODULE_HINT}` : `Pass an absolute init({ wasmURL }), or init({ bytes }), or ${WORKERS_MODULE_HINT}`;
    throw new Error(`mcpwasm: cannot locate ${where}: this runtime gives modules no URL (import.meta.url is ${JSON.stringify(import.meta.url)}). ${remedy}.`, { cause: e });
  }
}

async function compile(opts, defaults) {
  if (opts.wasmModule !== undefined) {
    if (!(opts.wasmModule instanceof WebAssembly.Module)) throw new TypeError("init: wasmModule must be a WebAssembly.Module");
    return opts.wasmModule;
  }
  if (opts.bytes !== undefined) return compileBytes(opts.bytes);
  if (opts.response !== undefined) return compileResponse(await opts.response, "the response");
  if (opts.wasmURL === undefined && defaults.module !== undefined) {
    if (!(defaults.module instanceof WebAssembly.Module)) {
      throw new TypeError(`mcpwasm: the imported mcpwasm.wasm is not a WebAssembly.Module (got ${typeof defaults.module}): configure your bundler to import .wasm files as compiled modules, or ${WORKERS_MODULE_HINT}`);
    }
    return defaults.module;
  }
  const url = moduleURL(opts);
  if (url.protocol === "file:") {
    // Node, Bun and Deno: read the file. The Node entry point passes its
    // readFile; the browser entry point asks the runtime for its fs module
    // without importing it, so bundlers see no Node-only import. Runtimes
    // without either fetch the file: URL (Deno and Bun can).
    const readFile = defaults.readFile ?? globalThis.process?.getBuiltinModule?.("node:fs/promises")?.readFile;
    if (typeof readFile === "function") return compileBytes(await readFile(url));
  }
  let response;
  try {
    response = await fetch(url);
  } catch (e) {
    const hint = url.protocol === "file:"
      ? 'this runtime cannot fetch file: URLs; import "mcpwasm" with the "node" condition (Node does by itself), or pass init({ bytes })'
      : "is it served, and from an origin this page may fetch?";
    throw new Error(`mcpwasm: fetching ${url.href} failed (${e?.message ?? e}): ${hint}`, { cause: e });
  }
  return compileResponse(response, url.href);
}

async function compileResponse(response, what) {
  if (!response.ok) {
    let hint = "";
    if (response.status === 404) {
      hint = ". If a bundler moved mcpwasm's code, it must also emit mcpwasm.wasm: Vite, webpack, Rollup and Parcel follow new URL(\"…wasm\", import.meta.url) by themselves; " +
        'with esbuild, import it with the file loader (import wasmURL from "mcpwasm/mcpwasm.wasm"; --loader:.wasm=file) and pass init({ wasmURL })';
    }
    throw new Error(`mcpwasm: fetching the module (${response.url || what}) failed: HTTP ${response.status}${hint}`);
  }
  if (typeof WebAssembly.compileStreaming === "function" && (response.headers.get("content-type") || "").startsWith("application/wasm")) {
    try {
      return await WebAssembly.compileStreaming(response.clone());
    } catch {
      // fall back below (for example a proxy that rewrote the type)
    }
  }
  return compileBytes(await response.arrayBuffer());
}
