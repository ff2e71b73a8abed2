#!/usr/bin/env node
// mcpwasm test peer built on the TypeScript SDK v2 server (@modelcontextprotocol/server 2.4.0).
//
// Serves the shared peer toolset (see README.md next to this file) over Streamable HTTP at
// http://127.0.0.1:<port>/mcp, for both protocol eras on the same endpoint:
//
//   * modern (2026-07-28): the SDK's createMcpHandler — stateless, per-request server instances,
//     server/discover, MRTR input_required results, subscriptions/listen;
//   * legacy (2025-11-25 and older): a sessionful WebStandardStreamableHTTPServerTransport per
//     Mcp-Session-Id, routed with the SDK's isLegacyRequest predicate (the SDK's documented
//     "keep a sessionful 2025 deployment" recipe), so server->client requests, the standalone GET
//     stream, resources/subscribe and logging/setLevel work. `--legacy-serving stateless` uses the
//     SDK's default per-request legacy fallback instead.
//
// Flags:
//   --port N                 TCP port on 127.0.0.1 (0 = ephemeral; default 0)
//   --era dual|modern|legacy which eras to serve (default dual)
//   --legacy-serving sessions|stateless   how legacy traffic is served (default sessions)
//   --json                   prefer application/json responses (modern responseMode 'json',
//                            legacy enableJsonResponse)
//   --page-size N            paginate tools/resources/templates/prompts lists with N items per
//                            page (0 = SDK default: no pagination; default 0)
//   --cors                   answer CORS preflights and add CORS headers (for browser tests)
//   --max-life-ms N          exit after N ms (default 900000 = 15 min)
//   --verbose                log every HTTP exchange to stderr
//
// Prints exactly one line to stdout when ready: "LISTENING http://127.0.0.1:<port>/mcp".
// Exits when stdin (if it is a pipe) reaches EOF, or after --max-life-ms.

import { randomBytes, randomUUID } from 'node:crypto';
import { parseArgs } from 'node:util';
import { boundLife } from './lifetime.mjs';
import { jsonRpcError, serveWeb } from './webhttp.mjs';

import {
    CLIENT_CAPABILITIES_META_KEY,
    CLIENT_INFO_META_KEY,
    McpServer,
    PROTOCOL_VERSION_META_KEY,
    ProtocolError,
    ProtocolErrorCode,
    ResourceTemplate,
    WebStandardStreamableHTTPServerTransport,
    completable,
    createMcpHandler,
    createRequestStateCodec,
    fromJsonSchema,
    hostHeaderValidationResponse,
    inputRequired,
    inputResponse,
    isInitializeRequest,
    isLegacyRequest,
    legacyStatelessFallback,
    localhostAllowedHostnames,
    localhostAllowedOrigins,
    originValidationResponse
} from '@modelcontextprotocol/server';
import * as z from 'zod';

// ---------------------------------------------------------------------------------------------
// Command line

const { values: flags } = parseArgs({
    options: {
        port: { type: 'string', default: '0' },
        era: { type: 'string', default: 'dual' },
        'legacy-serving': { type: 'string', default: 'sessions' },
        json: { type: 'boolean', default: false },
        'page-size': { type: 'string', default: '0' },
        cors: { type: 'boolean', default: false },
        'max-life-ms': { type: 'string', default: String(15 * 60 * 1000) },
        verbose: { type: 'boolean', default: false }
    },
    strict: true
});

const PORT = Number(flags.port);
const ERA = flags.era;
const LEGACY_SERVING = flags['legacy-serving'];
const JSON_RESPONSES = flags.json;
const PAGE_SIZE = Number(flags['page-size']);
const CORS = flags.cors;
const MAX_LIFE_MS = Number(flags['max-life-ms']);
const VERBOSE = flags.verbose;

function die(message) {
    process.stderr.write(`ts-server: ${message}\n`);
    process.exit(2);
}
if (!Number.isInteger(PORT) || PORT < 0 || PORT > 65535) die(`bad --port ${flags.port}`);
if (!['dual', 'modern', 'legacy'].includes(ERA)) die(`bad --era ${ERA} (want dual|modern|legacy)`);
if (!['sessions', 'stateless'].includes(LEGACY_SERVING)) die(`bad --legacy-serving ${LEGACY_SERVING}`);
if (!Number.isInteger(PAGE_SIZE) || PAGE_SIZE < 0) die(`bad --page-size ${flags['page-size']}`);
if (!Number.isFinite(MAX_LIFE_MS) || MAX_LIFE_MS <= 0) die(`bad --max-life-ms ${flags['max-life-ms']}`);

