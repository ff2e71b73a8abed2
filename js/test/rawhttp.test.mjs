// HTTP/1.1 answers that real MCP servers do not send, written byte by byte
// by a server of our own (node:net), through the Node entry point's http:
// client (js/src/rawhttp.js): interim 1xx answers, chunked bodies cut
// anywhere, bodies that end with the connection, bytes after an answer,
// and the heads this client refuses. Every call goes through the real
// module, so what is asserted is what the caller gets. The runtimes suite
// runs this file in Deno too (tests/runtimes/nodehttp-deno.test.mjs).
import { test, before, after } from "node:test";
import assert from "node:assert/strict";
import net from "node:net";
import v8 from "node:v8";
import vm from "node:vm";
import { init, Client, McpError } from "../src/index.node.js";
import { createRawHTTP } from "../src/rawhttp.js";
import { waitFor } from "./helpers.mjs";

await init();

const DISCOVER = { resultType: "complete", supportedVersions: ["2026-07-28"], capabilities: { tools: {} }, ttlMs: 0, cacheScope: "public" };

/**
 * rawServer answers each POST with write(socket, m, answer): m the JSON-RPC
 * message, answer(result) its JSON text; server/discover is answered
 * plainly. It counts connections.
 */
async function rawServer(write) {
  const sockets = new Set();
  const server = net.createServer((socket) => {
    server.connections++;
    sockets.add(socket);
    socket.on("close", () => { sockets.delete(socket); server.closed++; });
    let buf = Buffer.alloc(0);
    socket.on("error", () => {});
    socket.on("data", (d) => {
      buf = Buffer.concat([buf, d]);
      for (;;) {
        const end = buf.indexOf("\r\n\r\n");
        if (end < 0) return;
        const head = buf.subarray(0, end).toString("latin1");
        const length = Number(/content-length: (\d+)/i.exec(head)?.[1] ?? 0);
        if (buf.length < end + 4 + length) return;
        const m = JSON.parse(buf.subarray(end + 4, end + 4 + length).toString("utf8"));
        buf = buf.subarray(end + 4 + length);
        server.heads.push(head);
        const answer = (result) => JSON.stringify({ jsonrpc: "2.0", id: m.id, result });
        if (m.method === "server/discover") {
          const body = answer(DISCOVER);
          socket.write(`HTTP/1.1 200 OK\r\ncontent-type: application/json\r\ncontent-length: ${Buffer.byteLength(body)}\r\n\r\n${body}`);
        } else if (m.id !== undefined) {
          write(socket, m, answer);
        } else {
          socket.write("HTTP/1.1 202 Accepted\r\ncontent-length: 0\r\n\r\n");
        }
      }
    });
  });
  server.connections = 0;
  server.closed = 0;
  server.heads = [];
  server.stop = () => {
    for (const s of sockets) s.destroy(); // the client's idle connections too
    server.close();
  };
  await new Promise((r) => server.listen(0, "127.0.0.1", r));
  return { url: `http://127.0.0.1:${server.address().port}/mcp`, server };
}

const text = (t) => ({ content: [{ type: "text", text: t }] });

/** slowly writes s in pieces of n bytes, each in a turn of its own. */
async function dribble(socket, s, n = 1) {
  const b = Buffer.from(s);
  for (let i = 0; i < b.length; i += n) {
    if (!socket.write(b.subarray(i, i + n))) await new Promise((r) => socket.once("drain", r));
    await new Promise((r) => setImmediate(r));
  }
}

/** withClient connects a client to a raw server that answers calls with write, runs f(client, server), closes both. */
async function withClient(write, f) {
  const { url, server } = await rawServer(write);
  const c = new Client({ name: "raw", version: "1" });
  try {
    await c.connect(url);
    await f(c, server);
  } finally {
    await c.close().catch(() => {});
    server.stop();
  }
}

const json = (body, extra = "") => `HTTP/1.1 200 OK\r\ncontent-type: application/json\r\n${extra}content-length: ${Buffer.byteLength(body)}\r\n\r\n${body}`;

test("interim 1xx answers before the answer are skipped", async () => {
  await withClient((s, m, answer) => {
    s.write("HTTP/1.1 100 Continue\r\n\r\nHTTP/1.1 103 Early Hints\r\nlink: </x>\r\n\r\n" + json(answer(text("after two interim answers"))));
  }, async (c) => {
    assert.deepEqual((await c.callTool({ name: "t" })).content, [{ type: "text", text: "after two interim answers" }]);
  });
});

