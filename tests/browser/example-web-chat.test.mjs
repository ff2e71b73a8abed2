// The example web app as a chat over several servers, in headless Chromium:
// the embedded demo server (official Go SDK), a TypeScript SDK v2 server and
// server-everything side by side, one of them killed mid-session; the model
// loop against harness/fakellm (an OpenAI-compatible endpoint of our own that
// answers scripted tool calls: no real model is reachable in tests); the
// newcomer's bugs (resource bubble contrast, question/result order, tool
// search, the header at 420 px); and an MCP App rendered inline.
// Screenshots of each state go to build/screenshots/.
import { test, describe, before, after } from "node:test";
import assert from "node:assert/strict";
import { execFile } from "node:child_process";
import { existsSync } from "node:fs";
import { readFile } from "node:fs/promises";
import path from "node:path";
import { promisify } from "node:util";
import { startExampleWeb, startServer, launchBrowser, newPage, screenshot, repo } from "./harness.mjs";

const node = process.execPath;
const run = promisify(execFile);
const peer = (file) => path.join(repo, "harness/testpeers/node", file);

let web;
let browser;
before(async () => {
  [web, browser] = await Promise.all([startExampleWeb(), launchBrowser()]);
});
after(async () => {
  await browser?.close();
  await web?.stop();
});

// ---------------------------------------------------------------- helpers

async function openPage(page, query = "") {
  await page.goto(`${web.url}/${query}`);
  await page.locator("body[data-ready=true]").waitFor();
}

function row(page, name) {
  return page.locator(`#servers-list li[data-server="${name}"]`);
}

async function addServer(page, name, url) {
  await page.fill("#server-name", name);
  await page.fill("#server-url", url);
  await page.click("#connect-btn");
  await row(page, name).and(page.locator("[data-status=connected]")).waitFor();
}

/** callTool calls a namespaced tool from the list with the given form fields. */
async function callTool(page, name, fields = {}) {
  await page.fill("#search", "");
  await page.click("#tab-tools");
  await page.locator(`#panel-tools button.item[data-key="${name}"]`).click();
  for (const [label, value] of Object.entries(fields)) await page.locator("#inspector-body").getByLabel(label, { exact: true }).fill(String(value));
  const results = page.locator(`#conversation li.msg-server[data-tool="${name}"]`);
  const n = await results.count();
  await page.click("#call-tool");
  const li = results.nth(n);
  await li.waitFor();
  return li;
}

async function settled(page, li) {
  await li.and(page.locator(":not([data-state=pending])")).waitFor();
  return li;
}

async function text(page, li) {
  await settled(page, li);
  return (await li.locator(".content.text .text-body").allTextContents()).join("\n");
}

async function setModel(page, url) {
  await page.click("#settings-btn");
  await page.fill("#llm-url", url);
  await page.fill("#llm-model", "scripted-model");
  await page.fill("#llm-key", "sk-test");
  await page.click("#settings-save");
}

// ---------------------------------------------------------------- tests

