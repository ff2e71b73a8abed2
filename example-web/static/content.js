// Rendering of MCP content: text, image, audio, embedded resources,
// resource links, tool use/results (sampling), structured content and
// isError. Server data only ever becomes text nodes, attribute values, or
// data: URLs built from a validated MIME type and Base64 payload.

import { h, json, pre, safeHref, externalLink } from "./dom.js";

const BASE64 = /^[A-Za-z0-9+/]*={0,2}$/;
const MIME = /^[a-z]+\/[a-z0-9.+-]+$/i;

/** dataURL returns data:<mime>;base64,<data> when both look right, else null. */
function dataURL(mime, data, family) {
  const m = String(mime ?? "").trim().toLowerCase();
  const d = String(data ?? "").replace(/\s+/g, "");
  if (!MIME.test(m) || !m.startsWith(`${family}/`) || !BASE64.test(d) || d.length === 0) return null;
  return `data:${m};base64,${d}`;
}

function base64Bytes(data) {
  const d = String(data ?? "").replace(/[\s=]+/g, "");
  return Math.floor((d.length * 3) / 4);
}

function bytes(n) {
  return n < 1024 ? `${n} B` : n < 1024 * 1024 ? `${(n / 1024).toFixed(1)} KB` : `${(n / 1048576).toFixed(1)} MB`;
}

function label(type, ...rest) {
  const facts = rest.filter(Boolean).map(String);
  return h("div", { class: "content-label" }, h("span", { class: "ctype" }, type), facts.length ? h("span", {}, facts.join(" · ")) : null);
}

/**
 * renderBlock renders one content block. ctx.readResource(uri), if given,
 * lets resource links be opened in the page.
 */
export function renderBlock(block, ctx = {}) {
  if (!block || typeof block !== "object") return h("div", { class: "content unknown" }, pre(json(block)));
  switch (block.type) {
    case "text":
      return h("div", { class: "content text", dataset: { ctype: "text" } }, h("div", { class: "text-body" }, String(block.text ?? "")));
    case "image": {
      const src = dataURL(block.mimeType, block.data, "image");
      return h("figure", { class: "content image", dataset: { ctype: "image" } },
        label("image", block.mimeType, `${bytes(base64Bytes(block.data))}`),
        src ? h("img", { src, alt: "image from the server", loading: "lazy" }) : h("p", { class: "warn" }, "Not shown: the MIME type or data is not a valid image."));
    }
    case "audio": {
      const src = dataURL(block.mimeType, block.data, "audio");
      return h("figure", { class: "content audio", dataset: { ctype: "audio" } },
        label("audio", block.mimeType, `${bytes(base64Bytes(block.data))}`),
        src ? h("audio", { controls: true, src, preload: "metadata" }) : h("p", { class: "warn" }, "Not played: the MIME type or data is not valid audio."));
    }
    case "resource":
      return h("div", { class: "content resource", dataset: { ctype: "resource" } }, label("embedded resource"), renderResourceContents(block.resource));
    case "resource_link": {
      const href = safeHref(block.uri);
      const name = block.title || block.name || block.uri;
      const link = href
        ? externalLink(href, name)
        : ctx.readResource
          ? h("button", { type: "button", class: "linkish", onclick: () => ctx.readResource(block.uri) }, name)
          : h("span", {}, name);
      return h("div", { class: "content resource-link", dataset: { ctype: "resource_link" } },
        label("resource link", block.mimeType), link, " ", h("code", { class: "uri" }, String(block.uri ?? "")),
        block.description ? h("div", { class: "muted" }, String(block.description)) : null);
    }
    case "tool_use":
      return h("div", { class: "content tool-use", dataset: { ctype: "tool_use" } }, label("tool use", String(block.name ?? "")), pre(json(block.input)));
    case "tool_result":
      return h("div", { class: ["content", "tool-result", block.isError && "is-error"], dataset: { ctype: "tool_result" } },
        label("tool result", String(block.toolUseId ?? "")), (block.content || []).map((c) => renderBlock(c, ctx)));
    default:
      return h("div", { class: "content unknown" }, label(String(block.type ?? "unknown")), pre(json(block)));
  }
}

/** renderResourceContents renders text or blob resource contents. */
export function renderResourceContents(rc) {
  if (!rc || typeof rc !== "object") return pre(json(rc));
  const head = h("div", { class: "res-head" }, h("code", { class: "uri" }, String(rc.uri ?? "")), rc.mimeType ? h("span", { class: "muted" }, ` ${rc.mimeType}`) : null);
  if (typeof rc.text === "string") return h("div", { class: "res-contents" }, head, pre(rc.text));
  if (typeof rc.blob === "string") {
    const n = base64Bytes(rc.blob);
    const img = dataURL(rc.mimeType, rc.blob, "image");
    return h("div", { class: "res-contents" }, head,
      img ? h("img", { src: img, alt: `resource ${rc.uri}` }) : null,
      h("div", { class: "muted" }, `binary, ${bytes(n)}`),
      pre(String(rc.blob).slice(0, 400) + (rc.blob.length > 400 ? "…" : ""), "blob"));
  }
  return pre(json(rc));
}

/** renderBlocks renders a content array (or a single block). */
export function renderBlocks(content, ctx) {
  const list = Array.isArray(content) ? content : content ? [content] : [];
  return list.map((b) => renderBlock(b, ctx));
}

/** renderToolResult renders a CallToolResult: content, structuredContent, isError. */
export function renderToolResult(result, ctx) {
  const parts = [];
  if (result?.isError) parts.push(h("div", { class: "error-banner", role: "note" }, "The tool reported an error (isError)"));
  parts.push(...renderBlocks(result?.content, ctx));
  if (result && result.structuredContent !== undefined) {
    parts.push(h("div", { class: "content structured", dataset: { ctype: "structured" } }, label("structured content"), pre(json(result.structuredContent), "json")));
  }
  if (!parts.length) parts.push(h("div", { class: "muted" }, "(empty result)"));
  return parts;
}
