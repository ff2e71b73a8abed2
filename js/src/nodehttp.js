// Node's own HTTP client for the fetch helper (host.js), used by the Node
// entry point (index.node.js) only, in Node, Bun and Deno: the browser
// entry point never reaches this file, and it imports Node's modules when
// it first needs them. http: URLs go through rawhttp.js (HTTP/1.1 over
// node:net with one read buffer); in Node, https: ones through node:https
// (Bun's node:https is made on its fetch, and Deno's fetch has its own TLS
// and certificate settings, so there fetch keeps them).
//
// Why: Node's fetch (undici) spends ≈570 µs of CPU on a small JSON-RPC
// exchange that node:http makes in ≈180 µs (the WHATWG Request, Response,
// Headers, AbortSignal and ReadableStream objects of every call; see
// docs/architecture.md, "HTTP in Node"). In Bun, whose fetch is cheap, an
// http: call through rawhttp.js still took ≈ 20 % less CPU and sequential
// calls ran 25–40 % faster, and in Deno 12–18 % less CPU and 5–10 % more
// calls/s (docs/architecture.md, "Deno and Bun"). The
// helper sends through this
// client only where it behaves as Node's fetch would: http: and https:
// URLs, the default fetch (no fetch option, globalThis.fetch not replaced,
// no undici global dispatcher such as a proxy agent set), redirects
// followed. It answers what fetch answers: header names lower-cased and
// repeated ones joined with ", " (set-cookie apart), content codings
// decoded (gzip, deflate, br, as fetch asks for them), failures as
// TypeError("fetch failed") with the cause, a body cut short as
// TypeError("terminated").

import { createRawHTTP, REDIRECT, STALE, QUEUED_MAX } from "./rawhttp.js";

const IDLE_MAX = 1024; // idle kept-alive connections per host
const DISPATCHER = Symbol.for("undici.globalDispatcher.1");

/**
 * createNodeHTTP returns the client of runtime ("node", the default,
 * "bun" or "deno"; anything else throws): usable(url) says whether a request may go
 * through it (see usable); request(url, method, headerPairs, body, entry,
 * limit) (limit: the most bytes of a body read whole) resolves with a
 * response object for host.js ({status, type, lines, contentType, body:
 * {getReader()}}), or with null when the answer is a redirect (the helper
 * then lets fetch, the runtime's own, follow it); entry.cancel is set to a
 * function that ends the exchange.
 */
