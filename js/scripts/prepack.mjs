// npm pack / npm publish run this first (the "prepack" script): the package
// must hold mcpwasm.wasm and the wasm_exec.js of the Go toolchain that built
// it. With Go on PATH and the repository around, it (re)builds them when
// either is missing or they came from another Go; without Go it refuses to
// pack a package with a missing module, and says how to build it.
import { execFileSync } from "node:child_process";
import { existsSync, readFileSync } from "node:fs";
import path from "node:path";
import { fileURLToPath } from "node:url";

const pkg = path.resolve(path.dirname(fileURLToPath(import.meta.url)), "..");
const wasm = path.join(pkg, "dist", "mcpwasm.wasm");
const glue = path.join(pkg, "dist", "wasm_exec.js");
const build = path.join(pkg, "..", "scripts", "build-wasm.sh");

function fail(msg) {
  console.error(`mcpwasm prepack: ${msg}`);
  process.exit(1);
}

function goEnv(name) {
  try {
    return execFileSync("go", ["env", name], { encoding: "utf8" }).trim();
  } catch {
    return null;
  }
}

/** why returns what is wrong with dist/ for the Go at hand ("" when nothing). */
function why(goVersion, goRoot) {
  if (!existsSync(wasm)) return "dist/mcpwasm.wasm is missing";
  if (!existsSync(glue)) return "dist/wasm_exec.js is missing";
  const bytes = readFileSync(wasm);
  if (bytes.length < 8 || bytes.readUInt32BE(0) !== 0x0061736d) return "dist/mcpwasm.wasm is not a WebAssembly module";
  if (!goVersion) return "";
  if (!bytes.includes(Buffer.from(`${goVersion}\0`)) && !bytes.includes(Buffer.from(goVersion))) return `dist/mcpwasm.wasm was not built by ${goVersion}`;
  const ours = path.join(goRoot, "lib", "wasm", "wasm_exec.js");
  const theirs = existsSync(ours) ? ours : path.join(goRoot, "misc", "wasm", "wasm_exec.js");
  if (existsSync(theirs) && !readFileSync(theirs).equals(readFileSync(glue))) return `dist/wasm_exec.js is not ${goVersion}'s`;
  return "";
}

const goVersion = goEnv("GOVERSION");
const goRoot = goEnv("GOROOT");
let problem = why(goVersion, goRoot);
if (problem) {
  if (!goVersion || !existsSync(build)) {
    fail(`${problem}. Build it from the repository with: bash scripts/build-wasm.sh (needs Go), then pack again.`);
  }
  console.error(`mcpwasm prepack: ${problem}; building it with ${goVersion}`);
  execFileSync("bash", [build], { stdio: "inherit" });
  problem = why(goVersion, goRoot);
  if (problem) fail(`${problem} after building`);
}
console.error(`mcpwasm prepack: dist/mcpwasm.wasm (${readFileSync(wasm).length} bytes) and its wasm_exec.js are in place`);
