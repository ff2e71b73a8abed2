#!/usr/bin/env node
// mcpwasm test peer for the 2026-07-28 tasks extension (io.modelcontextprotocol/tasks): a
// TypeScript SDK v2 server (@modelcontextprotocol/server, createMcpHandler, modern era only) whose
// task wire shapes are checked with the official extension package's schemas
// (@modelcontextprotocol/ext-tasks/core/v2) before they are sent.
//
// Tools (every task-creating tool needs the extension declared on the request, otherwise it
// answers -32021 Missing Required Client Capability, as the extension prescribes):
//   slow_sum {a, b, steps?}  a task that works through `steps` (default 3) stages of 100 ms, with
//                            a statusMessage per stage, then completes with {sum} structured output
//   ask_name                 a task that goes input_required with an elicitation (key "name"),
//                            waits for tasks/update, then completes with "Hello, <name>!"
//   forever                  a task that never finishes (until tasks/cancel)
//   fail_task                a task that fails with a JSON-RPC error (-32603)
//   quick {text}             answers directly even when tasks are allowed (the server decides)
// Methods: tasks/get, tasks/update, tasks/cancel. Tasks live in this process (not in a session),
// so a new client resumes one by id. pollIntervalMs is 100.
//
// Flags: --port N (default 0), --cors, --max-life-ms N (default 900000), --verbose.
// Prints "LISTENING http://127.0.0.1:<port>/mcp" when ready; exits when stdin closes.

import { randomUUID } from 'node:crypto';
import { parseArgs } from 'node:util';
import { boundLife } from './lifetime.mjs';
import { serveWeb } from './webhttp.mjs';

import { CLIENT_CAPABILITIES_META_KEY, McpServer, ProtocolError, createMcpHandler } from '@modelcontextprotocol/server';
import {
    CancelTaskRequestV2Schema,
    CreateTaskResultV2Schema,
    GetTaskRequestV2Schema,
    GetTaskResultV2Schema,
    TASKS_EXTENSION_ID_V2,
    UpdateTaskRequestV2Schema,
    hasTaskClientCapabilityV2
} from '@modelcontextprotocol/ext-tasks/core/v2';

const { values: flags } = parseArgs({
    options: {
        port: { type: 'string', default: '0' },
        cors: { type: 'boolean', default: false },
        'max-life-ms': { type: 'string', default: String(15 * 60 * 1000) },
        verbose: { type: 'boolean', default: false }
    },
    strict: true
});
const PORT = Number(flags.port);
const CORS = flags.cors;
const MAX_LIFE_MS = Number(flags['max-life-ms']);
const vlog = flags.verbose ? (...p) => process.stderr.write(`[tasks-server] ${p.join(' ')}\n`) : () => {};

const POLL_MS = 100;
const TTL_MS = 120_000;
const MAX_TASKS = 1000;

/** taskId -> {task (wire Task fields), result?, error?, inputRequests?, onInput?, timer?} */
const tasks = new Map();

function now() {
    return new Date().toISOString();
}

function newTask() {
    if (tasks.size >= MAX_TASKS) {
        // Bounded store: forget the oldest task.
        tasks.delete(tasks.keys().next().value);
    }
    const t = { taskId: randomUUID(), status: 'working', createdAt: now(), lastUpdatedAt: now(), ttlMs: TTL_MS, pollIntervalMs: POLL_MS };
    const entry = { task: t };
    tasks.set(t.taskId, entry);
    setTimeout(() => tasks.delete(t.taskId), TTL_MS).unref();
    return entry;
}

function setStatus(entry, status, statusMessage) {
    if (['completed', 'failed', 'cancelled'].includes(entry.task.status)) return false;
    entry.task.status = status;
    entry.task.lastUpdatedAt = now();
    if (statusMessage === undefined) delete entry.task.statusMessage;
    else entry.task.statusMessage = statusMessage;
    return true;
}

/** The DetailedTask of an entry, checked against the extension's GetTaskResult schema. */
function detailed(entry) {
    const out = { resultType: 'complete', ...entry.task };
    if (entry.task.status === 'completed') out.result = entry.result;
    if (entry.task.status === 'failed') out.error = entry.error;
    if (entry.task.status === 'input_required') out.inputRequests = entry.inputRequests;
    const checked = GetTaskResultV2Schema.safeParse(out);
    if (!checked.success) throw new Error(`tasks-server: bad DetailedTask: ${checked.error.message}`);
    return out;
}

function created(entry) {
    const out = { resultType: 'task', ...entry.task };
    const checked = CreateTaskResultV2Schema.safeParse(out);
    if (!checked.success) throw new Error(`tasks-server: bad CreateTaskResult: ${checked.error.message}`);
    return out;
}

const sleep = ms => new Promise(r => setTimeout(r, ms));

function requireExtension(ctx) {
    const caps = ctx.mcpReq.envelope?.[CLIENT_CAPABILITIES_META_KEY];
    if (!hasTaskClientCapabilityV2({ _meta: { [CLIENT_CAPABILITIES_META_KEY]: caps } })) {
        throw new ProtocolError(-32021, 'Missing required client capability', {
            requiredCapabilities: { extensions: { [TASKS_EXTENSION_ID_V2]: {} } }
        });
    }
}

function lookup(taskId) {
    const entry = tasks.get(taskId);
    if (!entry) throw new ProtocolError(-32602, `Failed to retrieve task: Task not found`);
    return entry;
}

const paramsOf = schema => schema.shape.params;

