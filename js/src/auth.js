// OAuth for connect(url, { auth }): the option's validation, and the
// helpers for pages — a popup user agent with a full-page redirect
// fallback, the callback page's side, and a Web Storage store. No
// Node-only imports here (see node.js for the Node helpers).

import { checkOptions } from "./loader.js";

const AUTH_OPTIONS = [
  "grant", "userAgent", "onAuthorizationUrl", "redirectUri", "callbackUrl", "client", "clientMetadataUrl",
  "clientName", "applicationType", "scopes", "offlineAccess", "dpop", "idJag", "assertion", "storage",
  "maxAuthorizations", "authorizationTimeout", "allowInsecureHttp", "allowPrivateAddresses", "onLog",
];
const CLIENT_OPTIONS = ["id", "secret", "privateKeyPem", "authMethod", "issuer"];
const IDJAG_OPTIONS = ["tokenEndpoint", "clientId", "clientSecret", "subjectToken", "subjectTokenType"];
const GRANTS = ["authorization_code", "client_credentials", "jwt_bearer"];

/** The message the callback page sends, and the opener's acknowledgement. */
const CALLBACK = "mcpwasm:oauth-callback";
const ACK = "mcpwasm:oauth-ack";
const DEFAULT_CHANNEL = "mcpwasm-oauth";

function fail(message) {
  throw new TypeError(`connect: auth: ${message}`);
}

function optionalString(o, key, where) {
  if (o[key] !== undefined && typeof o[key] !== "string") fail(`${where}"${key}" must be a string`);
}

/**
 * authBridge validates connect's auth option and splits it into the JSON
 * the module reads and the hooks object whose functions it calls (see
 * wasm/js/auth.go). Internal to the package.
 */
