// End-to-end tests of the example web app (example-web/static) in headless
// Chromium, against the embedded demo MCP server (the official Go SDK) in
// both protocol eras: /mcp negotiates 2026-07-28, /legacy/mcp is a
// legacy-only server (2025-11-25). The page manages several servers at once
// (example-web-chat.test.mjs covers that and the model loop); here one
// server named "demo" is connected, so its tools are "demo__<tool>". Each
// step drives the page the way a person would (forms, dialogs, buttons) and
// checks what the page shows, which is what came back over the wire.
// Screenshots of the main states go to build/screenshots/.
import { test, describe, before, after } from "node:test";
import assert from "node:assert/strict";
import path from "node:path";
import { startExampleWeb, startAuthserve, startServer, launchBrowser, newPage, screenshot, repo } from "./harness.mjs";

let server;
let browser;
before(async () => {
  [server, browser] = await Promise.all([startExampleWeb(), launchBrowser()]);
});
after(async () => {
  await browser?.close();
  await server?.stop();
});

const eras = [
  // The modern demo also offers the MCP App tool (greeting_app and its ui:// resource).
  { era: "modern", path: "/mcp", version: "2026-07-28", tools: 46, resources: 28 },
  { era: "legacy", path: "/legacy/mcp", version: "2025-11-25", tools: 45, resources: 27 },
];

// ---------------------------------------------------------------- helpers

/** resultOf locates the newest result bubble of a demo tool (its own name: "echo"). */
function resultOf(page, tool) {
  return page.locator(`#conversation li.msg-server[data-tool="demo__${tool}"]`).last();
}

/** settled waits until the newest result bubble of tool is no longer pending and returns it. */
async function settled(page, tool) {
  const li = resultOf(page, tool);
  await li.and(page.locator(":not([data-state=pending])")).waitFor();
  return li;
}

async function openTab(page, name) {
  await page.click(`#tab-${name}`);
}

/** selectItem clicks an item of a list tab (every page of every server is listed). */
async function selectItem(page, tab, key) {
  await openTab(page, tab);
  await page.locator(`#panel-${tab} button.item[data-key="${key}"]`).click();
}

/** selectTool shows a demo tool in the inspector. */
async function selectTool(page, name) {
  await selectItem(page, "tools", `demo__${name}`);
  await page.locator("#inspector-body .insp-head h3").filter({ hasText: name }).waitFor();
}

/** callTool selects a tool, fills its generated form (label → value) and calls it. */
async function callTool(page, name, fields = {}) {
  await selectTool(page, name);
  const before = await page.locator(`#conversation li.msg-server[data-tool="demo__${name}"]`).count();
  for (const [label, value] of Object.entries(fields)) {
    const control = page.locator("#inspector-body").getByLabel(label, { exact: true });
    if (await control.evaluate((el) => el.tagName === "SELECT")) await control.selectOption({ label: String(value) });
    else await control.fill(String(value));
  }
  await page.click("#call-tool");
  await page.locator(`#conversation li.msg-server[data-tool="demo__${name}"]`).nth(before).waitFor();
}

/** addServer adds a server from the header form and waits until it is connected. */
async function addServer(page, name, url, { transport } = {}) {
  await page.fill("#server-name", name);
  await page.fill("#server-url", url);
  if (transport) await page.selectOption("#transport", transport);
  await page.click("#connect-btn");
  await page.locator(`#servers-list li[data-server="${name}"][data-status=connected]`).waitFor();
}

/** openPage loads the page without the preconfigured demo server. */
async function openPage(page, query = "demo=0") {
  await page.goto(`${server.url}/?${query}`);
  await page.locator("body[data-ready=true]").waitFor();
}

async function resultText(page, tool) {
  const li = await settled(page, tool);
  return (await li.locator(".content.text .text-body").allTextContents()).join("\n");
}

// ---------------------------------------------------------------- tests

