// Harness of the headless Chromium tests (node --test tests/browser/):
// builds and starts the Go servers (the example-web server, the demo MCP
// server, the OAuth-protected server) on 127.0.0.1, serves test pages from
// another origin, fronts a server with misconfigured CORS, launches
// Debian's chromium (/usr/bin/chromium, or $MCPWASM_CHROMIUM) through
// playwright-core, and writes screenshots to build/screenshots/.
//
// Servers print "LISTENING <url>" when ready and exit when their stdin (a
// pipe held by this process) closes, so a crashed test run leaves nothing
// behind.
import { spawn, execFile } from "node:child_process";
import { mkdir, rename, access, readFile } from "node:fs/promises";
import http from "node:http";
import path from "node:path";
import { fileURLToPath } from "node:url";
import { promisify } from "node:util";
import { chromium } from "playwright-core";

export const repo = path.resolve(path.dirname(fileURLToPath(import.meta.url)), "../..");
export const screenshotDir = path.join(repo, "build", "screenshots");
export const chromiumPath = process.env.MCPWASM_CHROMIUM || "/usr/bin/chromium";

const run = promisify(execFile);

/** goBuild builds a Go main package into build/bin/<name> (atomically; safe in parallel). */
export async function goBuild(pkg, name) {
  // Every Go command the tests start is in the harness module (harness/).
  const out = path.join(repo, "build", "bin", name);
  await mkdir(path.dirname(out), { recursive: true });
  const tmp = `${out}.${process.pid}.tmp`;
  await run("go", ["build", "-o", tmp, pkg], { cwd: path.join(repo, "harness"), env: { ...process.env, GOOS: "", GOARCH: "" } });
  await rename(tmp, out);
  return out;
}

/** requireWasm fails with the remedy when the package's module is not built. */
export async function requireWasm() {
  try {
    await access(path.join(repo, "js", "dist", "mcpwasm.wasm"));
  } catch {
    throw new Error("js/dist/mcpwasm.wasm is missing: run bash scripts/build-wasm.sh (scripts/test.sh does)");
  }
}

/**
 * startServer runs a binary and resolves with {url, stop, stderr} once it
 * printed "LISTENING <url>". url has no trailing slash.
 */
export function startServer(bin, args = [], { name = path.basename(bin) } = {}) {
  const child = spawn(bin, args, { cwd: repo, stdio: ["pipe", "pipe", "pipe"] });
  let stderr = "";
  child.stderr.on("data", (d) => { stderr = (stderr + d).slice(-16384); });
  return new Promise((resolve, reject) => {
    let out = "";
    const timer = setTimeout(() => { child.kill("SIGKILL"); reject(new Error(`${name}: no LISTENING line in 30 s\n${stderr}`)); }, 30000);
    child.on("error", (e) => { clearTimeout(timer); reject(e); });
    child.on("exit", (code) => { clearTimeout(timer); reject(new Error(`${name} exited (${code}) before listening\n${stderr}`)); });
    child.stdout.on("data", (d) => {
      out += d;
      const m = /LISTENING (\S+)/.exec(out);
      if (!m) return;
      clearTimeout(timer);
      child.removeAllListeners("exit");
      child.stdout.resume();
      resolve({
        url: m[1].replace(/\/$/, ""),
        pid: child.pid,
        stderr: () => stderr,
        stop: () => new Promise((r) => {
          if (child.exitCode !== null || child.signalCode !== null) return r();
          child.on("exit", () => r());
          child.stdin.end();
          setTimeout(() => child.kill("SIGKILL"), 5000).unref();
        }),
      });
    });
  });
}

const built = new Map();
/**
 * goBin resolves with the binary of a Go main package: $env when given and
 * set (scripts/test.sh builds the test servers once and says where), else
 * build/bin/<name>, built once per process.
 */
function goBin(pkg, name, env) {
  if (env && process.env[env]) return Promise.resolve(process.env[env]);
  if (!built.has(name)) built.set(name, goBuild(pkg, name));
  return built.get(name);
}

/** startExampleWeb builds (once per process) and starts the example-web server. */
export async function startExampleWeb(args = []) {
  await requireWasm();
  const bin = await goBin("./exampleweb", "example-web");
  return startServer(bin, ["-port", "0", "-max-life", "10m", ...args], { name: "example-web" });
}

/** startDemoserve starts harness/demoserver/demoserve ($MCPWASM_DEMOSERVE, or built once per process). */
export async function startDemoserve(args = []) {
  const bin = await goBin("./demoserver/demoserve", "demoserve", "MCPWASM_DEMOSERVE");
  return startServer(bin, ["-max-life", "10m", ...args], { name: "demoserve" });
}

/** startAuthserve starts harness/authserve ($MCPWASM_AUTHSERVE, or built once per process). */
export async function startAuthserve(args = []) {
  const bin = await goBin("./authserve", "authserve", "MCPWASM_AUTHSERVE");
  return startServer(bin, ["-max-life", "10m", ...args], { name: "authserve" });
}

export const chromiumArgs = [
  "--no-sandbox", "--disable-gpu", "--disable-quic", "--no-first-run", "--disable-background-networking",
  "--disable-component-update", "--disable-sync",
];

/**
 * launchBrowser starts headless Chromium with a fresh profile (playwright
 * makes a new temporary user-data dir per launch and deletes it on close).
 */
