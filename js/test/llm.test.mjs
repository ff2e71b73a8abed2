// Tools for the model (issue 14): the aggregate as OpenAI chat/responses
// and Anthropic tool definitions, and real tool results (the TypeScript
// SDK v2 server's content_mix, add, fail; server-everything's resource
// tools) mapped onto each API's tool-result content.
import { test, describe, before, after } from "node:test";
import assert from "node:assert/strict";
import {
  init, McpManager, McpError,
  toOpenAIChatTools, toOpenAIResponsesTools, toAnthropicTools, modelVisible,
  toOpenAIChatContent, toOpenAIChatMedia, toOpenAIResponsesOutput, toAnthropicContent,
  runOpenAIChatToolCalls, runOpenAIResponsesCalls, runAnthropicToolUses,
} from "../src/index.node.js";
import { startPeer } from "./helpers.mjs";

await init();

const PNG = "iVBORw0KGgoAAAANSUhEUgAAAAEAAAABCAYAAAAfFcSJAAAADUlEQVR4nGP4z8DwHwAFAAH/iZk9HQAAAABJRU5ErkJggg==";
const LINK = '[resource link: test://static/text name="static-text" type=text/plain] a link to a static text resource';
const EMBEDDED = "[resource test://embedded (text/plain)]\nembedded resource";