describe("several servers side by side", () => {
  let ts;
  let everything;
  let page;
  let context;
  before(async () => {
    [ts, everything] = await Promise.all([
      startServer(node, [peer("ts-server.mjs"), "--port", "0", "--cors"], { name: "ts-server" }),
      startServer(node, [peer("everything.mjs"), "--port", "0"], { name: "server-everything" }),
    ]);
    ({ page, context } = await newPage(browser));
    await openPage(page);
  });
  after(async () => {
    await context?.close();
    await Promise.all([ts?.stop(), everything?.stop()]);
  });

  test("the demo server is preconfigured; two more connect next to it, each with its status", async () => {
    await row(page, "demo").and(page.locator("[data-status=connected]")).waitFor();
    await addServer(page, "ts", ts.url);
    await addServer(page, "everything", everything.url);
    assert.match(await page.textContent("#status-text"), /3 of 3 servers connected/);
    assert.equal(await row(page, "demo").locator(".badge").textContent(), "modern");
    assert.equal(await row(page, "everything").locator(".badge").textContent(), "legacy");
    // One list, grouped by server, every tool namespaced.
    await page.locator('#panel-tools section.group[data-server="everything"]').waitFor();
    assert.deepEqual(await page.locator("#panel-tools section.group").evaluateAll((els) => els.map((x) => x.dataset.server)), ["demo", "ts", "everything"]);
    for (const k of ["demo__echo", "ts__echo", "everything__echo"]) await page.locator(`#panel-tools button.item[data-key="${k}"]`).waitFor();

    assert.equal(await text(page, await callTool(page, "demo__echo", { text: "to the Go server" })), "to the Go server");
    assert.equal(await text(page, await callTool(page, "ts__echo", { text: "to the TypeScript server" })), "to the TypeScript server");
    assert.match(await text(page, await callTool(page, "everything__echo", { message: "to everything" })), /to everything/);
    await screenshot(page, "chat-servers-side-by-side");
  });

  test("a server killed mid-session shows its state; the others keep working", async () => {
    await everything.stop();
    const li = await settled(page, await callTool(page, "everything__echo", { message: "anyone there?" }));
    assert.equal(await li.getAttribute("data-state"), "error");
    assert.match(await li.locator(".error-view").textContent(), /McpError/);
    assert.match(await li.locator(".hint").textContent(), /answered before/, "not taken for a CORS refusal");
    // The manager notices that the server is gone (failed, or reconnecting and then failed).
    await row(page, "everything").and(page.locator(":not([data-status=connected])")).waitFor({ timeout: 30000 });
    assert.match(await page.textContent("#status-text"), /2 of 3 servers connected/);
    assert.equal(await text(page, await callTool(page, "demo__echo", { text: "still here" })), "still here");
    assert.equal(await text(page, await callTool(page, "ts__echo", { text: "me too" })), "me too");
    await screenshot(page, "chat-server-killed");

    // Removing it takes its tools out of the list.
    await row(page, "everything").locator("button.remove").click();
    await row(page, "everything").waitFor({ state: "detached" });
    assert.equal(await page.locator('#panel-tools button.item[data-server="everything"]').count(), 0);
    // The browser logs the refused connections to the dead server; nothing else went wrong.
    assert.deepEqual(page.problems.filter((p) => !/Failed to load resource/.test(p)), []);
  });
});