const vlog = VERBOSE ? (...parts) => process.stderr.write(`[ts-server] ${parts.join(' ')}\n`) : () => {};

// ---------------------------------------------------------------------------------------------
// Fixtures

/** A valid 1x1 red RGBA PNG (70 bytes). */
const TINY_PNG = 'iVBORw0KGgoAAAANSUhEUgAAAAEAAAABCAYAAAAfFcSJAAAADUlEQVR4nGP4z8DwHwAFAAH/iZk9HQAAAABJRU5ErkJggg==';

/** A valid 8 kHz, 8-bit mono PCM WAV with 8 samples of silence (52 bytes). */
const TINY_WAV = (() => {
    const samples = Buffer.alloc(8, 128);
    const header = Buffer.alloc(44);
    header.write('RIFF', 0);
    header.writeUInt32LE(36 + samples.length, 4);
    header.write('WAVE', 8);
    header.write('fmt ', 12);
    header.writeUInt32LE(16, 16); // PCM chunk size
    header.writeUInt16LE(1, 20); // PCM
    header.writeUInt16LE(1, 22); // mono
    header.writeUInt32LE(8000, 24); // sample rate
    header.writeUInt32LE(8000, 28); // byte rate
    header.writeUInt16LE(1, 32); // block align
    header.writeUInt16LE(8, 34); // bits per sample
    header.write('data', 36);
    header.writeUInt32LE(samples.length, 40);
    return Buffer.concat([header, samples]).toString('base64');
})();

const BLOB_0_15 = Buffer.from(Array.from({ length: 16 }, (_, i) => i)).toString('base64');

const ELICIT_SCHEMA = {
    type: 'object',
    properties: {
        name: { type: 'string', default: 'Ada' },
        age: { type: 'integer', minimum: 0 },
        color: { type: 'string', enum: ['red', 'green'], default: 'green' }
    },
    required: ['age']
};

const SUM_SCHEMA = {
    type: 'object',
    properties: { sum: { type: 'integer' } },
    required: ['sum']
};

const EMPTY_OBJECT = { type: 'object', properties: {} };

const LOG_LEVELS = ['debug', 'info', 'notice', 'warning', 'error', 'critical', 'alert', 'emergency'];

/** A JSON-schema validator that accepts everything (used to let bad_output through the SDK). */
const acceptAll = { getValidator: () => input => ({ valid: true, data: input, errorMessage: undefined }) };

// Tool schemas are built once: fromJsonSchema compiles an AJV validator when it is called, and the
// modern era builds a fresh McpServer for every request.
const json = schema => fromJsonSchema(schema);
const SCHEMAS = {
    empty: json(EMPTY_OBJECT),
    echo: json({ type: 'object', properties: { text: { type: 'string' } }, required: ['text'] }),
    add: json({ type: 'object', properties: { a: { type: 'integer' }, b: { type: 'integer' } }, required: ['a', 'b'] }),
    sum: json(SUM_SCHEMA),
    // The SDK validates structuredContent against outputSchema before sending; a schema whose
    // validator accepts everything lets bad_output's invalid value reach the wire while tools/list
    // still advertises the real schema.
    sumUnchecked: fromJsonSchema(SUM_SCHEMA, acceptAll),
    progress: json({
        type: 'object',
        properties: { steps: { type: 'integer', minimum: 0 }, delayMs: { type: 'integer', minimum: 0 } },
        required: ['steps', 'delayMs']
    }),
    log: json({ type: 'object', properties: { level: { type: 'string', enum: LOG_LEVELS }, message: { type: 'string' } } }),
    slow: json({ type: 'object', properties: { ms: { type: 'integer', minimum: 0 } }, required: ['ms'] }),
    sample: json({ type: 'object', properties: { prompt: { type: 'string' } }, required: ['prompt'] }),
    headerEcho: json({
        type: 'object',
        properties: {
            region: { type: 'string', 'x-mcp-header': 'Region' },
            priority: { type: 'integer', 'x-mcp-header': 'Priority' },
            note: { type: 'string' }
        },
        required: ['region', 'priority']
    }),
    touch: json({ type: 'object', properties: { uri: { type: 'string' } }, required: ['uri'] }),
    extra: json({ type: 'object', properties: { text: { type: 'string' } } }),
    greet: z.object({
        name: z.string().describe('Who to greet'),
        style: completable(z.string().describe('formal or casual'), value =>
            ['formal', 'casual'].filter(st => st.startsWith(value))
        ).optional()
    })
};
const text = t => ({ content: [{ type: 'text', text: t }] });
const errorResult = t => ({ content: [{ type: 'text', text: t }], isError: true });

