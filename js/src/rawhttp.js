// HTTP/1.1 over node:net for plain http: URLs, for the Node HTTP client
// (nodehttp.js). Why not node:http: every socket read of node:http is a
// new Buffer (memory outside V8's heap, which V8 answers with collections
// of its own), and every exchange makes a ClientRequest, an
// IncomingMessage and a stream event per chunk. Reading a 1 MB answer cost
// ≈1.0 ms of CPU through node:http and ≈0.46 ms here, where the socket
// reads into one buffer kept for all connections (net's onread option) and
// the body is copied once, into a buffer of its announced length
// (docs/architecture.md, "HTTP in Node").
//
// It answers as nodehttp.js's node:http path does (and so as fetch does):
// header names lower-cased, repeated ones joined, a redirect handed back
// (null) for fetch to follow, failures as TypeError("fetch failed") with
// the cause, a body cut short as TypeError("terminated"), content codings
// decoded. What HTTP/1.1 allows and an MCP server never sends is refused
// with a clear error: a 101 switch, obsolete header line folding, a
// Content-Length that is not one number, a head over HEAD_MAX bytes.

const HEAD_MAX = 1 << 20; // bytes of a response head (net/http's default)
const READ_SIZE = 64 * 1024; // the one read buffer
const CHUNK_LINE_MAX = 4096; // a chunk-size line, extensions included
// A body of announced length is read into one buffer of that length (no
// copy as it arrives) while the room set aside for bytes that have not
// arrived yet, across every answer in flight, stays within AHEAD_MAX;
// beyond it a body starts with at most WHOLE_STEP and grows fourfold as
// bytes arrive. So servers that announce much and send little cost what
// they sent (at most four times that) plus AHEAD_MAX, not what they
// announced times the calls in flight.
const AHEAD_MAX = 64 << 20;
const WHOLE_STEP = 1 << 20;
let ahead = 0; // the unfilled room of every Body's whole-body buffer
// Once the module has copied a whole body's bytes (release), its buffer is
// kept for the next whole body that fits in it: one buffer at most, of
// SPARE_MIN to SPARE_MAX bytes, dropped after SPARE_IDLE_MS unused. A fresh
// 10 MB ArrayBuffer an answer is fresh memory from the system each time
// (page faults, zeroing, and V8 collections for its external memory):
// 10–15 % of the CPU of a 1 MB or 10 MB result in Node.
const SPARE_MIN = 256 * 1024;
const SPARE_MAX = AHEAD_MAX;
const SPARE_IDLE_MS = 5000;
/** QUEUED_MAX is how many body chunks wait for a reader before the socket is paused. */
export const QUEUED_MAX = 16;
/**
 * STALE are the errors of a kept-alive connection the server closed while
 * it was idle: the request is sent once more on a new connection, as
 * browsers and Go's net/http do (nothing of an answer arrived).
 */