describe("LLM tool formats against real servers", () => {
  let ts, ev, m, mix, wav;
  before(async () => {
    [ts, ev] = await Promise.all([startPeer("ts"), startPeer("everything")]);
    m = new McpManager({ mcpServers: {
      ts: { url: ts.url, allowTools: ["echo", "add", "fail", "boom", "content_mix", "progress", "slow"] },
      everything: { url: ev.url, allowTools: ["get-resource-links", "get-resource-reference", "get-structured-content", "get-tiny-image"] },
    } });
    await m.connect();
    mix = await m.callTool({ name: "ts__content_mix" });
    wav = mix.content.find((c) => c.type === "audio").data;
  });
  after(async () => {
    await m?.close();
    await Promise.all([ts?.stop(), ev?.stop()]);
  });

  test("tool definitions", () => {
    const tools = m.tools();
    const add = tools.find((t) => t.name === "ts__add");
    const params = { ...add.inputSchema };
    delete params.$schema;
    assert.deepEqual(toOpenAIChatTools([add]), [{ type: "function", function: { name: "ts__add", description: add.description ?? "", parameters: params } }]);
    assert.deepEqual(toOpenAIResponsesTools([add]), [{ type: "function", name: "ts__add", description: add.description ?? "", parameters: params }]);
    assert.deepEqual(toAnthropicTools([add]), [{ name: "ts__add", description: add.description ?? "", input_schema: params }]);
    // server-everything's schemas carry $schema (draft-07), which the APIs do not take
    const ref = tools.find((t) => t.name === "everything__get-resource-reference");
    assert.ok(ref.inputSchema.$schema, "the server sends $schema");
    const [def] = toAnthropicTools([ref]);
    assert.equal(def.input_schema.$schema, undefined);
    assert.equal(def.input_schema.type, "object");
    for (const d of toOpenAIChatTools(tools)) {
      assert.match(d.function.name, /^[A-Za-z0-9_-]{1,64}$/);
      assert.equal(d.function.parameters.type, "object");
      assert.ok(d.function.parameters.properties, `${d.function.name} has properties`);
    }
  });

  test("every content type of a real result, in each API's shape", () => {
    assert.deepEqual(mix.content.map((c) => c.type), ["text", "image", "audio", "resource", "resource_link"], "the peer's mix");
    assert.deepEqual(toOpenAIChatContent(mix), [
      { type: "text", text: "mixed content" },
      { type: "text", text: "[image: image/png, 70 bytes]" },
      { type: "text", text: "[audio: audio/wav, 52 bytes]" },
      { type: "text", text: EMBEDDED },
      { type: "text", text: LINK },
    ]);
    assert.deepEqual(toOpenAIChatMedia(mix), [
      { type: "image_url", image_url: { url: `data:image/png;base64,${PNG}` } },
      { type: "input_audio", input_audio: { data: wav, format: "wav" } },
    ]);
    assert.deepEqual(toOpenAIResponsesOutput(mix), [
      { type: "input_text", text: "mixed content" },
      { type: "input_image", image_url: `data:image/png;base64,${PNG}` },
      { type: "input_text", text: "[audio: audio/wav, 52 bytes]" },
      { type: "input_text", text: EMBEDDED },
      { type: "input_text", text: LINK },
    ]);
    assert.deepEqual(toAnthropicContent(mix), [
      { type: "text", text: "mixed content" },
      { type: "image", source: { type: "base64", media_type: "image/png", data: PNG } },
      { type: "text", text: "[audio: audio/wav, 52 bytes]" },
      { type: "text", text: EMBEDDED },
      { type: "text", text: LINK },
    ]);
  });

  test("structuredContent: added when no text block carries it", async () => {
    const add = await m.callTool({ name: "ts__add", arguments: { a: 2, b: 3 } });
    assert.deepEqual(add.content, [{ type: "text", text: "5" }]);
    assert.deepEqual(toOpenAIChatContent(add), [{ type: "text", text: "5" }, { type: "text", text: '{"sum":5}' }]);
    assert.deepEqual(toAnthropicContent(add), [{ type: "text", text: "5" }, { type: "text", text: '{"sum":5}' }]);
    // server-everything repeats it as JSON text: not twice
    const weather = await m.callTool({ name: "everything__get-structured-content", arguments: { location: "New York" } });
    assert.ok(weather.structuredContent);
    const texts = toAnthropicContent(weather).map((c) => c.text);
    assert.equal(texts.length, weather.content.length, JSON.stringify(texts));
  });

  test("isError and protocol errors", async () => {
    const fail = await m.callTool({ name: "ts__fail" });
    assert.equal(fail.isError, true);
    assert.equal(toOpenAIChatContent(fail), "Error: it failed");
    assert.equal(toOpenAIResponsesOutput(fail), "Error: it failed");
    assert.deepEqual(toAnthropicContent(fail), [{ type: "text", text: "it failed" }]);
    const ok = await m.callTool({ name: "ts__echo", arguments: { text: "plain" } });
    assert.equal(toOpenAIChatContent(ok), "plain");
    assert.equal(toOpenAIResponsesOutput(ok), "plain");
  });

  test("server-everything's resource links and embedded resources", async () => {
    const links = await m.callTool({ name: "everything__get-resource-links", arguments: { count: 2 } });
    const ant = toAnthropicContent(links);
    assert.equal(ant.length, links.content.length);
    const linkBlocks = links.content.filter((c) => c.type === "resource_link");
    assert.equal(linkBlocks.length, 2);
    for (const l of linkBlocks) assert.ok(ant.some((c) => c.type === "text" && c.text.startsWith(`[resource link: ${l.uri}`)), l.uri);
    const ref = await m.callTool({ name: "everything__get-resource-reference", arguments: { resourceType: "Text", resourceId: 1 } });
    const emb = ref.content.find((c) => c.type === "resource");
    assert.ok(emb, JSON.stringify(ref.content));
    assert.ok(toOpenAIChatContent(ref).some((c) => c.text.startsWith(`[resource ${emb.resource.uri}`) && c.text.endsWith(emb.resource.text)));
  });

  test("runOpenAIChatToolCalls: results in order, failures as error messages, media in one user message", async () => {
    const progress = [];
    const out = await runOpenAIChatToolCalls(m, [
      { id: "c1", type: "function", function: { name: "ts__echo", arguments: '{"text":"one"}' } },
      { id: "c2", type: "function", function: { name: "ts__content_mix", arguments: "" } },
      { id: "c3", type: "function", function: { name: "ts__echo", arguments: "{not json" } },
      { id: "c4", type: "function", function: { name: "ts__nosuch", arguments: "{}" } },
      { id: "c5", type: "function", function: { name: "ts__boom", arguments: "{}" } },
      { id: "c6", type: "function", function: { name: "ts__progress", arguments: '{"steps":2,"delayMs":1}' } },
    ], { onprogress: (id, p) => progress.push([id, p.progress]) });
    assert.equal(out.length, 7);
    assert.deepEqual(out.slice(0, 6).map((o) => [o.role, o.tool_call_id]), [["tool", "c1"], ["tool", "c2"], ["tool", "c3"], ["tool", "c4"], ["tool", "c5"], ["tool", "c6"]]);
    assert.equal(out[0].content, "one");
    assert.equal(out[1].content.length, 5);
    assert.match(out[2].content, /^Error: invalid arguments for ts__echo/);
    assert.match(out[3].content, /^Error: unknown tool "ts__nosuch"/);
    assert.match(out[4].content, /^Error: boom: deliberate protocol error \(code -32603\)/);
    assert.equal(out[5].content, "done");
    assert.deepEqual(progress, [["c6", 1], ["c6", 2]]);
    assert.deepEqual(out[6], { role: "user", content: [
      { type: "text", text: "Media returned by tool call c2 (ts__content_mix):" },
      { type: "image_url", image_url: { url: `data:image/png;base64,${PNG}` } },
      { type: "input_audio", input_audio: { data: wav, format: "wav" } },
    ] });
    const noMedia = await runOpenAIChatToolCalls(m, [{ id: "c2", type: "function", function: { name: "ts__content_mix", arguments: "{}" } }], { media: false });
    assert.equal(noMedia.length, 1);
  });

  test("runOpenAIResponsesCalls and runAnthropicToolUses", async () => {
    const out = await runOpenAIResponsesCalls(m, [
      { type: "message", content: [] },
      { type: "function_call", call_id: "r1", name: "ts__add", arguments: '{"a":1,"b":2}' },
      { type: "function_call", call_id: "r2", name: "ts__fail", arguments: "{}" },
    ]);
    assert.deepEqual(out, [
      { type: "function_call_output", call_id: "r1", output: [{ type: "input_text", text: "3" }, { type: "input_text", text: '{"sum":3}' }] },
      { type: "function_call_output", call_id: "r2", output: "Error: it failed" },
    ]);
    const msg = await runAnthropicToolUses(m, [
      { type: "text", text: "let me call" },
      { type: "tool_use", id: "u1", name: "ts__echo", input: { text: "hi" } },
      { type: "tool_use", id: "u2", name: "ts__fail", input: {} },
    ]);
    assert.deepEqual(msg, { role: "user", content: [
      { type: "tool_result", tool_use_id: "u1", content: [{ type: "text", text: "hi" }], is_error: false },
      { type: "tool_result", tool_use_id: "u2", content: [{ type: "text", text: "it failed" }], is_error: true },
    ] });
  });

  test("an abort of the caller's signal rejects instead of becoming a result", async () => {
    const ac = new AbortController();
    const p = runAnthropicToolUses(m, [{ type: "tool_use", id: "u1", name: "ts__slow", input: { ms: 10000 } }], { signal: ac.signal });
    setTimeout(() => ac.abort(new Error("user stopped")), 50);
    await assert.rejects(p, (e) => e instanceof McpError && e.kind === "abort");
  });
});

