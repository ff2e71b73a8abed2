// The mcpwasm package in headless Chromium, cross-origin: the page (and
// its module Web Worker) come from one 127.0.0.1 port, the MCP server (the
// official Go SDK demo server, with CORS for the page's origin) listens on
// another. Proves connect + list + call and server→client requests
// answered in the page and in a worker, in both protocol eras, and that a
// server without the right CORS headers makes the client reject with an
// McpError that says what is missing.
import { test, describe, before, after } from "node:test";
import assert from "node:assert/strict";
import { startDemoserve, startFixtureSite, startCorsFaultProxy, launchBrowser, newPage } from "./harness.mjs";

let site; // serves the test page, its worker and the package
let mcp; // the demo MCP server, CORS for site's origin only
let browser;

before(async () => {
  site = await startFixtureSite();
  [mcp, browser] = await Promise.all([
    startDemoserve(["--modern", "--page-size", "10", "--cors", site.url]),
    launchBrowser(),
  ]);
});
after(async () => {
  await browser?.close();
  await Promise.all([mcp?.stop(), site?.stop()]);
});

/** openPage loads the fixture page in a fresh context. */
async function openPage() {
  const { context, page } = await newPage(browser);
  await page.goto(`${site.url}/fixtures/page.html`);
  await page.locator("body[data-ready=true]").waitFor();
  return { context, page };
}

const eras = [
  { era: "modern", version: "2026-07-28" },
  { era: "legacy", version: "2025-11-25", protocolVersions: ["2025-11-25"] },
];

for (const e of eras) {
  describe(`cross-origin, ${e.era} era`, () => {
    let page;
    let context;
    before(async () => ({ page, context } = await openPage()));
    after(() => context?.close());

    for (const where of ["page", "worker"]) {
      test(`connect, list and call from a ${where}; server requests answered there`, async () => {
        const r = await page.evaluate(([fn, args]) => window[fn](args), [where === "page" ? "runInPage" : "runInWorker", { url: `${mcp.url}/mcp`, protocolVersions: e.protocolVersions }]);
        assert.equal(r.error, undefined, JSON.stringify(r.error));
        assert.equal(r.realm, where === "page" ? "window" : "worker");
        assert.equal(r.origin, site.url);
        assert.notEqual(new URL(r.origin).port, new URL(mcp.url).port, "the page's origin is not the server's");
        assert.equal(r.info.era, e.era);
        assert.equal(r.info.protocolVersion, e.version);
        assert.equal(r.info.instructions, "mcpwasm test peer");
        if (e.era === "legacy") assert.ok(r.info.sessionId, "Mcp-Session-Id was readable (exposed by CORS)");
        assert.ok(r.tools.length >= 40 && r.tools.includes("page_tool_24"), "every page of tools/list");
        assert.equal(r.echo, `hello from the ${r.realm}`);
        assert.deepEqual(r.long, { same: true, length: 240001 }, "a long result's text");
        // elicitation and sampling went to this realm's handlers (legacy: JSON-RPC
        // requests on the response stream; modern: input_required rounds).
        assert.deepEqual(r.elicit, { action: "accept", content: { name: "Ada", age: where === "page" ? 1 : 2, color: "green" } });
        assert.equal(r.sample, `${r.realm}-model: answered in the ${r.realm}`);
        assert.deepEqual(r.asked, ["elicitation: Who are you?", `sampling: ping from the ${r.realm}`]);
        assert.deepEqual(r.roots, [`file:///${r.realm}`]);
      });
    }
  });
}

describe("servers without the right CORS headers", () => {
  // Each case gets a fresh context: no preflight cache, no era cache.
  async function connect(url, protocolVersions) {
    const { context, page } = await openPage();
    try {
      return await page.evaluate((args) => window.runInPage(args), { url: `${url}/mcp`, protocolVersions, connectOnly: true });
    } finally {
      await context.close();
    }
  }

  test("no CORS at all (the Go SDK server as it comes)", async () => {
    const bare = await startDemoserve(["--modern"]);
    try {
      for (const pv of [undefined, ["2025-11-25"]]) {
        const r = await connect(bare.url, pv);
        assert.ok(r.error, "the connection must fail");
        assert.equal(r.error.isMcpError, true);
        assert.equal(r.error.code, -32000);
        assert.match(r.error.message, /CORS/, "the message points at CORS");
      }
    } finally {
      await bare.stop();
    }
  });

  test("a preflight that does not allow the MCP request headers", async () => {
    const proxy = await startCorsFaultProxy(mcp.url, (h, req) => {
      if (req.method === "OPTIONS") h["access-control-allow-headers"] = "Content-Type, Accept";
    });
    try {
      const r = await connect(proxy.url);
      assert.ok(r.error, "the connection must fail");
      assert.equal(r.error.isMcpError, true);
      assert.match(r.error.message, /CORS/);
      // The browser hides the preflight's verdict from scripts, so the
      // client must name the request headers the server has to allow.
      assert.match(r.error.message, /MCP-Protocol-Version/i);
      assert.match(r.error.message, /Mcp-Method/i);
      assert.match(r.error.message, /Access-Control-Allow-Headers/);
    } finally {
      await proxy.stop();
    }
  });

  test("Mcp-Session-Id not exposed (legacy sessions)", async () => {
    const proxy = await startCorsFaultProxy(mcp.url, (h) => {
      h["access-control-expose-headers"] = "WWW-Authenticate, MCP-Protocol-Version";
    });
    try {
      const r = await connect(proxy.url, ["2025-11-25"]);
      assert.ok(r.error, "a legacy session cannot work without its session id");
      assert.equal(r.error.isMcpError, true);
      assert.equal(r.error.kind, "cors");
      assert.match(r.error.message, /Mcp-Session-Id/);
      assert.match(r.error.message, /Access-Control-Expose-Headers/);
    } finally {
      await proxy.stop();
    }
  });
});
