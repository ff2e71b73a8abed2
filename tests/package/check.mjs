// Runs against the installed tarball, as a user's script: node check.mjs <mcp url>.
import { init, Client, moduleStats } from "mcpwasm";
import { fileStore } from "mcpwasm/node";

const url = process.argv[2];
await init();
const client = new Client({ name: "packed", version: "1.0.0" });
const info = await client.connect(url);
const result = await client.callTool({ name: "add", arguments: { a: 2, b: 40 } });
await client.close();
console.log(`RESULT ${JSON.stringify({ era: info.era, sum: result.structuredContent?.sum, clients: moduleStats().clients, fileStore: typeof fileStore })}`);
