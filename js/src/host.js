// The JavaScript half of the module's HTTP fast path (see
// internal/jsfetch/host.go): one call starts an exchange, one persistent
// callback (host.deliver, set by the module) reports its head and body.

/** createHost returns the helper object the module drives. */
export function createHost() {
  const live = new Map(); // id → {ac, reader}
  const host = {
    deliver: null, // set by the module
    // head: method, URL and header lines joined by "\n"; opts: credentials,
    // mode, cache and referrerPolicy joined by "\n", or undefined.
    fetch(id, fn, head, body, extra, opts, manual) {
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
        const bytes = resp.body ? new Uint8Array(await resp.arrayBuffer()) : new Uint8Array(0);
        if (live.has(id)) host.deliver(id, 1, resp.status, type, lines.join("\n"), bytes);
        return;
      }
      host.deliver(id, 2, resp.status, type, lines.join("\n"));
      const reader = resp.body.getReader();
      entry.reader = reader;
      for (;;) {
        const { done, value } = await reader.read();
        if (done || !live.has(id)) break;
        if (value && value.byteLength) host.deliver(id, 3, value);
      }
      if (live.has(id)) host.deliver(id, 4);
    } catch (e) {
      if (live.has(id)) host.deliver(id, 5, e);
    } finally {
      live.delete(id);
    }
  }

  return host;
}
