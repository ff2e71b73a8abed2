#!/usr/bin/env node
// Bundles the MCP Apps host for the example page: js/src/apps.js (the
// package's mcpwasm/apps subpath) with the official host bridge it imports
// (@modelcontextprotocol/ext-apps/app-bridge and its dependencies) into one
// browser ES module, build/example-web/mcpwasm-apps.js, which example-web
// serves at /vendor/mcpwasm-apps.js, and writes the extension's sandbox
// proxy page next to it (build/example-web/apps-sandbox.html, served at
// /apps-sandbox.html). The page has no build step; this is the
// one piece that needs npm packages, so when they (or the module) are
// missing it says so and exits 0: the page then shows that a tool has an
// app without rendering it. scripts/demo.sh and the browser tests run it.
import { existsSync, mkdirSync, rmSync, writeFileSync } from "node:fs";
import path from "node:path";
import { fileURLToPath, pathToFileURL } from "node:url";

const repo = path.resolve(path.dirname(fileURLToPath(import.meta.url)), "..");
const entry = path.join(repo, "js/src/apps.js");
const outfile = path.join(repo, "build/example-web/mcpwasm-apps.js");

if (!existsSync(entry)) {
  console.log("example-web: no js/src/apps.js: MCP Apps are not rendered");
  process.exit(0);
}
let esbuild;
try {
  esbuild = await import("esbuild");
} catch {
  console.log("example-web: esbuild is not installed (npm ci): MCP Apps are not rendered");
  process.exit(0);
}
mkdirSync(path.dirname(outfile), { recursive: true });
try {
  await esbuild.build({
    entryPoints: [entry], outfile, bundle: true, format: "esm", platform: "browser", target: "es2022",
    minify: true, legalComments: "none", logLevel: "warning",
  });
} catch (e) {
  console.log(`example-web: the apps host bundle failed (${e.message.split("\n")[0]}): MCP Apps are not rendered`);
  process.exit(0);
}
console.log(`example-web: built ${path.relative(repo, outfile)}`);

// The extension's sandbox proxy page, which example-web serves on a second
// origin (/apps-sandbox.html): the apps then run there, not in a srcdoc
// frame that would inherit the page's Content-Security-Policy.
const proxyfile = path.join(path.dirname(outfile), "apps-sandbox.html");
try {
  const { SANDBOX_PROXY_HTML } = await import(pathToFileURL(outfile).href);
  if (typeof SANDBOX_PROXY_HTML !== "string") throw new Error("the module has no SANDBOX_PROXY_HTML");
  writeFileSync(proxyfile, SANDBOX_PROXY_HTML);
  console.log(`example-web: built ${path.relative(repo, proxyfile)}`);
} catch (e) {
  rmSync(proxyfile, { force: true });
  console.log(`example-web: no sandbox proxy page (${e.message}): MCP Apps are not rendered`);
}
