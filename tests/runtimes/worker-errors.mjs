// A Worker bundled WITHOUT the "workerd" condition (the browser entry
// point, as a bundler not configured for Workers would pick): init() must
// fail saying what to do, for each source Workers cannot use, and then
// succeed with the module imported as a WebAssembly.Module.
import * as api from "mcpwasm";
import wasmModule from "mcpwasm/mcpwasm.wasm";
import bytes from "./mcpwasm.bin";

export default {
  async fetch() {
    const out = { importMetaURL: String(import.meta.url) };
    const attempt = async (name, opts) => {
      try {
        await api.init(opts);
        out[name] = "ok";
      } catch (e) {
        out[name] = String(e?.message ?? e);
      }
    };
    await attempt("plain", undefined);
    await attempt("bytes", { bytes });
    await attempt("module", { wasmModule });
    if (out.module === "ok") out.clients = api.moduleStats().clients;
    return new Response(JSON.stringify(out), { headers: { "content-type": "application/json" } });
  },
};
