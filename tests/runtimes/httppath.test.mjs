// Which HTTP client the Node entry point's requests go through in Bun and
// Deno, seen from the server: in both, plain http: calls go over node:net
// (rawhttp.js, which asks for "gzip, deflate"), through the package's
// export condition ("bun", "deno") and through the entry point's path
// alike, unless a proxy variable is set — or, in Deno, the script may not
// read them — when the runtime's fetch (its own Accept-Encoding) keeps
// them. Every request carries the runtime's own User-Agent either way
// (js/src/nodehttp.js).
import { test, before, after } from "node:test";
import assert from "node:assert/strict";
import { execFile } from "node:child_process";
import { mkdir, rm, writeFile, symlink } from "node:fs/promises";
import http from "node:http";
import path from "node:path";
import { fileURLToPath } from "node:url";
import { promisify } from "node:util";

const here = path.dirname(fileURLToPath(import.meta.url));
const repo = path.resolve(here, "../..");
const app = path.join(repo, "build", "runtimes-httppath");
const bin = (name) => path.join(repo, "node_modules", ".bin", name);
const exec = promisify(execFile);
const RAW_ENCODINGS = "gzip, deflate"; // what rawhttp.js asks for on http:

let server;
let url;
const seen = []; // {ua, ae} of every POST, in order

before(async () => {
  await rm(app, { recursive: true, force: true });
  await mkdir(path.join(app, "node_modules"), { recursive: true });
  await symlink(path.join(repo, "js"), path.join(app, "node_modules", "mcpwasm"), "dir");
  await writeFile(path.join(app, "package.json"), JSON.stringify({ name: "mcpwasm-httppath-tests", private: true, type: "module", dependencies: { mcpwasm: "*" } }));
  // The runner: imports the package (or the Node entry point by its path),
  // lists the tools of the server at argv's URL, and closes.
  const runner = (spec) => `const api = await import(${JSON.stringify(spec)});
await api.init();
const c = new api.Client({ name: "httppath", version: "1.0.0" }, { protocolVersions: ["2026-07-28"] });
await c.connect(URL_ARG);
const { tools } = await c.listTools();
await c.close();
console.log("LISTED " + tools.map((t) => t.name).join(","));
`;
  const urlArg = "(globalThis.Deno ? Deno.args[0] : process.argv[2])";
  await writeFile(path.join(app, "package-entry.mjs"), runner("mcpwasm").replace("URL_ARG", urlArg));
  await writeFile(path.join(app, "node-entry.mjs"), runner(path.join(repo, "js", "src", "index.node.js")).replace("URL_ARG", urlArg));

  server = http.createServer((req, res) => {
    let body = "";
    req.setEncoding("utf8");
    req.on("data", (d) => { body += d; });
    req.on("end", () => {
      if (req.method !== "POST") {
        res.writeHead(405).end();
        return;
      }
      seen.push({ ua: req.headers["user-agent"] ?? "", ae: req.headers["accept-encoding"] ?? "" });
      const m = JSON.parse(body);
      const result = m.method === "server/discover"
        ? { resultType: "complete", supportedVersions: ["2026-07-28"], capabilities: { tools: {} }, serverInfo: { name: "httppath", version: "1" } }
        : { resultType: "complete", tools: [{ name: "echo", inputSchema: { type: "object" } }] };
      res.setHeader("content-type", "application/json");
      res.end(JSON.stringify({ jsonrpc: "2.0", id: m.id, result }));
    });
  });
  server.maxRequestsPerSocket = 1000;
  await new Promise((r) => server.listen(0, "127.0.0.1", r));
  url = `http://127.0.0.1:${server.address().port}/mcp`;
});
after(async () => {
  server?.closeAllConnections();
  await new Promise((r) => (server ? server.close(r) : r()));
});

const cases = [
  { name: "Bun, the package (bun condition): node:net", cmd: [bin("bun"), "package-entry.mjs"], ua: /^Bun\//, raw: true },
  { name: "Bun with HTTP_PROXY set: Bun's fetch", cmd: [bin("bun"), "package-entry.mjs"], env: { HTTP_PROXY: "http://127.0.0.1:1", NO_PROXY: "127.0.0.1" }, ua: /^Bun\//, raw: false },
  { name: "Deno, the package (deno condition): node:net", cmd: [bin("deno"), "run", "--allow-all", "--quiet", "package-entry.mjs"], ua: /^Deno\//, raw: true },
  { name: "Deno, the Node entry point by its path: node:net", cmd: [bin("deno"), "run", "--allow-all", "--quiet", "node-entry.mjs"], ua: /^Deno\//, raw: true },
  { name: "Deno with HTTP_PROXY set: Deno's fetch", cmd: [bin("deno"), "run", "--allow-all", "--quiet", "package-entry.mjs"], env: { HTTP_PROXY: "http://127.0.0.1:1", NO_PROXY: "127.0.0.1" }, ua: /^Deno\//, raw: false },
  { name: "Deno, allowed the network and files but not the environment: Deno's fetch (a proxy may be set)", cmd: [bin("deno"), "run", "--allow-net", "--allow-read", "--quiet", "package-entry.mjs"], ua: /^Deno\//, raw: false },
];

for (const c of cases) {
  test(c.name, async () => {
    const from = seen.length;
    const env = { ...process.env, NO_COLOR: "1", DENO_NO_UPDATE_CHECK: "1" };
    for (const k of ["HTTP_PROXY", "http_proxy", "HTTPS_PROXY", "https_proxy", "NO_PROXY", "no_proxy"]) delete env[k];
    const { stdout } = await exec(c.cmd[0], [...c.cmd.slice(1), url], { cwd: app, timeout: 60000, env: { ...env, ...c.env } });
    assert.match(stdout, /^LISTED echo$/m);
    const mine = seen.slice(from);
    assert.ok(mine.length >= 2, `server/discover and tools/list reached the server: ${JSON.stringify(mine)}`);
    for (const r of mine) {
      assert.match(r.ua, c.ua, `the runtime's User-Agent: ${JSON.stringify(r)}`);
      assert.equal(r.ae === RAW_ENCODINGS, c.raw, `${c.raw ? "node:net" : "fetch"} asked for ${JSON.stringify(r.ae)}`);
    }
  });
}
