// mcpwasm/apps in headless Chromium against the official MCP Apps example
// servers (@modelcontextprotocol/server-basic-vanillajs and
// server-basic-react, run unchanged on 127.0.0.1): the page calls the
// tool, the host renders its ui:// app in a sandboxed iframe through the
// official AppBridge, the app gets the tool's input and result, and the
// app's buttons (clicked inside the iframe) reach the server and the host:
// tools/call, ui/message, notifications/message, ui/open-link and
// size-changed. Then, from inside the iframe, the sandbox: no access to
// the page, no top navigation, no storage, and the CSP blocks the network;
// and ui/download-file, sampling/createMessage and ui/request-display-mode
// sent from inside the app's frame as the app sends them.
// The page, its bundle (esbuild, browser platform) and the module are
// served from an origin other than the servers'.
import { test, describe, before, after } from "node:test";
import assert from "node:assert/strict";
import path from "node:path";
import { mkdir, copyFile, writeFile } from "node:fs/promises";
import { repo, startAppServer, startStaticServer, launchBrowser, newPage, requireWasm, bundle, screenshot } from "./harness.mjs";

const work = path.join(repo, "build", "apps-page");
let site;
let browser;
let meta; // esbuild's metafile of the page bundle

before(async () => {
  await requireWasm();
  await mkdir(work, { recursive: true });
  const fixtures = path.join(repo, "tests/browser/fixtures");
  ({ metafile: meta } = await bundle(path.join(fixtures, "apps-page.mjs"), path.join(work, "apps-page.js")));
  await copyFile(path.join(fixtures, "apps-page.html"), path.join(work, "apps-page.html"));
  site = await startStaticServer({ "/page/": work, "/mcpwasm/dist/": path.join(repo, "js/dist") });
  browser = await launchBrowser();
});
after(async () => {
  await browser?.close();
  await site?.stop();
});

test("the page bundle pulls in no Node-only module", () => {
  const inputs = Object.keys(meta.inputs);
  assert.ok(inputs.some((i) => i.includes("ext-apps/dist/src/app-bridge.js")), "AppBridge is bundled");
  assert.ok(!inputs.some((i) => /(^|\/)node:|cross-spawn|shimsNode|stdio/.test(i)), inputs.filter((i) => /node:|spawn|stdio/.test(i)).join(", "));
});

/** openApp loads the page and runs a tool with an app; resolves with {page, context, frame, r}. */
async function openApp(server, toolName, args, wait = true, sandboxProxy = undefined, features = false) {
  const { context, page } = await newPage(browser);
  await page.goto(`${site.url}/page/apps-page.html`);
  const r = await page.evaluate((a) => window.runApp(a), { url: `${server.url}/mcp`, toolName, args, wait, sandboxProxy, features });
  assert.equal(r.error, undefined, r.error);
  const handle = await page.$("iframe[data-mcp-app]");
  const frame = await handle.contentFrame();
  return { context, page, frame, r };
}

/** waitEvents waits until window.events[kind] has n entries and returns them. */
async function waitEvents(page, kind, n = 1) {
  await page.waitForFunction(([k, m]) => window.events[k].length >= m, [kind, n]);
  return page.evaluate((k) => window.events[k], kind);
}

/**
 * appSide starts, inside the app's iframe, a recorder of what the host
 * sends (window.fromHost) and appRequest: a JSON-RPC request to the host
 * as the app sends it (postMessage to the parent), answered by its
 * response. Ids are strings, apart from the app's own numeric ones.
 */
async function appSide(frame) {
  await frame.evaluate(() => {
    window.fromHost = [];
    window.addEventListener("message", (e) => { if (e.source === window.parent) window.fromHost.push(e.data); });
    let n = 0;
    window.appRequest = (method, params) => new Promise((resolve) => {
      const id = `test-${++n}`;
      window.lastId = id;
      const on = (e) => {
        if (e.source !== window.parent || e.data?.id !== id) return;
        window.removeEventListener("message", on);
        resolve(e.data);
      };
      window.addEventListener("message", on);
      window.parent.postMessage({ jsonrpc: "2.0", id, method, params }, "*");
    });
    window.appNotify = (method, params) => window.parent.postMessage({ jsonrpc: "2.0", method, params }, "*");
  });
  return (method, params) => frame.evaluate(([m, p]) => window.appRequest(m, p), [method, params]);
}

