// The npm package as a user gets it: npm pack in js/ (its prepack checks, or
// builds, the module), what the tarball holds, publint and
// @arethetypeswrong/cli on it (ESM-only profile: the package is ESM), then
// the tarball installed into a fresh directory outside the repository,
// where a script connects to the demo server and a TypeScript program is
// type-checked strictly with moduleResolution "bundler" and "node16".
import { test, before, after } from "node:test";
import assert from "node:assert/strict";
import { execFile } from "node:child_process";
import { mkdtemp, rm, readFile, writeFile, copyFile, symlink, realpath } from "node:fs/promises";
import os from "node:os";
import path from "node:path";
import { fileURLToPath } from "node:url";
import { promisify } from "node:util";
import { startPeer } from "../../js/test/helpers.mjs";

const here = path.dirname(fileURLToPath(import.meta.url));
const repo = path.resolve(here, "../..");
const exec = promisify(execFile);
const npm = process.platform === "win32" ? "npm.cmd" : "npm";

let tmp;
let tarball;
let packed; // npm pack --json's record
let server;

before(async () => {
  tmp = await mkdtemp(path.join(os.tmpdir(), "mcpwasm-pack-"));
  const { stdout } = await exec(npm, ["pack", "--json", "--pack-destination", tmp], { cwd: path.join(repo, "js"), maxBuffer: 16 << 20 });
  packed = JSON.parse(stdout)[0];
  tarball = path.join(tmp, packed.filename);
  server = await startPeer("go", ["--modern", "--max-life", "5m"]);
});
after(async () => {
  await server?.stop();
  if (tmp) await rm(tmp, { recursive: true, force: true });
});

test("the tarball holds the module, its wasm_exec.js, the declarations and a README", async () => {
  const files = packed.files.map((f) => f.path).sort();
  for (const f of ["README.md", "dist/mcpwasm.wasm", "dist/wasm_exec.js", "index.d.ts", "node.d.ts", "wasm.d.ts", "apps.d.ts", "react.d.ts", "package.json",
    "src/index.js", "src/apps.js", "src/react.js", "src/index.node.js", "src/index.workerd.js", "src/loader.js"]) {
    assert.ok(files.includes(f), `${f} is in the tarball: ${files.join(", ")}`);
  }
  assert.ok(!files.some((f) => f.startsWith("test/") || f.startsWith("scripts/")), "no tests or scripts");
  const wasm = packed.files.find((f) => f.path === "dist/mcpwasm.wasm");
  assert.ok(wasm.size > 1e6, `the module is ${wasm.size} bytes`);
  const glue = await readFile(path.join(repo, "js/dist/wasm_exec.js"));
  const { stdout: goroot } = await exec("go", ["env", "GOROOT"]);
  assert.ok(glue.equals(await readFile(path.join(goroot.trim(), "lib/wasm/wasm_exec.js"))), "wasm_exec.js is the Go toolchain's");
});

test("publint reports nothing", async () => {
  const { publint } = await import("publint");
  const { formatMessage } = await import("publint/utils");
  const buf = await readFile(tarball);
  const { messages, pkg } = await publint({ pack: { tarball: buf.buffer.slice(buf.byteOffset, buf.byteOffset + buf.byteLength) }, level: "suggestion", strict: true });
  assert.deepEqual(messages.map((m) => formatMessage(m, pkg) ?? m.code), []);
});

test("@arethetypeswrong/cli reports nothing (ESM-only profile)", async () => {
  try {
    await exec(path.join(repo, "node_modules/.bin/attw"), [tarball, "--profile", "esm-only", "--format", "ascii"], { maxBuffer: 16 << 20 });
  } catch (e) {
    assert.fail(`attw found problems:\n${e.stdout}${e.stderr}`);
  }
});

test("installed into a fresh directory: a script connects and calls; tsc --strict passes under bundler and node16", async () => {
  const dir = path.join(tmp, "app");
  await exec("mkdir", ["-p", dir]);
  await writeFile(path.join(dir, "package.json"), JSON.stringify({ name: "app", private: true, type: "module" }));
  await exec(npm, ["install", "--no-audit", "--no-fund", "--no-update-notifier", "--offline", tarball], { cwd: dir });
  await copyFile(path.join(here, "check.mjs"), path.join(dir, "check.mjs"));
  const { stdout } = await exec(process.execPath, ["check.mjs", `${server.url}/mcp`], { cwd: dir });
  const line = stdout.split("\n").find((l) => l.startsWith("RESULT "));
  assert.deepEqual(JSON.parse(line.slice(7)), { era: "modern", sum: 42, clients: 0, fileStore: "function" });

  await copyFile(path.join(here, "usage.ts"), path.join(dir, "usage.ts"));
  const tsc = path.join(repo, "node_modules/typescript/bin/tsc");
  for (const [module, moduleResolution] of [["esnext", "bundler"], ["node16", "node16"]]) {
    const config = {
      compilerOptions: {
        strict: true, noEmit: true, target: "ES2022", module, moduleResolution, lib: ["ES2022", "DOM"], types: [],
        skipLibCheck: false, exactOptionalPropertyTypes: true, noUncheckedIndexedAccess: true,
      },
      files: ["usage.ts"],
    };
    await writeFile(path.join(dir, "tsconfig.json"), JSON.stringify(config));
    try {
      await exec(process.execPath, [tsc, "-p", dir], { cwd: dir });
    } catch (e) {
      assert.fail(`tsc (${moduleResolution}) failed:\n${e.stdout}${e.stderr}`);
    }
  }
});

test("npm pack refuses without the module when it cannot build one", async (t) => {
  // A copy of the package without dist/, packed with a PATH that has node
  // and the system's tools but no Go.
  const copy = path.join(tmp, "nodist");
  const bin = path.join(tmp, "bin");
  await exec("mkdir", ["-p", copy, bin]);
  await exec("cp", ["-r", path.join(repo, "js/src"), path.join(repo, "js/scripts"), path.join(repo, "js/package.json"), path.join(repo, "js/index.d.ts"), copy]);
  await symlink(process.execPath, path.join(bin, "node"));
  const PATH = [bin, "/usr/bin", "/bin"].join(path.delimiter);
  const found = await exec("sh", ["-c", "command -v go"], { env: { PATH } }).then(() => true, () => false);
  if (found) return t.skip("Go is on the system PATH: prepack would build the module");
  const npmCli = await realpath((await exec("sh", ["-c", "command -v npm"])).stdout.trim());
  await assert.rejects(exec(process.execPath, [npmCli, "pack", "--pack-destination", tmp], { cwd: copy, env: { ...process.env, PATH } }),
    (e) => /dist\/mcpwasm\.wasm is missing/.test(e.stderr) && /build-wasm\.sh/.test(e.stderr));
});