describe("the model loop", () => {
  let ts;
  let llm;
  let page;
  let context;
  const script = {
    steps: [
      {
        tool_calls: [
          { name: "demo__progress", arguments: { steps: 6, delayMs: 300 } },
          { name: "ts__echo", arguments: { text: "from the model" } },
          { name: "demo__slow", arguments: { ms: 60000 } },
        ],
      },
      { content: "All done.\n{{results}}" },
    ],
  };
  before(async () => {
    [ts, llm] = await Promise.all([
      startServer(node, [peer("ts-server.mjs"), "--port", "0", "--cors"], { name: "ts-server" }),
      startServer(node, [path.join(repo, "harness/fakellm/fakellm.mjs"), "--script-json", JSON.stringify(script)], { name: "fakellm" }),
    ]);
    ({ page, context } = await newPage(browser));
    await openPage(page);
    await row(page, "demo").and(page.locator("[data-status=connected]")).waitFor();
    await addServer(page, "ts", ts.url);
  });
  after(async () => {
    await context?.close();
    await Promise.all([ts?.stop(), llm?.stop()]);
  });

  test("without an endpoint the user picks tools; the composer says how to get a model", async () => {
    assert.equal(await page.locator("#send-btn").isDisabled(), true);
    assert.match(await page.textContent("#composer-mode"), /No model configured/);
  });

  test("tool calls across two servers, each visible with its progress, one cancelled, then the answer", async () => {
    await setModel(page, llm.url);
    await page.locator("#composer-mode").filter({ hasText: "scripted-model" }).waitFor();
    await page.fill("#chat-input", "Run the three tools, please.");
    await page.click("#send-btn");

    const progress = page.locator('#conversation li.msg-server[data-tool="demo__progress"]').last();
    const echo = page.locator('#conversation li.msg-server[data-tool="ts__echo"]').last();
    const slow = page.locator('#conversation li.msg-server[data-tool="demo__slow"]').last();
    await Promise.all([progress.waitFor(), echo.waitFor(), slow.waitFor()]);
    // Who asked: the model's call entries, one per tool call.
    assert.equal(await page.locator("#conversation li.msg-model.tool-call").count(), 3);
    await progress.locator(".progress-wrap:not([hidden])").waitFor();
    assert.equal(await text(page, echo), "from the model");
    await screenshot(page, "chat-model-loop-running");
    // Cancel the slow call with its own button; the others are unaffected.
    await slow.getByRole("button", { name: "Cancel" }).click();
    await settled(page, slow);
    assert.match(await slow.locator(".error-view").textContent(), /Cancelled/);
    assert.equal(await text(page, progress), "done");
    assert.match(await progress.locator(".progress-text").textContent(), /6 \/ 6/);

    const answer = page.locator("#conversation li.final-answer");
    await answer.waitFor();
    const said = await answer.textContent();
    assert.match(said, /All done\./);
    assert.match(said, /ts__echo: from the model/);
    assert.match(said, /demo__progress: done/);
    assert.match(said, /demo__slow: Error: the user cancelled/);
    await page.locator("#send-btn:not([hidden])").waitFor();
    await screenshot(page, "chat-model-loop-answer");

    // What the endpoint received: the tools of both servers, then every result.
    const asked = await (await fetch(llm.url.replace("/v1/chat/completions", "/requests"))).json();
    assert.equal(asked.length, 2);
    const names = asked[0].tools.map((t) => t.function.name);
    for (const n of ["demo__echo", "demo__progress", "ts__echo"]) assert.ok(names.includes(n), n);
    assert.deepEqual(asked[0].messages, [{ role: "user", content: "Run the three tools, please." }]);
    const tools = asked[1].messages.filter((m) => m.role === "tool");
    assert.equal(tools.length, 3);
    const calls = asked[1].messages.find((m) => m.role === "assistant").tool_calls;
    assert.deepEqual(tools.map((m) => m.tool_call_id).sort(), calls.map((c) => c.id).sort());
    assert.deepEqual(page.problems, []);
  });

  test("a model that never stops calling tools is stopped after 8 requests", async () => {
    const looping = await startServer(node, [path.join(repo, "harness/fakellm/fakellm.mjs"), "--script-json",
      JSON.stringify({ steps: [{ tool_calls: [{ name: "demo__echo", arguments: { text: "again" } }] }] })], { name: "fakellm-loop" });
    try {
      await setModel(page, looping.url);
      await page.fill("#chat-input", "Loop forever.");
      await page.click("#send-btn");
      await page.locator("#conversation li.model-error").filter({ hasText: "after 8 rounds" }).waitFor();
      const asked = await (await fetch(looping.url.replace("/v1/chat/completions", "/requests"))).json();
      assert.equal(asked.length, 8);
      const turn = asked[7].messages.slice(asked[7].messages.findLastIndex((m) => m.role === "user"));
      assert.equal(turn.filter((m) => m.role === "tool").length, 7, "every earlier call's result went back");
      await page.locator("#send-btn:not([hidden])").waitFor();
    } finally {
      await looping.stop();
    }
  });

  test("an endpoint error is shown and the conversation goes on", async () => {
    await setModel(page, llm.url.replace("/v1/chat/completions", "/nowhere"));
    await page.fill("#chat-input", "Hello?");
    await page.click("#send-btn");
    await page.locator("#conversation li.model-error").filter({ hasText: "HTTP 404" }).waitFor();
    await page.locator("#send-btn:not([hidden])").waitFor();
  });
});

