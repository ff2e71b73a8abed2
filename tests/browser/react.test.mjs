// mcpwasm/react in headless Chromium: the React example (example-react/,
// built by esbuild from node_modules, React 19 in StrictMode) served from
// its own origin, connected with useMcp to the official
// @modelcontextprotocol/server-basic-vanillajs on 127.0.0.1. useMcp
// connects and lists the tools, a click calls one, <McpApp> renders its
// app with the result, and the app's own button calls back to the server
// through the host and its message reaches the page. Then useMcp's
// handlers (sampling, elicitation, roots) answer the official Go SDK demo
// server from a React page, and <McpApp> streams tool input to an app
// (toolInputPartial, then toolInput).
import { test, before, after } from "node:test";
import assert from "node:assert/strict";
import path from "node:path";
import { copyFile } from "node:fs/promises";
import { repo, startAppServer, startDemoserve, startStaticServer, launchBrowser, newPage, requireWasm, screenshot, bundle } from "./harness.mjs";
import { build } from "../../example-react/build.mjs";

let site;
let server;
let browser;

before(async () => {
  await requireWasm();
  const dist = await build(path.join(repo, "build", "react-test", "dist"));
  [site, server, browser] = await Promise.all([startStaticServer({ "/": dist }), startAppServer("@modelcontextprotocol/server-basic-vanillajs"), launchBrowser()]);
});
after(async () => {
  await browser?.close();
  await Promise.all([site?.stop(), server?.stop()]);
});

test("useMcp connects and lists tools; a call renders the tool's app, which calls back through the host", { timeout: 60000 }, async () => {
  const { context, page } = await newPage(browser);
  try {
    await page.goto(`${site.url}/index.html?mcp=${encodeURIComponent(`${server.url}/mcp`)}`);
    await page.locator("[data-state=ready]").waitFor();
    assert.match(await page.locator("main > p").first().innerText(), /Basic MCP App Server \(Vanilla JS\) \(2025-11-25\)/);
    await page.locator("[data-tool=get-time]").waitFor();
    assert.equal(await page.locator("h2").first().innerText(), "Tools (1)");

    await page.getByRole("button", { name: "Call get-time" }).click();
    const result = page.locator("[data-tool=get-time] pre.result");
    await result.waitFor();
    const first = (await result.innerText()).trim();
    assert.match(first, /^\d{4}-\d\d-\d\dT[\d:.]+Z$/);

    // One app, even under StrictMode's double effects.
    const iframes = page.locator("iframe[data-mcp-app]");
    await iframes.first().waitFor();
    assert.equal(await iframes.count(), 1);
    assert.equal(await iframes.first().getAttribute("sandbox"), "allow-scripts");
    const frame = page.frameLocator("iframe[data-mcp-app]");
    await frame.locator("#server-time").filter({ hasText: first }).waitFor();

    await frame.getByRole("button", { name: "Get Server Time" }).click();
    await frame.locator("#server-time").filter({ hasNotText: first }).filter({ hasText: /^\d{4}-/ }).waitFor();

    await frame.getByRole("button", { name: "Send Message" }).click();
    await page.locator("ul.messages li").filter({ hasText: "This is message text." }).waitFor();
    await screenshot(page, "react-example");
    // The one 400 is the client's era probe of a 2025-11-25 server.
    assert.deepEqual(page.problems.filter((p) => !/status of 400/.test(p)), []);
  } finally {
    await context.close();
  }
});

/**
 * fixtureSite bundles tests/browser/fixtures/<name>.mjs (React in
 * development mode) beside its <name>.html and serves them under /page/,
 * with the module under /mcpwasm/dist/.
 */
async function fixtureSite(name) {
  const dir = path.join(repo, "build", "react-test", name);
  const fixtures = path.join(repo, "tests/browser/fixtures");
  await bundle(path.join(fixtures, `${name}.mjs`), path.join(dir, `${name}.js`), { define: { "process.env.NODE_ENV": '"development"' } });
  await copyFile(path.join(fixtures, `${name}.html`), path.join(dir, `${name}.html`));
  return startStaticServer({ "/page/": dir, "/mcpwasm/dist/": path.join(repo, "js/dist") });
}

