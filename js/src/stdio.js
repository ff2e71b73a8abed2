// stdio servers for Node (mcpwasm/node): the server runs as a child
// process and speaks newline-delimited JSON-RPC over its standard input and
// output; the wasm client reaches it through a "port" (connect's transport
// "port": whole messages in, whole messages out).

import { spawn } from "node:child_process";
import { StringDecoder } from "node:string_decoder";
import { checkOptions } from "./loader.js";

const PORT_OPTIONS = ["command", "args", "env", "cwd", "onStderr", "maxMessageSize", "closeTimeout"];
const STDERR_TAIL = 4096;
const MAX_STDERR_LINE = 64 * 1024;
const MAX_QUEUED_OUTPUT = 64 * 1024 * 1024;
// Where there are process groups, the server leads one of its own and the
// signals of close() go to the whole group (see stdioPort).
const GROUPS = process.platform !== "win32";

/**
 * LineSplitter cuts a text stream into lines (without "\n" or "\r\n"),
 * with a bound on one line's length: a longer line is dropped and
 * reported.
 */
class LineSplitter {
  #buf = "";
  #dropping = false;
  constructor(max, onLine, onTooLong) {
    this.max = max;
    this.onLine = onLine;
    this.onTooLong = onTooLong;
  }

  push(text) {
    let start = 0;
    for (;;) {
      const nl = text.indexOf("\n", start);
      if (nl < 0) break;
      const piece = text.slice(start, nl);
      start = nl + 1;
      if (this.#dropping) {
        this.#dropping = false;
        this.#buf = "";
        continue;
      }
      const line = this.#buf + piece;
      this.#buf = "";
      if (line.length > this.max) this.onTooLong(line.length);
      else this.onLine(line.endsWith("\r") ? line.slice(0, -1) : line);
    }
    if (this.#dropping) return;
    this.#buf += text.slice(start);
    if (this.#buf.length > this.max) {
      this.onTooLong(this.#buf.length);
      this.#buf = "";
      this.#dropping = true;
    }
  }

  /** end hands over a last line without its newline. */
  end() {
    if (!this.#dropping && this.#buf) this.onLine(this.#buf);
    this.#buf = "";
  }
}

/**
 * stdioPort returns a port (for connect's transport "port") that starts
 * the server process when the client connects and ends it when the client
 * closes: its standard input is closed, then after closeTimeout ms it gets
 * SIGTERM, after another closeTimeout SIGKILL. Except on Windows the server
 * is started as the leader of a process group (and session) of its own and
 * the signals go to the whole group, so that the processes it started (a
 * wrapper script's child, what npx or uvx launch) end with it; a
 * terminal's Ctrl+C then reaches the script, not the server, which sees
 * its standard input close when the script exits. Options: command (required),
 * args, env (added to process.env), cwd, onStderr(line), maxMessageSize
 * (one line, default 32 MiB), closeTimeout (default 2000 ms).
 *
 * The port carries `pid` once started and `exited`, a Promise that
 * resolves with {code, signal} when the process has exited (at once with
 * {code: null, signal: null} if it never started).
 */
export function stdioPort(options) {
  const o = checkOptions(options, PORT_OPTIONS, "stdioPort");
  if (typeof o.command !== "string" || o.command === "") throw new TypeError("stdioPort: command is required");
  if (o.args !== undefined && (!Array.isArray(o.args) || o.args.some((a) => typeof a !== "string"))) throw new TypeError("stdioPort: args must be an array of strings");
  if (o.onStderr !== undefined && typeof o.onStderr !== "function") throw new TypeError("stdioPort: onStderr must be a function");
  const max = o.maxMessageSize ?? 32 * 1024 * 1024;
  const closeTimeout = o.closeTimeout ?? 2000;
  let child = null;
  let closed = false; // close() was called: the Go side is gone
  let ended = false; // onEnd was called
  let resolveExited;
  const exited = new Promise((r) => { resolveExited = r; });
  let stderrTail = "";

  const port = {
    pid: undefined,
    exited,
    start(onMessage, onEnd) {
      if (child) throw new Error("stdioPort: a port carries one connection");
      const end = (err) => {
        if (ended || closed) return;
        ended = true;
        onEnd(err);
      };
      const deliver = (s) => { if (!closed && !ended) onMessage(s); };
      try {
        child = spawn(o.command, o.args ?? [], {
          cwd: o.cwd,
          env: o.env ? { ...process.env, ...o.env } : process.env,
          stdio: ["pipe", "pipe", "pipe"],
          windowsHide: true,
          detached: GROUPS,
        });
      } catch (e) {
        resolveExited({ code: null, signal: null });
        throw new Error(`could not start ${o.command}: ${e.message}`);
      }
      port.pid = child.pid;
      const out = new LineSplitter(max, (line) => { if (line.trim()) deliver(line); },
        // the Go side reports what is not JSON-RPC to onWarning
        (n) => deliver(`mcpwasm: a line of ${n} bytes from the server was dropped (maxMessageSize ${max})`));
      const outDecoder = new StringDecoder("utf8");
      child.stdout.on("data", (b) => out.push(outDecoder.write(b)));
      child.stdout.on("end", () => { out.push(outDecoder.end()); out.end(); });
      const errDecoder = new StringDecoder("utf8");
      const errLines = new LineSplitter(MAX_STDERR_LINE, (line) => {
        if (!o.onStderr) return;
        try { o.onStderr(line); } catch (e) { console.error("mcpwasm: onStderr threw", e); }
      }, () => {});
      child.stderr.on("data", (b) => {
        const s = errDecoder.write(b);
        stderrTail = (stderrTail + s).slice(-STDERR_TAIL);
        errLines.push(s);
      });
      child.stderr.on("end", () => { errLines.push(errDecoder.end()); errLines.end(); });
      child.stdin.on("error", () => {}); // EPIPE when the server is gone: its exit says why
      child.on("error", (e) => {
        // spawn failed (ENOENT, EACCES): no exit event follows
        if (child.exitCode === null && child.signalCode === null && child.pid === undefined) resolveExited({ code: null, signal: null });
        end(new Error(`could not start ${o.command}: ${e.message}`));
      });
      let exitInfo = null;
      const finish = () => {
        const { code, signal } = exitInfo;
        const how = signal ? `signal ${signal}` : `status ${code}`;
        const tail = stderrTail.trim();
        end(new Error(`the server process exited (${how})${tail ? `; its stderr ends with: ${tail}` : ""}`));
      };
      child.on("exit", (code, signal) => {
        exitInfo = { code, signal };
        resolveExited(exitInfo);
        // its last lines first: "close" follows once stdout and stderr
        // ended (a grandchild may hold them open: then after a bound)
        const t = setTimeout(finish, closeTimeout);
        t.unref?.();
        child.once("close", () => { clearTimeout(t); finish(); });
      });
    },
    send(json) {
      if (!child || closed) throw new Error("the stdio port is closed");
      if (!child.stdin.writable) throw new Error(`the server process's standard input is closed${child.exitCode !== null ? ` (it exited with status ${child.exitCode})` : ""}`);
      // Node queues what the pipe does not take: bounded, for a server
      // that stopped reading its input
      if (child.stdin.writableLength > MAX_QUEUED_OUTPUT) throw new Error(`the server is not reading its input (${child.stdin.writableLength} bytes waiting)`);
      child.stdin.write(`${json}\n`);
    },
    close() {
      if (closed) return;
      closed = true;
      if (!child || child.exitCode !== null || child.signalCode !== null) return;
      child.stdin.end();
      const signal = (sig) => {
        if (GROUPS) {
          try {
            process.kill(-child.pid, sig);
            return;
          } catch {
            // the group is gone (or this runtime has no group signals)
          }
        }
        child.kill(sig);
      };
      const term = setTimeout(() => {
        signal("SIGTERM");
        const kill = setTimeout(() => signal("SIGKILL"), closeTimeout);
        exited.then(() => clearTimeout(kill));
      }, closeTimeout);
      exited.then(() => clearTimeout(term));
    },
  };
  return port;
}

/**
 * connectStdio starts a stdio server and connects client to it. Options:
 * those of stdioPort, and signal, era, protocolVersions (as in connect).
 * It resolves with the session info; the returned info's `port` is the
 * port (pid, exited).
 */
export async function connectStdio(client, options) {
  const { signal, era, protocolVersions, ...portOptions } = options ?? {};
  const port = stdioPort(portOptions);
  try {
    const info = await client.connect(`stdio:${portOptions.command}`, { transport: "port", port, signal, era, protocolVersions });
    return { ...info, port };
  } catch (e) {
    port.close();
    throw e;
  }
}
