// The glue's side of the module's fast lane (see wasm/js/lane.go): requests
// go in and results come out as WebAssembly exports and imports that take
// numbers, with the bytes copied through the module's memory. No js.FuncOf
// callback and no JavaScript value crosses on this path.
//
// Exports are called only when Go is not running: work for the module is
// queued and run from a microtask (Go runs only inside calls into the
// instance, and microtasks never run inside one), followed by one
// go._resume() so the goroutines it woke run. Concurrent calls made in one
// turn share that resume. Imports never throw into Go.

import { ErrorCode, McpError, abortError, fromBridge } from "./errors.js";

const enc = new TextEncoder();
const dec = new TextDecoder();
const strDec = new TextDecoder("utf-8", { ignoreBOM: true }); // a string's bytes: a leading U+FEFF is part of it
/** decodeUTF8 is createLane's default decodeString: UTF-8, no BOM handling. */
export const decodeUTF8 = (bytes) => strDec.decode(bytes);

// readError is the rejection of a call whose result could not be read.
function readError(e) {
  return new McpError(ErrorCode.InternalError, `mcpwasm: reading the result: ${e?.message ?? e}`, undefined, { kind: "internal" });
}

function callbackError(where, err) {
  if (typeof console !== "undefined") console.error(`mcpwasm: ${where} callback threw`, err);
}

/**
 * createLane returns the lane of one Go instance: its imports, and the
 * request entry. decodeString, when given, turns a long string's UTF-8
 * bytes (a view of the module's memory) into a string, as the default
 * (TextDecoder, no BOM handling) does: the Node entry point passes a
 * faster one (index.node.js).
 */
