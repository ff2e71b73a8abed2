// The Promise-based MCP client, on top of the WebAssembly module.

import { bridge, checkOptions } from "./loader.js";
import { ErrorCode, McpError, abortError, fromBridge, throwIfToolError } from "./errors.js";
import { authBridge } from "./auth.js";

const CLIENT_OPTIONS = [
  "sampling", "samplingTools", "elicitation", "elicitationModes", "applyElicitationDefaults", "roots",
  "onLog", "onProgress", "onToolsListChanged", "onPromptsListChanged", "onResourcesListChanged",
  "onResourceUpdated", "onElicitationComplete", "onMessage", "onWarning",
  "capabilities", "protocolVersions", "logLevel", "requestTimeout", "maxTotalTimeout", "maxInputRounds",
  "cache", "validateOutput", "era", "retry", "keepAlive", "maxQueuedNotifications", "maxServerRequests", "tasks",
];
const CONNECT_OPTIONS = ["transport", "headers", "fetch", "credentials", "mode", "maxMessageSize", "protocolVersions", "era", "signal", "auth", "port"];
const CALL_OPTIONS = ["signal", "timeout", "onprogress", "resetTimeoutOnProgress", "maxTotalTimeout", "cache", "_meta", "taskWait"];
const TASK_CALL_OPTIONS = ["signal", "timeout", "ttl"];
const TASK_WAIT_OPTIONS = ["signal", "onStatus", "maxPollInterval"];
const LISTEN_OPTIONS = ["signal", "onNotification"];
const TRANSPORTS = ["auto", "streamable-http", "sse", "websocket", "port"];
// The protocol versions of each era, newest first (core.SupportedVersions()).
const ERA_VERSIONS = {
  modern: ["2026-07-28"],
  legacy: ["2025-11-25", "2025-06-18", "2025-03-26", "2024-11-05"],
};

// eraVersions narrows a version list (undefined: every supported version)
// to one era: "modern", "legacy", or "auto" (no narrowing).
function eraVersions(where, era, versions) {
  if (era === undefined || era === "auto") return versions;
  const allowed = ERA_VERSIONS[era];
  if (!allowed) throw new TypeError(`${where}: unknown era ${JSON.stringify(era)} (known: "auto", "modern", "legacy")`);
  if (versions === undefined) return allowed;
  const kept = versions.filter((v) => allowed.includes(v));
  if (kept.length === 0) throw new TypeError(`${where}: era "${era}" leaves none of protocolVersions ${JSON.stringify(versions)}`);
  return kept;
}
// The server notifications the module forwards, by the option receiving them.
const NOTIFICATION_OPTIONS = {
  "notifications/message": "onLog",
  "notifications/progress": "onProgress",
  "notifications/tools/list_changed": "onToolsListChanged",
  "notifications/prompts/list_changed": "onPromptsListChanged",
  "notifications/resources/list_changed": "onResourcesListChanged",
  "notifications/resources/updated": "onResourceUpdated",
  "notifications/elicitation/complete": "onElicitationComplete",
};

// Clients the page dropped without close() are freed in the module.
const registry = typeof FinalizationRegistry === "function"
  ? new FinalizationRegistry(({ api, handle }) => { try { api.freeClient(handle); } catch { /* instance gone */ } })
  : null;

// isHeaders reports whether h is a Headers object (fetch's). A plain
// object or undefined is told apart without naming the Headers global:
// Node 20 loads its whole fetch implementation (undici) the first time
// that global is read, which was a third of a first connect's time there
// (≈ 45 ms; docs/architecture.md, "Start-up in Node").
function isHeaders(h) {
  if (h === undefined || h === null || typeof h !== "object") return false;
  const proto = Object.getPrototypeOf(h);
  if (proto === Object.prototype || proto === null) return false;
  return typeof Headers === "function" && h instanceof Headers;
}

function callbackError(where, err) {
  // A throwing notification callback must not break the client.
  if (typeof console !== "undefined") console.error(`mcpwasm: ${where} callback threw`, err);
}

