#!/usr/bin/env node
// The benchmark server: the TypeScript SDK v2 server (@modelcontextprotocol/server 2.4.0) with
// two tools and nothing else, so that the server's own work per call stays small and equal for
// every client under test.
//
//   echo    {text}   → one text block with `text`
//   payload {bytes}  → one text block of exactly `bytes` ASCII bytes (at most 16 MiB; the strings
//                      are built once per size and kept, so the server does not build them per call)
//
// Dual-era on one endpoint, http://127.0.0.1:<port>/mcp:
//   * modern (2026-07-28): the SDK's createMcpHandler (stateless, a server instance per request);
//   * legacy (2025-11-25 and older): a sessionful WebStandardStreamableHTTPServerTransport per
//     Mcp-Session-Id, routed with the SDK's isLegacyRequest (the SDK's "keep a sessionful 2025
//     deployment" recipe, as in harness/testpeers/node/ts-server.mjs). At most MAX_SESSIONS live
//     sessions; the oldest is closed when a new one would exceed that.
//
// Flags:
//   --port N          TCP port on 127.0.0.1 (0 = ephemeral; default 0)
//   --json            answer with application/json bodies (modern responseMode 'json', legacy
//                     enableJsonResponse); without it every answer is an SSE stream (modern
//                     responseMode 'sse', legacy enableJsonResponse false)
//   --cors            answer CORS preflights and let pages of any origin read the answers (the
//                     Chromium rounds' page is on another origin); requests without an Origin
//                     header, as every process client's, are answered the same either way
//   --max-life-ms N   exit after N ms (default 1800000 = 30 min)
//
// Prints one line when ready: "LISTENING http://127.0.0.1:<port>/mcp". Exits when its stdin (a
// pipe from the parent) reaches EOF, i.e. when the parent goes away, on SIGTERM/SIGINT, or after
// --max-life-ms.

import { randomUUID } from 'node:crypto';
import { parseArgs } from 'node:util';
import { boundLife } from '../harness/testpeers/node/lifetime.mjs';
import { jsonRpcError, serveWeb } from '../harness/testpeers/node/webhttp.mjs';

import {
    McpServer,
    WebStandardStreamableHTTPServerTransport,
    createMcpHandler,
    fromJsonSchema,
    isInitializeRequest,
    isLegacyRequest
} from '@modelcontextprotocol/server';

const { values: flags } = parseArgs({
    options: {
        port: { type: 'string', default: '0' },
        json: { type: 'boolean', default: false },
        cors: { type: 'boolean', default: false },
        'max-life-ms': { type: 'string', default: String(30 * 60 * 1000) }
    },
    strict: true
});
const PORT = Number(flags.port);
const JSON_RESPONSES = flags.json;
const MAX_LIFE_MS = Number(flags['max-life-ms']);
const MAX_PAYLOAD = 16 << 20;
const MAX_SESSIONS = 2048;

function die(message) {
    process.stderr.write(`bench-server: ${message}\n`);
    process.exit(2);
}
if (!Number.isInteger(PORT) || PORT < 0 || PORT > 65535) die(`bad --port ${flags.port}`);
if (!Number.isFinite(MAX_LIFE_MS) || MAX_LIFE_MS <= 0) die(`bad --max-life-ms ${flags['max-life-ms']}`);

const SCHEMAS = {
    echo: fromJsonSchema({ type: 'object', properties: { text: { type: 'string' } }, required: ['text'] }),
    payload: fromJsonSchema({
        type: 'object',
        properties: { bytes: { type: 'integer', minimum: 0, maximum: MAX_PAYLOAD } },
        required: ['bytes']
    })
};

/** Payload strings by size, built once (a few sizes are used). */
const payloads = new Map();
function payload(bytes) {
    let s = payloads.get(bytes);
    if (s === undefined) {
        const unit = 'abcdefghijklmnopqrstuvwxyz0123456789ABCDEFGHIJKLMNOPQRSTUVWXYZ-_';
        s = unit.repeat(Math.ceil(bytes / unit.length)).slice(0, bytes);
        if (payloads.size < 16) payloads.set(bytes, s);
    }
    return s;
}

function buildServer() {
    const mcp = new McpServer({ name: 'mcpwasm-bench-server', version: '1.0.0' }, { capabilities: { tools: {} } });
    mcp.registerTool('echo', { description: 'Returns its text argument unchanged', inputSchema: SCHEMAS.echo }, async ({ text }) => ({
        content: [{ type: 'text', text }]
    }));
    mcp.registerTool(
        'payload',
        { description: 'Returns one text block of exactly `bytes` bytes', inputSchema: SCHEMAS.payload },
        async ({ bytes }) => ({ content: [{ type: 'text', text: payload(bytes) }] })
    );
    return mcp;
}

const modernHandler = createMcpHandler(() => buildServer(), {
    legacy: 'reject',
    // The SDK's default ('auto') answers JSON unless a notification precedes the result, which
    // never happens here: SSE answers must be asked for.
    responseMode: JSON_RESPONSES ? 'json' : 'sse',
    onerror: () => {}
});

/** Legacy sessions: Mcp-Session-Id → transport, in creation order. */
const sessions = new Map();

async function serveLegacy(request) {
    const sid = request.headers.get('mcp-session-id');
    if (sid) {
        const transport = sessions.get(sid);
        if (!transport) return jsonRpcError(404, -32001, 'Session not found');
        return transport.handleRequest(request);
    }
    if (request.method !== 'POST') return jsonRpcError(400, -32000, 'Bad Request: Mcp-Session-Id header is required');
    let body;
    try {
        body = await request.clone().json();
    } catch {
        return jsonRpcError(400, -32700, 'Parse error');
    }
    if (!isInitializeRequest(body)) return jsonRpcError(400, -32000, 'Bad Request: Mcp-Session-Id header is required');
    if (sessions.size >= MAX_SESSIONS) {
        const [oldest, t] = sessions.entries().next().value;
        sessions.delete(oldest);
        t.close().catch(() => {});
    }
    const transport = new WebStandardStreamableHTTPServerTransport({
        sessionIdGenerator: () => randomUUID(),
        enableJsonResponse: JSON_RESPONSES,
        onsessioninitialized: id => sessions.set(id, transport)
    });
    transport.onclose = () => {
        if (transport.sessionId) sessions.delete(transport.sessionId);
    };
    await buildServer().connect(transport);
    return transport.handleRequest(request, { parsedBody: body });
}

async function route(request) {
    if (request.headers.has('mcp-session-id')) return serveLegacy(request);
    if (request.method === 'POST') return (await isLegacyRequest(request)) ? serveLegacy(request) : modernHandler.fetch(request);
    if (request.method === 'GET' || request.method === 'DELETE') return serveLegacy(request);
    return modernHandler.fetch(request);
}

// Concurrent rows open up to ~1024 connections at once.
const server = await serveWeb({
    handle: route,
    port: PORT,
    prefix: true,
    backlog: 1024,
    maxConnections: 8192,
    cors: flags.cors,
    corsExpose: 'Mcp-Session-Id, Mcp-Protocol-Version',
    onError: die
});

let exiting = false;
function shutdown() {
    if (exiting) return;
    exiting = true;
    server.close();
    server.closeAllConnections?.();
    setTimeout(() => process.exit(0), 200).unref();
}

boundLife(MAX_LIFE_MS, shutdown);
