// The Node entry point's HTTP client (src/nodehttp.js): in Node, requests
// go through node:http instead of fetch where they behave the same, and the
// client answers as fetch would. The runtimes suite runs this file in Deno
// too (tests/runtimes/nodehttp-deno.test.mjs), where plain http: requests
// take the same path. Against the TypeScript SDK v2 server, with
// a proxy of our own in front for what real servers do not do on their own
// (compress answers, close a kept-alive connection as a request arrives).
import { test, before, after } from "node:test";
import assert from "node:assert/strict";
import http from "node:http";
import net from "node:net";
import zlib from "node:zlib";
import { init, Client, McpError } from "../src/index.node.js";
import { startPeer, text } from "./helpers.mjs";

await init();

let sse, json; // the TS SDK server answering with event streams, and with JSON
before(async () => {
  [sse, json] = await Promise.all([startPeer("ts"), startPeer("ts", ["--json"])]);
});
after(async () => {
  await Promise.all([sse?.stop(), json?.stop()]);
});

// proxy starts a proxy in front of target: each request is handed to
// hook(req, res, forward) (default: forward), where forward(transform?)
// sends it on and pipes the answer back (through transform(upstreamRes,
// res) when given). It records every request's headers and the sockets
// it accepted.
async function proxy(target, hook = (req, res, forward) => forward()) {
  const t = new URL(target);
  const seen = [];
  let sockets = 0;
  const server = http.createServer(async (req, res) => {
    const chunks = [];
    for await (const c of req) chunks.push(c);
    const body = Buffer.concat(chunks);
    req.body = body.toString();
    seen.push({ method: req.method, headers: req.headers, socket: req.socket });
    const forward = (transform) => {
      const headers = { ...req.headers, host: t.host };
      delete headers["accept-encoding"];
      const up = http.request({ host: t.hostname, port: t.port, path: t.pathname, method: req.method, headers }, (ur) => {
        if (transform) return transform(ur, res);
        res.writeHead(ur.statusCode, ur.headers);
        ur.pipe(res);
      });
      up.on("error", (e) => res.destroy(e));
      up.end(body);
    };
    hook(req, res, forward);
  });
  server.on("connection", () => sockets++);
  await new Promise((r) => server.listen(0, "127.0.0.1", r));
  return {
    url: `http://127.0.0.1:${server.address().port}/mcp`,
    seen,
    sockets: () => sockets,
    close: () => {
      server.closeAllConnections();
      return new Promise((r) => server.close(r));
    },
  };
}

async function echoes(c, n, tag) {
  for (let i = 0; i < n; i++) assert.equal(text(await c.callTool({ name: "echo", arguments: { text: `${tag}${i}` } })), `${tag}${i}`);
}

// What tells the runtime's fetch from this client on the wire: undici's
// fetch (Node) sends sec-fetch-mode, which node:http does not; Deno's asks
// for other encodings than rawhttp.js's "gzip, deflate".
const DENO = globalThis.Deno !== undefined;
const fetched = (r) => (DENO ? r.headers["accept-encoding"] !== "gzip, deflate" : r.headers["sec-fetch-mode"] !== undefined);
const FETCH_UA = DENO ? `Deno/${globalThis.Deno.version.deno}` : "node"; // the User-Agent of the runtime's fetch