/** sandboxProbe runs inside the app's iframe and reports what it could reach. */
async function sandboxProbe(frame, mcpUrl) {
  return frame.evaluate(async (url) => {
    const out = { origin: window.origin }; // the document's origin (location.origin of about:srcdoc is always "null")
    try {
      out.parentDocument = typeof window.parent.document.body;
    } catch (e) {
      out.parentDocument = e.name;
    }
    try {
      out.parentLocation = window.parent.location.href;
    } catch (e) {
      out.parentLocation = e.name;
    }
    try {
      window.top.location.href = "about:blank#escaped";
      out.topNavigation = "no error";
    } catch (e) {
      out.topNavigation = e.name;
    }
    try {
      out.storage = typeof window.localStorage.length;
    } catch (e) {
      out.storage = e.name;
    }
    try {
      out.cookie = document.cookie;
    } catch (e) {
      out.cookie = e.name;
    }
    const violations = [];
    document.addEventListener("securitypolicyviolation", (e) => violations.push(e.violatedDirective));
    try {
      await fetch(url, { method: "POST", body: "{}" });
      out.fetch = "reached";
    } catch (e) {
      out.fetch = e.name;
    }
    const img = new Image();
    const loaded = new Promise((r) => { img.onload = () => r("loaded"); img.onerror = () => r("blocked"); });
    img.src = `${url}?img`;
    out.image = await loaded;
    await new Promise((r) => setTimeout(r, 50)); // the violation events are queued tasks
    out.violations = violations;
    out.popup = window.open("about:blank") === null ? "blocked" : "opened";
    return out;
  }, mcpUrl);
}

const apps = [
  {
    pkg: "@modelcontextprotocol/server-basic-vanillajs",
    shown: (frame) => frame.locator("#server-time"),
    button: (frame, name) => frame.getByRole("button", { name }),
  },
  {
    pkg: "@modelcontextprotocol/server-basic-react",
    shown: (frame) => frame.locator("code"),
    button: (frame, name) => frame.getByRole("button", { name }),
  },
];