test("a chunked body, with extensions and trailers, cut into single bytes", async () => {
  await withClient(async (s, m, answer) => {
    const body = answer(text("chunked ".repeat(300)));
    const a = body.slice(0, 1000);
    const b = body.slice(1000);
    await dribble(s, `HTTP/1.1 200 OK\r\ncontent-type: application/json\r\ntransfer-encoding: chunked\r\n\r\n` +
      `${a.length.toString(16)};ext=1\r\n${a}\r\n${Buffer.byteLength(b).toString(16).toUpperCase()}\r\n${b}\r\n0\r\nx-trailer: yes\r\n\r\n`);
  }, async (c, server) => {
    for (let i = 0; i < 3; i++) assert.equal((await c.callTool({ name: "t" })).content[0].text, "chunked ".repeat(300));
    assert.equal(server.connections, 1, "the connection was kept for every call");
  });
});

test("a body that ends with the connection (no length announced)", async () => {
  await withClient((s, m, answer) => {
    s.end(`HTTP/1.1 200 OK\r\ncontent-type: application/json\r\nconnection: close\r\n\r\n${answer(text("until the end"))}`);
  }, async (c, server) => {
    assert.equal((await c.callTool({ name: "t" })).content[0].text, "until the end");
    assert.equal((await c.callTool({ name: "t" })).content[0].text, "until the end");
    assert.equal(server.connections, 2, "the discover's connection ended with the first call's answer, a new one for the second");
  });
});

test("a kept-alive connection carries calls one after another; bytes after an answer drop it", async () => {
  let n = 0;
  await withClient((s, m, answer) => {
    n++;
    s.write(json(answer(text(`call ${n}`))) + (n === 3 ? "HTTP/1.1 200 OK\r\n" : ""));
  }, async (c, server) => {
    for (let i = 1; i <= 5; i++) assert.equal((await c.callTool({ name: "t" })).content[0].text, `call ${i}`);
    assert.equal(server.connections, 2, "one connection, and one more after the stray bytes");
    assert.match(server.heads[1], /^POST \/mcp HTTP\/1\.1\r\nHost: 127\.0\.0\.1:\d+\r\n/);
  });
});

test("an idle connection is closed before the server's Keep-Alive timeout, not reused after it", async () => {
  await withClient((s, m, answer) => {
    s.write(json(answer(text("hinted")), "keep-alive: timeout=1\r\n"));
  }, async (c, server) => {
    assert.equal((await c.callTool({ name: "t" })).content[0].text, "hinted");
    await waitFor(() => server.closed === 1, 5000, "the client to close the idle connection");
    assert.equal((await c.callTool({ name: "t" })).content[0].text, "hinted");
    assert.equal(server.connections, 2);
  });
});

test("a big answer in one buffer, read in pieces", async () => {
  const big = "x".repeat(3 << 20);
  await withClient(async (s, m, answer) => {
    const body = answer(text(big));
    s.write(body.length > 0 ? `HTTP/1.1 200 OK\r\ncontent-type: application/json\r\ncontent-length: ${body.length}\r\n\r\n` : "");
    for (let i = 0; i < body.length; i += 100_000) {
      if (!s.write(body.slice(i, i + 100_000))) await new Promise((r) => s.once("drain", r));
    }
  }, async (c) => {
    const r = await c.callTool({ name: "t" });
    assert.equal(r.content[0].text.length, big.length);
    assert.equal(r.content[0].text, big);
  });
});

