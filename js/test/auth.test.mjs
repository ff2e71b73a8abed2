// OAuth through connect(url, { auth }) against a real protected MCP server:
// the official Go SDK server behind the Go SDK's bearer-token middleware,
// with a small observable authorization server (harness/authserve). What
// each origin received is read back from the server (/_test/state) and,
// where it matters, from a fetch wrapper that sees every request the
// client makes.
import { test, before, after } from "node:test";
import assert from "node:assert/strict";
import { spawn, execFile } from "node:child_process";
import { mkdtemp, readFile, stat, rm } from "node:fs/promises";
import { tmpdir } from "node:os";
import path from "node:path";
import { promisify } from "node:util";
import { init, Client, McpError } from "../src/index.node.js";
import { loopbackAuthorization, fileStore } from "../src/node.js";
import { repo } from "./helpers.mjs";

let authserve; // the built command
const running = new Set();

before(async () => {
  authserve = process.env.MCPWASM_AUTHSERVE;
  if (!authserve) {
    authserve = path.join(repo, "build", "bin", "authserve");
    await promisify(execFile)("go", ["build", "-o", authserve, "./authserve"], { cwd: path.join(repo, "harness"), env: { ...process.env, GOOS: "", GOARCH: "" } });
  }
  await init();
});
after(() => Promise.all([...running].map((s) => s.stop())));

/** start runs authserve; resolves with {url, as, other, state(), stop()}. */
function start(args = []) {
  const child = spawn(authserve, ["-max-life", "5m", ...args], { stdio: ["pipe", "pipe", "pipe"] });
  let stderr = "";
  child.stderr.on("data", (d) => { stderr = (stderr + d).slice(-8192); });
  return new Promise((resolve, reject) => {
    let out = "";
    const timer = setTimeout(() => { child.kill(); reject(new Error(`authserve: no LISTENING line\n${stderr}`)); }, 30000);
    child.on("exit", (code) => { clearTimeout(timer); reject(new Error(`authserve exited (${code})\n${stderr}`)); });
    child.stdout.on("data", (d) => {
      out += d;
      const m = /LISTENING (\S+) as=(\S+) other=(\S+)/.exec(out);
      if (!m) return;
      clearTimeout(timer);
      child.removeAllListeners("exit");
      const s = {
        url: m[1],
        as: m[2],
        other: m[3],
        state: async () => (await fetch(`${m[1]}/_test/state`)).json(),
        stop: () => new Promise((r) => {
          running.delete(s);
          if (child.exitCode !== null) return r();
          child.on("exit", () => r());
          child.stdin.end();
          setTimeout(() => child.kill("SIGKILL"), 3000).unref();
        }),
      };
      running.add(s);
      resolve(s);
    });
  });
}

const newClient = (opts) => new Client({ name: "auth-test", version: "1.0.0" }, opts);

async function add(client) {
  const r = await client.callTool({ name: "add", arguments: { a: 2, b: 3 } });
  assert.deepEqual(r.structuredContent, { sum: 5 });
}

/** mapStorage is auth.storage on a Map, with asynchronous hooks, recording the calls. */
function mapStorage(map = new Map()) {
  const calls = [];
  return {
    map,
    calls,
    load: async (key) => { calls.push(["load", key]); return map.has(key) ? map.get(key) : null; },
    save: async (key, value) => { calls.push(["save", key]); map.set(key, value); },
    remove: async (key) => { calls.push(["remove", key]); map.delete(key); },
  };
}

/** recordingFetch is fetch, noting each request's URL and Authorization header. */
function recordingFetch() {
  const seen = [];
  const f = (input, init) => {
    seen.push({ url: String(input instanceof Request ? input.url : input), authorization: new Headers(init?.headers).get("authorization") });
    return fetch(input, init);
  };
  f.seen = seen;
  return f;
}

/** follow plays the browser at the authorization server: where does it redirect? */
async function follow(authURL) {
  const r = await fetch(authURL, { redirect: "manual" });
  await r.body?.cancel();
  assert.equal(r.status, 302);
  return r.headers.get("location");
}