for (const a of apps) {
  describe(a.pkg, () => {
    let server;
    before(async () => { server = await startAppServer(a.pkg); });
    after(() => server?.stop());

    test("renders the app, delivers the result, and routes the app's requests through the host", { timeout: 60000 }, async () => {
      const { context, page, frame, r } = await openApp(server, "get-time", {});
      try {
        assert.equal(r.uri, "ui://get-time/mcp-app.html");
        assert.equal(r.sandbox, "allow-scripts");
        assert.equal(r.allow, null, "no permissions declared, none granted");
        assert.match(r.csp, /connect-src 'none'/);
        assert.match(r.csp, /default-src 'none'/);
        const first = r.result.content[0].text; // the server's ISO time
        assert.match(first, /^\d{4}-\d\d-\d\dT/);
        // The tool result reached the app (ui/notifications/tool-result).
        await a.shown(frame).filter({ hasText: first }).waitFor();

        // A tools/call from the app, through the host, to the server.
        await a.button(frame, "Get Server Time").click();
        const calls = await waitEvents(page, "toolCalls");
        assert.equal(calls[0].name, "get-time");
        await frame.waitForFunction((t) => /\d{4}-\d\d-\d\dT/.test(document.body.innerText) && !document.body.innerText.includes(t), first);

        await a.button(frame, "Send Message").click();
        const [msg] = await waitEvents(page, "messages");
        assert.equal(msg.role, "user");
        assert.deepEqual(msg.content, [{ type: "text", text: "This is message text." }]);

        await a.button(frame, "Send Log").click();
        const logs = await waitEvents(page, "logs");
        assert.ok(logs.some((l) => l.data === "This is log text."), JSON.stringify(logs));

        await a.button(frame, "Open Link").click();
        assert.deepEqual(await waitEvents(page, "links"), ["https://modelcontextprotocol.io/"]);

        // size-changed: the iframe follows the app's height.
        const sizes = await waitEvents(page, "sizes");
        const height = await page.$eval("iframe[data-mcp-app]", (f) => f.getBoundingClientRect().height);
        assert.ok(sizes.some((s) => Math.abs(Math.ceil(s.height) + 2 - height) <= 1), `iframe ${height}px, sizes ${JSON.stringify(sizes)}`);
        await screenshot(page, `apps-${a.pkg.split("/")[1]}`);
        // The one 400 is the client's era probe: the servers speak 2025-11-25
        // and answer the 2026-07-28 request first sent with 400.
        assert.deepEqual(page.problems.filter((p) => !/status of 400/.test(p)), []);
      } finally {
        await context.close();
      }
    });

    test("downloads, sampling and display modes go to the page's callbacks; without them they are not offered", { timeout: 60000 }, async () => {
      const { context, page, frame } = await openApp(server, "get-time", {}, true, undefined, true);
      try {
        const caps = await page.evaluate(() => window.view.bridge.getCapabilities());
        assert.deepEqual(caps.downloadFile, {});
        assert.deepEqual(caps.sampling, {});
        const request = await appSide(frame);

        // Partial tool input while the arguments stream, then the final
        // ones, in that order.
        await page.evaluate(async () => {
          await window.view.sendToolInputPartial({ city: "N" });
          await window.view.sendToolInputPartial({ city: "New" });
          await window.view.sendToolInput({ city: "New York" });
        });
        const inputs = () => window.fromHost.filter((m) => m.method?.startsWith("ui/notifications/tool-input")).map((m) => [m.method, m.params]);
        await frame.waitForFunction(() => window.fromHost.filter((m) => m.method?.startsWith("ui/notifications/tool-input")).length >= 3);
        assert.deepEqual(await frame.evaluate(inputs), [
          ["ui/notifications/tool-input-partial", { arguments: { city: "N" } }],
          ["ui/notifications/tool-input-partial", { arguments: { city: "New" } }],
          ["ui/notifications/tool-input", { arguments: { city: "New York" } }],
        ]);

        // ui/request-display-mode: an offered mode goes to onDisplayMode and
        // the app is told of it; a mode not offered keeps the current one.
        assert.deepEqual((await request("ui/request-display-mode", { mode: "fullscreen" })).result, { mode: "fullscreen" });
        assert.deepEqual(await page.evaluate(() => window.events.displayModes), ["fullscreen"]);
        await frame.waitForFunction(() => window.fromHost.some((m) => m.method === "ui/notifications/host-context-changed" && m.params.displayMode === "fullscreen"));
        assert.deepEqual((await request("ui/request-display-mode", { mode: "pip" })).result, { mode: "fullscreen" });
        assert.deepEqual(await page.evaluate(() => window.events.displayModes), ["fullscreen"], "pip is not offered: no callback");
        await page.evaluate(() => window.view.setDisplayMode("inline")); // the user left fullscreen
        await frame.waitForFunction(() => window.fromHost.some((m) => m.method === "ui/notifications/host-context-changed" && m.params.displayMode === "inline"));
        assert.equal(await page.evaluate(() => window.view.displayMode), "inline");

        // ui/download-file: checked, then the page's; refused and bad ones fail.
        const file = { type: "resource", resource: { uri: "file:///report.csv", mimeType: "text/csv", text: "a,b\n1,2\n" } };
        const link = { type: "resource_link", uri: "https://example.com/big.zip", name: "big.zip" };
        assert.deepEqual((await request("ui/download-file", { contents: [file, link] })).result, {});
        assert.deepEqual((await request("ui/download-file", { contents: [{ type: "resource_link", uri: "refuse:", name: "x" }] })).result, { isError: true });
        const bad = await request("ui/download-file", { contents: [{ type: "image", data: "AAAA", mimeType: "image/png" }] });
        assert.ok(bad.error, JSON.stringify(bad));
        const downloads = await page.evaluate(() => window.events.downloads);
        assert.deepEqual(downloads.map((d) => d.contents), [[file, link], [{ type: "resource_link", uri: "refuse:", name: "x" }]], "the bad one never reached the page");
        // A download the app cancels: the page's callback sees the abort.
        const waiting = frame.evaluate(() => window.appRequest("ui/download-file", { contents: [{ type: "resource_link", uri: "wait:", name: "w" }] }));
        await page.waitForFunction(() => window.events.downloads.length === 3);
        await frame.evaluate(() => window.appNotify("notifications/cancelled", { requestId: window.lastId, reason: "the user closed it" }));
        await page.waitForFunction(() => window.events.downloads[2].aborted === true);
        waiting.catch(() => {}); // cancelled: the host sends no answer (the frame closes with it pending)

        // sampling/createMessage: the page's model answers; tools were not offered.
        const msg = { role: "user", content: { type: "text", text: "hello" } };
        const sampled = await request("sampling/createMessage", { messages: [msg], maxTokens: 10 });
        assert.deepEqual(sampled.result, { role: "assistant", content: { type: "text", text: "seen 1 message(s)" }, model: "page-model", stopReason: "endTurn" });
        const withTools = await request("sampling/createMessage", { messages: [msg], maxTokens: 10, tools: [{ name: "t", inputSchema: { type: "object" } }] });
        assert.match(withTools.error?.message ?? "", /tools were not offered/);
        assert.equal((await page.evaluate(() => window.events.samplings)).length, 1);
      } finally {
        await context.close();
      }
      // The defaults: none of it offered.
      const plain = await openApp(server, "get-time", {});
      try {
        const caps = await plain.page.evaluate(() => window.view.bridge.getCapabilities());
        assert.equal(caps.downloadFile, undefined);
        assert.equal(caps.sampling, undefined);
        const request = await appSide(plain.frame);
        assert.deepEqual((await request("ui/request-display-mode", { mode: "fullscreen" })).result, { mode: "inline" });
        assert.deepEqual((await request("ui/download-file", { contents: [{ type: "resource_link", uri: "https://example.com/x", name: "x" }] })).result, { isError: true });
        assert.ok((await request("sampling/createMessage", { messages: [], maxTokens: 1 })).error, "no sampling handler");
      } finally {
        await plain.context.close();
      }
    });

    test("the sandbox: no way into the page, no top navigation, no storage, the CSP blocks the network", { timeout: 60000 }, async () => {
      const { context, page, frame } = await openApp(server, "get-time", {});
      try {
        const before = page.url();
        const p = await sandboxProbe(frame, `${server.url}/mcp`);
        assert.equal(p.origin, "null", "an opaque origin");
        assert.equal(p.parentDocument, "SecurityError");
        assert.equal(p.parentLocation, "SecurityError");
        assert.notEqual(p.topNavigation, "no error");
        assert.equal(page.url(), before, "the page was not navigated");
        assert.equal(p.storage, "SecurityError");
        assert.equal(p.cookie, "SecurityError");
        assert.equal(p.fetch, "TypeError", "connect-src 'none' refused the request");
        assert.equal(p.image, "blocked");
        assert.ok(p.violations.includes("connect-src") && p.violations.includes("img-src"), JSON.stringify(p.violations));
        assert.equal(p.popup, "blocked");
        // The server saw nothing of the iframe's attempts: the page's own
        // requests are the only ones (checked by the app still working).
        await context.close();
      } finally {
        await context.close().catch(() => {});
      }
    });
  });
}