export const STALE = new Set(["ECONNRESET", "EPIPE", "ECONNABORTED"]);
/** REDIRECT are the statuses fetch follows (with a Location). */
export const REDIRECT = new Set([301, 302, 303, 307, 308]);
const TOKEN = /^[!#$%&'*+\-.^_`|~0-9A-Za-z]+$/;

/**
 * createRawHTTP returns {request(u, method, headers, body, entry, limit), spareBytes()}:
 * u a URL (http:), headers [name, value] pairs (checked, then written as
 * given), body a Uint8Array or undefined, limit the most body bytes kept
 * for a whole-body read (an announced length above it is cut there and
 * the connection dropped). It resolves with {status, type, lines (the raw
 * [name, value, …] list), contentType, coding, body}, or null for a
 * redirect, as nodehttp.js's request does; at most IDLE_MAX idle
 * connections are kept per host. A whole body (readAll) comes with
 * release(): called once its bytes are copied, its buffer may be reused
 * for a later body; spareBytes() is the size of the buffer kept so (0 for
 * none). spareIdleMs (tests) overrides SPARE_IDLE_MS.
 */
export function createRawHTTP(net, IDLE_MAX, spareIdleMs = SPARE_IDLE_MS) {
  const readBuffer = Buffer.allocUnsafeSlow(READ_SIZE);
  const idle = new Map(); // "host:port" → [Conn]
  let spare = null; // a released whole-body buffer (see SPARE_MIN)
  let spareTimer;

  // takeSpare returns the first size bytes of the spare buffer, or null.
  function takeSpare(size) {
    if (!spare || size < SPARE_MIN || spare.byteLength < size) return null;
    const b = spare.subarray(0, size);
    spare = null;
    clearTimeout(spareTimer);
    return b;
  }

  // keepSpare keeps the memory of b, a whole-body buffer no one reads
  // any more, for takeSpare (the bigger of it and the one kept).
  function keepSpare(b) {
    const all = new Uint8Array(b.buffer);
    if (all.byteLength < SPARE_MIN || all.byteLength > SPARE_MAX || (spare && spare.byteLength >= all.byteLength)) return;
    spare = all;
    clearTimeout(spareTimer);
    spareTimer = setTimeout(() => { spare = null; }, spareIdleMs);
    spareTimer.unref?.();
  }

  function take(key) {
    const list = idle.get(key);
    while (list?.length) {
      const c = list.pop();
      if (!list.length) idle.delete(key);
      clearTimeout(c.idleTimer);
      if (!c.dead) return c;
    }
    return null;
  }

  function release(c) {
    if (c.dead) return;
    let list = idle.get(c.key);
    if (!list) idle.set(c.key, (list = []));
    if (list.length >= IDLE_MAX) {
      c.destroy();
      return;
    }
    c.socket.unref(); // an idle connection does not keep the process alive
    if (c.idleMs > 0) {
      // closed a second before the server said it would close it, as Node's
      // agent does: a request then never meets the server's close
      c.idleTimer = setTimeout(() => c.destroy(), Math.max(c.idleMs - 1000, 0));
      c.idleTimer.unref?.();
    }
    list.push(c);
  }

  function forget(c) {
    const list = idle.get(c.key);
    const i = list ? list.indexOf(c) : -1;
    if (i >= 0) {
      list.splice(i, 1);
      if (!list.length) idle.delete(c.key);
    }
  }

  /** Conn is one kept-alive connection; it carries one exchange at a time. */
  class Conn {
    constructor(key, host, port) {
      this.key = key;
      this.ex = null;
      this.dead = false;
      this.used = false; // carried an exchange before the current one
      this.idleMs = 0; // the server's Keep-Alive timeout, when it gave one
      this.idleTimer = undefined;
      this.socket = net.connect({ host, port, onread: { buffer: readBuffer, callback: (n, buf) => this.data(buf, n) } });
      this.socket.setNoDelay(true);
      this.socket.on("error", (e) => this.end(e));
      this.socket.on("close", () => this.end(null));
    }

    data(buf, n) {
      if (!this.ex) {
        this.destroy(); // bytes nobody asked for
        return false;
      }
      return this.ex.feed(buf, n);
    }

    // end: the socket failed or closed.
    end(err) {
      if (this.dead && !this.ex) return;
      this.dead = true;
      forget(this);
      const ex = this.ex;
      this.ex = null;
      ex?.broken(err);
    }

    destroy(err) {
      clearTimeout(this.idleTimer);
      this.dead = true;
      forget(this);
      this.socket.destroy(err);
    }
  }

  /** Exchange parses one answer as its bytes arrive. */
  class Exchange {
    constructor(conn, method, entry, limit, resolve, reject) {
      Object.assign(this, { conn, method, entry, limit, resolve, reject });
      this.reused = conn.used;
      this.got = false; // a byte of the answer arrived
      this.head = ""; // the head so far (latin1)
      this.answered = false; // resolved
      this.mode = ""; // body framing: "length", "chunked", "close", "" (none yet)
      this.left = 0; // bytes left of the body (length) or of the chunk (chunked)
      this.chunk = ""; // chunked: "size" line, "data", "crlf", "trailer"
      this.line = ""; // chunked: the line so far
      this.keep = false;
      this.done = false;
      this.body = null;
    }

    feed(buf, n) {
      this.got = true;
      let i = 0;
      try {
        if (!this.mode) {
          i = this.parseHead(buf, n);
          if (i < 0) return true; // more head to come
          if (this.done) return this.finish(i, n);
        }
        i = this.parseBody(buf, i, n);
        if (this.done) return this.finish(i, n);
      } catch (e) {
        this.fail(e);
        return false;
      }
      return this.body.room();
    }

    // parseHead adds the read to the head; it returns the offset of the
    // body in buf once the head is complete, -1 before.
    parseHead(buf, n) {
      this.head += buf.latin1Slice(0, n);
      let bufStart = this.head.length - n; // where buf begins in this.head
      for (;;) {
        const end = this.head.indexOf("\r\n\r\n");
        if (end < 0) {
          if (this.head.length > HEAD_MAX) throw new Error(`the answer's head is longer than ${HEAD_MAX} bytes`);
          return -1;
        }
        const at = end + 4 - bufStart; // offset in buf of what follows the head
        const head = this.head.slice(0, end);
        const lines = head.split("\r\n");
        const m = /^HTTP\/1\.([01]) (\d{3})(?: .*)?$/.exec(lines[0]);
        if (!m) throw new Error(`not an HTTP/1.1 answer: ${JSON.stringify(lines[0].slice(0, 80))}`);
        const status = Number(m[2]);
        const raw = [];
        for (let k = 1; k < lines.length; k++) {
          const line = lines[k];
          if (line[0] === " " || line[0] === "\t") throw new Error("the answer folds a header line (obsolete line folding)");
          const c = line.indexOf(":");
          const name = c > 0 ? line.slice(0, c) : "";
          if (!TOKEN.test(name)) throw new Error(`a malformed header line: ${JSON.stringify(line.slice(0, 80))}`);
          raw.push(name, line.slice(c + 1).trim());
        }
        if (status >= 100 && status < 200) {
          if (status === 101) throw new Error("the server switched protocols (101)");
          this.head = this.head.slice(end + 4); // an interim answer: the real one follows
          bufStart -= end + 4;
          if (this.head.length === 0) return -1;
          continue;
        }
        this.start(status, m[1] === "1", raw);
        return at;
      }
    }

    // start makes the response object of the head and picks the framing.
    start(status, http11, raw) {
      let length = null;
      let te = "";
      let connection = "";
      let type = "";
      let coding = "";
      let location;
      for (let k = 0; k < raw.length; k += 2) {
        const name = raw[k].toLowerCase();
        const v = raw[k + 1];
        if (name === "content-length") {
          for (const part of v.split(",")) {
            if (!/^\d{1,15}$/.test(part.trim())) throw new Error(`a malformed Content-Length: ${JSON.stringify(v.slice(0, 40))}`);
            const x = Number(part.trim());
            if (length !== null && length !== x) throw new Error("the answer has two different Content-Lengths");
            length = x;
          }
        } else if (name === "transfer-encoding") te += (te ? "," : "") + v.toLowerCase();
        else if (name === "connection") connection += "," + v.toLowerCase();
        else if (name === "content-type" && !type) type = v;
        else if (name === "content-encoding") coding += (coding ? ", " : "") + v;
        else if (name === "location") location = v;
        else if (name === "keep-alive") {
          const t = /(?:^|,)\s*timeout=(\d{1,6})/i.exec(v);
          if (t) this.conn.idleMs = Number(t[1]) * 1000;
        }
      }
      this.keep = http11 && !/(^|,)\s*close\s*(,|$)/.test(connection);
      if (this.method === "HEAD" || status === 204 || status === 304) {
        this.mode = "length";
        this.left = 0;
      } else if (te) {
        if (!/(^|,)\s*chunked\s*$/.test(te)) throw new Error(`a Transfer-Encoding this client does not read: ${JSON.stringify(te)}`);
        this.mode = "chunked";
        this.chunk = "size";
      } else if (length !== null) {
        this.mode = "length";
        this.left = length;
      } else {
        this.mode = "close"; // the body ends with the connection
        this.keep = false;
      }
      const redirect = REDIRECT.has(status) && location !== undefined;
      const whole = !redirect && this.mode === "length" && !coding && !type.toLowerCase().startsWith("text/event-stream");
      this.body = new Body(this, whole ? Math.min(this.left, this.limit) : -1);
      if (this.mode === "length" && this.left === 0) this.done = true;
      this.answered = true;
      if (redirect) {
        // fetch follows it (nodehttp.js's caller): this connection's answer
        // is dropped with it
        this.keep = false;
        this.body.cancel();
        this.resolve(null);
        return;
      }
      this.resolve({ status, type: "default", lines: raw, contentType: type, coding, body: this.body });
    }

    // parseBody takes the body's bytes of buf from i; it returns where
    // they end (done set when the body is complete).
    parseBody(buf, i, n) {
      while (i < n && !this.done) {
        if (this.mode === "close") {
          this.body.push(buf, i, n);
          return n;
        }
        if (this.mode === "length") {
          const k = Math.min(this.left, n - i);
          this.body.push(buf, i, i + k);
          this.left -= k;
          i += k;
          if (this.left === 0) this.done = true;
          continue;
        }
        // chunked
        if (this.chunk === "data") {
          const k = Math.min(this.left, n - i);
          this.body.push(buf, i, i + k);
          this.left -= k;
          i += k;
          if (this.left === 0) this.chunk = "crlf";
          continue;
        }
        const nl = buf.indexOf(10, i);
        const stop = nl < 0 || nl >= n ? n : nl + 1;
        this.line += buf.latin1Slice(i, stop);
        i = stop;
        if (this.line.length > CHUNK_LINE_MAX) throw new Error("a chunk-size line longer than 4096 bytes");
        if (!this.line.endsWith("\n")) continue;
        const line = this.line.replace(/\r?\n$/, "");
        this.line = "";
        if (this.chunk === "crlf") {
          if (line !== "") throw new Error("a chunk is longer than its size");
          this.chunk = "size";
        } else if (this.chunk === "size") {
          const m = /^([0-9a-fA-F]{1,13})[ \t]*(;.*)?$/.exec(line);
          if (!m) throw new Error(`a malformed chunk size: ${JSON.stringify(line.slice(0, 40))}`);
          this.left = parseInt(m[1], 16);
          this.chunk = this.left === 0 ? "trailer" : "data";
        } else if (line === "") {
          this.done = true; // the end of the trailer section
        }
      }
      return i;
    }

    // finish: the answer is complete; bytes after it end the connection.
    finish(i, n) {
      const c = this.conn;
      c.ex = null;
      this.body.end();
      if (i < n || !this.keep) c.destroy();
      else {
        c.used = true;
        release(c);
      }
      return true;
    }

    // broken: the connection failed or closed under this exchange.
    broken(err) {
      if (this.done) return;
      if (this.mode === "close" && !err) {
        this.done = true;
        this.body.end();
        return;
      }
      // (as node:http's "socket hang up": a reset, for the stale-connection retry)
      const cause = err ?? Object.assign(new Error("the connection closed before the end of the answer"), { code: "ECONNRESET" });
      this.fail(cause);
    }

    // drop ends the exchange and its connection, whatever is left of the answer.
    drop() {
      this.done = true;
      this.keep = false;
      this.conn.ex = null;
      this.conn.destroy();
    }

    fail(cause) {
      if (this.done) return;
      this.drop();
      if (!this.answered) {
        this.answered = true;
        if (this.reused && !this.got && !this.entry.aborted && STALE.has(cause?.code)) this.resolve(STALE_RETRY);
        else this.reject(new TypeError("fetch failed", { cause }));
        return;
      }
      this.body.error(new TypeError("terminated", { cause }));
    }
  }

  /**
   * Body holds an answer's body for host.js: readAll() (the whole body, in
   * one buffer when its length was announced) or getReader() (chunks as
   * they come, the socket paused while QUEUED_MAX wait).
   */
  class Body {
    constructor(ex, whole) {
      this.ex = ex;
      this.whole = whole; // the announced length (cut at the limit), or -1
      this.n = 0; // bytes in buf
      this.unfilled = 0; // buf's room not filled yet (counted in ahead)
      this.buf = whole >= 0 ? this.alloc(whole <= AHEAD_MAX - ahead ? whole : Math.min(whole, WHOLE_STEP)) : null; // the whole body, when its length is known
      this.queue = []; // copies of the reads (no whole buffer)
      this.ended = false;
      this.err = null;
      this.waiter = null; // a reader's read()
      this.all = null; // readAll's
    }

    push(b, from, to) {
      if (to <= from) return;
      if (this.buf) {
        const k = Math.min(to - from, this.whole - this.n);
        if (this.n + k > this.buf.length) this.grow(this.n + k);
        this.buf.set(b.subarray(from, from + k), this.n);
        this.n += k;
        this.setUnfilled(this.buf.length - this.n);
        if (k < to - from) this.overflow();
        return;
      }
      this.queue.push(Uint8Array.prototype.slice.call(b, from, to)); // a copy: b is the read buffer of every connection
      this.wake();
    }

    // alloc returns a buffer of size bytes, n of them to be copied in.
    alloc(size) {
      const b = takeSpare(size) ?? new Uint8Array(size);
      this.setUnfilled(size - this.n);
      return b;
    }

    // grow makes room for need bytes: the announced length when AHEAD_MAX
    // allows, else four times the buffer (at most that length).
    grow(need) {
      const all = this.whole - this.n <= AHEAD_MAX - ahead + this.unfilled;
      const next = this.alloc(all ? this.whole : Math.min(this.whole, Math.max(need, 4 * this.buf.length)));
      next.set(this.buf.subarray(0, this.n));
      this.buf = next;
    }

    setUnfilled(u) {
      ahead += u - this.unfilled;
      this.unfilled = u;
    }

    // overflow: more than the limit of a whole-body read. What was kept is
    // delivered (the module reports the body as too large) and the
    // connection dropped.
    overflow() {
      this.ex.drop();
      this.end();
    }

    room() {
      return this.buf !== null || this.queue.length < QUEUED_MAX;
    }

    end() {
      this.ended = true;
      this.setUnfilled(0);
      this.wake();
    }

    error(e) {
      this.err = e;
      this.setUnfilled(0);
      this.wake();
    }

    wake() {
      const a = this.all;
      if (a && (this.err || this.ended)) {
        this.all = null;
        if (this.err) a.reject(this.err);
        else {
          const buf = this.buf;
          let kept = false;
          a.resolve({ chunks: [buf.subarray(0, this.n)], length: this.n, release: () => { if (!kept) { kept = true; keepSpare(buf); } } });
        }
      }
      const w = this.waiter;
      if (!w) return;
      if (this.queue.length) {
        this.waiter = null;
        w.resolve({ done: false, value: this.queue.shift() });
      } else if (this.err) {
        this.waiter = null;
        w.reject(this.err);
      } else if (this.ended) {
        this.waiter = null;
        w.resolve({ done: true, value: undefined });
      }
    }

    resumeSocket() {
      const s = this.ex.conn.socket;
      if (!this.ended && !this.err && s.isPaused()) s.resume();
    }

    /** readAll resolves with {chunks, length} once the whole body is in; null when it is not kept whole. */
    readAll() {
      if (!this.buf) return null;
      return new Promise((resolve, reject) => {
        this.all = { resolve, reject };
        this.wake();
      });
    }

    getReader() {
      return {
        read: () => {
          if (this.buf) {
            // a whole body read as a stream: one chunk at its end
            if (!this.ended && !this.err) return new Promise((resolve, reject) => { this.all = { resolve: () => resolve(this.takeWhole()), reject }; this.wake(); });
            return this.err ? Promise.reject(this.err) : Promise.resolve(this.takeWhole());
          }
          if (this.queue.length) {
            const value = this.queue.shift();
            if (this.queue.length < QUEUED_MAX / 2) this.resumeSocket();
            return Promise.resolve({ done: false, value });
          }
          if (this.err) return Promise.reject(this.err);
          if (this.ended) return Promise.resolve({ done: true, value: undefined });
          return new Promise((resolve, reject) => {
            this.waiter = { resolve, reject };
            this.resumeSocket();
          });
        },
        cancel: () => {
          this.cancel();
          return Promise.resolve();
        },
      };
    }

    // takeWhole hands over the whole buffer as one read (then the end).
    takeWhole() {
      const value = this.buf.subarray(0, this.n);
      this.buf = null;
      return value.length ? { done: false, value } : { done: true, value: undefined };
    }

    cancel() {
      this.queue.length = 0;
      this.setUnfilled(0);
      if (this.ended) return;
      this.ended = true;
      if (!this.ex.done) this.ex.drop();
    }
  }

  const STALE_RETRY = Symbol("stale");

  async function request(u, method, headers, body, entry, limit) {
    const host = u.hostname.startsWith("[") ? u.hostname.slice(1, -1) : u.hostname;
    const port = Number(u.port || 80);
    const key = `${host}:${port}`;
    let head = `${method} ${u.pathname}${u.search} HTTP/1.1\r\nHost: ${u.host}\r\n`;
    for (const [k, v] of headers) {
      // (node:http refuses these too: a CR or LF would end the header)
      if (!TOKEN.test(k)) throw new TypeError("fetch failed", { cause: new Error(`invalid header name ${JSON.stringify(k)}`) });
      if (/[\r\n\0]/.test(v)) throw new TypeError("fetch failed", { cause: new Error(`invalid value of header ${k}`) });
      head += `${k}: ${v}\r\n`;
    }
    head += "\r\n";
    for (let attempt = 0; ; attempt++) {
      if (entry.aborted) throw new DOMException("This operation was aborted", "AbortError");
      const c = (attempt === 0 && take(key)) || new Conn(key, host, port);
      c.socket.ref();
      const r = await new Promise((resolve, reject) => {
        const ex = new Exchange(c, method, entry, limit, resolve, reject);
        c.ex = ex;
        entry.cancel = () => {
          if (!ex.done) ex.fail(new DOMException("This operation was aborted", "AbortError"));
          else ex.body?.cancel();
        };
        c.socket.cork();
        c.socket.write(head, "latin1");
        if (body !== undefined && body.byteLength) c.socket.write(body);
        c.socket.uncork();
      });
      if (r !== STALE_RETRY) return r;
    }
  }

  return { request, spareBytes: () => spare?.byteLength ?? 0 };
}