test("requests go through node:http by default, through fetch when the fetch option or a replaced globalThis.fetch asks for it", async (t) => {
  const p = await proxy(json.url);
  try {
    const viaFetch = () => p.seen.filter(fetched).length;
    await t.test("default", async () => {
      const c = new Client({ name: "x", version: "1" });
      await c.connect(p.url);
      await echoes(c, 3, "d");
      await c.close();
      assert.ok(p.seen.length >= 4, `requests: ${p.seen.length}`);
      assert.equal(viaFetch(), 0);
      assert.equal(p.seen.at(-2).headers["user-agent"], FETCH_UA);
      assert.equal(p.seen.at(-2).headers["accept-encoding"], "gzip, deflate");
    });
    await t.test("the fetch option", async () => {
      const before = p.seen.length;
      let called = 0;
      const c = new Client({ name: "x", version: "1" });
      await c.connect(p.url, { fetch: (u, i) => (called++, fetch(u, i)) });
      await echoes(c, 2, "f");
      await c.close();
      assert.ok(called >= 3, `fetch calls: ${called}`);
      assert.equal(viaFetch(), p.seen.length - before);
    });
    await t.test("the fetch options credentials and mode", async () => {
      const before = p.seen.length;
      const c = new Client({ name: "x", version: "1" });
      await c.connect(p.url, { credentials: "omit", mode: "cors" });
      await echoes(c, 2, "o");
      await c.close();
      const mine = p.seen.slice(before);
      assert.ok(mine.length >= 3, `requests: ${mine.length}`);
      assert.ok(mine.every(fetched), "every request went through fetch");
    });
    await t.test("a replaced globalThis.fetch", async () => {
      const original = globalThis.fetch;
      let called = 0;
      globalThis.fetch = (u, i) => (called++, original(u, i));
      try {
        const c = new Client({ name: "x", version: "1" });
        await c.connect(p.url);
        await echoes(c, 2, "g");
        await c.close();
      } finally {
        globalThis.fetch = original;
      }
      assert.ok(called >= 3, `fetch calls: ${called}`);
    });
  } finally {
    await p.close();
  }
});

test("compressed answers are decoded as fetch decodes them (gzip, x-gzip, deflate, br; JSON and event streams)", async (t) => {
  const encoders = {
    gzip: () => zlib.createGzip(),
    "x-gzip": () => zlib.createGzip(),
    deflate: () => zlib.createDeflate(),
    br: () => zlib.createBrotliCompress(),
  };
  for (const [coding, make] of Object.entries(encoders)) {
    for (const [kind, peer] of [["JSON", () => json], ["event stream", () => sse]]) {
      await t.test(`${coding}, ${kind}`, async () => {
        let compressed = 0;
        const p = await proxy(peer().url, (req, res, forward) =>
          forward((ur, res) => {
            const headers = { ...ur.headers, "content-encoding": coding };
            delete headers["content-length"];
            res.writeHead(ur.statusCode, headers);
            compressed++;
            // Flush after each chunk: an event stream's events must not wait for the end.
            const z = make();
            ur.on("data", (d) => {
              z.write(d);
              z.flush();
            });
            ur.on("end", () => z.end());
            z.pipe(res);
          }));
        const c = new Client({ name: "x", version: "1" });
        try {
          await c.connect(p.url);
          await echoes(c, 2, coding);
          const long = "é".repeat(150000) + "x"; // 300 KB of UTF-8: many compressed chunks
          assert.equal(text(await c.callTool({ name: "echo", arguments: { text: long } })), long);
          assert.ok(compressed >= 4, `compressed answers: ${compressed}`);
        } finally {
          await c.close();
          await p.close();
        }
      });
    }
  }
});

test("a kept-alive connection the server closes as the request arrives: the request goes again on a new connection, once", async () => {
  let drop = false;
  let dropped = 0;
  const p = await proxy(json.url, (req, res, forward) => {
    if (drop && req.socket.reused) {
      drop = false;
      dropped++;
      req.socket.destroy(); // as a server whose idle timeout ran out does
      return;
    }
    req.socket.reused = true;
    forward();
  });
  const c = new Client({ name: "x", version: "1" });
  try {
    await c.connect(p.url);
    await echoes(c, 2, "a");
    const sockets = p.sockets();
    drop = true;
    await echoes(c, 1, "b");
    assert.equal(dropped, 1);
    assert.equal(p.sockets(), sockets + 1, "the request was sent again on a new connection");
  } finally {
    await c.close();
    await p.close();
  }
});

