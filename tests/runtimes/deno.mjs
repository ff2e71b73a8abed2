// Deno runner: mcpwasm resolved from node_modules (the "deno" condition:
// the Node entry point, plain http: requests over node:net), the module
// read from disk by init() or, with "bytes", from bytes Deno read. Prints
// one line: RESULT <json>.
import * as api from "mcpwasm";
import { run } from "./scenario.mjs";

const [mode, mcpURL, wsURL] = Deno.args;
if (mode === "bytes") {
  const bytes = await Deno.readFile(new URL(import.meta.resolve("mcpwasm/mcpwasm.wasm")));
  await api.init({ bytes });
} else {
  await api.init();
}
const reports = [];
for (const era of ["modern", "legacy"]) reports.push(await run(api, { label: `deno-${mode}`, mcpURL, era, wsURL: era === "legacy" ? wsURL : undefined }));
console.log(`RESULT ${JSON.stringify(reports)}`);