function sleep(ms, signal) {
    return new Promise((resolve, reject) => {
        if (signal?.aborted) return reject(signal.reason ?? new Error('aborted'));
        const timer = setTimeout(() => {
            signal?.removeEventListener('abort', onAbort);
            resolve();
        }, ms);
        const onAbort = () => {
            clearTimeout(timer);
            reject(signal.reason ?? new Error('aborted'));
        };
        signal?.addEventListener('abort', onAbort, { once: true });
    });
}

/**
 * Options for a legacy push-style server->client request made from a tool handler. In SDK 2.4.0
 * ctx.mcpReq.elicitInput / requestSampling do NOT tie the request to the tool call: without
 * relatedRequestId it goes to the standalone GET stream (and is lost when none is open).
 */
const related = ctx => ({ relatedRequestId: ctx.mcpReq.id, signal: ctx.mcpReq.signal });

/** First text of a sampling result's content (a block or an array of blocks). */
function samplingText(result) {
    const blocks = Array.isArray(result?.content) ? result.content : [result?.content];
    const t = blocks.find(b => b?.type === 'text');
    return t ? t.text : '';
}

// ---------------------------------------------------------------------------------------------
// Process-wide state shared by the per-request (modern) and per-session (legacy) instances

const state = {
    /** Number of `slow` calls that were cancelled before they finished. */
    cancelledSlow: 0,
    /** Names of the tools added by change_tools, in order. */
    extraTools: [],
    /** Legacy sessions: Mcp-Session-Id -> { transport, mcp, subscriptions: Set<string> }. */
    sessions: new Map()
};

/**
 * HMAC-protected requestState for MRTR rounds (a per-process key: one process serves every round).
 * Tampered or expired state is refused by the SDK with -32602 "Invalid or expired requestState".
 */
const stateCodec = createRequestStateCodec({ key: randomBytes(32), ttlSeconds: 600 });

/** Set once the modern handler exists: publishes to subscriptions/listen streams. */
let modernNotify;

// ---------------------------------------------------------------------------------------------
// The server factory: one McpServer with the whole toolset

/**
 * Builds a server instance.
 * @param {'modern'|'legacy'} era
 * @param {{request?: Request, session?: {subscriptions: Set<string>}}} opts
 */
