// Type-checked (tsc --strict --noEmit) usage of mcpwasm/node's stdio helpers.
import { Client, McpManager, connectStdio, stdioPort } from "../../node.js";

export async function stdio(): Promise<void> {
  const c = new Client({ name: "x", version: "1" });
  const info = await connectStdio(c, { command: "node", args: ["server.js"], env: { A: "1" }, onStderr: (l) => console.log(l), signal: AbortSignal.timeout(5000) });
  console.log(info.protocolVersion, info.port.pid, (await info.port.exited).code);
  const p = stdioPort({ command: "node", closeTimeout: 500 });
  await c.connect("stdio:node", { transport: "port", port: p });
  const m = new McpManager({ mcpServers: { fs: { command: "node", args: ["fs.js"] } } }, { onStderr: (line, { server }) => console.log(server, line) });
  await m.connect();
  console.log(m.server("fs")?.pid, m.tools().length);
  await m.close();
}