export function authBridge(auth) {
  if (auth === null || typeof auth !== "object") fail("must be an object");
  const a = checkOptions(auth, AUTH_OPTIONS, "connect: auth");
  for (const k of ["grant", "userAgent", "redirectUri", "callbackUrl", "clientMetadataUrl", "clientName", "applicationType"]) optionalString(a, k, "");
  if (a.grant !== undefined && !GRANTS.includes(a.grant)) fail(`unknown grant "${a.grant}" (known: ${GRANTS.join(", ")})`);
  if (a.userAgent !== undefined && a.userAgent !== "headless") fail(`unknown userAgent "${a.userAgent}" (known: headless; or pass onAuthorizationUrl)`);
  if (a.userAgent !== undefined && a.onAuthorizationUrl !== undefined) fail('pass either userAgent or onAuthorizationUrl');
  for (const k of ["onAuthorizationUrl", "assertion", "onLog"]) {
    if (a[k] !== undefined && typeof a[k] !== "function") fail(`"${k}" must be a function`);
  }
  if (a.applicationType !== undefined && !["native", "web"].includes(a.applicationType)) fail('"applicationType" must be "native" or "web"');
  if (a.scopes !== undefined && (!Array.isArray(a.scopes) || a.scopes.some((s) => typeof s !== "string"))) fail('"scopes" must be an array of strings');
  for (const k of ["offlineAccess", "dpop", "allowInsecureHttp", "allowPrivateAddresses"]) {
    if (a[k] !== undefined && typeof a[k] !== "boolean") fail(`"${k}" must be a boolean`);
  }
  for (const k of ["maxAuthorizations", "authorizationTimeout"]) {
    if (a[k] !== undefined && (typeof a[k] !== "number" || !(a[k] > 0))) fail(`"${k}" must be a positive number`);
  }
  let client;
  if (a.client !== undefined) {
    const c = checkOptions(a.client, CLIENT_OPTIONS, "connect: auth.client");
    if (typeof c.id !== "string" || !c.id) fail('"client.id" must be a non-empty string');
    for (const k of CLIENT_OPTIONS) optionalString(c, k, "client.");
    client = c;
  }
  let idJag;
  if (a.idJag !== undefined) {
    const j = checkOptions(a.idJag, IDJAG_OPTIONS, "connect: auth.idJag");
    if (typeof j.tokenEndpoint !== "string" || typeof j.clientId !== "string") fail('"idJag" needs tokenEndpoint and clientId');
    if (typeof j.subjectToken !== "function") fail('"idJag.subjectToken" must be a function');
    for (const k of ["clientSecret", "subjectTokenType"]) optionalString(j, k, "idJag.");
    idJag = { tokenEndpoint: j.tokenEndpoint, clientId: j.clientId, clientSecret: j.clientSecret, subjectTokenType: j.subjectTokenType };
  }
  if (a.storage !== undefined) {
    const s = a.storage;
    if (s === null || typeof s !== "object" || typeof s.load !== "function" || typeof s.save !== "function" ||
        (s.remove !== undefined && typeof s.remove !== "function")) {
      fail('"storage" must be an object with load(key) and save(key, value) functions (and optionally remove(key))');
    }
  }
  const redirectUri = a.redirectUri ?? (typeof a.onAuthorizationUrl?.redirectUri === "string" ? a.onAuthorizationUrl.redirectUri : undefined);
  if (a.onAuthorizationUrl !== undefined && redirectUri === undefined) {
    fail('"redirectUri" is required with onAuthorizationUrl (popupAuthorization and loopbackAuthorization set it)');
  }
  const config = { // the bridge's AuthConfig (internal/bridge; docs/configuration.md)
    grant: a.grant,
    userAgent: a.userAgent,
    redirectUri,
    callbackUrl: a.callbackUrl || undefined,
    clientId: client?.id,
    clientSecret: client?.secret,
    privateKeyPem: client?.privateKeyPem,
    authMethod: client?.authMethod,
    issuer: client?.issuer,
    clientMetadataUrl: a.clientMetadataUrl,
    clientName: a.clientName,
    applicationType: a.applicationType,
    scopes: a.scopes,
    noOfflineAccess: a.offlineAccess === false,
    dpop: !!a.dpop,
    idjag: idJag,
    maxAuthorizations: a.maxAuthorizations,
    authorizationTimeoutMs: a.authorizationTimeout,
    allowInsecureHttp: !!a.allowInsecureHttp,
    allowPrivateAddresses: !!a.allowPrivateAddresses,
    log: !!a.onLog,
  };
  const hooks = {
    onAuthorizationUrl: a.onAuthorizationUrl,
    storage: a.storage,
    assertion: a.assertion,
    subjectToken: a.idJag?.subjectToken,
    log: a.onLog
      ? (line) => { try { a.onLog(line); } catch (e) { console.error("mcpwasm: auth.onLog callback threw", e); } }
      : undefined,
  };
  return { config, hooks };
}

// ---------------------------------------------------------------- pages

function callbackMatches(raw, redirect, state) {
  let u;
  try {
    u = new URL(raw);
  } catch {
    return false;
  }
  return u.origin === redirect.origin && u.pathname === redirect.pathname && u.searchParams.get("state") === state;
}

/**
 * popupAuthorization returns an onAuthorizationUrl function for pages: it
 * opens the authorization URL in a popup and resolves with the callback
 * URL that the page at redirectUri (which calls authorizationCallback())
 * sends back through window.opener.postMessage (origin-checked) or a
 * BroadcastChannel (same origin only); the state must match. When the
 * browser blocks the popup and auth.storage is set, it sends the whole page
 * to the authorization server instead (fallback "redirect", the default)
 * and resolves with null; the page at redirectUri then finishes the
 * authorization with connect(url, { auth: { ...same options, callbackUrl } }).
 * The function carries redirectUri, which connect uses as auth.redirectUri.
 *
 * Options: redirectUri (required, absolute), width (500), height (650),
 * timeoutMs (300000), fallback ("redirect" | "none"), channel (the
 * BroadcastChannel name, "mcpwasm-oauth"), detectClose (true: a popup the
 * user closed ends the authorization at once). An authorization server
 * whose pages send Cross-Origin-Opener-Policy: same-origin severs the popup
 * from the page, which then sees it as closed: pass detectClose: false
 * (a redirect URI on the page's origin still reaches it through the
 * BroadcastChannel; an abandoned sign-in then ends after timeoutMs).
 */