export function createLane(go, decodeString = decodeUTF8) {
  let exports = null; // the instance's exports, once instantiated
  const calls = new Map(); // call number → {resolve, reject, signal, onAbort, onprogress}
  let nextCall = 0;
  let queue = [];
  let scheduled = false;
  let host = null; // the fetch helper (host.js)
  let rearm = null; // Workers: re-arms Go's timeouts from the current request (loader.js)

  function flush() {
    scheduled = false;
    const q = queue;
    queue = [];
    for (const f of q) {
      try {
        f();
      } catch (e) {
        callbackError("mcpwasm lane", e);
      }
    }
    if (go.exited) return;
    rearm?.();
    go._resume();
  }

  /** later runs f (which may call exports) when Go is not running. */
  function later(f) {
    queue.push(f);
    if (!scheduled) {
      scheduled = true;
      queueMicrotask(flush);
    }
  }

  // alloc asks the module for a buffer of n bytes and returns a view on it;
  // the next export takes it over.
  function alloc(n) {
    const ptr = exports.mcpwasm_alloc(n);
    return new Uint8Array(exports.mem.buffer, ptr, n);
  }

  function view(ptr, n) {
    return new Uint8Array(exports.mem.buffer, ptr, n);
  }

  // put writes s into v at off and returns the bytes written.
  function put(v, off, s) {
    return s.length === 0 ? 0 : enc.encodeInto(s, v.subarray(off)).written;
  }

  // room is an upper bound of the UTF-8 length of s; long strings are
  // measured exactly rather than over-allocated.
  function room(s) {
    return s.length < 65536 ? s.length * 3 : enc.encode(s).length;
  }

  function finish(call) {
    const c = calls.get(call);
    if (!c) return undefined;
    calls.delete(call);
    c.signal?.removeEventListener("abort", c.onAbort);
    return c;
  }

  const imports = {
    settle(call, ok, ptr, n) {
      const c = finish(call);
      if (!c) return;
      try {
        const text = n > 0 ? dec.decode(view(ptr, n)) : "";
        if (ok) {
          c.resolve(text ? JSON.parse(text) : undefined);
        } else if (c.signal?.aborted) {
          c.reject(abortError(c.signal.reason));
        } else {
          c.reject(fromBridge(text));
        }
      } catch (e) {
        c.reject(readError(e));
      }
    },
    // settleLong: a result with its long strings left out (see lane.go):
    // each is decoded from the module's memory and put back by its path.
    settleLong(call, base, ptr, skelLen, tabLen) {
      const c = finish(call);
      if (!c) return;
      try {
        let v = JSON.parse(dec.decode(view(ptr, skelLen)));
        for (const [start, n, path] of JSON.parse(dec.decode(view(ptr + skelLen, tabLen)))) {
          const s = decodeString(view(base + start, n));
          if (path.length === 0) {
            v = s;
            continue;
          }
          let o = v;
          for (let i = 0; i < path.length - 1; i++) o = o[path[i]];
          o[path[path.length - 1]] = s;
        }
        c.resolve(v);
      } catch (e) {
        c.reject(readError(e));
      }
    },
    progress(call, progress, total, hasTotal, ptr, n) {
      const c = calls.get(call);
      if (!c?.onprogress) return;
      let message;
      try {
        message = n > 0 ? dec.decode(view(ptr, n)) : undefined;
      } catch {
        message = undefined;
      }
      const p = { progress, total: hasTotal ? total : undefined, message };
      // User code never runs inside Go: it could call the client again.
      queueMicrotask(() => {
        try {
          c.onprogress(p);
        } catch (e) {
          callbackError("onprogress", e);
        }
      });
    },
    fetch(id, config, ptr, headLen, bodyLen, flags, maxBody) {
      try {
        const v = view(ptr, headLen + bodyLen);
        const head = dec.decode(v.subarray(0, headLen));
        const body = flags & 1 ? v.slice(headLen, headLen + bodyLen) : undefined;
        host.start(id, config, head, body, (flags & 2) !== 0, maxBody);
      } catch (e) {
        host.fail(id, e);
      }
    },
    abort(id) {
      try {
        host.abort(id);
      } catch (e) {
        callbackError("abort", e);
      }
    },
  };

  return {
    imports,
    /** bind attaches the instantiated module's exports and the fetch helper. */
    bind(instanceExports, fetchHost) {
      exports = instanceExports;
      host = fetchHost;
    },
    /** beforeResume sets a function to run before each resume of Go (or null). */
    beforeResume(f) {
      rearm = f;
    },
    /** pending is the number of calls in flight (for leak checks). */
    get pending() { return calls.size; },
    /**
     * request starts a call: method, the params and options JSON ("" for
     * none), signal and onprogress; resolves with the parsed result.
     */
    request(handle, method, paramsJSON, optsJSON, signal, onprogress) {
      return new Promise((resolve, reject) => {
        if (signal?.aborted) {
          reject(abortError(signal.reason));
          return;
        }
        const call = ++nextCall;
        const c = { resolve, reject, signal, onAbort: null, onprogress };
        calls.set(call, c);
        if (signal) {
          c.onAbort = () => later(() => exports.mcpwasm_cancel(call));
          signal.addEventListener("abort", c.onAbort, { once: true });
        }
        later(() => {
          try {
            const v = alloc(room(method) + room(paramsJSON) + room(optsJSON) || 1);
            const ml = put(v, 0, method);
            const pl = put(v, ml, paramsJSON);
            const ol = put(v, ml + pl, optsJSON);
            exports.mcpwasm_request(call, handle, ml, pl, ol, (onprogress ? 1 : 0) | (signal ? 2 : 0));
          } catch (e) {
            finish(call)?.reject(new McpError(ErrorCode.InternalError, `mcpwasm: ${e?.message ?? e}`, undefined, { kind: "internal", cause: e }));
          }
        });
      });
    },
    /** failExchange reports that HTTP exchange id failed with the thrown value e. */
    failExchange(id, e) {
      later(() => host.deliver(id, 5, e));
    },
    /**
     * deliver reports on HTTP exchange id to the module (see
     * internal/jsfetch.HostLink.Deliver): kind, status, the response type,
     * the header lines and the body: a Uint8Array, or the chunks of one
     * as {chunks, length, release?} (copied straight into the module's
     * buffer, so a big body is copied once and never joined in JavaScript;
     * release, when there, is called once the copy is made: rawhttp.js
     * then reuses the chunks' memory).
     */
    deliver(id, kind, status, type, lines, body) {
      later(() => {
        const bl = body ? (body.chunks ? body.length : body.byteLength) : 0;
        const v = alloc(room(type) + room(lines) + bl || 1);
        const tl = put(v, 0, type);
        const hl = put(v, tl, lines);
        if (body?.chunks) {
          let off = tl + hl;
          for (const c of body.chunks) {
            v.set(c, off);
            off += c.byteLength;
          }
        } else if (bl) {
          v.set(body, tl + hl);
        }
        body?.release?.();
        exports.mcpwasm_deliver(id, kind, status, tl, hl, bl);
      });
    },
  };
}
