// One benchmark round of one client in a Chromium page (bench/chromium.mjs serves this page and
// starts a fresh headless Chromium on it per round). The round is bench/round.mjs, as in a Node,
// Deno or Bun process; what differs is how the clients are imported — each as the bundle a page
// would ship (made with esbuild: mcpwasm's browser entry, js/src/index.js, with init({ wasmURL })
// as the package's README says for esbuild; the TS SDK client) — and how CPU is read:
// the page tells the bench server when a row's timed calls start and stop (POST /mark), and the
// server reads the CPU time of every process of the Chromium under test (the page's renderer,
// the network service, the browser) from /proc, as the CPU a page's client costs the machine.
//
// The round's settings come in the URL's fragment: {client, url, era, rows, warm, token}; the
// result (or the error) goes back as POST /result, the same object bench/client.mjs prints.
import { CLIENT_KINDS, setupClient, startRound, measureRow } from "./round.mjs";

const cfg = JSON.parse(decodeURIComponent(location.hash.slice(1)));

async function post(path, body) {
  const r = await fetch(path, { method: "POST", headers: { "content-type": "application/json" }, body: JSON.stringify({ token: cfg.token, ...body }) });
  if (!r.ok) throw new Error(`${path}: HTTP ${r.status}`);
  return r.json();
}

// A failure anywhere (an unhandled rejection too) ends the round with its message.
let reported = false;
function report(body) {
  if (reported) return;
  reported = true;
  post("/result", body).catch(() => {});
}
addEventListener("error", (e) => report({ error: String(e.error?.stack ?? e.message) }));
addEventListener("unhandledrejection", (e) => report({ error: String(e.reason?.stack ?? e.reason) }));

const cpu = {
  start: () => post("/mark", { mark: "start" }),
  stop: async (calls) => (await post("/mark", { mark: "stop", calls })).cpuUs,
};

try {
  if (!CLIENT_KINDS.includes(cfg.client) || cfg.client === "bare-http") throw new Error(`no client ${cfg.client} in a page`);
  const marks = {};
  const client = await setupClient(cfg.client, cfg.url, cfg.era, {
    importMcpwasm: () => import("/mcpwasm.js"),
    initOptions: { wasmURL: "/mcpwasm.wasm" },
    importTS: () => import("/ts-client.js"),
    fetch: (...args) => globalThis.fetch(...args),
  }, marks);
  const version = /(?:HeadlessChrome|Chrome)\/([\d.]+)/.exec(navigator.userAgent)?.[1] ?? "?";
  const out = await startRound(client, cfg.client, cfg.era, `Chromium ${version}`, marks, cfg.rows, cfg.warm);
  for (const row of cfg.rows) out.rows.push(await measureRow(client, row, cpu));
  await client.close();
  report({ result: out });
} catch (err) {
  report({ error: String(err?.stack ?? err) });
}