for (const e of eras) {
  describe(`example web app, ${e.era} era`, () => {
    let page;
    let context;
    before(async () => {
      ({ page, context } = await newPage(browser));
      await openPage(page);
    });
    after(async () => {
      await context?.close();
    });

    test("connects and shows server info, era, version and instructions", async () => {
      await addServer(page, "demo", `${server.url}${e.path}`);
      await page.click('#servers-list li[data-server="demo"] .server-label');
      await page.locator("#era-badge").waitFor();
      assert.equal(await page.textContent("#era-badge"), e.era);
      assert.equal(await page.textContent("#version-badge"), e.version);
      assert.equal(await page.textContent("#instructions"), "mcpwasm test peer");
      assert.match(await page.textContent("#inspector-body .insp-head"), /mcpwasm-demoserver/);
      assert.match(await page.textContent("#status-text"), /1 of 1 server connected/);
      assert.equal(await page.textContent('#servers-list li[data-server="demo"] .badge'), e.era);
      await page.locator("#panel-tools button.item").first().waitFor();
      await screenshot(page, `connected-${e.era}`);
    });

    test("lists every page of tools, resources, templates and prompts, grouped by server", async () => {
      // The demo server pages its lists by 10; the page shows them all.
      assert.equal(await page.locator("#panel-tools button.item").count(), e.tools);
      assert.equal(await page.textContent("#count-tools"), String(e.tools));
      assert.deepEqual(await page.locator("#panel-tools section.group").evaluateAll((els) => els.map((x) => x.dataset.server)), ["demo"]);
      const keys = await page.locator("#panel-tools button.item").evaluateAll((els) => els.map((x) => x.dataset.key));
      assert.equal(new Set(keys).size, keys.length, "no tool twice");
      for (const want of ["echo", "add", "content_mix", "elicit", "sample", "progress", "page_tool_00", "page_tool_24"]) assert.ok(keys.includes(`demo__${want}`), want);

      await openTab(page, "resources");
      assert.equal(await page.locator("#panel-resources button.item").count(), e.resources);
      await openTab(page, "templates");
      await page.locator('#panel-templates button.item[data-key="test://items/{id}"]').waitFor();
      await openTab(page, "prompts");
      for (const p of ["greet", "with_image", "with_resource"]) await page.locator(`#panel-prompts button.item[data-key="demo__${p}"]`).waitFor();
      await openTab(page, "tools");
    });

    test("calls tools with forms generated from inputSchema", async () => {
      await callTool(page, "echo", { text: `héllo from Chromium ☃ (${e.era})` });
      assert.equal(await resultText(page, "echo"), `héllo from Chromium ☃ (${e.era})`);

      await callTool(page, "add", { a: 40, b: 2 });
      const add = await settled(page, "add");
      assert.equal(await add.getAttribute("data-state"), "done");
      assert.equal(await resultText(page, "add"), "42");
      assert.deepEqual(JSON.parse(await add.locator("[data-ctype=structured] pre").textContent()), { sum: 42 });

      // The generated form enforces the schema: an integer field refuses 1.5.
      await selectTool(page, "add");
      await page.locator("#inspector-body").getByLabel("a", { exact: true }).fill("1.5");
      await page.locator("#inspector-body").getByLabel("b", { exact: true }).fill("1");
      await page.click("#call-tool");
      await page.locator("#inspector-body .form-errors:text-matches('a: ')").waitFor();
    });

    test("a running call can be cancelled, on the wire too", async () => {
      await callTool(page, "cancelled_count");
      const before = Number(await resultText(page, "cancelled_count"));
      await callTool(page, "slow", { ms: 20000 });
      const li = resultOf(page, "slow");
      await li.getByRole("button", { name: "Cancel" }).click();
      await settled(page, "slow");
      assert.match(await li.locator(".error-view").textContent(), /Cancelled/);
      // The server saw the cancellation (legacy: notifications/cancelled;
      // modern: the response stream closed).
      for (let i = 0; ; i++) {
        await callTool(page, "cancelled_count");
        if (Number(await resultText(page, "cancelled_count")) === before + 1) break;
        assert.ok(i < 20, "the server never saw the cancellation");
        await page.waitForTimeout(100);
      }
    });

    test("renders every content type, structured output and isError", async () => {
      await callTool(page, "content_mix");
      const mix = await settled(page, "content_mix");
      assert.match(await mix.locator("[data-ctype=image] img").getAttribute("src"), /^data:image\/png;base64,[A-Za-z0-9+/]+=*$/);
      assert.match(await mix.locator("[data-ctype=audio] audio").getAttribute("src"), /^data:audio\/wav;base64,/);
      assert.match(await mix.locator("[data-ctype=resource]").textContent(), /test:\/\/embedded/);
      assert.match(await mix.locator("[data-ctype=resource_link]").textContent(), /test:\/\/static\/text/);
      assert.ok(await mix.locator("[data-ctype=text]").count() >= 1);
      const loaded = await mix.locator("[data-ctype=image] img").evaluate((img) => img.decode().then(() => img.naturalWidth));
      assert.ok(loaded >= 1, "the image decodes");

      await callTool(page, "fail");
      const fail = await settled(page, "fail");
      assert.equal(await fail.getAttribute("data-state"), "tool-error");
      assert.match(await fail.textContent(), /isError/);
      assert.match(await fail.textContent(), /it failed/);

      await callTool(page, "boom");
      const boom = await settled(page, "boom");
      assert.equal(await boom.getAttribute("data-state"), "error");
      assert.match(await boom.locator(".error-view").textContent(), /McpError · rpc · code -?\d+/);
      assert.match(await boom.textContent(), /boom/);

      await callTool(page, "bad_output");
      const bad = await settled(page, "bad_output");
      assert.match(await bad.locator(".error-view").textContent(), /output-schema/);
      await screenshot(page, `content-${e.era}`);
    });

    test("shows progress as a progress bar that completes", async () => {
      await callTool(page, "progress", { steps: 5, delayMs: 150 });
      const li = resultOf(page, "progress");
      await li.locator(".progress-wrap:not([hidden])").waitFor();
      assert.equal(await resultText(page, "progress"), "done");
      const bar = li.locator("progress");
      await page.waitForFunction((el) => el.value === el.max, await bar.elementHandle());
      assert.equal(await bar.evaluate((el) => [el.value, el.max].join("/")), "5/5");
      assert.match(await li.locator(".progress-text").textContent(), /step 5 · 5 \/ 5/);
      await screenshot(page, `progress-${e.era}`);
    });

    test("answers elicitation with a form generated from requestedSchema", async () => {
      await callTool(page, "elicit");
      const dlg = page.locator("dialog.elicit");
      await dlg.waitFor();
      assert.match(await dlg.locator(".server-message").textContent(), /Who are you\?/);
      assert.equal(await dlg.locator("#elicit-name").inputValue(), "Ada", "string default");
      assert.equal(await dlg.locator("#elicit-color option:checked").textContent(), "green", "enum default");
      assert.equal(await dlg.locator("#elicit-age").getAttribute("required"), "", "age is required");
      await screenshot(page, `elicitation-${e.era}`);

      // Accept without the required field: the dialog stays and says why.
      await dlg.locator("button[type=submit]").click();
      await dlg.locator("#elicit-age-err:text-matches('required')").waitFor();
      assert.ok(await dlg.isVisible());

      await dlg.locator("#elicit-age").fill("36");
      await dlg.locator("#elicit-color").selectOption({ label: "red" });
      await dlg.locator("button[type=submit]").click();
      await dlg.waitFor({ state: "detached" });
      assert.deepEqual(JSON.parse(await resultText(page, "elicit")), { action: "accept", content: { name: "Ada", age: 36, color: "red" } });
      assert.equal(await page.locator("#conversation li.msg-ask").last().getAttribute("data-outcome"), "accept");

      // Decline and cancel (Escape) reach the server as such.
      await callTool(page, "elicit");
      await dlg.waitFor();
      await dlg.getByRole("button", { name: "Decline" }).click();
      assert.equal(JSON.parse(await resultText(page, "elicit")).action, "decline");
      await callTool(page, "elicit");
      await dlg.waitFor();
      await page.keyboard.press("Escape");
      assert.equal(JSON.parse(await resultText(page, "elicit")).action, "cancel");
    });

    test("URL elicitation opens nothing without explicit consent", async () => {
      await context.route("https://example.com/**", (route) => route.fulfill({ status: 200, contentType: "text/plain", body: "consent page" }));
      await callTool(page, "elicit_url");
      const dlg = page.locator("dialog.elicit-url");
      await dlg.waitFor();
      assert.equal(await dlg.locator(".full-url").textContent(), "https://example.com/consent");
      assert.equal(await dlg.locator(".url-host").textContent(), "example.com");
      assert.equal(context.pages().length, 1, "nothing opened yet");
      await dlg.getByRole("button", { name: "Decline" }).click();
      assert.equal(await resultText(page, "elicit_url"), "decline");
      assert.equal(context.pages().length, 1, "declining opens nothing");

      await callTool(page, "elicit_url");
      await dlg.waitFor();
      const [popup] = await Promise.all([context.waitForEvent("page"), dlg.getByRole("button", { name: "Open in a new tab" }).click()]);
      assert.equal(await resultText(page, "elicit_url"), "accept");
      await popup.waitForLoadState();
      assert.equal(popup.url(), "https://example.com/consent");
      assert.equal(await popup.evaluate(() => window.opener), null, "opened without an opener");
      await popup.close();
      if (e.era === "legacy") {
        // 2025-11-25 servers confirm with notifications/elicitation/complete.
        await page.locator("#conversation li.msg-event").filter({ hasText: "elicitation e-1 is complete" }).waitFor();
      }
      await context.unroute("https://example.com/**");
    });

    test("answers sampling in a human-in-the-loop dialog", async () => {
      await callTool(page, "sample", { prompt: "What is MCP, in one line?" });
      const dlg = page.locator("dialog.sampling");
      await dlg.waitFor();
      assert.match(await dlg.locator(".system-prompt").textContent(), /be brief/);
      assert.match(await dlg.locator(".sample-msgs").textContent(), /What is MCP, in one line\?/);
      assert.match(await dlg.locator(".facts").textContent(), /max tokens\s*50/);
      await dlg.locator("#sampling-reply").fill("A protocol that lets models use tools.");
      await screenshot(page, `sampling-${e.era}`);
      await dlg.getByRole("button", { name: "Approve and send" }).click();
      assert.equal(await resultText(page, "sample"), "human-in-the-loop: A protocol that lets models use tools.");
      assert.equal(await page.locator("#conversation li.msg-ask").last().getAttribute("data-outcome"), "approved");

      // Rejecting reaches the server as an error of the sampling request.
      await callTool(page, "sample", { prompt: "no" });
      await dlg.waitFor();
      await dlg.getByRole("button", { name: "Reject" }).click();
      const li = await settled(page, "sample");
      assert.match(await li.textContent(), /rejected/i);
    });

    test("drafts a sampling reply with the configured LLM endpoint", async () => {
      const asked = [];
      const llm = "http://llm.test/v1/chat/completions";
      const cors = { "Access-Control-Allow-Origin": "*", "Access-Control-Allow-Headers": "content-type, authorization", "Access-Control-Allow-Methods": "POST" };
      await context.route(llm, (route) => {
        if (route.request().method() === "OPTIONS") return route.fulfill({ status: 204, headers: cors });
        asked.push({ body: route.request().postDataJSON(), auth: route.request().headers().authorization });
        return route.fulfill({ status: 200, headers: cors, contentType: "application/json",
          body: JSON.stringify({ model: "tiny-llm", choices: [{ message: { role: "assistant", content: "Drafted: MCP connects models to tools." } }] }) });
      });
      await page.click("#settings-btn");
      await page.fill("#llm-url", llm);
      await page.fill("#llm-model", "tiny-llm");
      await page.fill("#llm-key", "sk-test");
      await page.click("#settings-save");

      await callTool(page, "sample", { prompt: "Explain MCP" });
      const dlg = page.locator("dialog.sampling");
      await dlg.waitFor();
      await dlg.getByRole("button", { name: "Draft with LLM" }).click();
      await dlg.locator(".draft-status:text-matches('Draft ready')").waitFor();
      assert.equal(await dlg.locator("#sampling-reply").inputValue(), "Drafted: MCP connects models to tools.");
      await dlg.locator("#sampling-reply").fill("Edited: MCP connects models to tools.");
      await dlg.getByRole("button", { name: "Approve and send" }).click();
      assert.equal(await resultText(page, "sample"), "tiny-llm: Edited: MCP connects models to tools.");
      assert.equal(asked.length, 1);
      assert.deepEqual(asked[0].body.messages, [{ role: "system", content: "be brief" }, { role: "user", content: "Explain MCP" }]);
      assert.equal(asked[0].body.max_tokens, 50);
      assert.equal(asked[0].auth, "Bearer sk-test");
      await context.unroute(llm);
      await page.click("#settings-btn");
      await page.fill("#llm-url", "");
      await page.click("#settings-save");
    });

    test("roots are a list the user edits", async () => {
      await callTool(page, "roots");
      assert.deepEqual(JSON.parse(await resultText(page, "roots")), ["file:///home/user/projects/demo"]);
      await page.click("#add-root");
      const row = page.locator("#roots-list .kv-row").last();
      await row.getByLabel("Root URI").fill(`file:///tmp/${e.era}-roots`);
      await row.getByLabel("Root name").fill("scratch");
      await page.click("#apply-roots");
      await page.locator("#roots-status:text-matches('Roots updated')").waitFor();
      if (e.era === "legacy") {
        // The legacy era has notifications/roots/list_changed: it went out.
        await page.click("#tab-wire");
        await page.locator("#wire-list li.out summary").filter({ hasText: "notifications/roots/list_changed" }).waitFor();
        await page.click("#tab-log");
      }
      await callTool(page, "roots");
      assert.deepEqual(JSON.parse(await resultText(page, "roots")), ["file:///home/user/projects/demo", `file:///tmp/${e.era}-roots`]);
      assert.ok(await page.locator("#conversation li.roots-asked").count() >= 2, "the server's roots requests show up");

      // A root that is not a file:// URI is refused with a reason.
      await page.click("#add-root");
      await page.locator("#roots-list .kv-row").last().getByLabel("Root URI").fill("https://example.com/");
      await page.click("#apply-roots");
      await page.locator("#roots-status:text-matches('not a file:// URI')").waitFor();
      await page.locator("#roots-list .kv-row").last().getByRole("button", { name: "Remove root" }).click();
      await page.click("#apply-roots");
      await page.locator("#roots-status:text-matches('Roots updated')").waitFor();
    });

    test("several input requests in one call (multi_input)", async () => {
      await callTool(page, "multi_input");
      const elicitDlg = page.locator("dialog.elicit");
      await elicitDlg.waitFor();
      await elicitDlg.locator("#elicit-age").fill("7");
      await elicitDlg.locator("button[type=submit]").click();
      const sampleDlg = page.locator("dialog.sampling");
      await sampleDlg.waitFor();
      await sampleDlg.locator("#sampling-reply").fill("multi reply");
      await sampleDlg.getByRole("button", { name: "Approve and send" }).click();
      const out = JSON.parse(await resultText(page, "multi_input"));
      assert.equal(out.name, "Ada");
      assert.ok(out.roots.includes(`file:///tmp/${e.era}-roots`));
      assert.match(out.sample, /multi reply/);
      if (e.era === "modern") {
        await page.locator("#conversation li.mrtr").filter({ hasText: "input_required" }).first().waitFor();
      }
    });

    test("shows logs, list changes and resource updates live", async () => {
      await callTool(page, "log", { level: "warning", message: `log from ${e.era}` });
      assert.equal(await resultText(page, "log"), "logged");
      const entry = page.locator(`#log-list li[data-level=warning]`).filter({ hasText: `log from ${e.era}` });
      await entry.waitFor();
      assert.equal(await page.locator(`#log-list li[data-level=debug]`).filter({ hasText: `log from ${e.era}` }).count(), 0, "debug is below the level");

      await callTool(page, "change_tools");
      await page.locator("#conversation li.list-changed").filter({ hasText: "tools changed" }).waitFor();
      await page.locator('#panel-tools button.item[data-key^="demo__extra_"]').first().waitFor();

      await selectItem(page, "resources", "test://static/text");
      await page.click("#read-btn");
      await page.locator('#conversation li.msg-server[data-uri="test://static/text"][data-state=done]').filter({ hasText: "hello resource" }).waitFor();
      await page.click("#subscribe-btn");
      await page.locator("#subscribe-btn:text-is('Unsubscribe')").waitFor();
      await callTool(page, "touch", { uri: "test://static/text" });
      assert.equal(await resultText(page, "touch"), "touched");
      await page.locator("#conversation li.resource-updated").filter({ hasText: "test://static/text" }).waitFor();
    });

    test("reads templates and gets prompts with argument completion", async () => {
      await openTab(page, "templates");
      await page.click('#panel-templates button.item[data-key="test://items/{id}"]');
      const id = page.locator("#inspector-body").getByLabel("id", { exact: true });
      await id.fill("1");
      const chips = page.locator("#inspector-body .chip.suggestion");
      // completion/complete filters the server's ids by the typed prefix.
      await page.waitForFunction(() => [...document.querySelectorAll("#inspector-body .chip.suggestion")].map((c) => c.textContent).join() === "1,10");
      await chips.filter({ hasText: "10" }).click();
      assert.equal(await page.inputValue("#template-uri"), "test://items/10");
      await page.locator("#inspector-body button[type=submit]").click();
      await page.locator('#conversation li.msg-server[data-uri="test://items/10"][data-state=done]').filter({ hasText: "item 10" }).waitFor();

      await openTab(page, "prompts");
      await page.click('#panel-prompts button.item[data-key="demo__greet"]');
      await page.locator("#inspector-body").getByLabel("name", { exact: true }).fill("Ada");
      await page.locator("#inspector-body").getByLabel("style", { exact: true }).fill("f");
      await page.locator("#inspector-body .chip.suggestion:text-is('formal')").click();
      assert.equal(await page.locator("#inspector-body").getByLabel("style", { exact: true }).inputValue(), "formal");
      await page.click("#get-prompt");
      await page.locator("#conversation li.msg-server .prompt-msg").filter({ hasText: "Hello, Ada!" }).waitFor();
      await screenshot(page, `prompt-${e.era}`);
    });

    test("overview (the README screenshot) and no page errors", async () => {
      await callTool(page, "content_mix");
      await settled(page, "content_mix");
      await callTool(page, "add", { a: 2, b: 3 });
      assert.equal(await resultText(page, "add"), "5");
      await page.locator("#log-list li").first().waitFor();
      await page.locator(".pane.left").evaluate((el) => { el.scrollTop = 0; });
      await screenshot(page, `overview-${e.era}`);
      assert.deepEqual(page.problems, [], "no page errors or console errors");
    });
  });
}