function buildServer(era, { request, session } = {}) {
    const mcp = new McpServer(
        { name: 'mcpwasm-ts-peer', version: '1.0.0' },
        {
            capabilities: {
                tools: { listChanged: true },
                prompts: { listChanged: true },
                resources: { listChanged: true, subscribe: true },
                logging: {},
                completions: {}
            },
            instructions: 'mcpwasm test peer',
            requestState: { verify: stateCodec.verify }
        }
    );
    const modern = era === 'modern';

    /** The requestState payload of this round, or an error result when it is missing/foreign. */
    const roundState = (ctx, tool) => {
        const st = ctx.mcpReq.requestState();
        if (st === undefined) return { error: errorResult(`${tool}: retry carried inputResponses but no requestState`) };
        if (st?.tool !== tool) return { error: errorResult(`${tool}: requestState was minted for ${st?.tool}`) };
        return { st };
    };
    const mint = payload => stateCodec.mint(payload);

    // --- tools -------------------------------------------------------------------------------

    mcp.registerTool(
        'echo',
        {
            description: 'Returns its text argument unchanged',
            inputSchema: SCHEMAS.echo
        },
        async ({ text: t }) => text(t)
    );

    mcp.registerTool(
        'add',
        {
            description: 'Adds two integers; structured output {sum}',
            inputSchema: SCHEMAS.add,
            outputSchema: SCHEMAS.sum
        },
        async ({ a, b }) => ({ content: [{ type: 'text', text: String(a + b) }], structuredContent: { sum: a + b } })
    );

    mcp.registerTool(
        'bad_output',
        {
            description: 'Declares an integer {sum} output schema but returns a string sum',
            inputSchema: SCHEMAS.empty,
            outputSchema: SCHEMAS.sumUnchecked
        },
        async () => ({
            content: [{ type: 'text', text: '{"sum":"not a number"}' }],
            structuredContent: { sum: 'not a number' }
        })
    );

    mcp.registerTool(
        'fail',
        { description: 'Returns an isError result', inputSchema: SCHEMAS.empty },
        async () => errorResult('it failed')
    );

    mcp.registerTool(
        'boom',
        { description: 'Answers with a JSON-RPC protocol error (-32603)', inputSchema: SCHEMAS.empty },
        async () => {
            // Unreachable: the tools/call pre-dispatch hook below throws first (McpServer turns
            // errors thrown by tool callbacks into isError results).
            throw new Error('boom');
        }
    );

    mcp.registerTool(
        'content_mix',
        { description: 'Returns one content block of every type', inputSchema: SCHEMAS.empty },
        async () => ({
            content: [
                { type: 'text', text: 'mixed content' },
                { type: 'image', data: TINY_PNG, mimeType: 'image/png' },
                { type: 'audio', data: TINY_WAV, mimeType: 'audio/wav' },
                {
                    type: 'resource',
                    resource: { uri: 'test://embedded', mimeType: 'text/plain', text: 'embedded resource' }
                },
                {
                    type: 'resource_link',
                    uri: 'test://static/text',
                    name: 'static-text',
                    mimeType: 'text/plain',
                    description: 'a link to a static text resource'
                }
            ]
        })
    );

    mcp.registerTool(
        'progress',
        {
            description: 'Sends `steps` progress notifications `delayMs` apart (when a progressToken is given)',
            inputSchema: SCHEMAS.progress
        },
        async ({ steps, delayMs }, ctx) => {
            const progressToken = ctx.mcpReq._meta?.progressToken;
            for (let i = 1; i <= steps; i++) {
                await sleep(delayMs, ctx.mcpReq.signal);
                if (progressToken !== undefined) {
                    await ctx.mcpReq.notify({
                        method: 'notifications/progress',
                        params: { progressToken, progress: i, total: steps, message: `step ${i}` }
                    });
                }
            }
            return text('done');
        }
    );

    mcp.registerTool(
        'log',
        {
            description: 'Logs `message` at `level` and at debug (logger "test")',
            inputSchema: SCHEMAS.log
        },
        async ({ level = 'info', message }, ctx) => {
            const data = message ?? 'hello';
            await ctx.mcpReq.log(level, data, 'test');
            await ctx.mcpReq.log('debug', data, 'test');
            return text('logged');
        }
    );

    mcp.registerTool(
        'slow',
        {
            description: 'Sleeps `ms` milliseconds or until cancelled',
            inputSchema: SCHEMAS.slow
        },
        async ({ ms }, ctx) => {
            try {
                await sleep(ms, ctx.mcpReq.signal);
            } catch {
                state.cancelledSlow++;
                vlog(`slow: cancelled (total ${state.cancelledSlow})`);
                return errorResult('cancelled');
            }
            return text('slept');
        }
    );

    mcp.registerTool(
        'cancelled_count',
        { description: 'How many slow calls were cancelled', inputSchema: SCHEMAS.empty },
        async () => text(String(state.cancelledSlow))
    );

    // elicit / sample / sample_tools / roots are written once (MRTR style): on modern requests the
    // input_required result goes to the client; on legacy sessions the SDK's legacy shim turns the
    // embedded requests into real server->client requests and re-enters the handler.
    mcp.registerTool(
        'elicit',
        { description: 'Form elicitation "Who are you?"', inputSchema: SCHEMAS.empty },
        async (_args, ctx) => {
            const view = inputResponse(ctx.mcpReq.inputResponses, 'form');
            if (view.kind !== 'elicit') {
                return inputRequired({
                    inputRequests: {
                        form: inputRequired.elicit({ mode: 'form', message: 'Who are you?', requestedSchema: ELICIT_SCHEMA })
                    },
                    requestState: await mint({ tool: 'elicit' })
                });
            }
            const { error } = roundState(ctx, 'elicit');
            if (error) return error;
            return text(JSON.stringify({ action: view.action, ...(view.content !== undefined && { content: view.content }) }));
        }
    );

    mcp.registerTool(
        'elicit_url',
        { description: 'URL-mode elicitation', inputSchema: SCHEMAS.empty },
        async (_args, ctx) => {
            if (!modern) {
                // Legacy: a real elicitation/create with the fixed elicitationId, then
                // notifications/elicitation/complete on the same response stream after an accept.
                const result = await ctx.mcpReq.elicitInput(
                    { mode: 'url', message: 'Open the page', url: 'https://example.com/consent', elicitationId: 'e-1' },
                    related(ctx)
                );
                if (result.action === 'accept') {
                    await mcp.server.createElicitationCompletionNotifier('e-1', { relatedRequestId: ctx.mcpReq.id })();
                }
                return text(result.action);
            }
            const view = inputResponse(ctx.mcpReq.inputResponses, 'consent');
            if (view.kind !== 'elicit') {
                return inputRequired({
                    inputRequests: {
                        consent: inputRequired.elicitUrl({ message: 'Open the page', url: 'https://example.com/consent' })
                    },
                    requestState: await mint({ tool: 'elicit_url' })
                });
            }
            const { error } = roundState(ctx, 'elicit_url');
            if (error) return error;
            return text(view.action);
        }
    );

    mcp.registerTool(
        'sample',
        {
            description: 'Asks the client to sample `prompt`',
            inputSchema: SCHEMAS.sample
        },
        async ({ prompt }, ctx) => {
            const view = inputResponse(ctx.mcpReq.inputResponses, 'sample');
            if (view.kind !== 'sampling') {
                return inputRequired({
                    inputRequests: {
                        sample: inputRequired.createMessage({
                            messages: [{ role: 'user', content: { type: 'text', text: prompt } }],
                            maxTokens: 50,
                            systemPrompt: 'be brief'
                        })
                    },
                    requestState: await mint({ tool: 'sample' })
                });
            }
            const { error } = roundState(ctx, 'sample');
            if (error) return error;
            return text(`${view.result.model}: ${samplingText(view.result)}`);
        }
    );

    mcp.registerTool(
        'sample_tools',
        { description: 'Sampling request that offers the get_time tool', inputSchema: SCHEMAS.empty },
        async (_args, ctx) => {
            const view = inputResponse(ctx.mcpReq.inputResponses, 'sample');
            if (view.kind !== 'sampling') {
                return inputRequired({
                    inputRequests: {
                        sample: inputRequired.createMessage({
                            messages: [{ role: 'user', content: { type: 'text', text: 'What time is it?' } }],
                            maxTokens: 50,
                            tools: [{ name: 'get_time', description: 'Returns the current time', inputSchema: { type: 'object' } }],
                            toolChoice: { mode: 'auto' }
                        })
                    },
                    requestState: await mint({ tool: 'sample_tools' })
                });
            }
            const { error } = roundState(ctx, 'sample_tools');
            if (error) return error;
            return text(JSON.stringify(view.result));
        }
    );

    mcp.registerTool(
        'roots',
        { description: 'Lists the client roots', inputSchema: SCHEMAS.empty },
        async (_args, ctx) => {
            const view = inputResponse(ctx.mcpReq.inputResponses, 'roots');
            if (view.kind !== 'roots') {
                return inputRequired({
                    inputRequests: { roots: inputRequired.listRoots() },
                    requestState: await mint({ tool: 'roots' })
                });
            }
            const { error } = roundState(ctx, 'roots');
            if (error) return error;
            return text(JSON.stringify(view.roots.map(r => r.uri)));
        }
    );

    mcp.registerTool(
        'multi_input',
        {
            description: 'Round 1: elicitation + roots; round 2: sampling. Returns {name, roots, sample}',
            inputSchema: SCHEMAS.empty
        },
        async (_args, ctx) => {
            const greeting = name => ({
                messages: [{ role: 'user', content: { type: 'text', text: `Say hello to ${name ?? 'nobody'}` } }],
                maxTokens: 50
            });
            if (!modern) {
                // Legacy: three sequential server->client requests on the call's response stream.
                const form = await ctx.mcpReq.elicitInput(
                    { mode: 'form', message: 'Who are you?', requestedSchema: ELICIT_SCHEMA },
                    related(ctx)
                );
                const name = form.action === 'accept' ? (form.content?.name ?? null) : null;
                const rootsResult = await ctx.mcpReq.send({ method: 'roots/list' }, related(ctx));
                const roots = rootsResult.roots.map(r => r.uri);
                const sample = await ctx.mcpReq.requestSampling(greeting(name), related(ctx));
                return text(JSON.stringify({ name, roots, sample: samplingText(sample) }));
            }
            const roundOne = async () =>
                inputRequired({
                    inputRequests: {
                        form: inputRequired.elicit({ mode: 'form', message: 'Who are you?', requestedSchema: ELICIT_SCHEMA }),
                        roots: inputRequired.listRoots()
                    },
                    requestState: await mint({ tool: 'multi_input', step: 1 })
                });
            const roundTwo = async (name, roots) =>
                inputRequired({
                    inputRequests: { sample: inputRequired.createMessage(greeting(name)) },
                    requestState: await mint({ tool: 'multi_input', step: 2, name, roots })
                });
            if (ctx.mcpReq.requestState() === undefined && ctx.mcpReq.inputResponses === undefined) return roundOne();
            const { st, error } = roundState(ctx, 'multi_input');
            if (error) return error;
            if (st.step === 1) {
                const form = inputResponse(ctx.mcpReq.inputResponses, 'form');
                const roots = inputResponse(ctx.mcpReq.inputResponses, 'roots');
                if (form.kind !== 'elicit' || roots.kind !== 'roots') return roundOne();
                const name = form.action === 'accept' ? (form.content?.name ?? null) : null;
                return roundTwo(
                    name,
                    roots.roots.map(r => r.uri)
                );
            }
            const sample = inputResponse(ctx.mcpReq.inputResponses, 'sample');
            if (sample.kind !== 'sampling') return roundTwo(st.name, st.roots);
            return text(JSON.stringify({ name: st.name, roots: st.roots, sample: samplingText(sample.result) }));
        }
    );

    mcp.registerTool(
        'header_echo',
        {
            description: 'Echoes the Mcp-Param-Region and Mcp-Param-Priority request headers',
            inputSchema: SCHEMAS.headerEcho
        },
        async (_args, ctx) => {
            const req = ctx.http?.req ?? request;
            const region = req?.headers.get('mcp-param-region') ?? '';
            const priority = req?.headers.get('mcp-param-priority') ?? '';
            return text(`${region}|${priority}`);
        }
    );

    mcp.registerTool(
        'change_tools',
        { description: 'Adds a tool extra_<n> and announces tools/list_changed', inputSchema: SCHEMAS.empty },
        async () => {
            const name = `extra_${state.extraTools.length + 1}`;
            state.extraTools.push(name);
            // Legacy sessions: registering on the live instance sends tools/list_changed to it.
            for (const s of state.sessions.values()) registerExtraTool(s.mcp, name);
            // Modern: the per-request instances pick the tool up from `state`; publish to listeners.
            modernNotify?.toolsChanged();
            return text(name);
        }
    );

    mcp.registerTool(
        'touch',
        {
            description: 'Sends notifications/resources/updated for `uri` to subscribers',
            inputSchema: SCHEMAS.touch
        },
        async ({ uri }) => {
            for (const s of state.sessions.values()) {
                if (s.subscriptions.has(uri)) await s.mcp.server.sendResourceUpdated({ uri });
            }
            modernNotify?.resourceUpdated(uri);
            return text('touched');
        }
    );

    mcp.registerTool(
        'whoami',
        {
            description: 'Returns {protocolVersion, clientInfo, clientCapabilities} as seen for this request',
            inputSchema: SCHEMAS.empty
        },
        async (_args, ctx) => {
            if (modern) {
                const env = ctx.mcpReq.envelope ?? {};
                return text(
                    JSON.stringify({
                        protocolVersion: env[PROTOCOL_VERSION_META_KEY],
                        clientInfo: env[CLIENT_INFO_META_KEY],
                        clientCapabilities: env[CLIENT_CAPABILITIES_META_KEY]
                    })
                );
            }
            return text(
                JSON.stringify({
                    protocolVersion: mcp.server.getNegotiatedProtocolVersion(),
                    clientInfo: mcp.server.getClientVersion(),
                    clientCapabilities: mcp.server.getClientCapabilities()
                })
            );
        }
    );

    for (let i = 0; i < 25; i++) {
        const name = `page_tool_${String(i).padStart(2, '0')}`;
        mcp.registerTool(name, { description: `Pagination filler ${i}`, inputSchema: SCHEMAS.empty }, async () => text(name));
    }

    for (const name of state.extraTools) registerExtraTool(mcp, name);

    // --- resources ---------------------------------------------------------------------------

    mcp.registerResource(
        'static-text',
        'test://static/text',
        { mimeType: 'text/plain', description: 'A static text resource' },
        async uri => ({ contents: [{ uri: uri.href, mimeType: 'text/plain', text: 'hello resource' }] })
    );
    mcp.registerResource(
        'static-blob',
        'test://static/blob',
        { mimeType: 'application/octet-stream', description: 'Bytes 0..15' },
        async uri => ({ contents: [{ uri: uri.href, mimeType: 'application/octet-stream', blob: BLOB_0_15 }] })
    );
    mcp.registerResource(
        'item',
        new ResourceTemplate('test://items/{id}', {
            list: undefined,
            complete: { id: value => ['1', '2', '10', '20'].filter(id => id.startsWith(value)) }
        }),
        { mimeType: 'text/plain', description: 'An item by id' },
        async (uri, { id }) => ({ contents: [{ uri: uri.href, mimeType: 'text/plain', text: `item ${id}` }] })
    );
    for (let i = 0; i < 25; i++) {
        const n = String(i).padStart(2, '0');
        mcp.registerResource(`many-${n}`, `test://many/${n}`, { mimeType: 'text/plain' }, async uri => ({
            contents: [{ uri: uri.href, mimeType: 'text/plain', text: `many ${n}` }]
        }));
    }

    // Legacy per-resource subscriptions: the SDK routes the verbs, the bookkeeping is ours.
    if (!modern) {
        const subscriptions = session?.subscriptions ?? new Set();
        mcp.server.setRequestHandler('resources/subscribe', req => {
            subscriptions.add(req.params.uri);
            return {};
        });
        mcp.server.setRequestHandler('resources/unsubscribe', req => {
            subscriptions.delete(req.params.uri);
            return {};
        });
    }

    // --- prompts -----------------------------------------------------------------------------

    mcp.registerPrompt(
        'greet',
        {
            description: 'Greets someone',
            argsSchema: SCHEMAS.greet
        },
        ({ name, style }) => ({
            messages: [
                { role: 'user', content: { type: 'text', text: style ? `Hello, ${name}! (${style})` : `Hello, ${name}!` } }
            ]
        })
    );
    mcp.registerPrompt('with_image', { description: 'A message with an image' }, () => ({
        messages: [{ role: 'user', content: { type: 'image', data: TINY_PNG, mimeType: 'image/png' } }]
    }));
    mcp.registerPrompt('with_resource', { description: 'A message with an embedded resource' }, () => ({
        messages: [
            {
                role: 'user',
                content: { type: 'resource', resource: { uri: 'test://static/text', mimeType: 'text/plain', text: 'hello resource' } }
            }
        ]
    }));

    installHooks(mcp);
    return mcp;
}

