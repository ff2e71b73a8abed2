// Big results. A result of 64 KiB or more comes out of the module with its
// strings of 16 KiB or more (those written without escapes) left out of
// the JSON text; the glue decodes each from the module's memory and puts
// it back by its path (wasm/js/lane.go, docs/architecture.md "Long
// strings"). What the caller gets must be exactly what JSON.parse of the
// result would give, whatever the strings hold and wherever they are.
import { test, before, after } from "node:test";
import assert from "node:assert/strict";
import { init, Client } from "../src/index.node.js";
import { startPeer, text, modernServer } from "./helpers.mjs";

await init();

const ascii = "abcdefghijklmnopqrstuvwxyz0123456789".repeat(6000); // 216 KB, no escapes
const texts = {
  ascii,
  "with escapes": `line one\n${ascii}\t"quoted"\\`,
  "non-ASCII and a leading BOM": `\uFEFF${"é漢字🎉 ".repeat(20000)}`,
  "just under the size": "y".repeat((64 << 10) - 200),
  "\u2028 and \u2029": `${ascii}\u2028\u2029`,
  "ASCII but its last character": `${ascii}é`, // (Node decodes ASCII strings as Latin-1: this one must not be)
  "ASCII but its first character": `é${ascii}`,
};

let ts, tsJSON, everything;
before(async () => {
  [ts, tsJSON, everything] = await Promise.all([startPeer("ts"), startPeer("ts", ["--json"]), startPeer("everything")]);
});
after(async () => {
  await Promise.all([ts?.stop(), tsJSON?.stop(), everything?.stop()]);
});

for (const [peer, era] of [["ts", "legacy"], ["ts", "modern"], ["tsJSON", "legacy"], ["tsJSON", "modern"]]) {
  test(`long strings come back whole: TS SDK server (${peer === "ts" ? "event streams" : "JSON"}, ${era})`, async () => {
    const url = (peer === "ts" ? ts : tsJSON).url;
    const c = new Client({ name: "mcpwasm-js-test", version: "1.0.0" }, { protocolVersions: era === "modern" ? ["2026-07-28"] : ["2025-11-25"] });
    try {
      const info = await c.connect(url);
      assert.equal(info.era, era);
      for (const [name, t] of Object.entries(texts)) {
        const r = await c.callTool({ name: "echo", arguments: { text: t } });
        assert.equal(r.content.length, 1, name);
        assert.ok(text(r) === t, `${name}: the echoed text differs (${text(r).length} chars back, ${t.length} sent)`);
      }
    } finally {
      await c.close();
    }
  });
}

test("long strings come back whole: server-everything", async () => {
  const c = new Client({ name: "mcpwasm-js-test", version: "1.0.0" });
  try {
    await c.connect(everything.url);
    for (const [name, t] of Object.entries(texts)) {
      const r = await c.callTool({ name: "echo", arguments: { message: t } });
      assert.ok(text(r) === `Echo: ${t}`, `${name}: the echoed text differs`);
    }
  } finally {
    await c.close();
  }
});

// Shapes real servers do not send: repeated names, __proto__, names
// written with escapes. Each result text is answered as it is, and the
// caller must get JSON.parse of it.
test("a result gets what JSON.parse gives, whatever its shape", async () => {
  const L = JSON.stringify("z".repeat(70000));
  const M = JSON.stringify("m".repeat(20000));
  const shapes = {
    "tool result": `{"content":[{"type":"text","text":${L}}]}`,
    "a later repeated name wins": `{"content":[],"text":${L},"text":"short"}`,
    "the later of a repeated name": `{"content":[],"text":"short","text":${L}}`,
    "a repeated name on the path": `{"content":[{"type":"text","text":${L}}],"n":1,"content":[]}`,
    "an escaped name repeats one": `{"content":[],"t":${L},"\\u0074":"escaped"}`,
    "__proto__": `{"content":[],"__proto__":${L}}`,
    "under __proto__": `{"content":[],"__proto__":{"text":${L}}}`,
    "constructor and toString": `{"content":[],"constructor":${L},"toString":{"valueOf":${M}}}`,
    "arrays of arrays": `{"content":[],"a":[[${M},[${L}]],${M},{"b":[${M}]}]}`,
    "many": `{"content":[],"s":[${Array(40).fill(M).join(",")}],"o":{${Array(40).fill(0).map((_, i) => `"k${i}":${M}`).join(",")}}}`,
    "structured content": `{"content":[{"type":"text","text":"x"}],"structuredContent":{"blob":${L},"n":[1,2.5,true,null]}}`,
    "whitespace": `{ "content" : [ ] ,\n\t"text" :\r\n ${L} }`,
  };
  const { url, server } = await modernServer((m, res) => {
    res.setHeader("content-type", "application/json");
    const result = shapes[m.params?.name] ?? `{"content":[]}`;
    res.end(`{"jsonrpc":"2.0","id":${JSON.stringify(m.id)},"result":${result}}`);
  });
  const c = new Client({ name: "mcpwasm-js-test", version: "1.0.0" });
  try {
    await c.connect(url);
    for (const [name, result] of Object.entries(shapes)) {
      const want = JSON.parse(result);
      delete want.resultType;
      const got = await c.request("tools/call", { name });
      delete got.resultType;
      assert.deepStrictEqual(got, want, name);
      assert.equal(Object.getPrototypeOf(got), Object.prototype, `${name}: the result's prototype`);
    }
  } finally {
    await c.close();
    server.close();
  }
});
