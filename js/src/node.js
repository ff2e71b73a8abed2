// mcpwasm/node: helpers for Node programs (they import node: modules, so
// they live outside the browser entry point). Everything of the main entry
// is re-exported, so one import suffices.

import http from "node:http";
import { readFile, writeFile, rename, mkdir } from "node:fs/promises";
import path from "node:path";
import { checkOptions } from "./loader.js";
import { McpManager as BrowserManager } from "./manager.js";
import { stdioPort } from "./stdio.js";

export * from "./index.node.js";
export { stdioPort, connectStdio } from "./stdio.js";

/**
 * McpManager of mcpwasm/node also starts stdio servers: an entry with
 * "command" (and "args", "env", "cwd") is spawned as a child process, its
 * stderr goes to the manager's onStderr, and it is ended when the server
 * is removed, reconnected or the manager closed.
 */
export class McpManager extends BrowserManager {
  async _openStdio(client, config, { signal, onStderr }) {
    const port = stdioPort({ command: config.command, args: config.args, env: config.env, cwd: config.cwd, onStderr });
    try {
      await client.connect(`stdio:${config.command}`, { transport: "port", port, era: config.era, signal });
    } catch (e) {
      port.close();
      await port.exited;
      throw e;
    }
    return port;
  }
}

const escapeHTML = (s) => s.replace(/[&<>"']/g, (c) => `&#${c.charCodeAt(0)};`);

/**
 * loopbackAuthorization starts a callback listener on 127.0.0.1 (RFC 8252
 * §7.3) and resolves with an onAuthorizationUrl function for
 * connect(url, { auth: { onAuthorizationUrl } }): it hands each
 * authorization URL to open(url) (open a browser, print it, …) and
 * resolves with the URL the authorization server redirected the browser
 * to, matched by its state. The function carries redirectUri
 * ("http://127.0.0.1:<port><path>") and close(), which stops the
 * listener; the listener does not keep Node running.
 *
 * Options: open (required), port (0: any free port), path ("/callback"),
 * timeoutMs (300000), successHtml (the page the browser shows).
 */
export async function loopbackAuthorization(options) {
  const o = checkOptions(options, ["open", "port", "path", "timeoutMs", "successHtml"], "loopbackAuthorization");
  if (typeof o.open !== "function") throw new TypeError("loopbackAuthorization: open(url) is required");
  const cbPath = o.path ?? "/callback";
  if (typeof cbPath !== "string" || !cbPath.startsWith("/")) throw new TypeError("loopbackAuthorization: path must start with /");
  const timeoutMs = o.timeoutMs ?? 300000;
  const successHtml = o.successHtml ?? "<!doctype html><meta charset=utf-8><title>Signed in</title><p>Signed in. You can close this window.";
  const waiting = new Map(); // state → resolve
  const server = http.createServer((req, res) => {
    const u = new URL(req.url, "http://127.0.0.1");
    if (req.method !== "GET" || u.pathname !== cbPath) {
      res.writeHead(404).end();
      return;
    }
    const resolve = waiting.get(u.searchParams.get("state") ?? "");
    if (!resolve) {
      res.writeHead(400, { "Content-Type": "text/plain; charset=utf-8" }).end("No authorization is waiting for this response.");
      return;
    }
    const error = u.searchParams.get("error");
    res.writeHead(200, { "Content-Type": "text/html; charset=utf-8", "Cache-Control": "no-store" })
      .end(error ? `<!doctype html><meta charset=utf-8><p>Authorization failed: ${escapeHTML(error)}` : successHtml);
    resolve(new URL(req.url, redirectUri).href);
  });
  await new Promise((resolve, reject) => {
    server.once("error", reject);
    server.listen(o.port ?? 0, "127.0.0.1", () => { server.off("error", reject); resolve(); });
  });
  server.unref();
  const redirectUri = `http://127.0.0.1:${server.address().port}${cbPath}`;

  const onAuthorizationUrl = async (url, info = {}) => {
    const state = new URL(url).searchParams.get("state");
    if (!state) throw new Error("mcpwasm: the authorization URL has no state");
    let cleanup;
    const callback = new Promise((resolve, reject) => {
      const timer = setTimeout(() => reject(new Error(`mcpwasm: no authorization response within ${timeoutMs} ms`)), timeoutMs);
      const onAbort = () => reject(info.signal.reason ?? new Error("aborted"));
      info.signal?.addEventListener("abort", onAbort, { once: true });
      waiting.set(state, resolve);
      cleanup = () => {
        clearTimeout(timer);
        info.signal?.removeEventListener("abort", onAbort);
        waiting.delete(state);
      };
    });
    try {
      await o.open(url);
      return await callback;
    } finally {
      cleanup();
    }
  };
  onAuthorizationUrl.redirectUri = redirectUri;
  onAuthorizationUrl.close = () => new Promise((resolve) => {
    server.closeAllConnections?.();
    server.close(() => resolve());
  });
  return onAuthorizationUrl;
}

/**
 * fileStore returns auth.storage hooks that keep registrations, tokens and
 * pending authorizations in a JSON file (created with mode 0600; written
 * atomically). For command-line programs that sign in once.
 */
export function fileStore(file) {
  if (typeof file !== "string" || !file) throw new TypeError("fileStore: a file path is required");
  let queue = Promise.resolve();
  const read = async () => {
    try {
      return JSON.parse(await readFile(file, "utf8"));
    } catch (e) {
      if (e.code === "ENOENT") return {};
      throw new Error(`mcpwasm: fileStore: ${file}: ${e.message}`);
    }
  };
  const update = (f) => {
    const run = queue.then(async () => {
      const data = await read();
      f(data);
      await mkdir(path.dirname(file), { recursive: true });
      const tmp = `${file}.${process.pid}.tmp`;
      await writeFile(tmp, JSON.stringify(data, null, 2), { mode: 0o600 });
      await rename(tmp, file);
    });
    queue = run.catch(() => {});
    return run;
  };
  return {
    load: async (key) => {
      await queue;
      return (await read())[key] ?? null;
    },
    save: (key, value) => update((d) => { d[key] = value; }),
    remove: (key) => update((d) => { delete d[key]; }),
  };
}