function registerExtraTool(mcp, name) {
    mcp.registerTool(
        name,
        {
            description: 'Added by change_tools; echoes text',
            inputSchema: SCHEMAS.extra
        },
        async ({ text: t }) => text(t ?? name)
    );
}

/**
 * Request-handler hooks McpServer 2.4.0 has no public option for. They wrap the handlers McpServer
 * installed (kept in Protocol's `_requestHandlers` map) without re-wrapping them, so the SDK's
 * own validation and MRTR seam stay exactly as they are.
 */
function installHooks(mcp) {
    const handlers = mcp.server._requestHandlers;
    if (!(handlers instanceof Map)) throw new Error('ts-server: SDK internals changed (_requestHandlers)');

    // boom: McpServer converts anything a tool callback throws into an isError result, so the
    // protocol error is raised before McpServer's tools/call handler runs.
    const call = handlers.get('tools/call');
    handlers.set('tools/call', async (request, ctx) => {
        if (request.params?.name === 'boom') {
            throw new ProtocolError(ProtocolErrorCode.InternalError, 'boom: deliberate protocol error');
        }
        return call(request, ctx);
    });

    // Optional pagination (McpServer always returns whole lists).
    if (PAGE_SIZE > 0) {
        for (const [method, key] of [
            ['tools/list', 'tools'],
            ['prompts/list', 'prompts'],
            ['resources/list', 'resources'],
            ['resources/templates/list', 'resourceTemplates']
        ]) {
            const list = handlers.get(method);
            if (!list) continue;
            handlers.set(method, async (request, ctx) => {
                const cursor = request.params?.cursor;
                let offset = 0;
                if (cursor !== undefined) {
                    const m = /^page:(\d+)$/.exec(Buffer.from(String(cursor), 'base64url').toString());
                    if (!m) throw new ProtocolError(ProtocolErrorCode.InvalidParams, `Invalid cursor: ${cursor}`);
                    offset = Number(m[1]);
                }
                const result = await list(request, ctx);
                const all = result[key] ?? [];
                result[key] = all.slice(offset, offset + PAGE_SIZE);
                if (offset + PAGE_SIZE < all.length) {
                    result.nextCursor = Buffer.from(`page:${offset + PAGE_SIZE}`).toString('base64url');
                }
                return result;
            });
        }
    }
}

