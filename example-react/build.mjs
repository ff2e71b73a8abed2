// Builds the React example with esbuild into build/example-react/ (mcpwasm
// resolved to this repository's js/ through a node_modules link, React and
// the MCP Apps bridge from node_modules, the .wasm emitted by the file
// loader). `node example-react/build.mjs --serve [port]` also serves it on
// 127.0.0.1 (default port 5174); open /?mcp=<an MCP server URL>.
import { mkdir, rm, symlink, copyFile, readFile } from "node:fs/promises";
import http from "node:http";
import path from "node:path";
import { fileURLToPath } from "node:url";
import * as esbuild from "esbuild";

const here = path.dirname(fileURLToPath(import.meta.url));
const repo = path.resolve(here, "..");

/** build writes the example into outdir (default build/example-react/dist) and resolves with outdir. */
export async function build(outdir = path.join(repo, "build", "example-react", "dist")) {
  const modules = path.join(path.dirname(outdir), "node_modules");
  await rm(outdir, { recursive: true, force: true });
  await mkdir(modules, { recursive: true });
  await rm(path.join(modules, "mcpwasm"), { force: true });
  await symlink(path.join(repo, "js"), path.join(modules, "mcpwasm"), "dir");
  await esbuild.build({
    entryPoints: [path.join(here, "main.js"), path.join(here, "callback.js")],
    outdir, bundle: true, format: "esm", platform: "browser", target: "es2022",
    nodePaths: [modules], loader: { ".wasm": "file" }, define: { "process.env.NODE_ENV": '"production"' },
    minify: true, logLevel: "warning",
  });
  await copyFile(path.join(here, "index.html"), path.join(outdir, "index.html"));
  await copyFile(path.join(here, "callback.html"), path.join(outdir, "callback.html"));
  return outdir;
}

const types = { ".html": "text/html; charset=utf-8", ".js": "text/javascript", ".wasm": "application/wasm" };

if (process.argv[1] === fileURLToPath(import.meta.url)) {
  const dir = await build();
  console.log(`built ${dir}`);
  const i = process.argv.indexOf("--serve");
  if (i >= 0) {
    const port = Number(process.argv[i + 1] ?? 5174);
    http.createServer(async (req, res) => {
      const p = new URL(req.url, "http://x").pathname;
      const rel = path.normalize(p === "/" ? "index.html" : p.slice(1));
      if (rel.startsWith("..") || !types[path.extname(rel)]) return res.writeHead(404).end();
      try {
        res.writeHead(200, { "Content-Type": types[path.extname(rel)] }).end(await readFile(path.join(dir, rel)));
      } catch {
        res.writeHead(404).end();
      }
    }).listen(port, "127.0.0.1", () => console.log(`serving http://127.0.0.1:${port}/`));
  }
}