test("the HTTP+SSE transport (2024-11-05) from the page", async () => {
  const { page, context } = await newPage(browser);
  try {
    await page.goto(`${server.url}/?demo=0&name=demo&url=${encodeURIComponent(`${server.url}/sse`)}&transport=sse&connect=1`);
    await page.locator('#servers-list li[data-server="demo"][data-status=connected]').waitFor();
    assert.equal(await page.textContent('#servers-list li[data-server="demo"] .badge'), "legacy");
    await callTool(page, "echo", { text: "over SSE" });
    assert.equal(await resultText(page, "echo"), "over SSE");
    await callTool(page, "elicit");
    await page.locator("dialog.elicit #elicit-age").fill("1");
    await page.locator("dialog.elicit button[type=submit]").click();
    assert.equal(JSON.parse(await resultText(page, "elicit")).content.age, 1);
    assert.deepEqual(page.problems, []);
  } finally {
    await context.close();
  }
});

test("a connection error is shown, and the page stays usable", async () => {
  const { page, context } = await newPage(browser);
  try {
    await openPage(page);
    await page.fill("#server-name", "broken");
    await page.fill("#server-url", `${server.url}/no-such-endpoint`);
    await page.click("#connect-btn");
    const err = page.locator('#conversation li.msg-error[data-server="broken"]').last();
    await err.waitFor();
    assert.match(await err.textContent(), /McpError · (http|transport|protocol)/);
    // Failed, or retrying with backoff: either way the row says why.
    await page.locator('#servers-list li[data-server="broken"] .server-error').waitFor();
    assert.equal(await page.getAttribute("#status", "data-state"), "error");
    await page.click('#servers-list li[data-server="broken"] button.remove');
    await page.locator('#servers-list li[data-server="broken"]').waitFor({ state: "detached" });
    await addServer(page, "demo", `${server.url}/mcp`);
    await callTool(page, "echo", { text: "still fine" });
    assert.equal(await resultText(page, "echo"), "still fine");
    await page.click('#servers-list li[data-server="demo"] button.remove');
    await page.locator("#status-text").filter({ hasText: "No servers" }).waitFor();
    assert.equal(await page.locator("#panel-tools button.item").count(), 0, "the lists are cleared");
  } finally {
    await context.close();
  }
});