export function popupAuthorization(options) {
  const o = checkOptions(options, ["redirectUri", "width", "height", "timeoutMs", "fallback", "channel", "detectClose"], "popupAuthorization");
  if (typeof o.redirectUri !== "string") throw new TypeError("popupAuthorization: redirectUri (an absolute URL) is required");
  const redirect = new URL(o.redirectUri);
  const width = o.width ?? 500;
  const height = o.height ?? 650;
  const timeoutMs = o.timeoutMs ?? 300000;
  const fallback = o.fallback ?? "redirect";
  const channel = o.channel ?? DEFAULT_CHANNEL;
  const detectClose = o.detectClose ?? true;
  if (!["redirect", "none"].includes(fallback)) throw new TypeError('popupAuthorization: fallback must be "redirect" or "none"');

  const onAuthorizationUrl = (url, info = {}) => {
    const state = new URL(url).searchParams.get("state");
    if (!state) return Promise.reject(new Error("mcpwasm: the authorization URL has no state"));
    const left = Math.max(0, (globalThis.screenX ?? 0) + ((globalThis.outerWidth ?? width) - width) / 2);
    const top = Math.max(0, (globalThis.screenY ?? 0) + ((globalThis.outerHeight ?? height) - height) / 2);
    const popup = globalThis.open(url, `mcpwasm-oauth-${state.slice(0, 16)}`, `popup=yes,width=${width},height=${height},left=${left},top=${top}`);
    if (!popup) {
      if (fallback === "redirect" && info.resumable) {
        globalThis.location.assign(url);
        return Promise.resolve(null);
      }
      return Promise.reject(new Error(info.resumable || fallback === "none"
        ? "mcpwasm: the browser blocked the authorization popup (open it from a user gesture, e.g. a click handler)"
        : "mcpwasm: the browser blocked the authorization popup, and without auth.storage the page cannot go to the authorization server instead (the pending authorization would be lost): connect from a click handler, or pass storage (e.g. localStorageStore())"));
    }
    return new Promise((resolve, reject) => {
      const cleanups = [];
      let done = false;
      const finish = (err, value) => {
        if (done) return;
        done = true;
        for (const f of cleanups) f();
        try { popup.close(); } catch { /* cross-origin or gone */ }
        if (err) reject(err);
        else resolve(value);
      };
      const accept = (data, reply) => {
        if (!data || data.type !== CALLBACK || typeof data.url !== "string") return;
        if (!callbackMatches(data.url, redirect, state)) return; // another authorization's, or forged
        try { reply({ type: ACK, state }); } catch { /* the callback page is gone */ }
        finish(null, data.url);
      };
      const onMessage = (e) => {
        if (e.origin !== redirect.origin) return;
        accept(e.data, (m) => e.source?.postMessage(m, e.origin));
      };
      globalThis.addEventListener("message", onMessage);
      cleanups.push(() => globalThis.removeEventListener("message", onMessage));
      if (typeof BroadcastChannel === "function") {
        const bc = new BroadcastChannel(channel);
        bc.onmessage = (e) => accept(e.data, (m) => bc.postMessage(m));
        cleanups.push(() => bc.close());
      }
      // The user closed the window. A grace period lets a message posted
      // just before the callback page closed itself arrive.
      const poll = detectClose && setInterval(() => {
        let closed = false;
        try { closed = popup.closed; } catch { /* unknown: keep waiting */ }
        if (!closed) return;
        clearInterval(poll);
        const grace = setTimeout(() => finish(new Error("mcpwasm: the authorization window was closed before the authorization finished")), 1000);
        cleanups.push(() => clearTimeout(grace));
      }, 300);
      cleanups.push(() => clearInterval(poll));
      const timer = setTimeout(() => finish(new Error(`mcpwasm: the authorization did not finish within ${timeoutMs} ms`)), timeoutMs);
      cleanups.push(() => clearTimeout(timer));
      const signal = info.signal;
      if (signal) {
        if (signal.aborted) finish(signal.reason ?? new Error("aborted"));
        const onAbort = () => finish(signal.reason ?? new Error("aborted"));
        signal.addEventListener("abort", onAbort, { once: true });
        cleanups.push(() => signal.removeEventListener("abort", onAbort));
      }
    });
  };
  onAuthorizationUrl.redirectUri = redirect.href;
  return onAuthorizationUrl;
}

