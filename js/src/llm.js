// Tools for the model: the manager's aggregate as the tool definitions of
// the common LLM APIs (OpenAI chat completions, OpenAI responses,
// Anthropic messages), a model's tool calls executed through the manager,
// and MCP tool results turned into each API's tool-result content. See
// docs/manager.md for how each content type maps.

import { McpError } from "./errors.js";

// ------------------------------------------------------------ tool definitions

// parameters returns a tool's input schema as the APIs take it: an object
// schema (properties present), without the $schema keyword some servers add.
function parameters(tool) {
  const s = tool.inputSchema && typeof tool.inputSchema === "object" ? { ...tool.inputSchema } : {};
  delete s.$schema;
  if (s.type === undefined) s.type = "object";
  if (s.type === "object" && s.properties === undefined) s.properties = {};
  return s;
}

function description(tool) {
  return tool.description || tool.title || tool.annotations?.title || "";
}

/** toOpenAIChatTools returns the `tools` of an OpenAI chat completions request. */
export function toOpenAIChatTools(tools) {
  return tools.map((t) => ({ type: "function", function: { name: t.name, description: description(t), parameters: parameters(t) } }));
}

/** toOpenAIResponsesTools returns the `tools` of an OpenAI responses request. */
export function toOpenAIResponsesTools(tools) {
  return tools.map((t) => ({ type: "function", name: t.name, description: description(t), parameters: parameters(t) }));
}

/** toAnthropicTools returns the `tools` of an Anthropic messages request. */
export function toAnthropicTools(tools) {
  return tools.map((t) => ({ name: t.name, description: description(t), input_schema: parameters(t) }));
}

// ------------------------------------------------------------ content

// base64Size is the decoded size of base64 text.
function base64Size(b64) {
  const s = String(b64 ?? "").replace(/\s/g, "");
  const pad = s.endsWith("==") ? 2 : s.endsWith("=") ? 1 : 0;
  return Math.max(0, Math.floor((s.length * 3) / 4) - pad);
}

// stable serializes JSON with sorted keys (to compare structuredContent
// with a text block that already carries it).
function stable(v) {
  if (Array.isArray(v)) return `[${v.map(stable).join(",")}]`;
  if (v && typeof v === "object") return `{${Object.keys(v).sort().map((k) => `${JSON.stringify(k)}:${stable(v[k])}`).join(",")}}`;
  return JSON.stringify(v);
}

// structuredText is the JSON text of result.structuredContent, or
// undefined when there is none or a text block already carries it.
function structuredText(result) {
  if (result.structuredContent === undefined || result.structuredContent === null) return undefined;
  const want = stable(result.structuredContent);
  for (const c of result.content ?? []) {
    if (c?.type !== "text") continue;
    try {
      if (stable(JSON.parse(c.text)) === want) return undefined;
    } catch { /* not JSON */ }
  }
  return JSON.stringify(result.structuredContent);
}

function describeLink(c) {
  const bits = [`[resource link: ${c.uri}`];
  if (c.name) bits.push(` name=${JSON.stringify(c.name)}`);
  if (c.mimeType) bits.push(` type=${c.mimeType}`);
  bits.push("]");
  if (c.description) bits.push(` ${c.description}`);
  return bits.join("");
}

function describeBinary(what, mimeType, data, uri) {
  return `[${what}${uri ? ` ${uri}` : ""}: ${mimeType || "application/octet-stream"}, ${base64Size(data)} bytes]`;
}

/**
 * parts splits a CallToolResult into neutral pieces: {text} and
 * {media: "image"|"audio"|"file", mimeType, data, uri?, text (what to say
 * where the API cannot carry the bytes)}. An error result starts with
 * "Error:"-less text; callers mark errors their own way.
 */