// ---------------------------------------------------------------------------------------------
// HTTP serving

/** Simple per-session in-memory event store: lets legacy clients resume with Last-Event-ID. */
class InMemoryEventStore {
    events = [];
    async storeEvent(streamId, message) {
        const eventId = `${streamId}_${this.events.length}`;
        this.events.push({ eventId, streamId, message });
        return eventId;
    }
    async getStreamIdForEventId(eventId) {
        return this.events.find(e => e.eventId === eventId)?.streamId;
    }
    async replayEventsAfter(lastEventId, { send }) {
        const index = this.events.findIndex(e => e.eventId === lastEventId);
        if (index < 0) throw new Error(`unknown event id ${lastEventId}`);
        const { streamId } = this.events[index];
        for (const e of this.events.slice(index + 1)) {
            if (e.streamId === streamId) await send(e.eventId, e.message);
        }
        return streamId;
    }
}

const modernHandler =
    ERA === 'legacy'
        ? undefined
        : createMcpHandler(ctx => buildServer('modern', { request: ctx.requestInfo }), {
              // In dual mode legacy traffic is routed in front of this handler (see route()),
              // except with --legacy-serving stateless, where the SDK's own fallback serves it.
              legacy: ERA === 'dual' && LEGACY_SERVING === 'stateless' ? 'stateless' : 'reject',
              ...(JSON_RESPONSES && { responseMode: 'json' }),
              onerror: err => vlog(`modern: ${err.message}`)
          });