describe("what a newcomer saw", () => {
  let page;
  let context;
  before(async () => {
    ({ page, context } = await newPage(browser));
    await openPage(page);
    await row(page, "demo").and(page.locator("[data-status=connected]")).waitFor();
  });
  after(async () => {
    await context?.close();
  });

  test("the URI in a resource read's bubble is readable (contrast against the bubble)", async () => {
    await page.click("#tab-resources");
    await page.click('#panel-resources button.item[data-key="test://static/text"]');
    await page.click("#read-btn");
    await page.locator('#conversation li.msg-server[data-uri="test://static/text"][data-state=done]').waitFor();
    const ratio = await page.locator("#conversation li.msg-me .uri").last().evaluate((el) => {
      const rgb = (c) => c.match(/[\d.]+/g).slice(0, 3).map(Number);
      const lum = ([r, g, b]) => {
        const f = (v) => { v /= 255; return v <= 0.03928 ? v / 12.92 : ((v + 0.055) / 1.055) ** 2.4; };
        return 0.2126 * f(r) + 0.7152 * f(g) + 0.0722 * f(b);
      };
      const fg = lum(rgb(getComputedStyle(el).color));
      const bg = lum(rgb(getComputedStyle(el.closest(".bubble")).backgroundColor));
      return (Math.max(fg, bg) + 0.05) / (Math.min(fg, bg) + 0.05);
    });
    assert.ok(ratio >= 4.5, `contrast ${ratio.toFixed(2)}:1 is below 4.5:1`);
    await screenshot(page, "chat-resource-contrast");
  });

  test("a question the server asks comes before the result it led to", async () => {
    const li = await callTool(page, "demo__elicit");
    const dlg = page.locator("dialog.elicit");
    await dlg.waitFor();
    await dlg.locator("#elicit-age").fill("30");
    await dlg.locator("button[type=submit]").click();
    await settled(page, li);
    const order = await page.locator("#conversation > li").evaluateAll((els) => els.map((x) => {
      if (x.classList.contains("msg-ask")) return "ask";
      if (x.classList.contains("msg-me")) return "call";
      if (x.dataset.tool === "demo__elicit") return "result";
      return "";
    }).filter(Boolean));
    assert.deepEqual(order.slice(-3), ["call", "ask", "result"]);
    await screenshot(page, "chat-question-then-result");
  });

  test("the tool list has a search, grouped by server", async () => {
    await page.click("#tab-tools");
    await page.fill("#search", "multi");
    assert.deepEqual(await page.locator("#panel-tools button.item").evaluateAll((els) => els.map((x) => x.dataset.key)), ["demo__multi_input"]);
    assert.match(await page.textContent("#count-tools"), /^1\/\d+$/);
    await page.fill("#search", "Sleeps");
    assert.deepEqual(await page.locator("#panel-tools button.item").evaluateAll((els) => els.map((x) => x.dataset.key)), ["demo__slow"], "descriptions are searched too");
    await page.fill("#search", "no such tool at all");
    await page.locator("#panel-tools .empty").filter({ hasText: "No tools match" }).waitFor();
    await page.fill("#search", "page_tool");
    assert.equal(await page.locator("#panel-tools button.item").count(), 25);
    await screenshot(page, "chat-tool-search");
    await page.fill("#search", "");
  });

  test("at 420 px the header keeps Connect on screen", async () => {
    const { page: narrow, context: c } = await newPage(browser, { viewport: { width: 420, height: 860 } });
    try {
      await openPage(narrow);
      const box = await narrow.locator("#connect-btn").boundingBox();
      assert.ok(box && box.x >= 0 && box.x + box.width <= 420, `Connect at x=${box?.x} w=${box?.width}`);
      assert.ok(await narrow.locator("#connect-btn").isVisible());
      const url = await narrow.locator("#server-url").boundingBox();
      assert.ok(url.x + url.width <= 420, "the URL field fits too");
      assert.ok(await narrow.evaluate(() => document.documentElement.scrollWidth <= 420), "no sideways scrolling");
      await screenshot(narrow, "chat-narrow-420");
    } finally {
      await c.close();
    }
  });
});

const appsHost = existsSync(path.join(repo, "js/src/apps.js"));

