// The JavaScript half of the module's HTTP fast path (see
// internal/jsfetch/host.go): the module starts and aborts exchanges through
// the lane (lane.js); the helper performs each one and reports its head and
// body back through the lane, failures through host.deliver (set by the
// module).

/** createHost returns the helper object the module drives. */
export function createHost(lane) {
  const live = new Map(); // id → {ac, reader}
  const configs = [null]; // config number → {fn, extra, opts}
  const host = {
    deliver: null, // set by the module: deliver(id, 5, thrownValue)
    // register makes a fetch configuration known: fn (or undefined for
    // globalThis.fetch), extra RequestInit members, and credentials, mode,
    // cache and referrerPolicy joined by "\n" (or undefined).
    register(fn, extra, opts) {
      configs.push({ fn, extra, opts });
      return configs.length - 1;
    },
    // start begins exchange id; head is the method, the URL and the header
    // lines joined by "\n"; body a Uint8Array or undefined.
    start(id, config, head, body, manual) {
      const { fn, extra, opts } = configs[config] || {};
      const ac = new AbortController();
      const entry = { ac, reader: null };
      live.set(id, entry);
      const parts = head.split("\n");
      const headers = [];
      for (let i = 2; i + 1 < parts.length; i += 2) headers.push([parts[i], parts[i + 1]]);
      const init = extra ? { ...extra } : {};
      init.method = parts[0];
      init.headers = headers;
      if (body !== undefined) init.body = body;
      init.signal = ac.signal;
      if (opts !== undefined) {
        const [credentials, mode, cache, referrerPolicy] = opts.split("\n");
        if (credentials) init.credentials = credentials;
        if (mode) init.mode = mode;
        if (cache) init.cache = cache;
        if (referrerPolicy) init.referrerPolicy = referrerPolicy;
      }
      if (manual) init.redirect = "manual";
      run(id, entry, fn || globalThis.fetch, parts[1], init);
    },
    abort(id) {
      const entry = live.get(id);
      if (!entry) return;
      live.delete(id);
      entry.reader?.cancel().catch(() => {});
      entry.ac.abort();
    },
    // fail reports a failure to start exchange id.
    fail(id, e) {
      live.delete(id);
      lane.failExchange(id, e);
    },
  };

  async function run(id, entry, fn, url, init) {
    try {
      const resp = await fn.call(globalThis, url, init);
      if (!resp || typeof resp.status !== "number" || !resp.headers) throw new TypeError("fetch did not resolve to a Response");
      const lines = [];
      for (const [k, v] of resp.headers) lines.push(k, v);
      const type = resp.type || "default";
      const ct = resp.headers.get("content-type") || "";
      if (!resp.body || !ct.toLowerCase().startsWith("text/event-stream")) {
        const bytes = resp.body ? await readAll(resp, entry) : new Uint8Array(0);
        if (live.has(id)) lane.deliver(id, 1, resp.status, type, lines.join("\n"), bytes);
        return;
      }
      lane.deliver(id, 2, resp.status, type, lines.join("\n"), undefined);
      const reader = resp.body.getReader();
      entry.reader = reader;
      for (;;) {
        const { done, value } = await reader.read();
        if (done || !live.has(id)) break;
        if (value && value.byteLength) lane.deliver(id, 3, 0, "", "", value);
      }
      if (live.has(id)) lane.deliver(id, 4, 0, "", "", undefined);
    } catch (e) {
      if (live.has(id)) lane.failExchange(id, e);
    } finally {
      live.delete(id);
    }
  }

  return host;
}

// readAll reads a response body into one Uint8Array. Chunks are copied
// into a buffer of the announced Content-Length (at most 32 MiB up front,
// so a false announcement costs no more than that; grown when the body is
// longer): a big body costs one copy, where Response.arrayBuffer() made two
// and an intermediate ArrayBuffer, and V8 collected its old generation half
// again as often on 1 MB results.
async function readAll(resp, entry) {
  const reader = resp.body.getReader();
  entry.reader = reader;
  const announced = Number(resp.headers.get("content-length"));
  let buf = new Uint8Array(Number.isSafeInteger(announced) && announced > 0 ? Math.min(announced, 32 << 20) : 65536);
  let n = 0;
  for (;;) {
    const { done, value } = await reader.read();
    if (done) break;
    if (n + value.byteLength > buf.byteLength) {
      const grown = new Uint8Array(Math.max(buf.byteLength * 2, n + value.byteLength));
      grown.set(buf.subarray(0, n));
      buf = grown;
    }
    buf.set(value, n);
    n += value.byteLength;
  }
  return n === buf.byteLength ? buf : buf.subarray(0, n);
}