modernNotify = modernHandler?.notify;

const statelessLegacy =
    ERA === 'legacy' && LEGACY_SERVING === 'stateless'
        ? legacyStatelessFallback(ctx => buildServer('legacy', { request: ctx.requestInfo }), err => vlog(`legacy: ${err.message}`))
        : undefined;

/** Sessionful 2025-era serving: one transport + McpServer per Mcp-Session-Id. */
async function serveLegacySession(request) {
    const sid = request.headers.get('mcp-session-id');
    if (sid) {
        const session = state.sessions.get(sid);
        if (!session) return jsonRpcError(404, -32001, 'Session not found');
        return session.transport.handleRequest(request);
    }
    if (request.method === 'POST') {
        let body;
        try {
            body = await request.clone().json();
        } catch {
            return jsonRpcError(400, -32700, 'Parse error');
        }
        if (isInitializeRequest(body)) {
            const session = { subscriptions: new Set() };
            const transport = new WebStandardStreamableHTTPServerTransport({
                sessionIdGenerator: () => randomUUID(),
                enableJsonResponse: JSON_RESPONSES,
                eventStore: new InMemoryEventStore(),
                retryInterval: 500,
                onsessioninitialized: id => {
                    state.sessions.set(id, session);
                    vlog(`legacy: session ${id} opened`);
                }
            });
            transport.onclose = () => {
                if (transport.sessionId && state.sessions.delete(transport.sessionId)) {
                    vlog(`legacy: session ${transport.sessionId} closed`);
                }
            };
            session.transport = transport;
            session.mcp = buildServer('legacy', { session });
            await session.mcp.connect(transport);
            return transport.handleRequest(request, { parsedBody: body });
        }
    }
    return jsonRpcError(400, -32000, 'Bad Request: Mcp-Session-Id header is required');
}

