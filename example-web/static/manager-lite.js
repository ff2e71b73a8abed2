// A stand-in for the package's McpManager and its model-tool helpers, used
// only while the package does not export them yet (app.js prefers the
// package's). It follows the documented shape (docs: the manager API) for
// the members the page uses: add/remove/servers/client/tools/resources/
// prompts/callTool/readResource/getPrompt and the "change"/"status" events;
// no reconnection, no allow/deny filters.
import { Client, McpError } from "/mcpwasm/src/index.js";

const SEP = "__";

export class McpManager extends EventTarget {
  #options;
  #servers = new Map(); // name → {state, config, client, tools, resources, prompts}

  constructor(config = { mcpServers: {} }, options = {}) {
    super();
    this.#options = options;
    this.config = config;
  }

  async connect() {
    return Promise.all(Object.entries(this.config.mcpServers || {}).map(([n, c]) => this.add(n, c)));
  }

  #status(s, status, error) {
    s.state = { name: s.name, status, error, serverInfo: s.client?.serverInfo, client: status === "connected" ? s.client : undefined };
    this.dispatchEvent(new CustomEvent("status", { detail: s.state }));
  }

  #change(server, kind) {
    this.dispatchEvent(new CustomEvent("change", { detail: { server, kind } }));
  }

  async add(name, config) {
    if (this.#servers.has(name)) await this.remove(name);
    const o = this.#options;
    const extra = (x) => ({ ...x, server: name });
    const s = { name, config, tools: [], resources: [], prompts: [] };
    const refresh = (kind) => async () => {
      try {
        await this.#load(s, kind);
        this.#change(name, kind);
      } catch { /* the next change retries */ }
    };
    s.client = new Client(o.clientInfo ?? { name: "mcpwasm-manager", version: "0" }, {
      ...(o.clientOptions || {}),
      sampling: o.sampling && ((p, x) => o.sampling(p, extra(x))),
      elicitation: o.elicitation && ((p, x) => o.elicitation(p, extra(x))),
      roots: typeof o.roots === "function" ? (x) => o.roots(extra(x)) : o.roots,
      onLog: o.onLog && ((m) => o.onLog(m, { server: name })),
      onProgress: o.onProgress && ((n) => o.onProgress(n, { server: name })),
      onToolsListChanged: refresh("tools"),
      onPromptsListChanged: refresh("prompts"),
      onResourcesListChanged: refresh("resources"),
    });
    this.#servers.set(name, s);
    this.#status(s, "connecting");
    try {
      await s.client.connect(config.url, { transport: config.transport, headers: config.headers, auth: config.auth, era: config.era });
      s.client.closed.then((err) => { if (this.#servers.get(name) === s && err) this.#status(s, "failed", err); });
      const caps = s.client.serverCapabilities || {};
      for (const k of ["tools", "resources", "prompts"]) if (caps[k]) await this.#load(s, k);
      this.#status(s, "connected");
      this.#change(name, "servers");
    } catch (e) {
      if (this.#servers.get(name) === s) this.#status(s, "failed", e);
    }
    return s.state;
  }

  async #load(s, kind) {
    const out = [];
    const it = kind === "tools" ? s.client.tools() : kind === "resources" ? s.client.resources() : s.client.prompts();
    for await (const x of it) out.push(x);
    if (kind === "tools") s.tools = out.map((t) => ({ ...t, name: `${s.name}${SEP}${t.name}`, server: s.name, toolName: t.name }));
    if (kind === "resources") s.resources = out.map((r) => ({ ...r, server: s.name }));
    if (kind === "prompts") s.prompts = out.map((p) => ({ ...p, name: `${s.name}${SEP}${p.name}`, server: s.name, promptName: p.name }));
  }

  async remove(name) {
    const s = this.#servers.get(name);
    if (!s) return;
    this.#servers.delete(name);
    try { await s.client.close(); } catch { /* gone anyway */ }
    this.#status(s, "closed");
    this.#change(name, "servers");
  }

  async close() {
    await Promise.all([...this.#servers.keys()].map((n) => this.remove(n)));
  }

  servers() { return [...this.#servers.values()].map((s) => s.state); }
  server(name) { return this.#servers.get(name)?.state; }
  client(name) { const s = this.#servers.get(name); return s?.state.status === "connected" ? s.client : undefined; }
  #live() { return [...this.#servers.values()].filter((s) => s.state.status === "connected"); }
  tools() { return this.#live().flatMap((s) => s.tools); }
  resources() { return this.#live().flatMap((s) => s.resources); }
  prompts() { return this.#live().flatMap((s) => s.prompts); }

  #route(name, kind) {
    const i = String(name).indexOf(SEP);
    const s = i > 0 ? this.#servers.get(name.slice(0, i)) : undefined;
    if (!s || s.state.status !== "connected") throw new McpError(-32602, `unknown ${kind} ${name}`, undefined, { kind: "rpc" });
    return [s.client, name.slice(i + SEP.length)];
  }

  callTool(params, options) {
    const [c, tool] = this.#route(params.name, "tool");
    return this.#watch(params.name.slice(0, params.name.indexOf(SEP)), c.callTool({ ...params, name: tool }, options));
  }

  // #watch marks a server failed when a request to it fails in transit
  // (the server is gone), not when it answers with an error.
  async #watch(name, p) {
    try {
      return await p;
    } catch (e) {
      const s = this.#servers.get(name);
      if (s && (e?.kind === "transport" || e?.kind === "http") && s.state.status === "connected") this.#status(s, "failed", e);
      throw e;
    }
  }

  getPrompt(params, options) {
    const [c, prompt] = this.#route(params.name, "prompt");
    return c.getPrompt({ ...params, name: prompt }, options);
  }

  readResource({ uri, server, ...rest }, options) {
    const s = server ? this.#servers.get(server) : this.#live().find((x) => x.resources.some((r) => r.uri === uri));
    if (!s) throw new McpError(-32602, `no server for ${uri}`, undefined, { kind: "rpc" });
    return s.client.readResource({ uri, ...rest }, options);
  }
}

export function toOpenAIChatTools(tools) {
  return tools.map((t) => ({ type: "function", function: { name: t.name, description: t.description ?? "", parameters: t.inputSchema ?? { type: "object" } } }));
}

export function toOpenAIChatContent(result) {
  const parts = (result?.content || []).map((c) => (c.type === "text" ? c.text : JSON.stringify(c)));
  if (result?.structuredContent !== undefined) parts.push(JSON.stringify(result.structuredContent));
  const text = parts.join("\n");
  return result?.isError ? `Error: ${text}` : text;
}