test("a connection that fails on its first request is not tried again: the call fails with a network error", async () => {
  // A server that answers the handshake, then cuts every connection as its
  // first request arrives.
  const p = await proxy(json.url, (req, res, forward) => {
    if (p.cut) {
      p.cuts++;
      req.socket.destroy();
      return;
    }
    forward();
  });
  p.cuts = 0;
  const c = new Client({ name: "x", version: "1" });
  try {
    await c.connect(p.url);
    p.cut = true;
    // The kept-alive connection is retried once; the retry's new connection is not.
    const err = await c.callTool({ name: "echo", arguments: { text: "z" } }).then(() => null, (e) => e);
    assert.ok(err instanceof McpError, `got ${err}`);
    assert.match(err.message, /network|fetch failed|closed/i);
    assert.equal(p.cuts, 2);
  } finally {
    await c.close();
    await p.close();
  }
});

test("an answer whose body stops short fails the call with a clear error, and the client goes on", async () => {
  const p = await proxy(json.url, (req, res, forward) =>
    forward((ur, res) => {
      if (!req.body.includes('"short"')) {
        res.writeHead(ur.statusCode, ur.headers);
        return ur.pipe(res);
      }
      res.writeHead(ur.statusCode, { ...ur.headers, "content-length": "100000" });
      ur.on("data", (d) => res.write(d));
      ur.on("end", () => res.socket.destroy());
    }));
  const c = new Client({ name: "x", version: "1" });
  try {
    await c.connect(p.url);
    const err = await c.callTool({ name: "echo", arguments: { text: "short" } }).then(() => null, (e) => e);
    assert.ok(err instanceof McpError, `got ${err}`);
    assert.match(err.message, /terminated|closed|network/i);
    await echoes(c, 2, "after");
  } finally {
    await c.close();
    await p.close();
  }
});

test("an aborted call ends its request: the server sees its connection close, and the client goes on", async () => {
  let held = null;
  const p = await proxy(json.url, (req, res, forward) => {
    if (req.body.includes('"held"')) held = req; // never answered
    else forward();
  });
  const c = new Client({ name: "x", version: "1" });
  try {
    await c.connect(p.url);
    const ac = new AbortController();
    const call = c.callTool({ name: "echo", arguments: { text: "held" } }, { signal: ac.signal });
    while (held === null) await new Promise((r) => setImmediate(r));
    const closed = new Promise((r) => held.socket.on("close", r));
    ac.abort(new Error("stop"));
    await assert.rejects(call, /stop/);
    await closed;
    await echoes(c, 1, "next");
  } finally {
    await c.close();
    await p.close();
  }
});

test("an undici global dispatcher other than an Agent (a proxy agent, a mock) keeps fetch", async () => {
  const { createNodeHTTP } = await import("../src/nodehttp.js");
  const client = createNodeHTTP();
  const key = Symbol.for("undici.globalDispatcher.1");
  const own = Object.hasOwn(globalThis, key);
  const had = globalThis[key]; // Node's fetch makes it writable, not configurable
  const url = "http://127.0.0.1:9/mcp";
  try {
    const set = (v) => { globalThis[key] = v; };
    set(new (class Agent {})());
    assert.equal(client.usable(url), true);
    set(new (class ProxyAgent {})());
    assert.equal(client.usable(url), false);
    set(new (class MockAgent {})());
    assert.equal(client.usable(url), false);
    set(undefined);
    assert.equal(client.usable(url), true);
  } finally {
    if (own) globalThis[key] = had;
    else delete globalThis[key];
  }
});

test("a global fetch replaced after the client was made keeps fetch", async () => {
  const { createNodeHTTP } = await import("../src/nodehttp.js");
  const client = createNodeHTTP();
  const own = globalThis.fetch;
  const url = "http://127.0.0.1:9/mcp";
  assert.equal(client.usable(url), true);
  globalThis.fetch = (...args) => own(...args);
  try {
    assert.equal(client.usable(url), false, "the page's or a test's own fetch is used");
  } finally {
    globalThis.fetch = own;
  }
  assert.equal(client.usable(url), true);
  assert.equal(client.fetch, own, "redirects are followed by the runtime's own fetch");
});