/**
 * authorizationCallback is for the page at the redirect URI. If the page is
 * an authorization response (its URL has a state), it sends its URL to the
 * page that opened the popup — window.opener.postMessage to targetOrigin
 * (default: this page's origin) and a BroadcastChannel — and waits up to
 * ackTimeoutMs (1000) for that page to take it; then it closes the window
 * (close: true, the default) and resolves with null. If no page took it,
 * this page is the result of a full-page redirect: it resolves with its URL,
 * the callbackUrl with which the application finishes the authorization
 * (connect(url, { auth: { ...same options, callbackUrl } })). A page that
 * is no authorization response resolves with null at once.
 *
 * Options: targetOrigin, channel ("mcpwasm-oauth"), ackTimeoutMs, close.
 */
export function authorizationCallback(options) {
  const o = checkOptions(options, ["targetOrigin", "channel", "ackTimeoutMs", "close"], "authorizationCallback");
  const url = globalThis.location.href;
  const state = new URL(url).searchParams.get("state");
  if (!state) return Promise.resolve(null);
  const targetOrigin = o.targetOrigin ?? globalThis.location.origin;
  const channel = o.channel ?? DEFAULT_CHANNEL;
  const ackTimeoutMs = o.ackTimeoutMs ?? 1000;
  const message = { type: CALLBACK, url };
  return new Promise((resolve) => {
    const cleanups = [];
    let done = false;
    const finish = (taken) => {
      if (done) return;
      done = true;
      for (const f of cleanups) f();
      if (taken && o.close !== false) globalThis.close();
      resolve(taken ? null : url);
    };
    const onAck = (data) => { if (data && data.type === ACK && data.state === state) finish(true); };
    const onMessage = (e) => { if (e.origin === targetOrigin) onAck(e.data); };
    globalThis.addEventListener("message", onMessage);
    cleanups.push(() => globalThis.removeEventListener("message", onMessage));
    if (typeof BroadcastChannel === "function") {
      const bc = new BroadcastChannel(channel);
      bc.onmessage = (e) => onAck(e.data);
      cleanups.push(() => bc.close());
      bc.postMessage(message);
    }
    const opener = globalThis.opener;
    if (opener && opener !== globalThis) {
      try { opener.postMessage(message, targetOrigin); } catch { /* the opener is gone */ }
    }
    const timer = setTimeout(() => finish(false), ackTimeoutMs);
    cleanups.push(() => clearTimeout(timer));
  });
}

/**
 * localStorageStore returns auth.storage hooks on a Web Storage object
 * (default localStorage; pass sessionStorage to keep tokens for the tab's
 * life only), with keys prefixed by prefix (default "mcpwasm:auth:").
 * It keeps client registrations, tokens and pending authorizations.
 */
export function localStorageStore(prefix = "mcpwasm:auth:", storage = globalThis.localStorage) {
  if (typeof prefix !== "string") throw new TypeError("localStorageStore: prefix must be a string");
  if (!storage || typeof storage.getItem !== "function") throw new TypeError("localStorageStore: no Web Storage (localStorage) in this runtime");
  return {
    load: (key) => storage.getItem(prefix + key),
    save: (key, value) => storage.setItem(prefix + key, value),
    remove: (key) => storage.removeItem(prefix + key),
  };
}