// server-map's app loads CesiumJS from cesium.com before it connects to the
// host, so without the network it never initializes (it logs "Failed to
// load CesiumJS from CDN"): only the rendering and the CSP are checked.
describe("@modelcontextprotocol/server-map (its app needs the network: CesiumJS and tiles come from cesium.com and openstreetmap.org)", () => {
  let server;
  before(async () => { server = await startAppServer("@modelcontextprotocol/server-map"); });
  after(() => server?.stop());

  test("the app is rendered under a CSP of exactly the origins its resource declares", { timeout: 60000 }, async () => {
    const { context, frame, r } = await openApp(server, "show-map", { west: 2.2, south: 48.8, east: 2.4, north: 48.9, label: "Paris" }, false);
    try {
      assert.equal(r.uri, "ui://cesium-map/mcp-app.html");
      assert.match(r.result.content[0].text, /^Displaying globe at: W:2\.2000/);
      const declared = "https://*.openstreetmap.org https://cesium.com https://*.cesium.com";
      assert.match(r.csp, new RegExp(`connect-src ${declared.replace(/[.*]/g, "\\$&")}(;|$)`));
      assert.match(r.csp, new RegExp(`script-src 'self' 'unsafe-inline' ${declared.replace(/[.*]/g, "\\$&")}(;|$)`));
      assert.match(r.csp, /frame-src 'none'/);
      // The policy the document runs under is the one the host built.
      await frame.waitForLoadState("domcontentloaded");
      const inDoc = await frame.evaluate(() => document.querySelector('meta[http-equiv="Content-Security-Policy"]')?.content);
      assert.equal(inDoc, r.csp);
      const p = await sandboxProbe(frame, `${server.url}/mcp`);
      assert.equal(p.parentDocument, "SecurityError");
      assert.equal(p.fetch, "TypeError", "the MCP server's origin is not among the declared ones");
    } finally {
      await context.close();
    }
  });
});