export function createNodeHTTP(runtime = "node") {
  const rt = Object.hasOwn(RUNTIMES, runtime) ? RUNTIMES[runtime] : null;
  if (!rt) throw new TypeError(`createNodeHTTP: unknown runtime ${runtime}`);
  const httpOnly = rt.httpOnly;
  let https, zlib, stream; // Node's modules, imported at first use
  let agent = null; // node:https's, for https: URLs
  let raw = null; // rawhttp.js's client, for http: URLs
  // The runtime's own fetch, as it was when the entry point loaded.
  const ownFetch = typeof globalThis.fetch === "function" ? globalThis.fetch : null;
  const envProxy = rt.proxied(); // read once, as the runtimes read them at start-up
  const userAgent = rt.userAgent();

  /**
   * usable reports whether a request to url may go through this client
   * rather than fetch: an http: URL (in Node, https: too), the runtime's
   * own fetch still the global one, and no proxy (no NODE_USE_ENV_PROXY in
   * Node nor an undici global dispatcher other than an Agent; no proxy
   * variable in Bun and Deno, nor in Deno one it may not read).
   */
  function usable(url) {
    if (!(url.startsWith("http://") || (!httpOnly && url.startsWith("https://")))) return false;
    if (envProxy || !ownFetch || globalThis.fetch !== ownFetch) return false;
    if (httpOnly) return true;
    const d = globalThis[DISPATCHER];
    return d === undefined || d?.constructor?.name === "Agent";
  }

  async function request(url, method, pairs, body, entry, limit) {
    const u = new URL(url);
    // the headers fetch sends
    const headers = {};
    for (const [k, v] of pairs) {
      const n = k.toLowerCase();
      headers[n] = n in headers ? [].concat(headers[n], v) : v;
    }
    headers.accept ??= "*/*";
    headers["accept-encoding"] ??= u.protocol === "https:" ? "br, gzip, deflate" : "gzip, deflate";
    headers["user-agent"] ??= userAgent;
    if (body !== undefined) headers["content-length"] = String(body.byteLength);
    else if (method === "POST" || method === "PUT") headers["content-length"] = "0";
    if (u.protocol === "http:") return rawRequest(u, method, headers, body, entry, limit);
    https ??= await import("node:https");
    // Up to 1024 idle connections per host (Node's default is 256): with
    // more calls in flight than that, every answer closed a connection
    // the next call opened again. Idle ones end with the server's
    // keep-alive timeout.
    agent ??= new https.Agent({ keepAlive: true, maxFreeSockets: IDLE_MAX });
    const options = { method, headers, agent };
    for (let attempt = 0; ; attempt++) {
      const r = await exchange(https, u, options, body, entry, attempt === 0);
      if (r !== STALE) return r;
    }
  }

  // rawRequest sends a request to an http: URL through rawhttp.js; a
  // compressed answer is decoded through a stream, an uncompressed one of
  // announced length read straight into one buffer (at most limit bytes).
  async function rawRequest(u, method, headers, body, entry, limit) {
    raw ??= createRawHTTP(await import("node:net"), IDLE_MAX);
    const pairs = [];
    for (const [k, v] of Object.entries(headers)) {
      if (k === "host" || k === "connection" || k === "transfer-encoding") continue; // the client's own
      if (Array.isArray(v)) for (const x of v) pairs.push([k, x]);
      else pairs.push([k, v]);
    }
    const r = await raw.request(u, method, pairs, body, entry, limit);
    if (!r) return null;
    let res = r.body;
    if (r.coding && method !== "HEAD" && r.status !== 204 && r.status !== 304) {
      await loadZlib();
      stream ??= await import("node:stream");
      const reader = r.body.getReader();
      const src = stream.Readable.from((async function* () {
        for (;;) {
          const { done, value } = await reader.read();
          if (done) return;
          yield value;
        }
      })(), { objectMode: false });
      const decodedStream = decoded(src, r.coding);
      entry.cancel = () => { decodedStream.destroy(); reader.cancel(); };
      res = bodyOf(decodedStream);
    }
    return { status: r.status, type: "default", lines: headerLines(r.lines), contentType: r.contentType, body: res };
  }

  async function loadZlib() {
    zlib ??= await import("node:zlib");
  }

  // exchange sends the request once; it resolves with the response, null
  // for a redirect, or STALE when a reused connection failed before any
  // answer and retry allows one more attempt.
  function exchange(mod, u, options, body, entry, retry) {
    return new Promise((resolve, reject) => {
      if (entry.aborted) {
        reject(new DOMException("This operation was aborted", "AbortError"));
        return;
      }
      let answered = false;
      const req = mod.request(u, options);
      entry.cancel = () => req.destroy();
      const failed = (e) => {
        if (answered) return;
        answered = true;
        if (retry && req.reusedSocket && STALE.has(e?.code) && !entry.aborted) resolve(STALE);
        else reject(new TypeError("fetch failed", { cause: e }));
      };
      req.on("error", failed);
      req.on("close", () => {
        // (Every exchange's request closes: the error is made only when it ends one.)
        if (!answered) failed(new Error("the connection closed before an answer"));
      });
      req.on("response", (res) => {
        if (answered) {
          res.destroy();
          return;
        }
        answered = true;
        answer(res, req, options.method, entry).then(resolve, reject);
      });
      req.end(body);
    });
  }

  // answer makes the response object of res (null for a redirect).
  async function answer(res, req, method, entry) {
    const status = res.statusCode;
    if (REDIRECT.has(status) && res.headers.location !== undefined) {
      res.resume();
      return null;
    }
    let stream = res;
    const coded = res.headers["content-encoding"];
    if (coded && method !== "HEAD" && status !== 204 && status !== 304) {
      if (!zlib) {
        res.pause();
        const hold = () => {}; // an error while Node's zlib loads: seen below
        res.on("error", hold);
        await loadZlib();
        res.off("error", hold);
        if (res.destroyed && !res.complete) throw new TypeError("terminated", { cause: new Error("the connection closed before the end of the body") });
      }
      stream = decoded(res, coded);
    }
    entry.cancel = () => {
      stream.destroy();
      req.destroy();
    };
    return {
      status,
      type: "default",
      lines: headerLines(res.rawHeaders),
      contentType: res.headers["content-type"] ?? "",
      body: bodyOf(stream),
    };
  }

  // decoded pipes res through the decoders of its content codings, as
  // fetch does; with a coding fetch does not know, the body stays as sent.
  function decoded(res, coded) {
    const codings = coded.toLowerCase().split(",").map((c) => c.trim());
    if (codings.length > 5 || !codings.every((c) => c === "gzip" || c === "x-gzip" || c === "deflate" || c === "br")) return res;
    const z = zlib.constants;
    const sync = { flush: z.Z_SYNC_FLUSH, finishFlush: z.Z_SYNC_FLUSH };
    const decoders = codings.reverse().map((c) =>
      c === "br" ? zlib.createBrotliDecompress({ flush: z.BROTLI_OPERATION_FLUSH, finishFlush: z.BROTLI_OPERATION_FLUSH })
        : c === "deflate" ? zlib.createInflate(sync) : zlib.createGunzip(sync));
    let s = res;
    for (const d of decoders) {
      s.on("error", (e) => d.destroy(e));
      s = s.pipe(d);
    }
    return s;
  }

  return { usable, request, fetch: ownFetch };
}