/**
 * Client is an MCP client: identity, handlers and options, connected to one
 * server at a time. Every method returns a Promise that rejects with an
 * McpError (kind "abort" with the signal's reason as cause when the caller's
 * AbortSignal fired).
 */
export class Client {
  #api;
  #handle;
  #identity;
  #options;
  #info_;
  #config; // newClient's arguments, to make the module's client again after close()
  #callbacksObj;
  #conn = 0; // connections made, to tell a stale end from the current one
  #connected = false;
  #endClosed; // resolves this.#closed
  #closed;

  /**
   * @param info {name, version, title?}: the client's identity.
   * @param options handlers and settings (see index.d.ts).
   */
  constructor(info, options) {
    if (!info || typeof info.name !== "string" || typeof info.version !== "string") {
      throw new TypeError("Client: the first argument must be {name, version}");
    }
    const opts = checkOptions(options, CLIENT_OPTIONS, "Client");
    for (const k of ["sampling", "elicitation", ...Object.values(NOTIFICATION_OPTIONS), "onMessage", "onWarning"]) {
      if (opts[k] !== undefined && typeof opts[k] !== "function") throw new TypeError(`Client: option "${k}" must be a function`);
    }
    if (opts.roots !== undefined && typeof opts.roots !== "function" && !Array.isArray(opts.roots)) {
      throw new TypeError('Client: option "roots" must be a function or an array of roots');
    }
    if (opts.logLevel !== undefined && typeof opts.logLevel !== "string") throw new TypeError('Client: option "logLevel" must be a string');
    if (opts.protocolVersions !== undefined && !Array.isArray(opts.protocolVersions)) throw new TypeError('Client: option "protocolVersions" must be an array');
    if (opts.retry !== undefined && opts.retry !== true && opts.retry !== false && (typeof opts.retry !== "object" || opts.retry === null)) {
      throw new TypeError('Client: option "retry" must be true, false or { attempts, delay, maxDelay }');
    }
    const protocolVersions = eraVersions("Client", opts.era, opts.protocolVersions);
    this.#api = bridge();
    this.#identity = { name: info.name, version: info.version, title: info.title };
    this.#options = opts;
    // The bridge's ClientConfig (internal/bridge; docs/configuration.md):
    // milliseconds as *Ms members, absent for the defaults.
    const notifications = Object.entries(NOTIFICATION_OPTIONS).filter(([, k]) => opts[k]).map(([method]) => method);
    const retry = opts.retry === true ? {} : opts.retry || undefined;
    const config = {
      clientInfo: { name: info.name, version: info.version, title: info.title },
      protocolVersions,
      capabilities: opts.capabilities,
      handlers: { sampling: !!opts.sampling, elicitation: !!opts.elicitation, roots: typeof opts.roots === "function" },
      samplingTools: !!opts.samplingTools,
      elicitationModes: opts.elicitationModes,
      noElicitationDefaults: opts.applyElicitationDefaults === false,
      roots: Array.isArray(opts.roots) ? opts.roots : undefined,
      notifications,
      messages: !!opts.onMessage,
      logLevel: opts.logLevel,
      requestTimeoutMs: opts.requestTimeout,
      maxTotalTimeoutMs: opts.maxTotalTimeout,
      maxInputRounds: opts.maxInputRounds,
      disableCache: opts.cache === false,
      disableOutputValidation: opts.validateOutput === false,
      retry: retry && { attempts: retry.attempts, delayMs: retry.delay, maxDelayMs: retry.maxDelay },
      keepAliveMs: opts.keepAlive,
      maxQueuedNotifications: opts.maxQueuedNotifications,
      maxServerRequests: opts.maxServerRequests,
      tasks: !!opts.tasks,
    };
    this.#config = JSON.stringify(config);
    this.#callbacksObj = this.#callbacks(opts);
    this.#closed = new Promise((resolve) => { this.#endClosed = resolve; });
    this.#open();
  }

