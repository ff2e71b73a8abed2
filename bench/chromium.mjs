// The Chromium rounds of `make bench` (bench/run.mjs): a page server on 127.0.0.1 and a fresh
// headless Chromium per round on bench/page.mjs, which runs the round (bench/round.mjs) against
// the bench server on another origin, as a chat UI calls a remote MCP server (the server answers
// CORS; bench/server.mjs --cors).
//
// Chromium is started directly (Debian's /usr/bin/chromium, or $MCPWASM_CHROMIUM), not through
// a DevTools connection: a driver such as Playwright turns on the DevTools network domain, which
// does work in the browser for every request the page makes, and that would be counted as the
// client's. The page reports through the page server instead: POST /mark when a row's timed calls
// start and stop (the server reads the CPU time of the Chromium process tree from /proc then) and
// POST /result at the end.
//
// CPU is that of every process of the Chromium under test (user + system): the page's renderer,
// where the client's code runs, and the network service and the browser process, which do its
// HTTP. A process client's HTTP is done in its own process and counted there, so this is the
// figure that compares with the other runtimes' rows; it moves in steps of 10 ms (the kernel's
// clock ticks), a percent or two of a row's.
import { spawn, execFileSync } from "node:child_process";
import { existsSync, mkdirSync, mkdtempSync, readdirSync, readFileSync, rmSync } from "node:fs";
import http from "node:http";
import os from "node:os";
import path from "node:path";
import { fileURLToPath } from "node:url";

const repo = path.resolve(path.dirname(fileURLToPath(import.meta.url)), "..");

/** chromiumPath is the browser the rounds run in. */
export const chromiumPath = process.env.MCPWASM_CHROMIUM || "/usr/bin/chromium";

// The flags of every Chromium this project starts (tests/browser/harness.mjs has the same), and
// --headless with a fresh profile directory per round.
const FLAGS = ["--headless", "--no-sandbox", "--disable-gpu", "--disable-quic", "--no-first-run", "--disable-background-networking", "--disable-component-update", "--disable-sync"];

/** chromiumVersion is "Chromium <version>" of the browser the rounds run in. */
export function chromiumVersion() {
  const v = execFileSync(chromiumPath, ["--version"], { encoding: "utf8", stdio: ["ignore", "pipe", "ignore"] });
  return /Chrom\w* [\d.]+/.exec(v)?.[0] ?? v.trim();
}

// What the page server serves: the page, the round it shares with the process clients, both
// clients as a page ships them (each bundled and minified with esbuild), and the package's
// module. Nothing else.
const STATIC = [
  ["/bench/page.mjs", "bench/page.mjs"],
  ["/bench/round.mjs", "bench/round.mjs"],
  ["/ts-client.js", "build/bench/ts-client.js"],
  ["/mcpwasm.js", "build/bench/mcpwasm.js"],
  ["/mcpwasm.wasm", "js/dist/mcpwasm.wasm"],
];
const TYPES = { ".js": "text/javascript", ".mjs": "text/javascript", ".wasm": "application/wasm" };
const PAGE = '<!doctype html><meta charset="utf-8"><title>mcpwasm bench</title><script type="module" src="/bench/page.mjs"></script>\n';

function fileFor(pathname) {
  for (const [p, f] of STATIC) if (pathname === p) return path.join(repo, f);
  return undefined;
}

/** treeCPU is the CPU time (µs, user + system) of process pid and all its descendants. */
function treeCPU(pid) {
  const procs = new Map(); // pid → {ppid, cpu}
  for (const d of readdirSync("/proc")) {
    if (!/^\d+$/.test(d)) continue;
    let s;
    try {
      s = readFileSync(`/proc/${d}/stat`, "utf8");
    } catch {
      continue; // gone
    }
    const f = s.slice(s.lastIndexOf(")") + 2).split(" "); // state ppid … utime(12) stime(13)
    procs.set(Number(d), { ppid: Number(f[1]), cpu: Number(f[11]) + Number(f[12]) });
  }
  let ticks = 0;
  for (const [p, info] of procs) {
    for (let q = p, hops = 0; q > 1 && hops < 64; q = procs.get(q)?.ppid ?? 0, hops++) {
      if (q === pid) {
        ticks += info.cpu;
        break;
      }
    }
  }
  return (ticks * 1e6) / CLK_TCK;
}
// The kernel's clock ticks per second (USER_HZ, what /proc/<pid>/stat counts in): 100 on Linux.
const CLK_TCK = (() => {
  try {
    return Number(execFileSync("getconf", ["CLK_TCK"], { encoding: "utf8", stdio: ["ignore", "pipe", "ignore"] }).trim()) || 100;
  } catch {
    return 100;
  }
})();

/**
 * buildBundles bundles both clients for the browser, as a page would ship them: the TS SDK client
 * (@modelcontextprotocol/client) and mcpwasm's browser entry (js/src/index.js; the page then
 * passes init({ wasmURL }), as the package's README says for esbuild), each one minified file.
 */
