// MCP Apps inline in the conversation: a tool whose _meta names a ui://
// resource gets that app rendered under its result, by the package's apps
// host module (mcpwasm/apps, bundled by example-web/build-apps.mjs), which
// reads the resource, runs it in the extension's sandbox proxy on a second
// origin and routes the app's requests to the tool's server.

import { h } from "./dom.js";

/** appResourceUri returns the ui:// resource a tool's _meta names, or "". */
export function appResourceUri(tool) {
  const m = tool?._meta;
  const uri = m?.ui?.resourceUri ?? m?.["ui/resourceUri"];
  return typeof uri === "string" && uri.startsWith("ui://") ? uri : "";
}

let apps; // the apps host module, once loaded (null: not available)

/** APPS_MODULE is where example-web serves the bundled apps host (example-web/build-apps.mjs). */
const APPS_MODULE = "/vendor/mcpwasm-apps.js";

/** APPS_CAPABILITIES declares (ClientOptions.capabilities) that the page renders MCP Apps. */
export const APPS_CAPABILITIES = Object.freeze({ extensions: { "io.modelcontextprotocol/ui": { mimeTypes: ["text/html;profile=mcp-app"] } } });

/** SANDBOX_PAGE is the extension's sandbox proxy page example-web serves. */
const SANDBOX_PAGE = "/apps-sandbox.html";

/**
 * sandboxProxyURL is the sandbox proxy on a second origin: this server
 * under the other loopback name (example-web listens on 127.0.0.1 only, and
 * localhost is the same server under another origin). Apps run there, not
 * on the page's origin and not under the page's policy.
 */
function sandboxProxyURL() {
  const other = location.hostname === "localhost" ? "127.0.0.1" : "localhost";
  return `${location.protocol}//${other}${location.port ? `:${location.port}` : ""}${SANDBOX_PAGE}`;
}

/** appsAvailable resolves with whether example-web serves the apps host bundle and its sandbox proxy (it says at /apps.json, so a missing bundle costs no failed request). */
export async function appsAvailable() {
  try {
    const res = await fetch("/apps.json", { cache: "no-store" });
    return res.ok && (await res.json()).host === true;
  } catch {
    return false;
  }
}

let available; // appsAvailable(), once

// fullscreen is the app shown over the page ({box, view()}), if any:
// Escape on the page, or the box's own button, puts it back inline.
let fullscreen = null;

/** leaveFullscreen puts the app shown over the page back inline and tells it so. */
function leaveFullscreen() {
  if (!fullscreen) return;
  const { box, view } = fullscreen;
  fullscreen = null;
  box.classList.remove("app-fullscreen");
  view()?.setDisplayMode("inline");
}
if (typeof document !== "undefined") {
  document.addEventListener("keydown", (e) => { if (e.key === "Escape") leaveFullscreen(); });
}

async function appsModule() {
  if (apps === undefined) {
    try {
      apps = await import(APPS_MODULE);
    } catch {
      apps = null;
    }
  }
  return apps;
}

/**
 * showApp renders the app of tool into container (a conversation bubble),
 * with the call's arguments and result delivered to it; requests of the
 * app go to the tool's server through the manager, its messages to
 * onMessage(server, text). Resolves with the app's view, or undefined
 * when the page has no apps host.
 */
export async function showApp(container, { manager, tool, args, result, onMessage }) {
  const uri = appResourceUri(tool);
  const box = h("div", { class: "app-box", dataset: { appUri: uri, server: tool.server, state: "loading" } },
    h("div", { class: "content-label" }, h("span", { class: "ctype" }, "MCP App"), h("span", {}, uri)),
    // shown in fullscreen only: the app's frame has the keyboard, so Escape
    // does not always reach the page
    h("button", { type: "button", class: "app-exit", onclick: () => leaveFullscreen() }, "Exit fullscreen"));
  container.append(box);
  available ??= appsAvailable();
  const mod = (await available) ? await appsModule() : null;
  if (!mod?.renderApp) {
    box.dataset.state = "unavailable";
    box.append(h("p", { class: "muted small" }, "This tool has an app, but the page has no apps host or sandbox: build them with node example-web/build-apps.mjs (make demo does)."));
    return undefined;
  }
  try {
    const view = await mod.renderApp(manager, tool, box, {
      toolInput: args ?? {},
      toolResult: result,
      hostInfo: { name: "mcpwasm-example-web", version: "0.2.0" },
      sandboxProxy: sandboxProxyURL(),
      proxiedSandbox: "allow-scripts", // the app itself gets an opaque origin inside the proxy
      maxHeight: 600,
      onMessage: (params) => {
        const blocks = Array.isArray(params?.content) ? params.content : [];
        const text = blocks.filter((c) => c?.type === "text").map((c) => c.text).join("\n");
        onMessage?.(tool.server, text || "(a message without text)");
      },
      // Fullscreen is the page's layout: the box covers the window until the
      // app asks for inline again or the user presses Escape.
      displayModes: ["inline", "fullscreen"],
      onDisplayMode: (mode) => {
        box.classList.toggle("app-fullscreen", mode === "fullscreen");
        fullscreen = mode === "fullscreen" ? { box, view: () => view } : null;
        return mode;
      },
      onDownloadFile: (contents) => saveFiles(tool.server, contents),
    });
    box.dataset.state = "shown";
    view.initialized.then(() => { box.dataset.state = "initialized"; });
    return view;
  } catch (e) {
    box.dataset.state = "error";
    box.append(h("p", { class: "warn small" }, `The app could not be shown: ${e.message}`));
    return undefined;
  }
}

/**
 * saveFiles is the page's part of ui/download-file: the user confirms, then
 * each embedded file is saved from memory; a resource link is only named
 * (its uri is the server's: the page does not fetch it). Returns false
 * when the user declines.
 */
function saveFiles(server, contents) {
  const names = contents.map((c) => (c.type === "resource" ? c.resource.uri : c.uri).split("/").pop() || "download");
  if (!globalThis.confirm?.(`The app of ${server} wants to save: ${names.join(", ")}. Save?`)) return false;
  contents.forEach((c, i) => {
    if (c.type !== "resource") return;
    const r = c.resource;
    const data = typeof r.blob === "string" ? Uint8Array.from(atob(r.blob), (ch) => ch.charCodeAt(0)) : r.text;
    const url = URL.createObjectURL(new Blob([data], { type: r.mimeType || "application/octet-stream" }));
    const a = h("a", { href: url, download: names[i] });
    a.click();
    setTimeout(() => URL.revokeObjectURL(url), 1000);
  });
  return true;
}
