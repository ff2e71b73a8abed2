// An edge function that talks to an MCP server: a Cloudflare Worker that
// answers
//   GET /tools                  → {"tools": [{name, title, description}, …]} (every page)
//   GET /call/<tool>?k=v&…      → the tool's result; each query parameter is
//                                 an argument (a value that parses as JSON —
//                                 numbers, true, {"…"} — is passed parsed)
// by connecting to the MCP server at env.MCP_URL (Streamable HTTP or
// HTTP+SSE, either protocol era) with a client made for the request, as
// Workers require: a connection made while handling one request cannot be
// used while handling another.
import { init, Client, McpError } from "mcpwasm";

const json = (body, status = 200) =>
  new Response(JSON.stringify(body, null, 2), { status, headers: { "content-type": "application/json; charset=utf-8" } });

/** argumentsOf turns a query string into tool arguments. */
function argumentsOf(params) {
  const args = {};
  for (const [k, v] of params) {
    try {
      args[k] = JSON.parse(v);
    } catch {
      args[k] = v;
    }
  }
  return args;
}

export default {
  async fetch(request, env) {
    const url = new URL(request.url);
    const call = /^\/call\/([^/]+)$/.exec(url.pathname);
    if (request.method !== "GET" || (url.pathname !== "/tools" && !call)) {
      return json({ error: "GET /tools or /call/<tool>?argument=value" }, 404);
    }
    if (!env.MCP_URL) return json({ error: "set the MCP_URL variable to the MCP server's URL" }, 500);
    // The module starts once per isolate (init is idempotent); with
    // wrangler, mcpwasm.wasm comes in as a precompiled module by itself.
    await init();
    const client = new Client({ name: "mcpwasm-edge", version: "1.0.0" });
    const signal = AbortSignal.timeout(Number(env.TIMEOUT_MS) || 20000);
    try {
      await client.connect(env.MCP_URL, { signal });
      if (!call) {
        const tools = [];
        for await (const t of client.tools(undefined, { signal })) tools.push({ name: t.name, title: t.title, description: t.description });
        return json({ tools });
      }
      const result = await client.callTool({ name: decodeURIComponent(call[1]), arguments: argumentsOf(url.searchParams) }, { signal });
      return json(result, result.isError ? 422 : 200);
    } catch (e) {
      if (e instanceof McpError) return json({ error: { code: e.code, message: e.message, kind: e.kind } }, 502);
      return json({ error: { message: String(e?.message ?? e) } }, 500);
    } finally {
      await client.close();
    }
  },
};