test("bytes the APIs cannot carry are described; PDFs go to Anthropic as documents", () => {
  const result = { content: [
    { type: "image", data: "AAAA", mimeType: "image/tiff" },
    { type: "audio", data: "AAAA", mimeType: "audio/ogg" },
    { type: "resource", resource: { uri: "file:///r/doc.pdf", mimeType: "application/pdf", blob: "JVBERi0=" } },
    { type: "resource", resource: { uri: "file:///r/pic.png", mimeType: "image/png", blob: PNG } },
    { type: "mystery" },
  ] };
  assert.deepEqual(toAnthropicContent(result), [
    { type: "text", text: "[image: image/tiff, 3 bytes]" },
    { type: "text", text: "[audio: audio/ogg, 3 bytes]" },
    { type: "document", source: { type: "base64", media_type: "application/pdf", data: "JVBERi0=" } },
    { type: "image", source: { type: "base64", media_type: "image/png", data: PNG } },
    { type: "text", text: '[unsupported content "mystery"]' },
  ]);
  assert.deepEqual(toOpenAIResponsesOutput(result), [
    { type: "input_text", text: "[image: image/tiff, 3 bytes]" },
    { type: "input_text", text: "[audio: audio/ogg, 3 bytes]" },
    { type: "input_file", filename: "doc.pdf", file_data: "data:application/pdf;base64,JVBERi0=" },
    { type: "input_image", image_url: `data:image/png;base64,${PNG}` },
    { type: "input_text", text: '[unsupported content "mystery"]' },
  ]);
  assert.deepEqual(toOpenAIChatMedia(result), [{ type: "image_url", image_url: { url: `data:image/png;base64,${PNG}` } }]);
  assert.equal(toOpenAIChatContent({ content: [], isError: true }), "Error: the tool failed");
  assert.equal(toOpenAIChatContent({ content: [] }), "");
});

test("tools only an app may call (MCP Apps visibility) are kept from the model", async () => {
  const tools = [
    { name: "a__both", inputSchema: { type: "object" } },
    { name: "a__model", inputSchema: { type: "object" }, _meta: { ui: { visibility: ["model"] } } },
    { name: "a__app_only", inputSchema: { type: "object" }, _meta: { ui: { resourceUri: "ui://a/app.html", visibility: ["app"] } } },
  ];
  assert.deepEqual(tools.map(modelVisible), [true, true, false]);
  const names = ["a__both", "a__model"];
  assert.deepEqual(toOpenAIChatTools(tools).map((t) => t.function.name), names);
  assert.deepEqual(toOpenAIResponsesTools(tools).map((t) => t.name), names);
  assert.deepEqual(toAnthropicTools(tools).map((t) => t.name), names);
  // A model that names the hidden tool anyway gets an error result; the call never leaves.
  const called = [];
  const manager = { tools: () => tools, callTool: async (p) => { called.push(p.name); return { content: [{ type: "text", text: "ran" }] }; } };
  const out = await runOpenAIChatToolCalls(manager, [
    { id: "1", type: "function", function: { name: "a__app_only", arguments: "{}" } },
    { id: "2", type: "function", function: { name: "a__both", arguments: "{}" } },
  ]);
  assert.deepEqual(called, ["a__both"]);
  assert.match(out[0].content, /not available to the model/);
  assert.equal(out[1].content, "ran");
});