for (const era of [{ name: "modern", versions: undefined, expect: "2026-07-28" }, { name: "legacy", versions: ["2025-11-25"], expect: "2025-11-25" }]) {
  test(`headless authorization, ${era.name} era: discovery, registration, PKCE, the token`, async () => {
    const srv = await start();
    const lines = [];
    const c = newClient({ protocolVersions: era.versions });
    const info = await c.connect(`${srv.url}/mcp`, { auth: { userAgent: "headless", onLog: (l) => lines.push(l) } });
    try {
      assert.equal(info.protocolVersion, era.expect);
      await add(c);
    } finally {
      await c.close();
    }
    const st = await srv.state();
    assert.equal(st.authorizations, 1);
    assert.equal(st.registrations, 1);
    assert.deepEqual(st.grants, ["authorization_code"]);
    const authorized = st.mcpSeen.filter((r) => r.token);
    assert.ok(authorized.length > 0);
    for (const r of authorized) assert.equal(r.resource, `${srv.url}/mcp`);
    assert.ok(lines.some((l) => l.includes("registering the client")), lines.join("\n"));
  });
}

test("the token is never sent to another origin, also across a redirect", async () => {
  const srv = await start();
  const f = recordingFetch();
  const c = newClient();
  // /mcp/out belongs to the resource <url>/mcp and redirects (307) to another origin.
  await c.connect(`${srv.url}/mcp/out`, { auth: { userAgent: "headless" }, fetch: f });
  try {
    await add(c);
  } finally {
    await c.close();
  }
  const st = await srv.state();
  assert.ok(st.otherSeen.length > 0, "the requests ended up at the other origin");
  for (const r of st.otherSeen) assert.equal(r.token, undefined, `the other origin received a token at ${r.path}`);
  assert.ok(st.mcpSeen.some((r) => r.path === "/mcp/out" && r.resource === `${srv.url}/mcp`), "the resource received its token");
  // On the wire, from the client's side: a bearer token only ever went to the resource's origin.
  const withToken = f.seen.filter((r) => r.authorization);
  assert.ok(withToken.length > 0);
  for (const r of withToken) assert.equal(new URL(r.url).origin, srv.url, `Authorization sent to ${r.url}`);
  assert.ok(f.seen.some((r) => new URL(r.url).origin === srv.other && !r.authorization));
  assert.ok(f.seen.some((r) => new URL(r.url).origin === srv.as && !r.authorization), "the authorization server never sees the token");
});

test("an expired token is refreshed before it is sent", async () => {
  const srv = await start();
  const c = newClient();
  // Tokens of /short/mcp live 31 s; the client treats them as expired 30 s early.
  await c.connect(`${srv.url}/short/mcp`, { auth: { userAgent: "headless" } });
  try {
    await add(c);
    await new Promise((r) => setTimeout(r, 1300));
    await add(c);
  } finally {
    await c.close();
  }
  const st = await srv.state();
  assert.equal(st.authorizations, 1, "no new authorization");
  assert.equal(st.grants[0], "authorization_code");
  assert.ok(st.grants.slice(1).length > 0 && st.grants.slice(1).every((g) => g === "refresh_token"), `grants: ${st.grants}`);
  const tokens = [...new Set(st.mcpSeen.filter((r) => r.token).map((r) => r.token))];
  assert.ok(tokens.length >= 2, "the refreshed token was used");
  for (const r of st.mcpSeen.filter((x) => x.token)) assert.equal(r.resource, `${srv.url}/short/mcp`);
});

test("storage round trip through the page's hooks: a new client reuses registration and token", async () => {
  const srv = await start();
  const storage = mapStorage();
  const a = newClient();
  await a.connect(`${srv.url}/mcp`, { auth: { userAgent: "headless", storage } });
  await add(a);
  await a.close();
  const keys = [...storage.map.keys()].sort();
  assert.deepEqual(keys, [`registration ${srv.as}`, `token ${srv.as} ${srv.url}/mcp`]);
  const tok = JSON.parse(storage.map.get(`token ${srv.as} ${srv.url}/mcp`));
  assert.equal(tok.token_type, "Bearer");
  assert.match(tok.access_token, /^at-/);
  assert.ok(tok.refresh_token, "offline_access was requested");
  assert.equal(JSON.parse(storage.map.get(`registration ${srv.as}`)).client_id, "client-1");
  assert.ok(storage.calls.some(([op, k]) => op === "remove" && k.startsWith("pending ")), "the pending authorization was removed once answered");

  // A new page load: a new client, the same storage.
  const b = newClient();
  await b.connect(`${srv.url}/mcp`, { auth: { userAgent: "headless", storage } });
  await add(b);
  await b.close();
  const st = await srv.state();
  assert.equal(st.authorizations, 1);
  assert.equal(st.registrations, 1);
  assert.deepEqual(st.grants, ["authorization_code"]);
  assert.equal(st.mcpSeen.at(-1).token, tok.access_token, "the stored token was sent");
});