test("big answers one after another and at once are each read whole while their buffers are reused", async () => {
  // Sizes below, above and across the reused buffer's; every answer a
  // letter of its own, so a buffer handed out while another answer still
  // used it, or bytes of an earlier answer left in it, would show.
  const MB = 1 << 20;
  let k = 0;
  const sent = new Map(); // id → text
  await withClient(async (s, m, answer) => {
    const t = String.fromCharCode(97 + (k++ % 26)).repeat(m.params.arguments.size);
    sent.set(m.id, t);
    const body = answer(text(t));
    s.write(`HTTP/1.1 200 OK\r\ncontent-type: application/json\r\ncontent-length: ${body.length}\r\n\r\n`);
    for (let i = 0; i < body.length; i += 256 * 1024) {
      if (!s.write(body.slice(i, i + 256 * 1024))) await new Promise((r) => s.once("drain", r));
      await new Promise((r) => setImmediate(r)); // the answers in flight interleave
    }
  }, async (c) => {
    const call = async (size) => {
      const r = await c.callTool({ name: "t", arguments: { size } });
      const got = r.content[0].text;
      assert.equal(got.length, size);
      assert.ok([...sent.values()].includes(got), `an answer of ${size} bytes is not what was sent`);
      assert.equal(got, got[0].repeat(size), `an answer of ${size} bytes mixes letters`);
    };
    for (const size of [3 * MB, MB, 3 * MB + 7, 300 * 1024, 2 * MB, 100 * 1024]) await call(size);
    for (let round = 0; round < 3; round++) await Promise.all([2 * MB, 2 * MB + 1, MB, 3 * MB].map(call));
  });
});

test("a whole body's buffer, released, is reused by the next body that fits, then dropped when idle", async () => {
  const sockets = new Set();
  const server = net.createServer((socket) => {
    sockets.add(socket);
    socket.on("error", () => {});
    let buf = "";
    socket.on("data", (d) => {
      buf += d.toString("latin1");
      for (let end; (end = buf.indexOf("\r\n\r\n")) >= 0;) {
        const [, letter, size] = /^POST \/(\w)\/(\d+)/.exec(buf);
        buf = buf.slice(end + 4);
        socket.write(`HTTP/1.1 200 OK\r\ncontent-type: application/json\r\ncontent-length: ${size}\r\n\r\n`);
        socket.write(letter.repeat(Number(size)));
      }
    });
  });
  await new Promise((r) => server.listen(0, "127.0.0.1", r));
  const raw = createRawHTTP(net, 4, 100);
  const get = async (letter, size) => {
    const r = await raw.request(new URL(`http://127.0.0.1:${server.address().port}/${letter}/${size}`), "POST", [], undefined, { aborted: false }, 64 << 20);
    const whole = await r.body.readAll();
    assert.equal(whole.length, size);
    assert.equal(whole.chunks.length, 1);
    assert.equal(Buffer.from(whole.chunks[0]).toString("latin1"), letter.repeat(size));
    return whole;
  };
  const KB = 1024;
  try {
    const a = await get("a", 1024 * KB);
    assert.equal(raw.spareBytes(), 0);
    a.release();
    assert.equal(raw.spareBytes(), 1024 * KB);
    const b = await get("b", 512 * KB); // fits: the same memory, none of a's bytes in it
    assert.equal(b.chunks[0].buffer, a.chunks[0].buffer);
    assert.equal(raw.spareBytes(), 0, "a buffer in use is not kept");
    const c = await get("c", 600 * KB); // while b is unreleased: other memory
    assert.notEqual(c.chunks[0].buffer, a.chunks[0].buffer);
    b.release();
    b.release(); // once only
    assert.equal(raw.spareBytes(), 1024 * KB);
    c.release(); // smaller than the one kept
    assert.equal(raw.spareBytes(), 1024 * KB);
    const d = await get("d", 2048 * KB); // does not fit
    assert.notEqual(d.chunks[0].buffer, a.chunks[0].buffer);
    d.release(); // bigger: kept instead
    assert.equal(raw.spareBytes(), 2048 * KB);
    const e = await get("e", 100 * KB); // under SPARE_MIN: its own buffer
    assert.notEqual(e.chunks[0].buffer, d.chunks[0].buffer);
    e.release();
    assert.equal(raw.spareBytes(), 2048 * KB);
    await waitFor(() => raw.spareBytes() === 0, 5000, "the idle spare buffer to be dropped");
    const f = await get("f", 300 * KB);
    assert.notEqual(f.chunks[0].buffer, d.chunks[0].buffer);
  } finally {
    for (const s of sockets) s.destroy(); // the client's kept-alive connection
    server.close();
  }
});