test("custom headers go with every request", async () => {
  const { page, context } = await newPage(browser);
  try {
    await openPage(page);
    await page.click("#advanced-toggle");
    assert.equal(await page.getAttribute("#advanced-toggle", "aria-expanded"), "true");
    await page.click("#add-header");
    const row = page.locator("#headers-list .kv-row").last();
    await row.getByLabel("Header name").fill("X-Demo-Token");
    await row.getByLabel("Header value").fill("t0k3n");
    const seen = [];
    page.on("request", (r) => { if (r.url() === `${server.url}/mcp`) seen.push([r.method(), r.headers()["x-demo-token"]]); });
    await addServer(page, "demo", `${server.url}/mcp`);
    await callTool(page, "echo", { text: "with a header" });
    assert.equal(await resultText(page, "echo"), "with a header");
    assert.ok(seen.length >= 3, `saw ${seen.length} requests`);
    assert.deepEqual(seen.filter(([, v]) => v !== "t0k3n"), [], "every request carried the header");

    // A header name that HTTP forbids is refused before connecting.
    await row.getByLabel("Header name").fill("Bad Header");
    await page.fill("#server-url", `${server.url}/mcp`);
    await page.click("#connect-btn");
    await page.locator("#conversation li.msg-error").filter({ hasText: "not a valid header name" }).waitFor();
  } finally {
    await context.close();
  }
});