function parts(result) {
  const out = [];
  for (const c of result?.content ?? []) {
    switch (c?.type) {
      case "text":
        out.push({ text: c.text ?? "" });
        break;
      case "image":
        out.push({ media: "image", mimeType: c.mimeType, data: c.data, text: describeBinary("image", c.mimeType, c.data) });
        break;
      case "audio":
        out.push({ media: "audio", mimeType: c.mimeType, data: c.data, text: describeBinary("audio", c.mimeType, c.data) });
        break;
      case "resource": {
        const r = c.resource ?? {};
        if (typeof r.text === "string") {
          out.push({ text: `[resource ${r.uri}${r.mimeType ? ` (${r.mimeType})` : ""}]\n${r.text}` });
        } else {
          const media = r.mimeType?.startsWith("image/") ? "image" : r.mimeType?.startsWith("audio/") ? "audio" : "file";
          out.push({ media, mimeType: r.mimeType, data: r.blob ?? "", uri: r.uri, text: describeBinary("resource", r.mimeType, r.blob, r.uri) });
        }
        break;
      }
      case "resource_link":
        out.push({ text: describeLink(c) });
        break;
      default:
        out.push({ text: `[unsupported content ${JSON.stringify(c?.type)}]` });
    }
  }
  const s = structuredText(result ?? {});
  if (s !== undefined) out.push({ text: s });
  if (out.length === 0) out.push({ text: result?.isError ? "the tool failed" : "" });
  return out;
}

const ANTHROPIC_IMAGE_TYPES = ["image/jpeg", "image/png", "image/gif", "image/webp"];
const OPENAI_IMAGE_TYPES = ["image/jpeg", "image/png", "image/gif", "image/webp"];
// Chat completions' input_audio formats, by MIME type.
const OPENAI_AUDIO_FORMATS = { "audio/wav": "wav", "audio/x-wav": "wav", "audio/wave": "wav", "audio/mpeg": "mp3", "audio/mp3": "mp3" };

const errorPrefix = (result, text) => (result?.isError ? `Error: ${text}` : text);

/**
 * toOpenAIChatContent returns the content of a chat completions tool
 * message: a string (one text piece) or text parts. Tool messages carry
 * only text there: images and audio are described in the text, and
 * toOpenAIChatMedia returns them as a user message. An isError result's
 * text starts with "Error: ".
 */
export function toOpenAIChatContent(result) {
  const ps = parts(result);
  const texts = ps.map((p) => p.text);
  texts[0] = errorPrefix(result, texts[0]);
  if (texts.length === 1) return texts[0];
  return texts.map((text) => ({ type: "text", text }));
}

/**
 * toOpenAIChatMedia returns the content parts (image_url, input_audio) a
 * chat completions user message can carry for a result's images and
 * audio (wav, mp3), or [] when it has none.
 */
export function toOpenAIChatMedia(result) {
  const out = [];
  for (const p of parts(result)) {
    if (p.media === "image" && OPENAI_IMAGE_TYPES.includes(p.mimeType)) {
      out.push({ type: "image_url", image_url: { url: `data:${p.mimeType};base64,${p.data}` } });
    } else if (p.media === "audio" && OPENAI_AUDIO_FORMATS[p.mimeType]) {
      out.push({ type: "input_audio", input_audio: { data: p.data, format: OPENAI_AUDIO_FORMATS[p.mimeType] } });
    }
  }
  return out;
}

/**
 * toOpenAIResponsesOutput returns the output of a responses
 * function_call_output: a string (one text piece) or input_text,
 * input_image (data URL) and input_file (data URL) parts. Audio is
 * described in text.
 */
export function toOpenAIResponsesOutput(result) {
  const ps = parts(result);
  ps[0] = { ...ps[0], text: errorPrefix(result, ps[0].text) };
  if (ps.length === 1 && !ps[0].media) return ps[0].text;
  return ps.map((p) => {
    if (p.media === "image" && OPENAI_IMAGE_TYPES.includes(p.mimeType)) return { type: "input_image", image_url: `data:${p.mimeType};base64,${p.data}` };
    if (p.media === "file") {
      const filename = (p.uri ?? "").split(/[/\\]/).pop() || "resource";
      return { type: "input_file", filename, file_data: `data:${p.mimeType || "application/octet-stream"};base64,${p.data}` };
    }
    return { type: "input_text", text: p.text };
  });
}

/**
 * toAnthropicContent returns the content of an Anthropic tool_result
 * block: text blocks, image blocks (JPEG, PNG, GIF, WebP) and document
 * blocks (PDF); other bytes are described in text. (is_error goes on the
 * tool_result block itself.)
 */
