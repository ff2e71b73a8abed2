// The optional, pluggable LLM endpoint the sampling dialog can ask for a
// draft reply: any OpenAI-compatible Chat Completions URL (a local model
// server, a proxy, a hosted API). The draft only fills the reply box; a
// person still reviews, edits and approves it. The API key lives in memory
// only (never stored).

/** textOf flattens sampling content (a block or an array) to plain text. */
export function textOf(content) {
  const list = Array.isArray(content) ? content : [content];
  return list.map((c) => {
    if (!c || typeof c !== "object") return "";
    if (c.type === "text") return String(c.text ?? "");
    if (c.type === "tool_result") return textOf(c.content || []);
    return `[${c.type}]`;
  }).filter(Boolean).join("\n");
}

/**
 * draftReply asks settings.url (Chat Completions) for a reply to a
 * sampling request. Resolves with {text, model}; rejects with an Error
 * that says what went wrong.
 */
export async function draftReply(settings, params, signal) {
  if (!settings?.url) throw new Error("no LLM endpoint configured (Settings)");
  const messages = [];
  if (params.systemPrompt) messages.push({ role: "system", content: String(params.systemPrompt) });
  for (const m of params.messages || []) messages.push({ role: m.role === "assistant" ? "assistant" : "user", content: textOf(m.content) });
  const body = { model: settings.model || undefined, messages, max_tokens: params.maxTokens };
  if (typeof params.temperature === "number") body.temperature = params.temperature;
  if (Array.isArray(params.stopSequences) && params.stopSequences.length) body.stop = params.stopSequences;
  const headers = { "Content-Type": "application/json" };
  if (settings.key) headers.Authorization = `Bearer ${settings.key}`;
  let res;
  try {
    res = await fetch(settings.url, { method: "POST", headers, body: JSON.stringify(body), signal });
  } catch (e) {
    throw new Error(`LLM endpoint unreachable (network or CORS): ${e.message}`);
  }
  if (!res.ok) throw new Error(`LLM endpoint answered HTTP ${res.status}`);
  let out;
  try {
    out = await res.json();
  } catch {
    throw new Error("LLM endpoint answered something that is not JSON");
  }
  const text = out?.choices?.[0]?.message?.content;
  if (typeof text !== "string") throw new Error("LLM endpoint reply has no choices[0].message.content");
  return { text, model: typeof out.model === "string" && out.model ? out.model : settings.model || "llm" };
}

/**
 * chatCompletion sends one Chat Completions request with messages and the
 * tool definitions (OpenAI "tools"; none: omitted) and resolves with the
 * assistant message of the first choice. Rejects with an Error that says
 * what went wrong (network or CORS, HTTP status with the endpoint's own
 * error message, a reply without a message).
 */
export async function chatCompletion(settings, messages, tools, signal) {
  if (!settings?.url) throw new Error("no LLM endpoint configured (Settings)");
  const body = { model: settings.model || undefined, messages };
  if (tools?.length) {
    body.tools = tools;
    body.tool_choice = "auto";
  }
  const headers = { "Content-Type": "application/json" };
  if (settings.key) headers.Authorization = `Bearer ${settings.key}`;
  let res;
  try {
    res = await fetch(settings.url, { method: "POST", headers, body: JSON.stringify(body), signal });
  } catch (e) {
    if (signal?.aborted) throw signal.reason;
    throw new Error(`LLM endpoint unreachable (network or CORS): ${e.message}`);
  }
  let out;
  try {
    out = await res.json();
  } catch {
    throw new Error(`LLM endpoint answered HTTP ${res.status} with something that is not JSON`);
  }
  if (!res.ok) throw new Error(`LLM endpoint answered HTTP ${res.status}${out?.error?.message ? `: ${out.error.message}` : ""}`);
  const msg = out?.choices?.[0]?.message;
  if (!msg || typeof msg !== "object") throw new Error("LLM endpoint reply has no choices[0].message");
  return { role: "assistant", content: typeof msg.content === "string" ? msg.content : null, ...(Array.isArray(msg.tool_calls) && msg.tool_calls.length ? { tool_calls: msg.tool_calls } : {}) };
}
