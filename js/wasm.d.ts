// TypeScript declaration of mcpwasm/mcpwasm.wasm: what importing the module
// gives depends on the bundler — a precompiled WebAssembly.Module with
// wrangler (Cloudflare Workers; pass it as init({ wasmModule })), a URL
// string with esbuild's file loader or Vite's ?url (pass it as
// init({ wasmURL })).
declare const mcpwasmWasm: WebAssembly.Module | string;
export default mcpwasmWasm;