test("OAuth: the page signs in through a popup to a protected server on another origin", async () => {
  const srv = await startAuthserve(["-consent", "-cors", server.url]);
  const { page, context } = await newPage(browser);
  try {
    await openPage(page);
    await page.click("#advanced-toggle");
    await page.check("#oauth-on");
    await page.fill("#server-name", "demo");
    await page.fill("#server-url", `${srv.url}/mcp`);
    const popupOpened = context.waitForEvent("page");
    await page.click("#connect-btn");
    const popup = await popupOpened;
    await popup.locator("#allow").waitFor();
    const closed = popup.waitForEvent("close");
    await popup.locator("#allow").click();
    await closed;
    await page.locator('#servers-list li[data-server="demo"][data-status=connected]').waitFor();
    await callTool(page, "echo", { text: "signed in" });
    assert.equal(await resultText(page, "echo"), "signed in");
    const stored = await page.evaluate(() => Object.keys(localStorage).filter((k) => k.startsWith("mcpwasm-example:auth:")).length);
    assert.ok(stored >= 2, "the registration and the token are kept for the next visit");
    await screenshot(page, "oauth-connected");
  } finally {
    await context.close();
    await srv.stop();
  }
});

test("tasks: a tool runs as a task, shows its status, survives a reload and is cancelled", async () => {
  // The 2026-07-28 tasks extension peer (TypeScript SDK v2 + ext-tasks), on another origin.
  const tasks = await startServer(process.execPath, [path.join(repo, "harness/testpeers/node/tasks-server.mjs"), "--port", "0", "--cors"], { name: "tasks-server" });
  const { page, context } = await newPage(browser);
  try {
    // The tasks server is named "demo" here, so the helpers find its tools.
    const connectTo = async () => {
      await openPage(page);
      await addServer(page, "demo", tasks.url);
    };
    await connectTo();
    assert.equal(await page.textContent('#servers-list li[data-server="demo"] .badge'), "modern");

    // A task that completes: its result lands in the conversation.
    await selectTool(page, "slow_sum");
    await page.locator("#inspector-body").getByLabel("a", { exact: true }).fill("2");
    await page.locator("#inspector-body").getByLabel("b", { exact: true }).fill("3");
    await page.check("#as-task");
    await page.click("#call-tool");
    const sum = page.locator('#tasks-list li.task[data-tool="slow_sum"]');
    await sum.and(page.locator('[data-status="completed"]')).waitFor();
    const bubble = page.locator('#conversation li.msg-server[data-tool="demo__slow_sum"]').last();
    await bubble.waitFor();
    assert.match(await bubble.textContent(), /5/);

    // A task that never ends: it shows as working, and a reload resumes it.
    await selectTool(page, "forever");
    await page.check("#as-task");
    await page.click("#call-tool");
    const row = page.locator('#tasks-list li.task[data-tool="forever"]');
    await row.and(page.locator('[data-status="working"]')).waitFor();
    assert.equal(await row.locator(".task-message").textContent(), "still going");
    const id = await row.getAttribute("data-task-id");
    assert.ok(id);
    await page.locator("#tasks-list").scrollIntoViewIfNeeded();
    await screenshot(page, "tasks-running");

    await connectTo(); // a reload, then the same server again
    const resumed = page.locator(`#tasks-list li.task[data-task-id="${id}"]`);
    await resumed.and(page.locator('[data-status="working"]')).waitFor();
    await page.locator("#conversation li").filter({ hasText: "resumed 1 running task" }).waitFor();
    await resumed.locator(".task-cancel").click();
    await resumed.and(page.locator('[data-status="cancelled"]')).waitFor();
    await page.locator('#conversation li.msg-error[data-tool="demo__forever"]').filter({ hasText: "task-cancelled" }).waitFor();
    assert.equal(await page.evaluate(() => localStorage.getItem("mcpwasm-example:tasks")), "[]", "a finished task is forgotten");
    assert.deepEqual(page.problems, []);
  } finally {
    await context.close();
    await tasks.stop();
  }
});