export async function launchBrowser() {
  try {
    await access(chromiumPath);
  } catch {
    throw new Error(`${chromiumPath} is missing: run bash scripts/browser-deps.sh (scripts/test.sh does)`);
  }
  return chromium.launch({ executablePath: chromiumPath, headless: true, args: chromiumArgs });
}

/**
 * newPage opens a page in a new context and records uncaught page errors
 * and console errors (page.problems) so tests can assert there were none.
 */
export async function newPage(browser, { viewport = { width: 1440, height: 900 } } = {}) {
  const context = await browser.newContext({ viewport, deviceScaleFactor: 1 });
  const page = await context.newPage();
  page.setDefaultTimeout(15000);
  const problems = [];
  page.on("pageerror", (e) => problems.push(`pageerror: ${e.message}`));
  page.on("console", (m) => { if (m.type() === "error") problems.push(`console.error: ${m.text()}`); });
  page.problems = problems;
  return { context, page };
}

/** screenshot writes build/screenshots/<name>.png and returns its path. */
export async function screenshot(page, name, options = {}) {
  await mkdir(screenshotDir, { recursive: true });
  const file = path.join(screenshotDir, `${name}.png`);
  await page.screenshot({ path: file, ...options });
  return file;
}

/**
 * startCorsFaultProxy serves a misconfigured CORS front for a real MCP
 * server (the faults real deployments have and a correct server does not):
 * every request goes to target unchanged and every response comes back
 * streamed, with its headers first passed through fault(headers, req), which
 * may change them (lower-case names). Resolves with {url, stop}.
 */
export function startCorsFaultProxy(target, fault) {
  const t = new URL(target);
  const server = http.createServer((req, res) => {
    const up = http.request({ host: t.hostname, port: t.port, method: req.method, path: req.url, headers: { ...req.headers, host: t.host } }, (ur) => {
      const headers = { ...ur.headers };
      fault(headers, req);
      res.writeHead(ur.statusCode, headers);
      ur.pipe(res);
    });
    up.on("error", () => res.destroy());
    res.on("close", () => up.destroy());
    req.pipe(up);
  });
  return listenLocal(server);
}

const staticTypes = { ".html": "text/html; charset=utf-8", ".js": "text/javascript", ".mjs": "text/javascript", ".wasm": "application/wasm", ".json": "application/json" };

/**
 * startStaticServer serves files for pages whose origin must differ from
 * the MCP server's: mounts maps URL prefixes ("/fixtures/") to directories.
 * GET only, no directory listings, nothing outside the mounted directories.
 * Resolves with {url, stop}.
 */
export function startStaticServer(mounts) {
  const server = http.createServer(async (req, res) => {
    const { pathname } = new URL(req.url, "http://x");
    const prefix = Object.keys(mounts).find((p) => pathname.startsWith(p));
    const rel = prefix ? path.normalize(decodeURIComponent(pathname.slice(prefix.length))) : "";
    const type = staticTypes[path.extname(rel)];
    if (req.method !== "GET" || !prefix || !type || rel.startsWith("..") || path.isAbsolute(rel)) {
      res.writeHead(404).end();
      return;
    }
    try {
      const body = await readFile(path.join(mounts[prefix], rel));
      res.writeHead(200, { "Content-Type": type, "Cache-Control": "no-cache" }).end(body);
    } catch {
      res.writeHead(404).end();
    }
  });
  return listenLocal(server);
}

/**
 * startFixtureSite serves the test pages (tests/browser/fixtures, under
 * /fixtures/) and the package (js/src and js/dist, under /mcpwasm/) from an
 * origin of their own, after checking that the module is built. Resolves
 * with {url, stop}.
 */
export async function startFixtureSite() {
  await requireWasm();
  return startStaticServer({
    "/fixtures/": path.join(repo, "tests/browser/fixtures"),
    "/mcpwasm/src/": path.join(repo, "js/src"),
    "/mcpwasm/dist/": path.join(repo, "js/dist"),
  });
}

/**
 * listenLocal starts server on a free port of 127.0.0.1. Resolves with
 * {url, stop}; stop drops open connections and resolves once closed.
 */
function listenLocal(server) {
  return new Promise((resolve) => {
    server.listen(0, "127.0.0.1", () => {
      resolve({
        url: `http://127.0.0.1:${server.address().port}`,
        stop: () => new Promise((r) => {
          server.closeAllConnections();
          server.close(() => r());
        }),
      });
    });
  });
}

/**
 * startAppServer starts one of the official MCP Apps example servers (a
 * package name, e.g. "@modelcontextprotocol/server-basic-vanillajs") on
 * 127.0.0.1 through tests/browser/fixtures/app-server.mjs. Resolves with
 * {url, stop}; the MCP endpoint is url + "/mcp".
 */
export function startAppServer(pkg) {
  return startServer(process.execPath, [path.join(repo, "tests/browser/fixtures/app-server.mjs"), pkg], { name: pkg });
}

/**
 * bundle builds a browser ESM bundle of entry (esbuild, platform browser:
 * a Node-only import fails the build) into outfile. Resolves with the
 * esbuild result (metafile included).
 */
export async function bundle(entry, outfile, options = {}) {
  const esbuild = await import("esbuild");
  return esbuild.build({
    entryPoints: [entry], outfile, bundle: true, format: "esm", platform: "browser", target: "es2022",
    metafile: true, logLevel: "silent", ...options,
  });
}