test("renderApp refuses unknown options and display modes it cannot offer", async () => {
  const { renderApp } = await import("../../js/src/apps.js");
  const box = { appendChild() {} };
  await assert.rejects(renderApp({}, { name: "t" }, box, { onDownload: () => {} }), /unknown option "onDownload"/);
  await assert.rejects(renderApp({}, { name: "t" }, box, { displayModes: ["inline", "maximized"] }), /displayModes must be/);
  await assert.rejects(renderApp({}, { name: "t" }, box, { displayModes: ["inline", "fullscreen"] }), /need onDisplayMode/);
  await assert.rejects(renderApp({}, { name: "t" }, box, { onSampling: "yes" }), /onSampling must be a function/);
});

test("appCsp keeps declared origins and drops anything that could add a directive or a keyword", { timeout: 60000 }, async () => {
  const { appCsp } = await import("../../js/src/apps.js");
  assert.equal(appCsp(undefined), "default-src 'none'; script-src 'self' 'unsafe-inline'; style-src 'self' 'unsafe-inline'; img-src 'self' data:; " +
    "font-src 'none'; media-src 'self' data:; connect-src 'none'; frame-src 'none'; base-uri 'self'; object-src 'none'; form-action 'none'");
  const csp = appCsp({
    connectDomains: ["https://api.example.com", "https://x.example; script-src *", "*", "'unsafe-eval'", "data:", "wss://rt.example.com:8443"],
    resourceDomains: ["https://*.cdn.example", "https://cdn.example/path/", "javascript:alert(1)"],
    frameDomains: ["https://www.youtube.com"],
    baseUriDomains: [42, "https://base.example"],
  });
  assert.match(csp, /; connect-src https:\/\/api\.example\.com wss:\/\/rt\.example\.com:8443;/);
  assert.match(csp, /; script-src 'self' 'unsafe-inline' https:\/\/\*\.cdn\.example https:\/\/cdn\.example\/path\/;/);
  assert.match(csp, /; frame-src https:\/\/www\.youtube\.com;/);
  assert.match(csp, /; base-uri https:\/\/base\.example;/);
  assert.doesNotMatch(csp, /unsafe-eval|javascript:|script-src \*|connect-src[^;]*data:/);
  assert.equal(csp.split(";").length, 11, "no directive was added");
});

