#!/usr/bin/env node
// A WebSocket front for @modelcontextprotocol/server-everything in stdio mode, for tests of
// mcpwasm's WebSocket transport (transport/ws) against a real server written by others.
//
// There is no official MCP WebSocket transport (SEP-1288 is a draft); this bridge implements the
// mapping mcpwasm uses: the client offers the subprotocol "mcp" and the bridge selects it (a
// client that does not offer it is refused with close code 1002); every text frame carries one
// JSON-RPC message. For each WebSocket the bridge spawns its own server-everything process
// (`node dist/index.js stdio`) and pipes newline-delimited JSON both ways: a frame becomes one
// line on the child's stdin, a line of the child's stdout becomes one text frame. A binary frame
// from the client closes the socket with 1003; the child exiting closes it with 1011; the socket
// closing ends the child (stdin closed, then SIGTERM, then SIGKILL).
//
// Flags:
//   --port N          (0 = ephemeral; default 0)
//   --max-life-ms N   exit after N ms (default 900000 = 15 min)
//   --verbose         log connections and frames to stderr
//
// It is an HTTP server on 127.0.0.1 whose /mcp path upgrades to WebSocket (other requests get
// 426 Upgrade Required), and prints exactly one line to stdout when ready:
//   LISTENING http://127.0.0.1:<port>/mcp      (connect to ws://127.0.0.1:<port>/mcp)
// The children's stderr is copied to stderr. Exits when stdin (if it is a pipe) reaches EOF, or
// after --max-life-ms, ending every child first.

import { spawn } from 'node:child_process';
import http from 'node:http';
import { createRequire } from 'node:module';
import path from 'node:path';
import { parseArgs } from 'node:util';
import { boundLife } from './lifetime.mjs';
import { WebSocketServer } from 'ws';

const { values: flags } = parseArgs({
    options: {
        port: { type: 'string', default: '0' },
        'max-life-ms': { type: 'string', default: String(15 * 60 * 1000) },
        verbose: { type: 'boolean', default: false }
    },
    strict: true
});

function die(message) {
    process.stderr.write(`ws-bridge: ${message}\n`);
    process.exit(2);
}

const PORT = Number(flags.port);
const MAX_LIFE_MS = Number(flags['max-life-ms']);
if (!Number.isInteger(PORT) || PORT < 0 || PORT > 65535) die(`bad --port ${flags.port}`);
if (!Number.isFinite(MAX_LIFE_MS) || MAX_LIFE_MS <= 0) die(`bad --max-life-ms ${flags['max-life-ms']}`);
const log = flags.verbose ? msg => process.stderr.write(`[ws-bridge] ${msg}\n`) : () => {};

const require = createRequire(import.meta.url);
const everythingEntry = path.join(
    path.dirname(require.resolve('@modelcontextprotocol/server-everything/package.json')),
    'dist',
    'index.js'
);

const children = new Set();
let nextConn = 1;

const server = http.createServer((req, res) => {
    res.writeHead(426, { 'Content-Type': 'text/plain', Upgrade: 'websocket' });
    res.end('this endpoint speaks MCP over WebSocket (subprotocol "mcp")\n');
});

const wss = new WebSocketServer({
    server,
    path: '/mcp',
    maxPayload: 32 * 1024 * 1024,
    // Select "mcp" when offered; otherwise accept without a subprotocol and refuse below with a
    // close frame that says why (a handshake failure would tell the client nothing).
    handleProtocols: protocols => (protocols.has('mcp') ? 'mcp' : false)
});

wss.on('connection', ws => {
    const id = nextConn++;
    if (ws.protocol !== 'mcp') {
        log(`#${id} refused: no "mcp" subprotocol`);
        ws.close(1002, 'the "mcp" subprotocol is required');
        return;
    }
    const child = spawn(process.execPath, [everythingEntry, 'stdio'], { stdio: ['pipe', 'pipe', 'pipe'] });
    children.add(child);
    log(`#${id} open, server-everything pid ${child.pid}`);

    let pending = '';
    child.stdout.setEncoding('utf8');
    child.stdout.on('data', chunk => {
        pending += chunk;
        let nl;
        while ((nl = pending.indexOf('\n')) >= 0) {
            const line = pending.slice(0, nl).replace(/\r$/, '');
            pending = pending.slice(nl + 1);
            if (line.trim() === '') continue;
            log(`#${id} <- ${line.slice(0, 200)}`);
            if (ws.readyState === ws.OPEN) ws.send(line);
        }
    });
    child.stderr.setEncoding('utf8');
    child.stderr.on('data', chunk => process.stderr.write(`[everything #${id}] ${chunk}`));
    child.stdin.on('error', () => {}); // EPIPE after the child exited
    child.on('exit', (code, signal) => {
        children.delete(child);
        log(`#${id} server-everything exited (${signal ?? code})`);
        if (ws.readyState === ws.OPEN || ws.readyState === ws.CONNECTING) {
            ws.close(1011, `server-everything exited (${signal ?? code})`);
        }
    });

    ws.on('message', (data, isBinary) => {
        if (isBinary) {
            log(`#${id} binary frame: closing with 1003`);
            ws.close(1003, 'MCP over WebSocket uses text frames');
            return;
        }
        // A raw newline can only be whitespace between JSON tokens: flatten it so the frame stays
        // one line of newline-delimited JSON.
        const text = data.toString('utf8').replace(/\r?\n/g, ' ');
        log(`#${id} -> ${text.slice(0, 200)}`);
        child.stdin.write(text + '\n');
    });
    ws.on('close', (code, reason) => {
        log(`#${id} closed ${code} ${reason}`);
        stopChild(child);
    });
    ws.on('error', err => log(`#${id} error ${err.message}`));
});

function stopChild(child) {
    if (child.exitCode !== null || child.signalCode !== null) return;
    child.stdin.end();
    const term = setTimeout(() => child.kill('SIGTERM'), 500);
    const kill = setTimeout(() => child.kill('SIGKILL'), 3000);
    term.unref();
    kill.unref();
    child.once('exit', () => {
        clearTimeout(term);
        clearTimeout(kill);
    });
}

function shutdown(code) {
    for (const child of children) child.kill('SIGKILL');
    process.exit(code);
}

server.on('error', err => die(`listen failed: ${err.message}`));
server.listen(PORT, '127.0.0.1', () => {
    const { address, port } = server.address();
    if (address !== '127.0.0.1') die(`bound ${address}, not 127.0.0.1`);
    process.stdout.write(`LISTENING http://127.0.0.1:${port}/mcp\n`);
});

boundLife(MAX_LIFE_MS, () => shutdown(0));
