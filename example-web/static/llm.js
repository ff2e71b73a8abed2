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
