// The JavaScript half of the module's HTTP fast path (see
// internal/jsfetch/host.go): the module starts and aborts exchanges through
// the lane (lane.js); the helper performs each one and reports its head and
// body back through the lane, failures through host.deliver (set by the
// module).

// nodeFetch is Node's own fetch (undici), or null elsewhere. Node clones
// every request whose redirect mode is not "error" before sending it (the
// clone tees the body into two new streams), in case a redirect makes it
// send the request again: ≈50 µs of CPU per call, an eighth of a small call's
// cost. Through nodeFetch the helper asks for redirect "error" first and,
// when the answer was a redirect, makes the request again with "follow"
// and from then on follows at once for that URL (see docs/architecture.md).
// Other fetches (browsers, Deno, Bun, workerd, a fetch the page passes) do
// not tell a refused redirect apart from a network failure, so they get
// the default.
const nodeFetch = globalThis.process?.versions?.undici && !globalThis.process.versions.bun && !globalThis.Deno ? globalThis.fetch : null;
const REDIRECTED_MAX = 64; // URLs remembered as redirecting (then forgotten all at once)

/**
 * createHost returns the helper object the module drives. nodeHTTP is the
 * Node entry point's HTTP client (nodehttp.js), or undefined: where it
 * applies (see nodehttp.js) requests go through it instead of fetch.
 */
