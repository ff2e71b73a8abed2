// The GOOS=js side of TestBridgeParity (parity_test.go): it feeds the
// scenario's configuration, as the bridge's JSON schema, to the module's
// bridge (the low-level API the package's Client is built on), runs the
// scenario's steps against the URL and prints the outcomes as JSON.
//
//   node parity.mjs <url> <scenario.json>
import { readFileSync } from "node:fs";
import { init } from "../../../js/src/index.node.js";
import { bridge } from "../../../js/src/loader.js";

const [url, scenarioPath] = process.argv.slice(2);
const sc = JSON.parse(readFileSync(scenarioPath, "utf8"));
await init();
const api = bridge();
const callbacks = {
  handle: async (method) => JSON.stringify(sc.answers[method]),
  notify() {},
  warn() {},
  message() {},
};
const h = api.newClient(JSON.stringify(sc.client), callbacks);
if (h instanceof Error) throw h;
const settle = (start) => new Promise((resolve, reject) => start(resolve, (e) => reject(JSON.parse(e))));
const info = JSON.parse(await settle((res, rej) => api.connect(h, url, JSON.stringify(sc.connect), undefined, undefined, res, rej, undefined)));
const outcomes = [];
for (const step of sc.steps) {
  try {
    const raw = await api.lane.request(h, step.method, step.params ? JSON.stringify(step.params) : "",
      step.options ? JSON.stringify(step.options) : "", undefined, undefined);
    outcomes.push({ result: typeof raw === "string" ? JSON.parse(raw) : raw ?? {} });
  } catch (e) {
    if (!e.kind) throw e;
    outcomes.push({ error: e.kind });
  }
}
await settle((res, rej) => api.close(h, res, rej));
process.stdout.write(JSON.stringify({ era: info.era, protocolVersion: info.protocolVersion, outcomes }) + "\n");
process.exit(0);