function serveLegacy(request) {
    return statelessLegacy ? statelessLegacy(request) : serveLegacySession(request);
}

async function route(request) {
    const rejected =
        hostHeaderValidationResponse(request, localhostAllowedHostnames()) ??
        originValidationResponse(request, localhostAllowedOrigins());
    if (rejected) return rejected;
    if (ERA === 'legacy') return serveLegacy(request);
    if (ERA === 'modern' || LEGACY_SERVING === 'stateless') return modernHandler.fetch(request);
    // dual + sessions: the SDK's documented routing (isLegacyRequest in front of a strict handler).
    if (request.method === 'POST') {
        return (await isLegacyRequest(request)) ? serveLegacySession(request) : modernHandler.fetch(request);
    }
    if (request.method === 'GET' || request.method === 'DELETE') return serveLegacySession(request);
    return modernHandler.fetch(request);
}

const server = await serveWeb({
    handle: route,
    port: PORT,
    cors: CORS,
    corsExpose: 'Mcp-Session-Id, Mcp-Protocol-Version, WWW-Authenticate, Last-Event-ID',
    log: VERBOSE ? vlog : undefined,
    onError: die
});
vlog(`era=${ERA} legacy-serving=${LEGACY_SERVING} json=${JSON_RESPONSES} page-size=${PAGE_SIZE} cors=${CORS}`);

let exiting = false;
function shutdown(reason) {
    if (exiting) return;
    exiting = true;
    vlog(`exiting: ${reason}`);
    server.close();
    // End open subscriptions/listen streams with their final result, give the bytes a moment to
    // leave, then go.
    const closing = modernHandler ? modernHandler.close().catch(() => {}) : Promise.resolve();
    const timer = setTimeout(() => process.exit(0), 500);
    closing.then(() => setTimeout(() => process.exit(0), 50));
    timer.unref();
}

boundLife(MAX_LIFE_MS, shutdown);
