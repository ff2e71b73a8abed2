// The package in pages built by bundlers, with no configuration beyond what
// the README says: Vite and webpack (follow new URL("…wasm",
// import.meta.url) and emit the module themselves) and esbuild (for the browser platform, which fails on
// any Node-only import; the .wasm imported with the file loader). Each page
// is served from its own origin, loaded in headless Chromium, and connects
// cross-origin to the demo MCP server (the official Go SDK server), lists
// every page of tools and calls one.
import { test, describe, before, after } from "node:test";
import assert from "node:assert/strict";
import { mkdir, rm, writeFile, symlink, readdir, readFile } from "node:fs/promises";
import path from "node:path";
import { repo, startDemoserve, startStaticServer, launchBrowser, newPage, requireWasm } from "./harness.mjs";

const work = path.join(repo, "build", "bundlers");
let mcp;
let browser;
const sites = [];

// The page's script: the public API only; the result lands in window.result.
const scenario = (initCall) => `
import { init, Client, McpError } from "mcpwasm";
${initCall.imports ?? ""}
async function run() {
  const url = new URLSearchParams(location.search).get("mcp");
  const out = {};
  ${initCall.before ?? ""}
  await init(${initCall.args ?? ""});
  const client = new Client({ name: "bundled", version: "1.0.0" });
  const info = await client.connect(url);
  out.era = info.era;
  out.tools = [];
  for await (const t of client.tools()) out.tools.push(t.name);
  const r = await client.callTool({ name: "echo", arguments: { text: "bundled" } });
  out.echo = r.content[0].text;
  await client.close();
  out.isConnected = client.isConnected;
  return out;
}
run().then((r) => { window.result = r; }, (e) => { window.result = { error: String(e?.stack ?? e), isMcpError: e instanceof McpError }; });
`;

/** project makes a bundler project in build/bundlers/<name> with mcpwasm in its node_modules (a link to js/). */
async function project(name, main) {
  const dir = path.join(work, name);
  await rm(dir, { recursive: true, force: true });
  await mkdir(path.join(dir, "node_modules"), { recursive: true });
  await symlink(path.join(repo, "js"), path.join(dir, "node_modules", "mcpwasm"), "dir");
  await writeFile(path.join(dir, "main.js"), main);
  await writeFile(path.join(dir, "index.html"), '<!doctype html><meta charset="utf-8"><title>bundled</title><link rel="icon" href="data:,"><script type="module" src="./main.js"></script>\n');
  return dir;
}

/** files lists a directory tree's files, relative. */
async function files(dir) {
  return (await readdir(dir, { recursive: true, withFileTypes: true })).filter((e) => e.isFile()).map((e) => path.relative(dir, path.join(e.parentPath, e.name)));
}

/** load opens the built page and waits for its result. */
async function load(dist) {
  const site = await startStaticServer({ "/": dist });
  sites.push(site);
  const { context, page } = await newPage(browser);
  try {
    await page.goto(`${site.url}/index.html?mcp=${encodeURIComponent(`${mcp.url}/mcp`)}`);
    await page.waitForFunction(() => window.result !== undefined, null, { timeout: 30000 });
    return { result: await page.evaluate(() => window.result), problems: page.problems, origin: site.url };
  } finally {
    await context.close();
  }
}

before(async () => {
  await requireWasm();
  [mcp, browser] = await Promise.all([startDemoserve(["--modern", "--page-size", "10", "--cors", "*"]), launchBrowser()]);
});
after(async () => {
  await browser?.close();
  await Promise.all([mcp?.stop(), ...sites.map((s) => s.stop())]);
});

function assertWorked({ result, problems }) {
  assert.equal(result.error, undefined, result.error);
  assert.equal(result.era, "modern");
  assert.ok(result.tools.length >= 40 && result.tools.includes("page_tool_24"), "every page of tools/list");
  assert.equal(result.echo, "bundled");
  assert.equal(result.isConnected, false);
  assert.deepEqual(problems, []);
}

describe("bundlers", () => {
  test("Vite 7 (vite build): init() finds the .wasm Vite emitted", async () => {
    const { build, version } = await import("vite");
    assert.match(version, /^7\./);
    const dir = await project("vite", scenario({}));
    const dist = path.join(dir, "dist");
    await build({ root: dir, configFile: false, logLevel: "warn", build: { outDir: dist, emptyOutDir: true, minify: false } });
    const out = await files(dist);
    assert.ok(out.some((f) => /\.wasm$/.test(f)), `Vite emitted the module: ${out.join(", ")}`);
    assertWorked(await load(dist));
  });

  test("webpack 5 (target web): init() finds the .wasm webpack emitted", async () => {
    const { default: webpack } = await import("webpack");
    const dir = await project("webpack", scenario({}));
    const dist = path.join(dir, "dist");
    await rm(dist, { recursive: true, force: true });
    const compiler = webpack({
      mode: "production", context: dir, entry: "./main.js", target: "web",
      output: { path: dist, filename: "main.js", publicPath: "/" },
      optimization: { minimize: false }, infrastructureLogging: { level: "error" },
    });
    const stats = await new Promise((resolve, reject) => compiler.run((err, st) => {
      compiler.close(() => {});
      if (err) reject(err);
      else resolve(st);
    }));
    assert.equal(stats.hasErrors(), false, stats.toString("errors-only"));
    await writeFile(path.join(dist, "index.html"), (await readFile(path.join(dir, "index.html"), "utf8")));
    const out = await files(dist);
    assert.ok(out.some((f) => /\.wasm$/.test(f)), `webpack emitted the module: ${out.join(", ")}`);
    assertWorked(await load(dist));
  });

  test("esbuild (platform browser): no Node-only import; the .wasm with the file loader; a default init() says what to do", async () => {
    const esbuild = await import("esbuild");
    const dir = await project("esbuild", scenario({
      imports: 'import wasmURL from "mcpwasm/mcpwasm.wasm";',
      // esbuild does not follow new URL(…, import.meta.url): the default
      // source is missing, and init must say how to fix it, then retry.
      before: `await init().then(() => { throw new Error("init() should have failed"); }, (e) => {
    if (!/esbuild/.test(e.message) || !/wasmURL/.test(e.message)) throw new Error("unhelpful init error: " + e.message);
  });`,
      args: "{ wasmURL }",
    }));
    const dist = path.join(dir, "dist");
    await rm(dist, { recursive: true, force: true });
    const r = await esbuild.build({
      entryPoints: [path.join(dir, "main.js")], bundle: true, format: "esm", platform: "browser",
      outdir: dist, loader: { ".wasm": "file" }, logLevel: "silent", metafile: true,
    });
    assert.deepEqual(r.errors, []);
    const inputs = Object.keys(r.metafile.inputs);
    assert.ok(!inputs.some((f) => f.startsWith("node:") || /index\.node\.js|node\.js$/.test(f)), `no Node-only module bundled: ${inputs.join(", ")}`);
    await writeFile(path.join(dist, "index.html"), (await readFile(path.join(dir, "index.html"), "utf8")));
    const out = await files(dist);
    assert.ok(out.some((f) => /\.wasm$/.test(f)), `esbuild emitted the module: ${out.join(", ")}`);
    const res = await load(dist);
    // The failed default init fetched a missing file: Chromium logs the 404.
    res.problems = res.problems.filter((p) => !/status of 404/.test(p));
    assertWorked(res);
  });
});
