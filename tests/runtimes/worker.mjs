// workerd runner: a Worker bundled the way wrangler bundles one (the
// "workerd" condition, so init() starts the .wasm imported as a
// precompiled WebAssembly.Module). Each request runs the scenario with a
// client of its own: GET /run?mcp=<url>&era=<era>[&ws=<url>].
// /ws-keep and /ws-reuse check that a WebSocket client kept from one request
// fails cleanly when used in another (Workers forbid that) and leaks no call.
import * as api from "mcpwasm";
import { run } from "./scenario.mjs";

// init at module scope: Workers allow no random numbers outside a request,
// so the module starts at the first client, inside a request.
const ready = api.init();
let kept; // a client connected while handling an earlier request

export default {
  async fetch(request) {
    const u = new URL(request.url);
    const json = (v, status = 200) => new Response(JSON.stringify(v), { status, headers: { "content-type": "application/json" } });
    try {
      await ready;
      if (u.pathname === "/run") {
        return json(await run(api, { label: "workerd", mcpURL: u.searchParams.get("mcp"), era: u.searchParams.get("era"), wsURL: u.searchParams.get("ws") ?? undefined }));
      }
      if (u.pathname === "/ws-keep") {
        kept = new api.Client({ name: "mcpwasm-workerd-kept", version: "1.0.0" });
        await kept.connect(u.searchParams.get("ws"), { transport: "websocket" });
        return json({ kept: true, stats: api.moduleStats() });
      }
      if (u.pathname === "/ws-reuse") {
        const started = Date.now();
        let outcome;
        try {
          await kept.callTool({ name: "echo", arguments: { message: "again" } }, { timeout: 10000 });
          outcome = { resolved: true };
        } catch (e) {
          outcome = { name: e?.name, message: String(e?.message ?? e), isMcpError: e instanceof api.McpError };
        }
        outcome.ms = Date.now() - started;
        await kept.close().catch(() => {});
        kept = undefined;
        outcome.stats = api.moduleStats();
        return json(outcome);
      }
      if (u.pathname === "/stats") return json(api.moduleStats());
      return json({ error: "not found" }, 404);
    } catch (e) {
      return json({ error: { message: String(e?.message ?? e), stack: String(e?.stack ?? "") } }, 500);
    }
  },
};