export function toAnthropicContent(result) {
  return parts(result).map((p) => {
    if (p.media === "image" && ANTHROPIC_IMAGE_TYPES.includes(p.mimeType)) {
      return { type: "image", source: { type: "base64", media_type: p.mimeType, data: p.data } };
    }
    if (p.media === "file" && p.mimeType === "application/pdf") {
      return { type: "document", source: { type: "base64", media_type: "application/pdf", data: p.data } };
    }
    return { type: "text", text: p.text };
  });
}

// ------------------------------------------------------------ running tool calls

// errorResult turns a failure into a tool result the model can read (it
// may correct its call); an abort of the caller's signal is rethrown.
function errorResult(err, signal) {
  if (signal?.aborted) throw err;
  const msg = err instanceof McpError ? `${err.message}${err.code !== undefined ? ` (code ${err.code})` : ""}` : String(err?.message ?? err);
  return { content: [{ type: "text", text: msg }], isError: true };
}

function parseArguments(args) {
  if (args === undefined || args === null || args === "") return {};
  if (typeof args === "object") return args;
  const v = JSON.parse(args);
  if (v === null || typeof v !== "object" || Array.isArray(v)) throw new TypeError("the arguments are not a JSON object");
  return v;
}

async function runOne(manager, id, name, args, options) {
  let parsed;
  try {
    parsed = parseArguments(args);
  } catch (err) {
    return { content: [{ type: "text", text: `invalid arguments for ${name}: ${err.message}` }], isError: true };
  }
  const onprogress = options?.onprogress ? (p) => options.onprogress(id, p) : undefined;
  try {
    return await manager.callTool({ name, arguments: parsed }, { signal: options?.signal, onprogress });
  } catch (err) {
    return errorResult(err, options?.signal);
  }
}

/**
 * runOpenAIChatToolCalls runs an assistant message's tool_calls (in
 * parallel) and resolves with the messages to append: one {role: "tool",
 * tool_call_id, content} per call in order, then — when results carried
 * images or audio and options.media is not false — one user message with
 * them. Failures become error results the model reads; only an abort of
 * options.signal rejects.
 */
export async function runOpenAIChatToolCalls(manager, toolCalls, options) {
  const calls = (toolCalls ?? []).filter((c) => (c?.type ?? "function") === "function" && c.function);
  const results = await Promise.all(calls.map((c) => runOne(manager, c.id, c.function.name, c.function.arguments, options)));
  const messages = calls.map((c, i) => ({ role: "tool", tool_call_id: c.id, content: toOpenAIChatContent(results[i]) }));
  if (options?.media !== false) {
    const media = [];
    calls.forEach((c, i) => {
      const m = toOpenAIChatMedia(results[i]);
      if (m.length) media.push({ type: "text", text: `Media returned by tool call ${c.id} (${c.function.name}):` }, ...m);
    });
    if (media.length) messages.push({ role: "user", content: media });
  }
  return messages;
}

/**
 * runOpenAIResponsesCalls runs the function_call items of a response's
 * output (in parallel) and resolves with one {type:
 * "function_call_output", call_id, output} per call, in order.
 */
export async function runOpenAIResponsesCalls(manager, outputItems, options) {
  const calls = (outputItems ?? []).filter((c) => c?.type === "function_call");
  const results = await Promise.all(calls.map((c) => runOne(manager, c.call_id, c.name, c.arguments, options)));
  return calls.map((c, i) => ({ type: "function_call_output", call_id: c.call_id, output: toOpenAIResponsesOutput(results[i]) }));
}

/**
 * runAnthropicToolUses runs the tool_use blocks of an assistant message
 * (in parallel) and resolves with the user message to append: {role:
 * "user", content: [{type: "tool_result", tool_use_id, content,
 * is_error}]}, one block per call, in order.
 */
export async function runAnthropicToolUses(manager, contentBlocks, options) {
  const uses = (contentBlocks ?? []).filter((b) => b?.type === "tool_use");
  const results = await Promise.all(uses.map((u) => runOne(manager, u.id, u.name, u.input ?? {}, options)));
  return {
    role: "user",
    content: uses.map((u, i) => ({ type: "tool_result", tool_use_id: u.id, content: toAnthropicContent(results[i]), is_error: !!results[i].isError })),
  };
}
