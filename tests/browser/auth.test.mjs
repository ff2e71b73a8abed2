// OAuth in headless Chromium: a page on one 127.0.0.1 origin connects to
// an OAuth-protected MCP server on another (the Go SDK server behind the Go
// SDK's bearer middleware, harness/authserve) whose authorization server,
// on a third origin, shows a consent page. The user's part is played by
// clicking in that page: in a popup (popupAuthorization, the callback page
// posting back to its opener), and — with the popup blocked — in the page
// itself after a full-page redirect, finished at the redirect URI with
// callbackUrl. Also: a denied and an abandoned sign-in, and a
// WWW-Authenticate that the server's CORS hides from the page.
import { test, describe, before, after } from "node:test";
import assert from "node:assert/strict";
import { startAuthserve, startFixtureSite, launchBrowser, newPage, screenshot } from "./harness.mjs";

let site; // the application's origin: its pages and the package
let browser;

before(async () => {
  site = await startFixtureSite();
  browser = await launchBrowser();
});
after(async () => {
  await browser?.close();
  await site?.stop();
});

/** startAuth starts a fresh protected server (consent page, CORS for the site). */
async function startAuth() {
  const srv = await startAuthserve(["-consent", "-cors", site.url]);
  srv.state = async () => (await fetch(`${srv.url}/_test/state`)).json();
  srv.as = (await srv.state()).as;
  return srv;
}

/**
 * unexpected drops Chromium's console lines for HTTP errors the flow
 * causes on purpose: the 401 that starts an authorization, 404s of the
 * metadata discovery.
 */
const unexpected = (problems) => problems.filter((p) => !/Failed to load resource: the server responded with a status of (401|404)\b/.test(p));

/** openApp loads the application page in a fresh context (fresh storage). */
async function openApp() {
  const { context, page } = await newPage(browser);
  await page.goto(`${site.url}/fixtures/auth-page.html`);
  await page.locator("body[data-ready=true]").waitFor();
  return { context, page };
}

describe("authorization in a popup", () => {
  let srv;
  before(async () => { srv = await startAuth(); });
  after(() => srv?.stop());

  test("the user allows: the popup hands the code back and closes; the call succeeds", async () => {
    const { context, page } = await openApp();
    try {
      const popupOpened = context.waitForEvent("page");
      const result = page.evaluate((url) => window.connectAndAdd(url), `${srv.url}/mcp`);
      const popup = await popupOpened;
      await popup.locator("#allow").waitFor();
      assert.ok(popup.url().startsWith(`${srv.as}/authorize?`), popup.url());
      assert.equal(await popup.evaluate(() => window.opener !== null), true, "a popup of the page");
      await screenshot(popup, "auth-popup-consent");
      const closed = popup.waitForEvent("close");
      await popup.locator("#allow").click();
      await closed; // the callback page handed over the response, the opener closed it
      const r = await result;
      assert.equal(r.error, undefined, JSON.stringify(r.error));
      assert.equal(r.sum, 5);
      assert.deepEqual(r.stored, [`test:registration ${srv.as}`, `test:token ${srv.as} ${srv.url}/mcp`], "registration and token in localStorage, nothing pending");
      const st = await srv.state();
      assert.equal(st.authorizations, 1);
      assert.deepEqual(st.grants, ["authorization_code"]);
      assert.deepEqual(unexpected(page.problems), []);

      // A reload of the application: the stored token, no popup.
      await page.reload();
      await page.locator("body[data-ready=true]").waitFor();
      let popups = 0;
      context.on("page", () => popups++);
      const again = await page.evaluate((url) => window.connectAndAdd(url), `${srv.url}/mcp`);
      assert.equal(again.sum, 5, JSON.stringify(again.error));
      assert.equal(popups, 0);
      assert.equal((await srv.state()).authorizations, 1);
    } finally {
      await context.close();
    }
  });

  test("the user denies: connect rejects with kind auth and access_denied", async () => {
    const { context, page } = await openApp();
    try {
      const popupOpened = context.waitForEvent("page");
      const result = page.evaluate((url) => window.connectAndAdd(url), `${srv.url}/mcp`);
      const popup = await popupOpened;
      const closed = popup.waitForEvent("close");
      await popup.locator("#deny").click();
      await closed;
      const r = await result;
      assert.equal(r.error?.isMcpError, true, JSON.stringify(r));
      assert.equal(r.error.kind, "auth");
      assert.equal(r.error.data?.error, "access_denied");
    } finally {
      await context.close();
    }
  });

  test("the user closes the popup: connect rejects and says so", async () => {
    const { context, page } = await openApp();
    try {
      const popupOpened = context.waitForEvent("page");
      const result = page.evaluate((url) => window.connectAndAdd(url), `${srv.url}/mcp`);
      const popup = await popupOpened;
      await popup.locator("#allow").waitFor();
      await popup.close();
      const r = await result;
      assert.equal(r.error?.kind, "auth", JSON.stringify(r));
      assert.match(r.error.message, /window was closed/);
    } finally {
      await context.close();
    }
  });
});

describe("authorization by a full-page redirect (popup blocked)", () => {
  let srv;
  before(async () => { srv = await startAuth(); });
  after(() => srv?.stop());

  test("the page goes to the authorization server and finishes at the redirect URI", async () => {
    const { context, page } = await openApp();
    try {
      let popups = 0;
      context.on("page", () => popups++);
      // The page navigates away mid-call: the evaluation ends with it.
      page.evaluate((url) => window.connectAndAdd(url, { blockPopup: true }), `${srv.url}/mcp`).catch(() => {});
      await page.waitForURL(`${srv.as}/authorize?**`);
      assert.equal(popups, 0);
      const pending = await context.storageState();
      const origin = pending.origins.find((o) => o.origin === site.url);
      assert.ok(origin?.localStorage.some((e) => e.name.startsWith("test:pending ")), "the pending authorization was stored before leaving");
      await page.locator("#allow").click();
      await page.waitForURL(`${site.url}/fixtures/auth-callback.html**`);
      await page.locator("body[data-result]").waitFor({ timeout: 20000 });
      const r = JSON.parse(await page.locator("body").getAttribute("data-result"));
      assert.equal(r.error, undefined, JSON.stringify(r.error));
      assert.equal(r.sum, 5);
      assert.deepEqual(r.stored, [`test:registration ${srv.as}`, `test:token ${srv.as} ${srv.url}/mcp`], "the pending authorization was used up");
      assert.equal(new URL(r.href).search, "", "the code left the address bar");
      await screenshot(page, "auth-redirect-finished");
      const st = await srv.state();
      assert.equal(st.authorizations, 1);
      assert.deepEqual(st.grants, ["authorization_code"]);
      assert.deepEqual(unexpected(page.problems), []);
    } finally {
      await context.close();
    }
  });
});

test("a WWW-Authenticate hidden by the server's CORS is diagnosed in the page", async () => {
  const srv = await startAuth();
  const { context, page } = await openApp();
  try {
    // /hidden/mcp names its metadata only in WWW-Authenticate, which its
    // CORS answer does not expose: Chromium hides it from the page.
    const r = await page.evaluate((url) => window.connectAndAdd(url), `${srv.url}/hidden/mcp`);
    assert.equal(r.error?.isMcpError, true, JSON.stringify(r));
    assert.equal(r.error.kind, "auth");
    assert.equal(r.error.data?.hiddenHeader, "WWW-Authenticate");
    assert.match(r.error.message, /Access-Control-Expose-Headers/);
    assert.equal((await srv.state()).authorizations, 0);
  } finally {
    await context.close();
    await srv.stop();
  }
});