test("an MCP App is rendered inline with its tool's result", { skip: !appsHost && "the apps host module (js/src/apps.js) is not in this tree" }, async () => {
  // The page loads the apps host as one bundle (example-web/build-apps.mjs; make demo builds it too).
  const { stdout } = await run(node, [path.join(repo, "example-web/build-apps.mjs")]);
  assert.match(stdout, /built build\/example-web\/mcpwasm-apps\.js/);
  const { page, context } = await newPage(browser);
  try {
    await openPage(page);
    await row(page, "demo").and(page.locator("[data-status=connected]")).waitFor();
    const li = await settled(page, await callTool(page, "demo__greeting_app", { name: "Ada" }));
    assert.equal(await text(page, li), "Hello, Ada!");
    // The extension's sandbox proxy on a second origin (this server under
    // the other loopback name), the app in a frame inside it.
    const frame = li.locator(".app-box iframe");
    await frame.waitFor();
    const proxy = new URL(await frame.getAttribute("src"));
    assert.equal(proxy.hostname, "localhost");
    assert.equal(proxy.pathname, "/apps-sandbox.html");
    assert.notEqual(proxy.origin, new URL(web.url).origin);
    const inner = frame.contentFrame().locator("iframe");
    await inner.waitFor();
    const app = inner.contentFrame();
    await app.locator("body[data-result=shown]").waitFor();
    assert.equal(await app.locator("#greeting").textContent(), "Hello, Ada!");
    // The app calls its server's echo tool through the host.
    await app.locator("#echo").click();
    await app.locator("body[data-echo]").waitFor();
    assert.equal(await app.locator("body").getAttribute("data-echo"), "hello from the app");
    // Fullscreen: the app asks, the page covers the window with it and says
    // so; the page's "Exit fullscreen" (or Escape on the page) puts it back
    // and tells the app; the app can also ask to go back.
    const box = li.locator(".app-box");
    await app.locator("#fullscreen").click();
    await app.locator("body[data-mode=fullscreen]").waitFor();
    await li.locator(".app-box.app-fullscreen").waitFor();
    assert.equal(await box.evaluate((b) => getComputedStyle(b).position), "fixed");
    await box.locator(".app-exit").click();
    await app.locator("body[data-mode=inline]").waitFor();
    assert.equal(await box.evaluate((b) => b.classList.contains("app-fullscreen")), false);
    assert.equal(await box.locator(".app-exit").isVisible(), false);
    await app.locator("#fullscreen").click();
    await li.locator(".app-box.app-fullscreen").waitFor();
    await app.locator("#fullscreen").click(); // "Back inline", asked by the app
    await app.locator("body[data-mode=inline]").waitFor();
    assert.equal(await box.evaluate((b) => b.classList.contains("app-fullscreen")), false);
    // A download: the page asks the user (a confirm), then saves the file.
    const asked = [];
    page.once("dialog", (d) => { asked.push(d.message()); d.accept(); });
    const [download] = await Promise.all([page.waitForEvent("download"), app.locator("#save").click()]);
    assert.equal(download.suggestedFilename(), "greeting.txt");
    assert.equal(await readFile(await download.path(), "utf8"), "Hello, Ada!\n");
    await app.locator("body[data-saved=saved]").waitFor();
    assert.match(asked[0], /The app of demo wants to save: greeting\.txt/);
    // Declined: nothing saved, the app is told.
    page.once("dialog", (d) => d.dismiss());
    await app.locator("#save").click();
    await app.locator("body[data-saved=refused]").waitFor();
    assert.equal(await inner.getAttribute("sandbox"), "allow-scripts", "the app runs sandboxed, with an opaque origin");
    assert.equal(await app.locator("body").evaluate(() => window.origin), "null");
    assert.equal(await app.locator("body").evaluate(() => { try { return String(window.top.location.href); } catch { return "blocked"; } }), "blocked", "the app cannot reach the page");
    // The page told the server it renders MCP Apps (the extension's client capability).
    const who = JSON.parse(await text(page, await callTool(page, "demo__whoami")));
    assert.deepEqual(who.clientCapabilities.extensions["io.modelcontextprotocol/ui"], { mimeTypes: ["text/html;profile=mcp-app"] });
    await screenshot(page, "chat-app-inline");
    assert.deepEqual(page.problems, []);
  } finally {
    await context.close();
  }
});
