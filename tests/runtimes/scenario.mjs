// The runtime scenario, run unchanged by Deno, Bun and workerd (and Node,
// as a reference): it takes the package's API as loaded by that runtime's
// own runner and returns a JSON-safe report of what the client got, which
// tests/runtimes/runtimes.test.mjs checks. It imports nothing, so every
// runtime (and a Workers bundle) can load it as it is.

function text(result) {
  return (result.content || []).filter((c) => c.type === "text").map((c) => c.text).join("\n");
}

function describe(e) {
  return { name: e?.name, message: String(e?.message ?? e), code: e?.code, kind: e?.kind, stack: String(e?.stack ?? "").split("\n").slice(0, 6).join("\n") };
}

/**
 * run connects to mcpURL (Streamable HTTP) in the given era ("modern" or
 * "legacy"): lists tools page by page, calls a tool with progress, answers
 * an elicitation and a sampling request, echoes a long text, cancels a
 * call, and closes; with wsURL it also connects over WebSocket when the
 * runtime has one.
 */
export async function run(api, { label, mcpURL, era, wsURL }) {
  const { Client, McpError, moduleStats } = api;
  const report = { label, era, steps: [] };
  const step = (name) => report.steps.push(name);
  let client;
  try {
    const base = moduleStats();
    const asked = [];
    client = new Client({ name: `mcpwasm-${label}`, version: "1.0.0" }, {
      era,
      elicitation: async (params) => {
        asked.push(`elicitation: ${params.message}`);
        return { action: "accept", content: { name: label, age: 7 } };
      },
      sampling: async (params) => {
        asked.push(`sampling: ${params.messages?.[0]?.content?.text}`);
        return { role: "assistant", model: `${label}-model`, content: { type: "text", text: `answered by ${label}` } };
      },
    });
    const info = await client.connect(mcpURL);
    step("connect");
    report.info = { era: info.era, protocolVersion: info.protocolVersion, server: info.serverInfo?.name, connected: client.isConnected };

    report.pages = 0;
    report.tools = [];
    let cursor;
    do {
      const page = await client.listTools(cursor === undefined ? undefined : { cursor });
      report.pages++;
      report.tools.push(...page.tools.map((t) => t.name));
      cursor = page.nextCursor;
    } while (cursor && report.pages < 100);
    step("list");

    const progress = [];
    const pr = await client.callTool({ name: "progress", arguments: { steps: 3, delayMs: 5 } }, { onprogress: (p) => progress.push(p.progress) });
    report.progress = { values: progress, isError: !!pr.isError };
    step("progress");

    // A big result: its long strings come out of the module apart from its
    // JSON text and are put back by the glue (docs/architecture.md, "Long
    // strings"); a leading BOM and non-ASCII text must survive that.
    const big = `\uFEFF${"é漢🎉 abc".repeat(30000)}`;
    const got = text(await client.callTool({ name: "echo", arguments: { text: big } }));
    report.long = { same: got === big, length: got.length };
    // An ASCII one (Node and Bun decode those as Latin-1: index.node.js).
    const ascii = "0123456789abcdef".repeat(20000);
    const gotASCII = text(await client.callTool({ name: "echo", arguments: { text: ascii } }));
    report.longASCII = { same: gotASCII === ascii, length: gotASCII.length };
    step("long result");

    report.elicit = JSON.parse(text(await client.callTool({ name: "elicit" })));
    report.sample = text(await client.callTool({ name: "sample", arguments: { prompt: `ping from ${label}` } }));
    report.asked = asked;
    step("server requests");

    const ac = new AbortController();
    const started = Date.now();
    const slow = client.callTool({ name: "slow", arguments: { ms: 20000 } }, { signal: ac.signal });
    setTimeout(() => ac.abort(new Error(`cancelled by the ${label} test`)), 100);
    try {
      await slow;
      report.cancel = { resolved: true };
    } catch (e) {
      report.cancel = { message: String(e?.message ?? e), ms: Date.now() - started };
    }
    report.callsAfterCancel = moduleStats().calls - base.calls;
    step("cancel");

    const closed = client.closed;
    await client.close();
    report.closedWith = (await closed) ?? null;
    report.connectedAfterClose = client.isConnected;
    report.clientsAfterClose = moduleStats().clients - base.clients;
    client = undefined;
    step("close");

    if (wsURL) {
      if (typeof globalThis.WebSocket !== "function") {
        report.ws = { skipped: "no WebSocket in this runtime" };
      } else {
        const ws = new Client({ name: `mcpwasm-${label}-ws`, version: "1.0.0" });
        try {
          const wi = await ws.connect(wsURL, { transport: "websocket" });
          const r = await ws.callTool({ name: "echo", arguments: { message: `ws from ${label}` } });
          report.ws = { era: wi.era, echo: text(r) };
        } finally {
          await ws.close();
        }
        report.clientsAfterWS = moduleStats().clients - base.clients;
        step("websocket");
      }
    }
  } catch (e) {
    report.error = describe(e);
    report.errorIsMcpError = e instanceof McpError;
  } finally {
    await client?.close().catch(() => {});
  }
  return report;
}