  // #open makes the module's client (again, after close() freed it).
  #open() {
    const handle = this.#api.newClient(this.#config, this.#callbacksObj);
    // The bridge cannot throw: a refused configuration comes back as an Error.
    if (handle instanceof Error) throw new TypeError(`Client: ${handle.message}`);
    this.#handle = handle;
    registry?.register(this, { api: this.#api, handle }, this);
    return handle;
  }

  // #h returns the module's client handle, remade if close() freed it.
  #h() {
    return this.#handle ?? this.#open();
  }

  // #watch follows the session connect made until it ends.
  #watch(handle) {
    const n = ++this.#conn;
    this.#connected = true;
    const end = (err) => {
      if (n !== this.#conn) return; // a later connect replaced this session
      this.#connected = false;
      const resolve = this.#endClosed;
      this.#closed = new Promise((r) => { this.#endClosed = r; });
      resolve(err);
    };
    const failed = this.#api.ended(handle, () => end(undefined), (errJSON) => end(fromBridge(errJSON)));
    if (failed instanceof Error) end(new McpError(ErrorCode.InternalError, failed.message, undefined, { kind: "internal" }));
  }

  /**
   * closed settles when the current connection (or, before connect, the
   * next one) ends: it resolves with undefined after close(), or with the
   * McpError that ended the session. It never rejects.
   */
  get closed() { return this.#closed; }

  /** isConnected is true from a successful connect until the session ends. */
  get isConnected() { return this.#connected; }

  // #callbacks is what the module calls: server requests (answered by the
  // user's handlers, async) and notifications (fire and forget).
  #callbacks(opts) {
    const handlers = {
      "sampling/createMessage": opts.sampling,
      "elicitation/create": opts.elicitation,
      "roots/list": typeof opts.roots === "function" ? opts.roots : undefined,
    };
    const routes = {};
    for (const [method, k] of Object.entries(NOTIFICATION_OPTIONS)) routes[method] = opts[k];
    return {
      handle: async (method, paramsJSON, signal) => {
        const h = handlers[method];
        if (!h) throw new McpError(ErrorCode.MethodNotFound, `no handler for ${method}`);
        const params = paramsJSON ? JSON.parse(paramsJSON) : {};
        const result = await h(params, { signal });
        if (result === undefined || result === null) throw new McpError(ErrorCode.InternalError, `the ${method} handler returned nothing`);
        return JSON.stringify(result);
      },
      notify: (method, paramsJSON) => {
        const route = routes[method];
        if (!route) return;
        const params = paramsJSON ? JSON.parse(paramsJSON) : undefined;
        try {
          const r = route(params);
          if (r && typeof r.catch === "function") r.catch((e) => callbackError(method, e));
        } catch (e) {
          callbackError(method, e);
        }
      },
      warn: (message) => {
        if (!opts.onWarning) return;
        try { opts.onWarning(message); } catch (e) { callbackError("onWarning", e); }
      },
      message: (direction, json) => {
        try { opts.onMessage(direction, JSON.parse(json)); } catch (e) { callbackError("onMessage", e); }
      },
    };
  }

  /** clone returns a new, unconnected client with the same identity and options. */
  clone() {
    return new Client(this.#identity, this.#options);
  }

  /**
   * connect opens a session to the server at url, determining its protocol
   * era and version. Options: transport ("auto" | "streamable-http" | "sse"
   * | "websocket"), headers, fetch (your own fetch function), credentials,
   * mode, maxMessageSize, protocolVersions, signal, auth (OAuth: see auth.js).
   */
  async connect(url, options) {
    const opts = checkOptions(options, CONNECT_OPTIONS, "connect");
    if (opts.transport !== undefined && !TRANSPORTS.includes(opts.transport)) {
      throw new TypeError(`connect: unknown transport "${opts.transport}" (known: ${TRANSPORTS.join(", ")})`);
    }
    if (opts.fetch !== undefined && typeof opts.fetch !== "function") throw new TypeError('connect: option "fetch" must be a function');
    const headers = isHeaders(opts.headers) ? Object.fromEntries(opts.headers.entries()) : opts.headers;
    const auth = opts.auth === undefined ? undefined : authBridge(opts.auth); // OAuth (auth.js)
    if (auth && opts.transport === "websocket") throw new TypeError('connect: auth applies to the HTTP transports, not "websocket"');
    // "port": a transport written in JavaScript (see index.d.ts, MessagePort); it travels in the fetch argument's place.
    if ((opts.transport === "port") !== (opts.port !== undefined)) throw new TypeError('connect: transport "port" and the option "port" go together');
    const json = JSON.stringify({ // the bridge's ConnectConfig
      transport: opts.transport,
      headers,
      credentials: opts.credentials,
      fetchMode: opts.mode,
      maxMessageSize: opts.maxMessageSize,
      protocolVersions: eraVersions("connect", opts.era, opts.protocolVersions),
      auth: auth?.config,
    });
    const handle = this.#h();
    const release = this.#api.holdLoop?.(); // Node: see holdLoop in index.node.js
    let info;
    try {
      info = await this.#settle(opts.signal, (resolve, reject) =>
        this.#api.connect(handle, String(url), json, opts.port ?? opts.fetch, opts.signal, resolve, reject, auth?.hooks));
    } finally {
      release?.();
    }
    this.#info_ = JSON.parse(info);
    if (this.#handle === handle) this.#watch(handle);
    return this.#info_;
  }

  // #settle runs a module call that settles a Promise through resolve and
  // reject, turning rejections into McpError (kind "abort", the signal's
  // reason as cause, when the caller's signal fired).
  #settle(signal, start) {
    return new Promise((resolve, reject) => {
      const failed = start(resolve, (errJSON) => {
        if (signal?.aborted) reject(abortError(signal.reason));
        else reject(fromBridge(errJSON));
      });
      // A bad call the bridge refused before it could take the Promise over.
      if (failed instanceof Error) reject(new McpError(ErrorCode.InternalError, failed.message, undefined, { kind: "internal" }));
    });
  }

  #current() {
    if (this.#handle === null) return this.#info_;
    const s = this.#api.info(this.#handle);
    if (typeof s === "string") this.#info_ = JSON.parse(s);
    return this.#info_;
  }

  /** The server's identity ({name, version, …}), after connect. */
  get serverInfo() { return this.#current()?.serverInfo; }
  /** The server's capabilities, after connect. */
  get serverCapabilities() { return this.#current()?.serverCapabilities; }
  /** The negotiated protocol version. */
  get protocolVersion() { return this.#current()?.protocolVersion; }
  /** The server's instructions, if any. */
  get instructions() { return this.#current()?.instructions; }
  /** "modern" (2026-07-28 and later) or "legacy". */
  get era() { return this.#current()?.era; }
  /** The legacy HTTP session id, if any. */
  get sessionId() { return this.#current()?.sessionId; }
  /**
   * Why the legacy GET stream (server requests and notifications outside any
   * call) was given up after repeated failures, or undefined while it runs;
   * onWarning was told when it happened. Calls still work.
   */
  get backgroundStreamError() { return this.#current()?.backgroundStreamError; }

  /**
   * request sends any client request through the full pipeline and
   * resolves with the raw result object.
   */
  async request(method, params, options) {
    const opts = checkOptions(options, CALL_OPTIONS, "request");
    if (opts.onprogress !== undefined && typeof opts.onprogress !== "function") throw new TypeError('request: option "onprogress" must be a function');
    let optsJSON = "";
    if (opts.timeout !== undefined || opts.maxTotalTimeout !== undefined || opts.resetTimeoutOnProgress || opts.cache === false || opts._meta || opts.taskWait === false) {
      optsJSON = JSON.stringify({ // the bridge's CallOptions
        timeoutMs: opts.timeout,
        maxTotalTimeoutMs: opts.maxTotalTimeout,
        resetTimeoutOnProgress: !!opts.resetTimeoutOnProgress,
        noCache: opts.cache === false,
        meta: opts._meta,
        noTaskWait: opts.taskWait === false,
      });
    }
    return this.#api.lane.request(this.#h(), method, params === undefined ? "" : JSON.stringify(params), optsJSON, opts.signal, opts.onprogress);
  }

  /** notify sends a notification (rarely needed: the client sends its own). */
  async notify(method, params) {
    await this.#settle(undefined, (resolve, reject) =>
      this.#api.notify(this.#h(), method, params === undefined ? "" : JSON.stringify(params), resolve, reject));
  }

  /** ping checks the server is alive (ping on legacy servers, server/discover on modern ones). */
  // #table runs a method of the bridge's method table whose result is
  // empty (ping, logging/setLevel and the subscriptions work in both eras).
  #table(method, params) {
    return this.#api.lane.request(this.#h(), method, params === undefined ? "" : JSON.stringify(params), "", undefined, undefined);
  }

  async ping() {
    await this.#table("ping");
  }

  /** listTools returns one page: {tools, nextCursor}. */
  listTools(params, options) { return this.request("tools/list", params, options); }
  /**
   * callTool calls a tool; an isError result resolves (see callToolOrThrow).
   * A server that answers with a task (or insists on one) is waited for and
   * the task's result resolves; with {taskWait: false} the call rejects with
   * an McpError of kind "task" whose data is {taskId, state} (resume it with
   * getTask).
   */
  callTool(params, options) { return this.request("tools/call", params, options); }
  /** callToolOrThrow calls a tool and rejects when the result has isError. */
  async callToolOrThrow(params, options) { return throwIfToolError(await this.callTool(params, options), params?.name); }
  listResources(params, options) { return this.request("resources/list", params, options); }
  listResourceTemplates(params, options) { return this.request("resources/templates/list", params, options); }
  readResource(params, options) { return this.request("resources/read", params, options); }
  listPrompts(params, options) { return this.request("prompts/list", params, options); }
  getPrompt(params, options) { return this.request("prompts/get", params, options); }
  complete(params, options) { return this.request("completion/complete", params, options); }

  /** tools iterates over every tool of every page. */
  tools(params, options) { return this.#pages("tools/list", "tools", params, options); }
  resources(params, options) { return this.#pages("resources/list", "resources", params, options); }
  resourceTemplates(params, options) { return this.#pages("resources/templates/list", "resourceTemplates", params, options); }
  prompts(params, options) { return this.#pages("prompts/list", "prompts", params, options); }

  async *#pages(method, key, params, options) {
    const seen = new Set();
    let cursor = params?.cursor;
    for (;;) {
      const page = await this.request(method, { ...params, cursor }, options);
      yield* page[key] || [];
      const next = page.nextCursor;
      if (!next) return;
      if (seen.has(next)) throw new McpError(ErrorCode.InternalError, `the server repeated the pagination cursor ${JSON.stringify(next)}`, undefined, { kind: "protocol" });
      seen.add(next);
      cursor = next;
    }
  }

  /** setLogLevel sets the minimum level of log messages (both eras). */
  async setLogLevel(level) {
    await this.#table("logging/setLevel", { level: String(level) });
  }

  /** subscribe asks for onResourceUpdated notifications about uri (both eras). */
  async subscribe(uri) {
    await this.#table("resources/subscribe", { uri: String(uri) });
  }

  async unsubscribe(uri) {
    await this.#table("resources/unsubscribe", { uri: String(uri) });
  }

  /**
   * listen opens a subscriptions/listen stream (modern servers) and resolves
   * once acknowledged, with {id, acknowledged, closed: Promise, close()}.
   */
  async listen(filter, options) {
    const opts = checkOptions(options, LISTEN_OPTIONS, "listen");
    let endResolve;
    const closed = new Promise((resolve) => { endResolve = resolve; });
    const onNote = (method, paramsJSON) => {
      if (!opts.onNotification) return;
      try { opts.onNotification(method, paramsJSON ? JSON.parse(paramsJSON) : undefined); } catch (e) { callbackError("onNotification", e); }
    };
    const onEnd = (errJSON) => endResolve(errJSON === undefined ? undefined : fromBridge(errJSON));
    const out = JSON.parse(await this.#settle(opts.signal, (resolve, reject) =>
      this.#api.listen(this.#h(), JSON.stringify(filter ?? {}), onNote, onEnd, resolve, reject)));
    const api = this.#api;
    const sub = {
      id: out.id,
      acknowledged: out.acknowledged,
      /** Resolves when the subscription ends: undefined if gracefully, else the McpError. */
      closed,
      close: () => this.#settle(undefined, (resolve, reject) => api.closeListen(out.id, resolve, reject)),
    };
    opts.signal?.addEventListener("abort", () => sub.close(), { once: true });
    return sub;
  }

  /**
   * callToolAsTask calls a tool as a task (2025-11-25) or allowing one
   * (2026-07-28) and resolves with its Task handle. A server that answers
   * directly gives a completed handle with an empty id. Options: signal,
   * timeout (ms, for the creating request), ttl (ms, asked of 2025-11-25
   * servers).
   */
  async callToolAsTask(params, options) {
    const opts = checkOptions(options, TASK_CALL_OPTIONS, "callToolAsTask");
    if (!params || typeof params.name !== "string") throw new TypeError("callToolAsTask: params must be {name, arguments?}");
    const out = JSON.parse(await this.#settle(opts.signal, (resolve, reject) =>
      this.#api.callToolAsTask(this.#h(), JSON.stringify(params), JSON.stringify({ ttlMs: opts.ttl, timeoutMs: opts.timeout }), opts.signal, resolve, reject)));
    return new Task(this.#api, out);
  }

  /**
   * getTask resumes a task by id (for example after a page reload) with
   * tasks/get and resolves with its Task handle. An unknown id rejects with
   * the server's error (kind "rpc", code -32602).
   */
  async getTask(taskId, options) {
    const opts = checkOptions(options, ["signal"], "getTask");
    if (typeof taskId !== "string" || taskId === "") throw new TypeError("getTask: taskId must be a non-empty string");
    const out = JSON.parse(await this.#settle(opts.signal, (resolve, reject) =>
      this.#api.getTask(this.#h(), taskId, opts.signal, resolve, reject)));
    return new Task(this.#api, out);
  }

  /**
   * listTasks returns one page of the server's tasks, {tasks: TaskState[],
   * nextCursor?} (2025-11-25 servers that offer tasks/list; the 2026-07-28
   * extension has none: rejects with kind "protocol").
   */
  async listTasks(params, options) {
    const opts = checkOptions(options, ["signal"], "listTasks");
    return JSON.parse(await this.#settle(opts.signal, (resolve, reject) =>
      this.#api.listTasks(this.#h(), params === undefined ? "" : JSON.stringify(params), opts.signal, resolve, reject)));
  }

  /** setRoots replaces the client's roots (legacy servers are notified). */
  async setRoots(roots) {
    if (!Array.isArray(roots)) throw new TypeError("setRoots: roots must be an array");
    await this.#settle(undefined, (resolve, reject) => this.#api.setRoots(this.#h(), JSON.stringify(roots), resolve, reject));
  }

  /**
   * close ends the session (a legacy HTTP session is deleted) and frees the
   * client in the module; connect() may be called again afterwards.
   */
  async close() {
    const handle = this.#handle;
    if (handle === null) return;
    try {
      await this.#settle(undefined, (resolve, reject) => this.#api.close(handle, resolve, reject));
    } finally {
      if (this.#handle === handle) {
        this.#handle = null;
        registry?.unregister(this);
        this.#api.freeClient(handle);
      }
    }
  }
}

// Task handles the page dropped are freed in the module (the task on the
// server goes on).
const taskRegistry = typeof FinalizationRegistry === "function"
  ? new FinalizationRegistry(({ api, ref }) => { try { api.taskFree(ref); } catch { /* instance gone */ } })
  : null;

// settleWith runs a module call that settles through resolve and reject.
function settleWith(signal, start) {
  return new Promise((resolve, reject) => {
    const failed = start(resolve, (errJSON) => {
      if (signal?.aborted) reject(signal.reason);
      else reject(fromBridge(errJSON));
    });
    if (failed instanceof Error) reject(new McpError(ErrorCode.InternalError, failed.message, undefined, { kind: "internal" }));
  });
}

/**
 * Task is the handle of a task on the server: its last known state, wait()
 * for its result, cancel(). id is what to store to resume it later with
 * client.getTask(id).
 */
export class Task {
  #api;
  #ref;
  #state;
  #result; // the final result, for a call the server answered directly

  constructor(api, { ref, state, result }) {
    this.#api = api;
    this.#ref = ref;
    this.#state = state;
    this.#result = result;
    taskRegistry?.register(this, { api, ref }, this);
  }

  #refresh() {
    const s = this.#api.taskState(this.#ref);
    if (typeof s === "string") this.#state = JSON.parse(s);
    return this.#state;
  }

  /** The task id ("" when the server answered the call directly). */
  get id() { return this.#state.id; }
  /** "working", "input_required", "completed", "failed" or "cancelled". */
  get status() { return this.#refresh().status; }
  /** The server's message about the current status, if any. */
  get statusMessage() { return this.#refresh().statusMessage; }
  /** The server's suggested polling interval in ms (0 if none). */
  get pollInterval() { return this.#refresh().pollInterval; }
  /** A snapshot of the whole state: {id, status, statusMessage, createdAt, lastUpdatedAt, ttl, pollInterval}. */
  get state() { return { ...this.#refresh() }; }

  /**
   * wait resolves with the task's final CallToolResult, polling at the
   * server's interval (or woken by its status notifications), bounded by
   * signal. Input the task needs goes to the client's sampling/elicitation
   * handlers. A failed task rejects with the server's error (kind "rpc"), a
   * cancelled one with kind "task-cancelled". Aborting the signal stops the
   * wait, not the task. Options: signal, onStatus(state), maxPollInterval (ms).
   */
  async wait(options) {
    const opts = checkOptions(options, TASK_WAIT_OPTIONS, "wait");
    if (opts.onStatus !== undefined && typeof opts.onStatus !== "function") throw new TypeError('wait: option "onStatus" must be a function');
    if (this.#result !== undefined && this.id === "") return this.#result;
    const onStatus = (json) => {
      this.#state = JSON.parse(json);
      if (!opts.onStatus) return;
      try { opts.onStatus({ ...this.#state }); } catch (e) { callbackError("onStatus", e); }
    };
    const out = await settleWith(opts.signal, (resolve, reject) =>
      this.#api.taskWait(this.#ref, JSON.stringify({ maxPollIntervalMs: opts.maxPollInterval }), onStatus, opts.signal, resolve, reject));
    this.#refresh();
    return JSON.parse(out);
  }

  /** refresh fetches the state once (tasks/get) and resolves with it. */
  async refresh(options) {
    const opts = checkOptions(options, ["signal"], "refresh");
    this.#state = JSON.parse(await settleWith(opts.signal, (resolve, reject) => this.#api.taskRefresh(this.#ref, opts.signal, resolve, reject)));
    return { ...this.#state };
  }

  /**
   * cancel asks the server to cancel the task (tasks/cancel). Cancellation
   * is cooperative: wait() tells how the task ended.
   */
  async cancel(options) {
    const opts = checkOptions(options, ["signal"], "cancel");
    this.#state = JSON.parse(await settleWith(opts.signal, (resolve, reject) => this.#api.taskCancel(this.#ref, opts.signal, resolve, reject)));
    return { ...this.#state };
  }
}