test("storage that fails or holds garbage gives a clear error of kind auth", async () => {
  const srv = await start();
  const cases = [
    { name: "invalid JSON", storage: { load: () => "{not json", save: () => {} }, want: /storage\.load\(.*\) returned invalid JSON/ },
    { name: "a throwing load", storage: { load: () => { throw new Error("quota"); }, save: () => {} }, want: /storage\.load: .*quota/ },
    { name: "a rejecting save", storage: { load: () => null, save: () => Promise.reject(new Error("disk full")) }, want: /disk full/ },
  ];
  for (const cs of cases) {
    const c = newClient();
    const e = await c.connect(`${srv.url}/mcp`, { auth: { userAgent: "headless", storage: cs.storage } }).catch((x) => x);
    assert.ok(e instanceof McpError, `${cs.name}: ${e}`);
    assert.equal(e.kind, "auth", cs.name);
    assert.match(e.message, cs.want, cs.name);
    await c.close();
  }
  // The instance is fine: a good client still connects.
  const ok = newClient();
  await ok.connect(`${srv.url}/mcp`, { auth: { userAgent: "headless" } });
  await add(ok);
  await ok.close();
});

/**
 * corsFetch behaves like a page on pageOrigin in front of Node's fetch
 * (which enforces no CORS): an Origin header, a TypeError without
 * Access-Control-Allow-Origin, and a "cors" response showing only the
 * safelisted headers and those in Access-Control-Expose-Headers.
 */
function corsFetch(pageOrigin) {
  // (A Response whose type says "cors": headers are read as a page would.)
  const safelist = ["cache-control", "content-language", "content-length", "content-type", "expires", "last-modified", "pragma"];
  return async (input, init = {}) => {
    const headers = new Headers(init.headers);
    headers.set("origin", pageOrigin);
    const r = await fetch(input, { ...init, headers });
    if (!r.headers.get("access-control-allow-origin")) {
      await r.body?.cancel();
      throw new TypeError("Failed to fetch");
    }
    const exposed = (r.headers.get("access-control-expose-headers") || "").split(",").map((s) => s.trim().toLowerCase()).filter(Boolean);
    const visible = new Headers();
    for (const [k, v] of r.headers) if (safelist.includes(k) || exposed.includes(k)) visible.append(k, v);
    const nullBody = [101, 204, 205, 304].includes(r.status);
    if (nullBody) await r.body?.cancel();
    const filtered = new Response(nullBody ? null : r.body, { status: r.status, statusText: r.statusText, headers: visible });
    Object.defineProperty(filtered, "type", { value: "cors" });
    Object.defineProperty(filtered, "url", { value: r.url });
    return filtered;
  };
}

test("a WWW-Authenticate hidden by CORS is diagnosed", async () => {
  const page = "http://page.example";
  const srv = await start(["-cors", page]);
  // /hidden/mcp publishes its metadata only through WWW-Authenticate, which
  // its CORS answer does not expose: a browser cannot find it.
  const c = newClient();
  const e = await c.connect(`${srv.url}/hidden/mcp`, { auth: { userAgent: "headless" }, fetch: corsFetch(page) }).catch((x) => x);
  await c.close();
  assert.ok(e instanceof McpError, String(e));
  assert.equal(e.kind, "auth", e.message);
  assert.equal(e.data?.hiddenHeader, "WWW-Authenticate");
  assert.match(e.message, /WWW-Authenticate/);
  assert.match(e.message, /Access-Control-Expose-Headers/);
  // The same server where the header is exposed, and the same resource
  // without CORS filtering, work: the diagnosis is about the hidden header.
  // (A page cannot read the authorization server's redirect either: the
  // "user" follows it, as a popup would.)
  for (const [url, f] of [[`${srv.url}/mcp`, corsFetch(page)], [`${srv.url}/hidden/mcp`, undefined]]) {
    const ok = newClient();
    await ok.connect(url, { auth: { redirectUri: "http://127.0.0.1/callback", onAuthorizationUrl: (u) => follow(u) }, fetch: f });
    await add(ok);
    await ok.close();
  }
});

