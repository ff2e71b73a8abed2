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
    // lines joined by "\n"; body a Uint8Array or undefined; a body read
    // whole is read up to maxBody+1 bytes.
    start(id, config, head, body, manual, maxBody) {
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
      run(id, entry, fn || globalThis.fetch, parts[1], init, maxBody);
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

  async function run(id, entry, fn, url, init, maxBody) {
    try {
      const resp = await fn.call(globalThis, url, init);
      if (!resp || typeof resp.status !== "number" || !resp.headers) throw new TypeError("fetch did not resolve to a Response");
      const lines = [];
      for (const [k, v] of resp.headers) lines.push(k, v);
      const type = resp.type || "default";
      const ct = resp.headers.get("content-type") || "";
      if (!resp.body || !ct.toLowerCase().startsWith("text/event-stream")) {
        const bytes = resp.body ? await readAll(resp, entry, maxBody) : undefined;
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

// readAll reads a response body, at most limit bytes (maxBody+1: the
// module reports a body that long as too large; the rest of the body is
// cancelled, not read), and returns its chunks as {chunks, length}: the
// lane copies them straight into the module's buffer, so a big body is
// copied once. (Response.arrayBuffer() joined the chunks and then copied
// them into a second ArrayBuffer, and a buffer joined here cost one more
// big allocation per body: V8 collected its old generation half again as
// often on 1 MB results.)
async function readAll(resp, entry, maxBody) {
  const reader = resp.body.getReader();
  entry.reader = reader;
  const limit = (Number.isSafeInteger(maxBody) && maxBody > 0 ? maxBody : 32 << 20) + 1;
  const chunks = [];
  let n = 0;
  for (;;) {
    const { done, value } = await reader.read();
    if (done) break;
    if (!value.byteLength) continue;
    const take = Math.min(value.byteLength, limit - n);
    chunks.push(take === value.byteLength ? value : value.subarray(0, take));
    n += take;
    if (n === limit) {
      reader.cancel().catch(() => {});
      break;
    }
  }
  return { chunks, length: n };
}