export function createHost(lane, nodeHTTP) {
  const redirected = new Set(); // URLs whose requests nodeFetch answered with a redirect
  const live = new Map(); // id → {ac, reader, cancel, aborted}
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
      const parts = head.split("\n");
      const headers = [];
      for (let i = 2; i + 1 < parts.length; i += 2) headers.push([parts[i], parts[i + 1]]);
      const url = parts[1];
      if (nodeHTTP && !fn && !extra && !opts && !manual && !redirected.has(url) && nodeHTTP.usable(url)) {
        const entry = { ac: null, reader: null, cancel: null, aborted: false };
        live.set(id, entry);
        runNode(id, entry, url, parts[0], headers, body, maxBody);
        return;
      }
      const ac = new AbortController();
      const entry = { ac, reader: null, cancel: null, aborted: false };
      live.set(id, entry);
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
      const f = fn || globalThis.fetch;
      let again; // the body of a second request, after a refused redirect
      if (manual) init.redirect = "manual";
      else if (f === nodeFetch && !init.redirect) {
        if (!redirected.has(url)) {
          init.redirect = "error";
          if (body !== undefined) again = body.slice(); // Node's fetch detaches the first one's buffer
        } else if (body !== undefined) {
          init.body = new Blob([body]); // see send
        }
      }
      run(id, entry, () => send(f, url, init, again), maxBody);
    },
    abort(id) {
      const entry = live.get(id);
      if (!entry) return;
      live.delete(id);
      entry.aborted = true;
      entry.reader?.cancel().catch(() => {});
      entry.ac?.abort();
      entry.cancel?.();
    },
    // fail reports a failure to start exchange id.
    fail(id, e) {
      live.delete(id);
      lane.failExchange(id, e);
    },
  };

  // remember notes that url answered with a redirect.
  function remember(url) {
    if (redirected.size >= REDIRECTED_MAX) redirected.clear();
    redirected.add(url);
  }

  // send starts the request, again with redirect "follow" when it was sent
  // with "error" and Node's fetch refused a redirect.
  async function send(fn, url, init, again) {
    try {
      return await fn.call(globalThis, url, init);
    } catch (e) {
      if (init.redirect !== "error" || e?.cause?.message !== "unexpected redirect") throw e;
      remember(url);
      delete init.redirect;
      // A Blob: Node's fetch fails to follow a 307 or 308 with a buffer as
      // the body (it sends the detached buffer again).
      if (again !== undefined) init.body = new Blob([again]);
      return await fn.call(globalThis, url, init);
    }
  }

  // runNode performs exchange id with nodeHTTP; a redirect is followed by
  // the runtime's fetch, for this URL from then on.
  function runNode(id, entry, url, method, headers, body, maxBody) {
    run(id, entry, async () => {
      const resp = await nodeHTTP.request(url, method, headers, body, entry, bodyLimit(maxBody));
      if (resp) return resp;
      remember(url);
      if (entry.aborted) throw new DOMException("This operation was aborted", "AbortError");
      const init = { method, headers, signal: (entry.ac = new AbortController()).signal };
      if (body !== undefined) init.body = new Blob([body]); // see send
      return await nodeHTTP.fetch.call(globalThis, url, init);
    }, maxBody);
  }

  // run performs exchange id: start() resolves with a fetch Response or
  // a response of nodeHTTP ({status, type, lines, contentType, body}).
  async function run(id, entry, start, maxBody) {
    try {
      const resp = await start();
      if (!resp || typeof resp.status !== "number" || !(resp.headers || resp.lines !== undefined)) throw new TypeError("fetch did not resolve to a Response");
      let lines, ct;
      if (resp.lines !== undefined) {
        lines = resp.lines;
        ct = resp.contentType;
      } else {
        // forEach, not for…of: the same pairs, and in Deno ≈ 4 µs less per
        // answer (its iterator goes through WebIDL's generic one).
        const pairs = [];
        resp.headers.forEach((v, k) => pairs.push(k, v));
        lines = pairs.join("\n");
        ct = resp.headers.get("content-type") || "";
      }
      const type = resp.type || "default";
      if (!resp.body || !ct.toLowerCase().startsWith("text/event-stream")) {
        const bytes = resp.body ? await readAll(resp, entry, maxBody) : undefined;
        if (live.has(id)) lane.deliver(id, 1, resp.status, type, lines, bytes);
        return;
      }
      lane.deliver(id, 2, resp.status, type, lines, undefined);
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

// bodyLimit is how many bytes of a body read whole are kept: maxBody+1
// (the module reports a body that long as too large).
function bodyLimit(maxBody) {
  return (Number.isSafeInteger(maxBody) && maxBody > 0 ? maxBody : 32 << 20) + 1;
}

// SMALL_WHOLE is the largest body readAll takes with arrayBuffer() (see
// smallWhole).
const SMALL_WHOLE = 64 << 10;

// smallWhole reports whether resp's body is small and of a known length
// that bounds it, so that arrayBuffer() reads it in one step: a
// Content-Length of at most SMALL_WHOLE and maxBody, no Content-Encoding
// (a compressed body's decoded length is not bounded by it), and every
// header visible (a cross-origin answer hides Content-Encoding unless the
// server exposes it). A reader hands each chunk over as a new buffer: in
// Deno every ≈ 250 small answers read so cost a full collection of V8's old
// generation, and a call ≈ 90 µs of CPU more than with arrayBuffer()
// (docs/architecture.md, "A small JSON answer in one step"). Big bodies keep
// the reader (see readAll).
function smallWhole(resp, maxBody) {
  if (!resp.headers) return false; // nodehttp.js's answers: one of unannounced length
  if (resp.type === "cors" || resp.type === "opaque" || resp.type === "opaqueredirect") return false;
  const cl = resp.headers.get("content-length");
  if (cl === null || !/^[0-9]{1,6}$/.test(cl)) return false;
  const n = Number(cl);
  if (n > SMALL_WHOLE || n >= bodyLimit(maxBody)) return false;
  const ce = resp.headers.get("content-encoding");
  return ce === null || ce.trim().toLowerCase() === "identity";
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
  // nodehttp.js's http: answers of announced length come whole, in one buffer
  const whole = resp.body.readAll?.();
  if (whole) return whole;
  if (smallWhole(resp, maxBody)) return new Uint8Array(await resp.arrayBuffer());
  const reader = resp.body.getReader();
  entry.reader = reader;
  const limit = bodyLimit(maxBody);
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