test("a page that goes to the authorization server finishes after the redirect (callbackUrl)", async () => {
  const srv = await start();
  const storage = mapStorage();
  const redirectUri = "https://app.example/callback";
  let sent;
  const first = newClient();
  const e = await first.connect(`${srv.url}/mcp`, {
    auth: {
      redirectUri,
      storage,
      // A page whose popup was blocked: it navigates to the authorization server.
      onAuthorizationUrl: (url, info) => {
        assert.equal(info.resumable, true);
        assert.equal(info.redirectUri, redirectUri);
        assert.equal(info.state, new URL(url).searchParams.get("state"));
        sent = url;
        return null;
      },
    },
  }).catch((x) => x);
  await first.close();
  assert.ok(e instanceof McpError, String(e));
  assert.equal(e.kind, "auth");
  assert.equal(e.data?.redirected, true);
  const pendingKey = `pending ${srv.as} ${srv.url}/mcp`;
  const pending = JSON.parse(storage.map.get(pendingKey));
  assert.equal(pending.redirect_uri, redirectUri);
  assert.ok(pending.code_verifier && pending.state);

  // The user signs in; the browser loads the redirect URI.
  const callbackUrl = await follow(sent);
  assert.ok(callbackUrl.startsWith(redirectUri));
  const second = newClient();
  let asked = false;
  await second.connect(`${srv.url}/mcp`, {
    auth: { redirectUri, storage, callbackUrl, onAuthorizationUrl: () => { asked = true; return null; } },
  });
  await add(second);
  await second.close();
  assert.equal(asked, false, "no new authorization");
  assert.equal(storage.map.has(pendingKey), false, "the pending authorization is used once");
  const st = await srv.state();
  assert.equal(st.authorizations, 1);
  assert.deepEqual(st.grants, ["authorization_code"]);
});

test("authorization responses are checked: denied, forged state, wrong issuer", async () => {
  const srv = await start();
  const cases = [
    { name: "denied", tamper: (u) => { u.searchParams.delete("code"); u.searchParams.set("error", "access_denied"); }, check: (e) => { assert.equal(e.data?.error, "access_denied"); assert.equal(e.data?.endpoint, "authorization"); } },
    { name: "forged state", tamper: (u) => u.searchParams.set("state", "forged"), check: (e) => assert.match(e.message, /state does not match/) },
    { name: "wrong issuer", tamper: (u) => u.searchParams.set("iss", "https://evil.example"), check: (e) => assert.match(e.message, /iss does not match/) },
  ];
  for (const cs of cases) {
    const c = newClient();
    const e = await c.connect(`${srv.url}/mcp`, {
      auth: {
        redirectUri: "http://127.0.0.1/callback",
        onAuthorizationUrl: async (url) => {
          const u = new URL(await follow(url));
          cs.tamper(u);
          return u.href;
        },
      },
    }).catch((x) => x);
    await c.close();
    assert.ok(e instanceof McpError, `${cs.name}: ${e}`);
    assert.equal(e.kind, "auth", cs.name);
    cs.check(e);
  }
  assert.deepEqual((await srv.state()).grants, [], "no code was exchanged");
});

test("mcpwasm/node: loopbackAuthorization receives the redirect on 127.0.0.1; fileStore keeps the token", async () => {
  const srv = await start();
  const dir = await mkdtemp(path.join(tmpdir(), "mcpwasm-auth-"));
  const file = path.join(dir, "tokens.json");
  const pages = [];
  const agent = await loopbackAuthorization({
    // The "browser": follows the authorization server's redirect to the listener.
    open: async (url) => {
      const r = await fetch(url);
      pages.push(await r.text());
    },
  });
  try {
    assert.match(agent.redirectUri, /^http:\/\/127\.0\.0\.1:\d+\/callback$/);
    const c = newClient();
    await c.connect(`${srv.url}/mcp`, { auth: { onAuthorizationUrl: agent, storage: fileStore(file) } });
    await add(c);
    await c.close();
    assert.equal(pages.length, 1);
    assert.match(pages[0], /Signed in/);
    const saved = JSON.parse(await readFile(file, "utf8"));
    assert.ok(saved[`token ${srv.as} ${srv.url}/mcp`]);
    assert.equal((await stat(file)).mode & 0o777, 0o600);
    // Unknown states are refused by the listener.
    const r = await fetch(`${agent.redirectUri}?code=x&state=unknown`);
    assert.equal(r.status, 400);
    await r.body?.cancel();
    // A new process with the same file signs in no more.
    const d = newClient();
    await d.connect(`${srv.url}/mcp`, { auth: { onAuthorizationUrl: agent, storage: fileStore(file) } });
    await add(d);
    await d.close();
    assert.equal((await srv.state()).authorizations, 1);
    assert.equal(pages.length, 1);
  } finally {
    await agent.close();
    await rm(dir, { recursive: true, force: true });
  }
});