function buildBundles() {
  mkdirSync(path.join(repo, "build/bench"), { recursive: true });
  for (const [entry, out] of [["node_modules/@modelcontextprotocol/client/dist/index.mjs", "ts-client.js"], ["js/src/index.js", "mcpwasm.js"]]) {
    execFileSync(path.join(repo, "node_modules/.bin/esbuild"), [
      "--bundle", "--format=esm", "--platform=browser", "--minify", "--log-level=warning",
      path.join(repo, entry), `--outfile=${path.join(repo, "build/bench", out)}`,
    ], { stdio: "inherit" });
  }
}

/**
 * startChromiumHost builds the clients' bundles and starts the page server (browser: the
 * Chromium binary, default chromiumPath); it resolves
 * with {round(client, url, era, rows, warmSeconds, timeoutMs) → the round's result, stop()}.
 * Rounds run one at a time.
 */
export async function startChromiumHost(browser = chromiumPath) {
  if (!existsSync("/proc/self/stat")) throw new Error("bench: the Chromium rounds read CPU time from /proc (Linux)");
  if (!existsSync(browser)) throw new Error(`bench: no Chromium at ${browser} (bash scripts/browser-deps.sh installs it; MCPWASM_CHROMIUM names another)`);
  buildBundles();
  let current; // {token, pid, cpu0, resolve, reject}
  const server = http.createServer(async (req, res) => {
    const pathname = new URL(req.url ?? "/", "http://127.0.0.1").pathname;
    try {
      if (req.method === "POST" && (pathname === "/mark" || pathname === "/result")) {
        let body = "";
        for await (const chunk of req) {
          body += chunk;
          if (body.length > 1 << 20) throw new Error("a report over 1 MiB");
        }
        const m = JSON.parse(body);
        if (!current || m.token !== current.token) throw new Error("a report of no round in progress");
        let answer = {};
        if (pathname === "/mark" && m.mark === "start") current.cpu0 = treeCPU(current.pid);
        else if (pathname === "/mark" && m.mark === "stop") answer = { cpuUs: (treeCPU(current.pid) - current.cpu0) / m.calls };
        else if (pathname === "/result") (m.error ? current.reject(new Error(m.error)) : current.resolve(m.result));
        res.writeHead(200, { "content-type": "application/json" });
        res.end(JSON.stringify(answer));
        return;
      }
      if (req.method !== "GET") throw new Error(`${req.method} ${pathname}`);
      if (pathname === "/") {
        res.writeHead(200, { "content-type": "text/html; charset=utf-8" });
        res.end(PAGE);
        return;
      }
      const file = fileFor(pathname);
      const bytes = file && readFileSync(file, { throwIfNoEntry: false });
      if (!bytes) {
        res.writeHead(404, { "content-type": "text/plain" });
        res.end("not found\n");
        return;
      }
      res.writeHead(200, { "content-type": TYPES[path.extname(file)] ?? "application/octet-stream", "cache-control": "no-store" });
      res.end(bytes);
    } catch (err) {
      res.writeHead(400, { "content-type": "text/plain" });
      res.end(`${err.message}\n`);
    }
  });
  await new Promise((resolve, reject) => {
    server.once("error", reject);
    server.listen(0, "127.0.0.1", resolve);
  });
  const origin = `http://127.0.0.1:${server.address().port}`;
  let n = 0;
  // A bench that exits mid-round (an interrupt) takes the round's browser with it.
  const onExit = () => {
    if (current) killGroup(current.pid);
  };
  process.on("exit", onExit);

  async function round(client, url, era, rows, warmSeconds, timeoutMs) {
    const token = `${process.pid}-${++n}`;
    const profile = mkdtempSync(path.join(os.tmpdir(), "mcpwasm-bench-chromium-"));
    const cfg = { client, url, era, rows, warm: warmSeconds, token };
    // Its own process group, so that the whole browser (renderers, zygotes, utilities) goes at once.
    const child = spawn(browser, [...FLAGS, `--user-data-dir=${profile}`, `${origin}/#${encodeURIComponent(JSON.stringify(cfg))}`], { stdio: ["ignore", "ignore", "pipe"], detached: true });
    let stderr = "";
    child.stderr.on("data", (d) => { stderr = (stderr + d).slice(-4096); });
    // "close" follows an "error" too (a browser that could not start).
    const exited = new Promise((r) => child.once("close", r));
    child.once("error", (e) => { stderr += `\n${e.message}`; });
    let timer;
    try {
      return await new Promise((resolve, reject) => {
        current = { token, pid: child.pid, cpu0: 0, resolve, reject };
        timer = setTimeout(() => reject(new Error(`no result in ${timeoutMs / 1000} s`)), timeoutMs);
        exited.then((code) => reject(new Error(`chromium exited (${code}) before the round's result\n${stderr.trim()}`)));
      });
    } finally {
      clearTimeout(timer);
      current = undefined;
      killGroup(child.pid);
      await exited;
      rmSync(profile, { recursive: true, force: true });
    }
  }

  return {
    round,
    stop: () => {
      process.off("exit", onExit);
      return new Promise((r) => server.close(r));
    },
  };
}

/** killGroup kills the process group a browser was started in. */
function killGroup(pid) {
  try {
    process.kill(-pid, "SIGKILL");
  } catch {
    // already gone
  }
}