describe("through an McpManager (two app servers, both with a get-time tool)", () => {
  let vanilla;
  let react;
  before(async () => { [vanilla, react] = await Promise.all(["server-basic-vanillajs", "server-basic-react"].map((s) => startAppServer(`@modelcontextprotocol/${s}`))); });
  after(() => Promise.all([vanilla?.stop(), react?.stop()]));

  test("the app of react__get-time is read from, and calls back to, the react server only", { timeout: 60000 }, async () => {
    const { context, page } = await newPage(browser);
    try {
      await page.goto(`${site.url}/page/apps-page.html`);
      const r = await page.evaluate((a) => window.runManagerApp(a), {
        servers: { vanilla: `${vanilla.url}/mcp`, react: `${react.url}/mcp` }, toolName: "react__get-time",
      });
      assert.equal(r.error, undefined, r.error);
      assert.deepEqual(r.states, [["vanilla", "connected"], ["react", "connected"]]);
      assert.deepEqual(r.tools.sort(), ["react__get-time", "vanilla__get-time"]);
      assert.deepEqual([...new Set(r.routed)], ["react"], "the ui:// resource was read from the react server");
      const first = r.result.content[0].text;
      const frame = await (await page.$("iframe[data-mcp-app]")).contentFrame();
      await frame.locator("code").filter({ hasText: first }).waitFor();

      // The app calls get-time by the server's own name; the host sends it
      // to the react server, also once the vanilla server is gone.
      await page.evaluate(() => window.manager.remove("vanilla"));
      await frame.getByRole("button", { name: "Get Server Time" }).click();
      const calls = await waitEvents(page, "toolCalls");
      assert.equal(calls[0].name, "get-time");
      await frame.locator("code").filter({ hasNotText: first }).filter({ hasText: /^\d{4}-/ }).waitFor();
      const routed = await page.evaluate(() => window.events.routed);
      assert.deepEqual([...new Set(routed)], ["react"]);

      // With the react server removed too, the app's call fails: nothing
      // falls through to another server.
      await page.evaluate(() => window.manager.remove("react"));
      const n = routed.length;
      await frame.getByRole("button", { name: "Get Server Time" }).click();
      await waitEvents(page, "toolCalls", 2);
      await page.waitForFunction((m) => window.events.routed.length > m, n);
      assert.deepEqual((await page.evaluate(() => window.events.routed)).slice(n), ["react"], "asked for the react server, which is gone");
      assert.deepEqual(await page.evaluate(() => window.manager.servers().map((s) => s.name)), []);
      await page.evaluate(() => window.manager.close());
    } finally {
      await context.close();
    }
  });
});

describe("a probe app on the TypeScript SDK v2 server (tools hidden from apps or the model, declared permissions)", () => {
  let server;
  before(async () => { server = await startAppServer(path.join(repo, "tests/browser/fixtures/probe-app.mjs")); });
  after(() => server?.stop());

  test("the app gets its input and result; it may call an app-only tool, not a model-only one; permissions and CSP as declared", { timeout: 60000 }, async () => {
    const { context, page, frame, r } = await openApp(server, "show-probe", { word: "hello" });
    try {
      assert.equal(r.allow, "clipboard-write", "the declared permission, and no other");
      assert.match(r.csp, /connect-src https:\/\/api\.example\.com;/);
      const seen = async (key) => {
        await frame.waitForFunction((k) => document.body.dataset[k] !== undefined, key);
        return JSON.parse(await frame.evaluate((k) => document.body.dataset[k], key));
      };
      assert.deepEqual(await seen("host"), {
        name: "mcpwasm-apps", tool: "show-probe",
        sandbox: { csp: { connectDomains: ["https://api.example.com"] }, permissions: { clipboardWrite: {} } },
      });
      assert.deepEqual(await seen("input"), { word: "hello" });
      assert.equal(await seen("result"), "probe: hello");
      assert.deepEqual(await seen("appOnly"), { text: "app-only ran" });
      const refused = await seen("modelOnly");
      assert.match(refused.error ?? "", /model-only is not callable by apps/);
      const calls = await page.evaluate(() => window.events.toolCalls.map((c) => c.name));
      assert.deepEqual(calls, ["app-only"], "the refused call never reached onToolCall or the server");
    } finally {
      await context.close();
    }
  });
});