test("the auth option is validated", async () => {
  const c = newClient();
  const url = "http://127.0.0.1:1/mcp";
  await assert.rejects(c.connect(url, { auth: { userAgnet: "headless" } }), /unknown option "userAgnet"/);
  await assert.rejects(c.connect(url, { auth: { userAgent: "popup" } }), /unknown userAgent/);
  await assert.rejects(c.connect(url, { auth: { grant: "password" } }), /unknown grant/);
  await assert.rejects(c.connect(url, { auth: { onAuthorizationUrl: () => null } }), /redirectUri.*required/);
  await assert.rejects(c.connect(url, { auth: { storage: { load: () => null } } }), /load\(key\) and save\(key, value\)/);
  await assert.rejects(c.connect(url, { auth: { client: { secret: "s" } } }), /client\.id/);
  await assert.rejects(c.connect(url, { auth: { idJag: { tokenEndpoint: "https://idp/token", clientId: "c" } } }), /subjectToken/);
  await assert.rejects(c.connect(url, { auth: "yes" }), /auth: must be an object/);
  await assert.rejects(c.connect("ws://127.0.0.1:1/mcp", { transport: "websocket", auth: { userAgent: "headless" } }), /HTTP transports/);
  await assert.rejects(c.connect(url, { auth: { allowPrivateAddresses: "yes" } }), /"allowPrivateAddresses" must be a boolean/);
  await c.close();
});

test("discovery refuses a metadata URL on the cloud metadata address unless allowPrivateAddresses", async () => {
  // The fetch option plays the server: every request the client makes is seen here.
  const seen = [];
  const fakeFetch = async (input, init) => {
    const u = typeof input === "string" ? input : input.url;
    seen.push(u);
    if (u === "https://mcp.example.com/mcp") {
      return new Response(JSON.stringify({ error: "invalid_token" }), {
        status: 401,
        headers: { "content-type": "application/json", "www-authenticate": 'Bearer resource_metadata="http://169.254.169.254/latest/meta-data"' },
      });
    }
    return new Response("not found", { status: 404 });
  };
  const auth = { grant: "client_credentials", client: { id: "c", secret: "s" } };
  const c = newClient();
  const err = await c.connect("https://mcp.example.com/mcp", { transport: "streamable-http", fetch: fakeFetch, auth }).then(() => null, (e) => e);
  assert.ok(err instanceof McpError, String(err));
  assert.equal(err.kind, "auth");
  assert.match(err.message, /169\.254\.169\.254.*link-local/);
  assert.ok(!seen.some((u) => u.includes("169.254.169.254")), `requested: ${seen.join(", ")}`);

  seen.length = 0;
  const relaxed = { ...auth, allowPrivateAddresses: true, allowInsecureHttp: true };
  await assert.rejects(c.connect("https://mcp.example.com/mcp", { transport: "streamable-http", fetch: fakeFetch, auth: relaxed }));
  assert.ok(seen.includes("http://169.254.169.254/latest/meta-data"), `relaxed, the metadata URL is fetched: ${seen.join(", ")}`);
  await c.close();
});

test("the browser entry point imports no node: module", async () => {
  const seen = new Set();
  const visit = async (file) => {
    if (seen.has(file)) return;
    seen.add(file);
    const src = await readFile(file, "utf8");
    for (const m of src.matchAll(/^\s*(?:import|export)\s[^;]*?from\s+"([^"]+)"/gm)) {
      assert.ok(!m[1].startsWith("node:"), `${path.basename(file)} imports ${m[1]}`);
      if (m[1].startsWith(".")) await visit(path.resolve(path.dirname(file), m[1]));
    }
  };
  await visit(path.join(repo, "js/src/index.js"));
  assert.ok(seen.has(path.join(repo, "js/src/auth.js")), "the check followed the imports");
});
