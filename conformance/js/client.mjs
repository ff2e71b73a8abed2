// mcpwasm's JS conformance runner: the client program the MCP conformance
// suite runs for each scenario, written on the npm package's public API
// (js/src). It mirrors the native runner's scenario logic
// (harness/conformance/scenario) in JavaScript.
import { init, Client } from "../../js/src/index.node.js"; // what Node programs get

const scenario = process.env.MCP_CONFORMANCE_SCENARIO ?? "";
const contextJSON = process.env.MCP_CONFORMANCE_CONTEXT ?? "";
const url = process.argv.at(-1);
const log = (...a) => console.error("conformance-js:", ...a);

// versionsFor derives the accepted versions from the one the suite asks
// for: a modern version alone, or a legacy one and the older legacy ones.
function versionsFor(v) {
  if (!v) return undefined;
  const legacy = ["2025-11-25", "2025-06-18", "2025-03-26", "2024-11-05"];
  if (!legacy.includes(v)) return [v];
  return legacy.filter((x) => x <= v);
}

let client;
let unrelatedDone = false;

// The conformance client's Client ID Metadata Document URL (the suite's
// authorization servers accept it without fetching it).
const clientMetadataUrl = "https://conformance-test.local/client-metadata.json";

// authFor returns connect's auth option for the authorization scenarios, as
// the native runner configures its Doer (harness/conformance/client/auth.go): a
// user-facing client with the headless user agent (Node's fetch shows the
// authorization server's redirect with redirect: "manual"), DPoP with a
// WebCrypto key, the credentials of MCP_CONFORMANCE_CONTEXT, and for the
// extension scenarios a client-credentials, workload or enterprise client.
function authFor(name) {
  if (!name.startsWith("auth/")) return undefined;
  const sc = contextJSON ? JSON.parse(contextJSON) : {};
  const auth = {
    userAgent: "headless",
    clientName: "mcpwasm-conformance-js",
    clientMetadataUrl,
    dpop: true,
    onLog: (line) => log(line),
  };
  if (sc.client_id) auth.client = { id: sc.client_id, secret: sc.client_secret || undefined };
  switch (name) {
    case "auth/client-credentials-basic":
      auth.grant = "client_credentials";
      break;
    case "auth/client-credentials-jwt":
      auth.grant = "client_credentials";
      auth.client = { ...auth.client, privateKeyPem: sc.private_key_pem, authMethod: "private_key_jwt" };
      break;
    case "auth/wif-jwt-bearer":
      auth.grant = "jwt_bearer";
      auth.assertion = () => sc.valid_jwt;
      break;
    case "auth/enterprise-managed-authorization":
      auth.idJag = { tokenEndpoint: sc.idp_token_endpoint, clientId: sc.idp_client_id, subjectToken: () => sc.idp_id_token };
      break;
  }
  return auth;
}

async function elicitation() {
  if (scenario === "sep-2322-client-request-state" && !unrelatedDone) {
    // While this round is pending, an unrelated call must not carry its state.
    unrelatedDone = true;
    await client.callTool({ name: "test_mrtr_unrelated" }).catch((e) => log("test_mrtr_unrelated:", e.message));
  }
  if (scenario === "elicitation-sep1034-client-defaults" || scenario === "elicitation-defaults") {
    return { action: "accept", content: {} }; // the client applies the defaults
  }
  return { action: "accept", content: { confirmed: true } };
}

function argsFor(schema) {
  const props = schema?.properties ?? {};
  const args = {};
  const nums = [2, 3];
  for (const name of Object.keys(props).sort()) {
    switch (props[name]?.type) {
      case "number":
      case "integer":
        args[name] = nums.length ? nums.shift() : 1;
        break;
      case "string":
        args[name] = "us-west1";
        break;
      case "boolean":
        args[name] = true;
        break;
    }
  }
  return args;
}

async function allTools() {
  const tools = [];
  for await (const t of client.tools()) tools.push(t);
  return tools;
}

async function callEveryTool() {
  for (const t of await allTools()) {
    const r = await client.callTool({ name: t.name, arguments: argsFor(t.inputSchema) });
    log(t.name, JSON.stringify(r).slice(0, 200));
  }
}

async function run() {
  switch (scenario) {
    case "json-schema-ref-no-deref":
    case "request-metadata":
      await allTools();
      return;
    case "json-schema-2020-12-preservation": {
      const focal = (await allTools()).find((t) => t.name === "json_schema_2020_12_tool");
      if (!focal) throw new Error("json_schema_2020_12_tool is not listed");
      await client.callTool({ name: "json_schema_echo", arguments: { schema: focal.inputSchema } });
      return;
    }
    case "sep-2322-client-request-state":
      await allTools();
      for (const name of ["test_mrtr_echo_state", "test_mrtr_no_state", "test_mrtr_no_result_type"]) {
        await client.callTool({ name });
      }
      return;
    case "http-standard-headers":
      await callEveryTool();
      for await (const r of client.resources()) await client.readResource({ uri: r.uri });
      for await (const p of client.prompts()) await client.getPrompt({ name: p.name });
      return;
    case "http-custom-headers": {
      const ctx = contextJSON ? JSON.parse(contextJSON) : {};
      await allTools();
      for (const call of ctx.toolCalls ?? []) await client.callTool({ name: call.name, arguments: call.arguments });
      return;
    }
    default:
      await callEveryTool();
  }
}

try {
  await init();
  client = new Client({ name: "mcpwasm-conformance-js", version: "0.1.0" }, {
    protocolVersions: versionsFor(process.env.MCP_CONFORMANCE_PROTOCOL_VERSION),
    sampling: () => ({ role: "assistant", model: "conformance-model", content: { type: "text", text: "ok" }, stopReason: "endTurn" }),
    elicitation,
    elicitationModes: ["form", "url"],
    roots: [{ uri: "file:///conformance", name: "conformance" }],
    onWarning: (m) => log("warning:", m),
  });
  const info = await client.connect(url, { auth: authFor(scenario) });
  log(`connected: era ${info.era}, version ${info.protocolVersion}`);
  await run();
  await client.close();
  process.exit(0);
} catch (e) {
  log(`scenario ${scenario}:`, e?.stack ?? e);
  process.exit(1);
}
