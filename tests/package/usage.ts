// A TypeScript program against the installed tarball, type-checked with
// strict settings under moduleResolution "bundler" and "node16".
import { init, Client, McpError, moduleStats, type Era, type CallToolResult } from "mcpwasm";
import { fileStore } from "mcpwasm/node";
import wasm from "mcpwasm/mcpwasm.wasm";

export async function main(url: string): Promise<number> {
  if (typeof wasm === "string") await init({ wasmURL: wasm });
  else await init({ wasmModule: wasm });
  const era: Era = "legacy";
  const client = new Client({ name: "typed", version: "1.0.0" }, {
    era,
    elicitation: async () => ({ action: "decline" }),
  });
  const info = await client.connect(new URL(url), { era: "auto", signal: AbortSignal.timeout(5000) });
  const connected: boolean = client.isConnected;
  const ended: Promise<McpError | undefined> = client.closed;
  const result: CallToolResult = await client.callTool({ name: "add", arguments: { a: 1, b: 2 } });
  const first = result.content[0];
  const text: string = first?.type === "text" ? first.text : "";
  await client.close();
  const err = await ended;
  void [info.protocolVersion, connected, text, err?.code, fileStore("x.json")];
  return moduleStats().clients;
}