// RUNTIMES says, per runtime createNodeHTTP takes: whether only http: URLs
// go through this client (Bun's node:https is made on its fetch, and
// Deno's fetch has TLS and certificate settings of its own); whether the
// runtime's fetch goes through a proxy (in Node NODE_USE_ENV_PROXY makes it
// use HTTP_PROXY and HTTPS_PROXY; Bun's and Deno's fetch use their proxy
// variables whenever they are set); and the User-Agent its fetch sends.
const RUNTIMES = {
  node: { httpOnly: false, proxied: () => !!globalThis.process?.env?.NODE_USE_ENV_PROXY, userAgent: () => "node" },
  bun: { httpOnly: true, proxied: () => BUN_PROXY_VARS.some((n) => globalThis.process?.env?.[n]), userAgent: () => `Bun/${globalThis.Bun?.version ?? ""}` },
  deno: { httpOnly: true, proxied: denoProxySet, userAgent: () => `Deno/${globalThis.Deno?.version?.deno ?? ""}` },
};

// The variables that send Bun's fetch through a proxy, and Deno's.
const BUN_PROXY_VARS = ["HTTP_PROXY", "http_proxy", "HTTPS_PROXY", "https_proxy"];
const DENO_PROXY_VARS = [...BUN_PROXY_VARS, "ALL_PROXY", "all_proxy"];

// denoProxySet reports whether a proxy variable is set in Deno; true also
// when the script may not read one (Deno's fetch reads them without
// asking, so a proxy can be in force where the script cannot see it):
// asking would prompt a user at a terminal, so the permission is queried,
// not requested.
function denoProxySet() {
  const D = globalThis.Deno;
  try {
    for (const variable of DENO_PROXY_VARS) if (D.permissions.querySync({ name: "env", variable }).state !== "granted") return true;
    return DENO_PROXY_VARS.some((n) => D.env.get(n));
  } catch {
    return true;
  }
}

// headerLines joins the answer's headers as host.js passes them to the
// module: names lower-cased, a repeated name's values joined with ", "
// (set-cookie's kept apart), as fetch's Headers iterates them. Exported
// for the tests.
export function headerLines(raw) {
  const lines = [];
  let at = null;
  for (let i = 0; i + 1 < raw.length; i += 2) {
    const n = raw[i].toLowerCase();
    const v = raw[i + 1];
    const j = n === "set-cookie" ? undefined : at?.get(n);
    if (j !== undefined) {
      lines[j] += ", " + v;
      continue;
    }
    if (n !== "set-cookie") (at ??= new Map()).set(n, lines.length + 1);
    lines.push(n, v);
  }
  return lines.join("\n");
}

// bodyOf returns a body with getReader() over a Node stream: read()
// resolves with the next chunk (pausing the stream while QUEUED_MAX chunks
// wait), cancel() destroys the stream. A stream that closes before its end
// fails the read with TypeError("terminated"), as fetch's body does.
function bodyOf(stream) {
  const queue = [];
  let done = false;
  let error = null;
  let waiter = null;
  const wake = () => {
    const w = waiter;
    if (!w) return;
    waiter = null;
    if (queue.length) w.resolve({ done: false, value: queue.shift() });
    else if (error) w.reject(error);
    else if (done) w.resolve({ done: true, value: undefined });
    else waiter = w;
  };
  const fail = (cause) => {
    if (done || error) return;
    error = new TypeError("terminated", { cause });
    wake();
  };
  stream.on("data", (c) => {
    queue.push(c);
    if (queue.length >= QUEUED_MAX) stream.pause();
    wake();
  });
  stream.on("end", () => {
    done = true;
    wake();
  });
  stream.on("error", fail);
  stream.on("close", () => {
    // (Every body closes, after its end: the error is made only for one cut short.)
    if (!done && !error) fail(new Error("the connection closed before the end of the body"));
  });
  const reader = {
    read() {
      if (queue.length) {
        const value = queue.shift();
        if (queue.length < QUEUED_MAX / 2 && stream.isPaused()) stream.resume();
        return Promise.resolve({ done: false, value });
      }
      if (error) return Promise.reject(error);
      if (done) return Promise.resolve({ done: true, value: undefined });
      return new Promise((resolve, reject) => {
        waiter = { resolve, reject };
        if (stream.isPaused()) stream.resume();
      });
    },
    cancel() {
      done = true;
      queue.length = 0;
      stream.destroy();
      return Promise.resolve();
    },
  };
  return { getReader: () => reader };
}