function buildServer() {
    const mcp = new McpServer(
        { name: 'mcpwasm-tasks-peer', version: '1.0.0' },
        { capabilities: { tools: {}, extensions: { [TASKS_EXTENSION_ID_V2]: {} } } }
    );

    const tools = {
        slow_sum: {
            description: 'A task: sums a and b after `steps` stages of 100 ms',
            inputSchema: { type: 'object', properties: { a: { type: 'integer' }, b: { type: 'integer' }, steps: { type: 'integer' } }, required: ['a', 'b'] },
            outputSchema: { type: 'object', properties: { sum: { type: 'integer' } }, required: ['sum'] },
            task: async (entry, args) => {
                const steps = args.steps ?? 3;
                for (let i = 1; i <= steps; i++) {
                    if (!setStatus(entry, 'working', `stage ${i}/${steps}`)) return;
                    await sleep(100);
                }
                entry.result = { content: [{ type: 'text', text: String(args.a + args.b) }], structuredContent: { sum: args.a + args.b } };
                setStatus(entry, 'completed', 'done');
            }
        },
        ask_name: {
            description: 'A task that asks for a name with an elicitation (tasks/update)',
            inputSchema: { type: 'object', properties: {} },
            task: async entry => {
                const answer = new Promise(resolve => (entry.onInput = resolve));
                entry.inputRequests = {
                    name: {
                        method: 'elicitation/create',
                        params: {
                            mode: 'form',
                            message: 'Please enter your name.',
                            requestedSchema: { type: 'object', properties: { name: { type: 'string' } }, required: ['name'] }
                        }
                    }
                };
                setStatus(entry, 'input_required', 'waiting for a name');
                const responses = await answer;
                delete entry.inputRequests;
                const r = responses.name;
                const name = r?.action === 'accept' ? r.content?.name : 'stranger';
                if (!setStatus(entry, 'working', 'greeting')) return;
                await sleep(50);
                entry.result = { content: [{ type: 'text', text: `Hello, ${name}!` }] };
                setStatus(entry, 'completed');
            }
        },
        forever: {
            description: 'A task that never finishes',
            inputSchema: { type: 'object', properties: {} },
            task: async entry => {
                setStatus(entry, 'working', 'still going');
            }
        },
        fail_task: {
            description: 'A task that fails with a JSON-RPC error',
            inputSchema: { type: 'object', properties: {} },
            task: async entry => {
                await sleep(50);
                entry.error = { code: -32603, message: 'the backend is on fire' };
                setStatus(entry, 'failed', 'backend failure');
            }
        }
    };

    mcp.server.setRequestHandler('tools/list', async () => ({
        tools: [
            ...Object.entries(tools).map(([name, t]) => ({ name, description: t.description, inputSchema: t.inputSchema, ...(t.outputSchema && { outputSchema: t.outputSchema }) })),
            { name: 'quick', description: 'Answers directly', inputSchema: { type: 'object', properties: { text: { type: 'string' } } } }
        ]
    }));

    mcp.server.setRequestHandler('tools/call', async (req, ctx) => {
        const { name, arguments: args = {} } = req.params;
        if (name === 'quick') return { content: [{ type: 'text', text: `quick ${args.text ?? ''}` }] };
        const tool = tools[name];
        if (!tool) throw new ProtocolError(-32602, `unknown tool ${name}`);
        requireExtension(ctx);
        const entry = newTask();
        vlog(`task ${entry.task.taskId} for ${name}`);
        tool.task(entry, args).catch(err => {
            entry.error = { code: -32603, message: String(err?.message ?? err) };
            setStatus(entry, 'failed', 'internal error');
        });
        return created(entry);
    });

    mcp.server.setRequestHandler('tasks/get', { params: paramsOf(GetTaskRequestV2Schema) }, async (params, ctx) => {
        requireExtension(ctx);
        return detailed(lookup(params.taskId));
    });

    // The SDK lifts inputResponses out of every request's params (they are MRTR retry data) into
    // ctx.mcpReq.inputResponses; the extension's schema checks them there.
    mcp.server.setRequestHandler('tasks/update', { params: paramsOf(GetTaskRequestV2Schema) }, async (params, ctx) => {
        requireExtension(ctx);
        const entry = lookup(params.taskId);
        const checked = paramsOf(UpdateTaskRequestV2Schema).safeParse({ taskId: params.taskId, inputResponses: ctx.mcpReq.inputResponses });
        if (!checked.success) throw new ProtocolError(-32602, `Invalid params for tasks/update: ${checked.error.message}`);
        const inputResponses = checked.data.inputResponses;
        const known = Object.keys(inputResponses).filter(k => entry.inputRequests?.[k]);
        if (known.length && entry.onInput) {
            const resolve = entry.onInput;
            entry.onInput = undefined;
            resolve(inputResponses);
        }
        return { resultType: 'complete' };
    });

    mcp.server.setRequestHandler('tasks/cancel', { params: paramsOf(CancelTaskRequestV2Schema) }, async (params, ctx) => {
        requireExtension(ctx);
        const entry = lookup(params.taskId);
        if (setStatus(entry, 'cancelled', 'cancelled by the client')) entry.onInput?.({});
        return { resultType: 'complete' };
    });
    return mcp;
}

const handler = createMcpHandler(() => buildServer(), {
    legacy: 'reject',
    onerror: err => vlog(`modern: ${err.message}`)
});

const server = await serveWeb({
    handle: request => handler.fetch(request),
    port: PORT,
    cors: CORS,
    log: flags.verbose ? vlog : undefined,
    onError: message => {
        process.stderr.write(`tasks-server: ${message}\n`);
        process.exit(2);
    }
});

let exiting = false;
function shutdown(reason) {
    if (exiting) return;
    exiting = true;
    vlog(`exiting: ${reason}`);
    server.close();
    handler
        .close?.()
        ?.catch(() => {})
        .finally(() => setTimeout(() => process.exit(0), 50));
    setTimeout(() => process.exit(0), 500).unref();
}

boundLife(MAX_LIFE_MS, shutdown);
