// workerd runner: a Worker bundled the way wrangler bundles one (the
// "workerd" condition, so init() starts the .wasm imported as a
// precompiled WebAssembly.Module). Each request runs the scenario with a
// client of its own: GET /run?mcp=<url>&era=<era>[&ws=<url>].
// /ws-keep and /ws-reuse check that a WebSocket client kept from one request
// fails cleanly when used in another (Workers forbid that) and leaks no call.
// /timer-arm and /timer-check check that a Go timer armed while handling one
// request does not stall the timers of the next.
import * as api from "mcpwasm";
import { run } from "./scenario.mjs";

// init at module scope: Workers allow no random numbers outside a request,
// so the module starts at the first client, inside a request.
const ready = api.init();
let kept; // a client connected while handling an earlier request
let abandoned; // a call left running when its request ended

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
      if (u.pathname === "/timer-arm") {
        // A call whose 1.5 s timeout (a Go timer) is still pending when this
        // request ends: Workers drop that request's JavaScript timeouts.
        const c = new api.Client({ name: "mcpwasm-workerd-timer", version: "1.0.0" });
        await c.connect(u.searchParams.get("mcp"));
        abandoned = c.callTool({ name: "slow", arguments: { ms: 60000 } }, { timeout: 1500 }).catch((e) => e);
        return json({ armed: true });
      }
      if (u.pathname === "/timer-check") {
        // Started before that timeout is due, this call waits on a later Go
        // timer (its 2.5 s timeout), with nothing else to wake Go up: the
        // server answers only after 8 s. Go waits for the JavaScript timeout
        // it armed for the earlier timer, which must fire in this request.
        const c = new api.Client({ name: "mcpwasm-workerd-timer2", version: "1.0.0" });
        const started = Date.now();
        let outcome;
        try {
          await c.connect(u.searchParams.get("mcp"));
          await c.callTool({ name: "slow", arguments: { ms: 8000 } }, { timeout: 2500 });
          outcome = { resolved: true };
        } catch (e) {
          outcome = { message: String(e?.message ?? e), code: e?.code };
        } finally {
          await c.close();
        }
        outcome.ms = Date.now() - started;
        return json(outcome);
      }
      if (u.pathname === "/stats") return json(api.moduleStats());
      return json({ error: "not found" }, 404);
    } catch (e) {
      return json({ error: { message: String(e?.message ?? e), stack: String(e?.stack ?? "") } }, 500);
    }
  },
};
