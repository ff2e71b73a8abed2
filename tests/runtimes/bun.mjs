// Bun runner: mcpwasm resolved from node_modules (the "bun" condition), the
// module read from disk by init(). Prints one line: RESULT <json>.
import * as api from "mcpwasm";
import { run } from "./scenario.mjs";

const [mcpURL, wsURL] = process.argv.slice(2);
await api.init();
const reports = [];
for (const era of ["modern", "legacy"]) reports.push(await run(api, { label: "bun", mcpURL, era, wsURL: era === "legacy" ? wsURL : undefined }));
console.log(`RESULT ${JSON.stringify(reports)}`);