test("which URLs it takes: http: and https: in Node, http: alone in Bun and Deno; never other schemes", async () => {
  const { createNodeHTTP } = await import("../src/nodehttp.js");
  const cases = [
    ["node", "http://127.0.0.1:9/mcp", true],
    ["node", "https://example.com/mcp", true],
    ["node", "ws://127.0.0.1:9/mcp", false],
    ["node", "data:,x", false],
    ["bun", "http://127.0.0.1:9/mcp", true],
    ["bun", "https://example.com/mcp", false],
    ...(DENO ? [["deno", "http://127.0.0.1:9/mcp", true], ["deno", "https://example.com/mcp", false], ["deno", "ws://127.0.0.1:9/mcp", false]] : []),
  ];
  for (const [runtime, url, want] of cases) assert.equal(createNodeHTTP(runtime).usable(url), want, `${runtime} ${url}`);
  assert.throws(() => createNodeHTTP("workerd"), /unknown runtime workerd/);
});

test("NODE_USE_ENV_PROXY keeps fetch in Node (Node's fetch then uses HTTP_PROXY); in Bun and Deno, any proxy variable does", async () => {
  const { createNodeHTTP } = await import("../src/nodehttp.js");
  const url = "http://127.0.0.1:9/mcp";
  const cases = [
    ["node", "NODE_USE_ENV_PROXY", "1"],
    ["bun", "HTTP_PROXY", "http://proxy.invalid:3128"],
    ["bun", "http_proxy", "http://proxy.invalid:3128"],
    ["bun", "HTTPS_PROXY", "http://proxy.invalid:3128"],
    ["bun", "https_proxy", "http://proxy.invalid:3128"],
    ...(DENO ? ["HTTP_PROXY", "http_proxy", "HTTPS_PROXY", "https_proxy", "ALL_PROXY", "all_proxy"].map((n) => ["deno", n, "http://proxy.invalid:3128"]) : []),
  ];
  for (const [runtime, name, value] of cases) {
    const had = process.env[name];
    process.env[name] = value;
    try {
      assert.equal(createNodeHTTP(runtime).usable(url), false, `${runtime} with ${name}`);
    } finally {
      if (had === undefined) delete process.env[name];
      else process.env[name] = had;
    }
    assert.equal(createNodeHTTP(runtime).usable(url), true, `${runtime} without ${name}`);
  }
  process.env.HTTP_PROXY = "http://proxy.invalid:3128";
  try {
    assert.equal(createNodeHTTP("node").usable(url), true, "Node's fetch ignores HTTP_PROXY without NODE_USE_ENV_PROXY");
  } finally {
    delete process.env.HTTP_PROXY;
  }
});

test("repeated answer headers reach the module joined as fetch joins them", async () => {
  const { headerLines } = await import("../src/nodehttp.js");
  assert.equal(
    headerLines(["Content-Type", "application/json", "WWW-Authenticate", "Bearer a", "www-authenticate", "Basic b", "Set-Cookie", "a=1", "set-cookie", "b=2"]),
    ["content-type", "application/json", "www-authenticate", "Bearer a, Basic b", "set-cookie", "a=1", "set-cookie", "b=2"].join("\n"),
  );
  assert.equal(headerLines([]), "");
});

test("close() during connect rejects the connect and ends its request", async () => {
  const held = [];
  const s = net.createServer((sock) => {
    sock.resume(); // reads, so that the client's close is seen
    held.push(sock);
  });
  await new Promise((r) => s.listen(0, "127.0.0.1", r));
  try {
    for (const options of [{}, { fetch }]) {
      const c = new Client({ name: "x", version: "1" });
      const n = held.length;
      const connecting = c.connect(`http://127.0.0.1:${s.address().port}/mcp`, options).then(() => null, (e) => e);
      while (held.length === n) await new Promise((r) => setImmediate(r));
      const ended = new Promise((r) => held[n].on("close", r));
      await c.close();
      const err = await connecting;
      assert.ok(err instanceof McpError, `got ${err}`);
      assert.match(err.message, /closed while connecting/);
      await ended;
    }
  } finally {
    s.close();
  }
});