test("useMcp's sampling, elicitation and roots handlers answer the server; the latest render's handlers are used", { timeout: 60000 }, async () => {
  const page2 = await fixtureSite("react-handlers");
  const demo = await startDemoserve(["--modern", "--cors", page2.url]);
  const { context, page } = await newPage(browser);
  try {
    await page.goto(`${page2.url}/page/react-handlers.html?mcp=${encodeURIComponent(`${demo.url}/mcp`)}`);
    await page.locator("[data-state=ready]").waitFor();
    assert.ok(Number(await page.locator("p").getAttribute("data-tools")) >= 4);
    const r = await page.evaluate(() => window.runHandlers());
    assert.deepEqual(r.elicit, { action: "accept", content: { name: "Ada", age: 1, color: "green" } });
    assert.deepEqual(r.roots, ["file:///react"]);
    assert.equal(r.sample, "react-model: answered by the second render");
    assert.deepEqual(r.asked, ["elicitation(first): Who are you?", "sampling(second): from react"]);
    assert.equal(r.state, "ready", "no reconnect when the handlers changed");
    assert.deepEqual(page.problems, []);
  } finally {
    await context.close();
    await Promise.all([demo.stop(), page2.stop()]);
  }
});

test("<McpApp> sends toolInputPartial while toolInput is undefined, then toolInput", { timeout: 60000 }, async () => {
  const page2 = await fixtureSite("react-app-input");
  const { context, page } = await newPage(browser);
  // What the host sends, seen from inside every frame from its first
  // script on (the app's frame included), so the partial sent at mount is
  // recorded too.
  await context.addInitScript(() => {
    window.inputs = [];
    window.addEventListener("message", (e) => {
      if (e.source === window.parent && e.source !== window && e.data?.method?.startsWith("ui/notifications/tool-input")) window.inputs.push([e.data.method, e.data.params.arguments]);
    });
  });
  try {
    await page.goto(`${page2.url}/page/react-app-input.html?mcp=${encodeURIComponent(`${server.url}/mcp`)}`);
    // One app once StrictMode's first mount is gone.
    await page.waitForFunction(() => window.ready === true && document.querySelectorAll("iframe[data-mcp-app]").length === 1);
    const frame = await (await page.$("iframe[data-mcp-app]")).contentFrame();
    await frame.waitForFunction(() => window.inputs.length >= 1); // the mount's partial
    await page.evaluate(() => window.setInput({ partial: { city: "New" } }));
    await frame.waitForFunction(() => window.inputs.length >= 2);
    await page.evaluate(() => {
      window.final = { city: "New York" }; // props change by identity
      window.setInput({ partial: { city: "New Y" }, input: window.final });
    });
    await frame.waitForFunction(() => window.inputs.length >= 3);
    await page.evaluate(() => window.setInput({ partial: { city: "late" }, input: window.final }));
    // A later input is the marker: had the late partial gone, it would be
    // before it (the host's messages arrive in order).
    await page.evaluate(() => window.setInput({ partial: { city: "late" }, input: { city: "Boston" } }));
    await frame.waitForFunction(() => window.inputs.length >= 4);
    assert.deepEqual(await frame.evaluate(() => window.inputs), [
      ["ui/notifications/tool-input-partial", { city: "N" }],
      ["ui/notifications/tool-input-partial", { city: "New" }],
      ["ui/notifications/tool-input", { city: "New York" }],
      ["ui/notifications/tool-input", { city: "Boston" }],
    ], "a partial goes while there is no input; once there is, partials stop");
    assert.equal(await frame.locator("#server-time").count(), 1);
    assert.deepEqual(page.problems.filter((p) => !/status of 400/.test(p)), []);
  } finally {
    await context.close();
    await page2.stop();
  }
});

