// The model loop of the conversation: the user's message goes to the
// configured Chat Completions endpoint with the tools of every connected
// server; the model's tool calls run through the page (each one visible,
// with its progress and its own Cancel button), their results go back as
// "tool" messages, and so on until the model answers with text, for at
// most maxRounds requests.

import { chatCompletion } from "./llm.js";

/** MAX_ROUNDS bounds the model requests of one user message. */
export const MAX_ROUNDS = 8;

/**
 * modelLoop runs one user turn. history (OpenAI chat messages, the user's
 * message last) is extended in place with the assistant and tool messages.
 * tools() returns the tool definitions for each request; callTool(call,
 * signal) runs one tool call and resolves with the content of its "tool"
 * message (it never rejects: errors become text for the model); onText
 * receives the model's text; onThinking(round) is called before each
 * request and returns a function called when it is answered.
 * Resolves with the final assistant message; rejects when the endpoint
 * fails, the signal aborts, or the model still calls tools after maxRounds.
 */
export async function modelLoop({ llm, history, tools, callTool, onText, onThinking, signal, maxRounds = MAX_ROUNDS }) {
  for (let round = 1; round <= maxRounds; round++) {
    signal?.throwIfAborted();
    const done = onThinking?.(round);
    let msg;
    try {
      msg = await chatCompletion(llm, history, tools(), signal);
    } finally {
      done?.();
    }
    history.push(msg);
    const calls = msg.tool_calls || [];
    if (msg.content) onText?.(msg.content, { final: calls.length === 0 });
    if (!calls.length) return msg;
    const results = await Promise.all(calls.map(async (call) => ({
      role: "tool",
      tool_call_id: call.id,
      content: await callTool(call, signal),
    })));
    history.push(...results);
  }
  throw new Error(`the model was still calling tools after ${maxRounds} rounds: stopped`);
}