test("heads this client refuses fail the call with a clear error, and the client goes on", async () => {
  const cases = [
    ["folded header line", (a) => `HTTP/1.1 200 OK\r\ncontent-type: application/json\r\nx-long: a\r\n b\r\ncontent-length: ${a.length}\r\n\r\n${a}`, /obsolete line folding/],
    ["two Content-Lengths", (a) => `HTTP/1.1 200 OK\r\ncontent-length: ${a.length}\r\ncontent-length: ${a.length + 1}\r\n\r\n${a}`, /two different Content-Lengths/],
    ["a malformed Content-Length", (a) => `HTTP/1.1 200 OK\r\ncontent-length: 1e3\r\n\r\n${a}`, /malformed Content-Length/],
    ["a switch of protocols", () => "HTTP/1.1 101 Switching Protocols\r\nupgrade: websocket\r\n\r\n", /switched protocols/],
    ["not HTTP", () => "SSH-2.0-OpenSSH_9.6\r\n\r\n", /not an HTTP\/1\.1 answer/],
    ["an endless head", () => `HTTP/1.1 200 OK\r\n${"x-pad: ".padEnd(1000, "y")}\r\n`.repeat(1100), /head is longer than/],
    ["a malformed chunk size", (a) => `HTTP/1.1 200 OK\r\ntransfer-encoding: chunked\r\n\r\nzz\r\n${a}\r\n0\r\n\r\n`, /malformed chunk size/],
    ["a chunk longer than its size", (a) => `HTTP/1.1 200 OK\r\ntransfer-encoding: chunked\r\n\r\n2\r\n${a}\r\n0\r\n\r\n`, /chunk is longer than its size/],
  ];
  let which = 0;
  await withClient((s, m, answer) => {
    const shape = cases[which]?.[1];
    if (shape) s.end(shape(answer(text("never"))));
    else s.write(json(answer(text("fine again"))));
  }, async (c) => {
    for (const [name, , want] of cases) {
      await assert.rejects(c.callTool({ name: "t" }), (e) => e instanceof McpError && want.test(e.message), name);
      which++;
    }
    assert.equal((await c.callTool({ name: "t" })).content[0].text, "fine again");
  });
});

test("a body longer than maxMessageSize is refused, and the client goes on", async () => {
  let big = true;
  const { url, server } = await rawServer((s, m, answer) => {
    const body = answer(text(big ? "z".repeat(70_000) : "small"));
    s.write(json(body));
  });
  const c = new Client({ name: "raw", version: "1" });
  try {
    await c.connect(url, { maxMessageSize: 65536 });
    await assert.rejects(c.callTool({ name: "t" }), (e) => e instanceof McpError && /too large|larger than|exceeds/i.test(e.message));
    big = false;
    assert.equal((await c.callTool({ name: "t" })).content[0].text, "small");
  } finally {
    await c.close().catch(() => {});
    server.stop();
  }
});

test("answers that announce much and send little cost what they sent, not what they announced", async () => {
  // 16 calls at once, each answered with a head announcing 30 MB (under
  // maxMessageSize) and ten bytes of body, then nothing: what is set aside
  // ahead of the bytes stays within 64 MiB in all (AHEAD_MAX) plus 1 MiB
  // a body, not 30 MB a body (480 MB).
  v8.setFlagsFromString("--expose-gc");
  const gc = vm.runInNewContext("gc");
  const calls = 16;
  await withClient((s) => {
    s.write("HTTP/1.1 200 OK\r\ncontent-type: application/json\r\ncontent-length: 30000000\r\n\r\n{\"jsonrpc\"");
  }, async (c, server) => {
    gc();
    // Deno counts ArrayBuffers' memory as external, not as arrayBuffers (0 there).
    const buffers = () => (globalThis.Deno ? globalThis.Deno.memoryUsage().external : process.memoryUsage().arrayBuffers);
    const base = buffers();
    const grown = () => buffers() - base;
    const pending = Array.from({ length: calls }, () => c.callTool({ name: "t" }).then(() => "answered", (e) => e));
    await waitFor(() => grown() >= calls * (1 << 20), 10000, "every body's first buffer");
    assert.ok(grown() < 100 * (1 << 20), `${(grown() / (1 << 20)).toFixed(1)} MiB set aside for ${calls} bodies of 10 bytes`);
    server.stop(); // the bodies are cut short
    for (const r of await Promise.all(pending)) assert.ok(r instanceof McpError, String(r));
  });
});