describe("through the spec's sandbox proxy on a third origin (SANDBOX_PROXY_HTML)", () => {
  let server;
  let proxySite;
  before(async () => {
    const { SANDBOX_PROXY_HTML } = await import("../../js/src/apps.js");
    const dir = path.join(repo, "build", "apps-proxy");
    await mkdir(dir, { recursive: true });
    await writeFile(path.join(dir, "proxy.html"), SANDBOX_PROXY_HTML);
    [server, proxySite] = await Promise.all([startAppServer("@modelcontextprotocol/server-basic-vanillajs"), startStaticServer({ "/": dir })]);
  });
  after(() => Promise.all([server?.stop(), proxySite?.stop()]));

  test("the app runs in the proxy's inner frame, calls back through the host, and cannot reach the page", { timeout: 60000 }, async () => {
    const { context, page, frame: outer, r } = await openApp(server, "get-time", {}, true, `${proxySite.url}/proxy.html`);
    try {
      assert.equal(r.sandbox, "allow-scripts allow-same-origin");
      assert.equal(new URL(outer.url()).origin, proxySite.url);
      const [frame] = outer.childFrames();
      const first = r.result.content[0].text;
      await frame.locator("#server-time").filter({ hasText: first }).waitFor();
      await frame.getByRole("button", { name: "Get Server Time" }).click();
      await waitEvents(page, "toolCalls");
      await frame.locator("#server-time").filter({ hasNotText: first }).filter({ hasText: /^\d{4}-/ }).waitFor();
      await frame.getByRole("button", { name: "Send Message" }).click();
      assert.equal((await waitEvents(page, "messages"))[0].content[0].text, "This is message text.");
      assert.deepEqual(page.problems.filter((x) => !/status of 400/.test(x)), []);

      const before = page.url();
      const p = await frame.evaluate(async (url) => {
        const out = { origin: window.origin }; // the document's origin (location.origin of about:srcdoc is always "null")
        try { out.topDocument = typeof window.top.document.body; } catch (e) { out.topDocument = e.name; }
        try { window.top.location.href = "about:blank#escaped"; out.topNavigation = "no error"; } catch (e) { out.topNavigation = e.name; }
        try { await fetch(url, { method: "POST", body: "{}" }); out.fetch = "reached"; } catch (e) { out.fetch = e.name; }
        out.csp = document.querySelector('meta[http-equiv="Content-Security-Policy"]')?.content;
        return out;
      }, `${server.url}/mcp`);
      const innerSandbox = await outer.evaluate(() => document.querySelector("iframe").getAttribute("sandbox"));
      assert.equal(p.origin, proxySite.url, `the app has the proxy's origin, not the page's (inner sandbox ${innerSandbox})`);
      assert.equal(p.topDocument, "SecurityError");
      assert.notEqual(p.topNavigation, "no error");
      assert.equal(page.url(), before);
      assert.equal(p.fetch, "TypeError");
      assert.equal(p.csp, r.csp);
    } finally {
      await context.close();
    }
  });

  test("a proxy on the page's own origin is refused", { timeout: 60000 }, async () => {
    const { context, page } = await newPage(browser);
    try {
      await page.goto(`${site.url}/page/apps-page.html`);
      const r = await page.evaluate((a) => window.runApp(a), { url: `${server.url}/mcp`, toolName: "get-time", args: {}, sandboxProxy: "/page/proxy.html" });
      assert.match(r.error ?? "", /TypeError: mcpwasm\/apps: sandboxProxy .* must be on another origin than the page/);
      assert.equal(await page.locator("iframe").count(), 0);
    } finally {
      await context.close();
    }
  });
});
