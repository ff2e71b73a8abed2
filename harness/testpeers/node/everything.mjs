#!/usr/bin/env node
// Launches @modelcontextprotocol/server-everything (a legacy-era reference server built on the
// v1 TypeScript SDK) bound to 127.0.0.1 only.
//
// server-everything reads its port from $PORT and calls `app.listen(PORT)` without a host, which
// binds every interface. This wrapper patches http.Server.prototype.listen (once) before loading
// the package's own entry point, so the server binds 127.0.0.1, and reports the real port.
//
// Flags:
//   --transport streamableHttp|sse   (default streamableHttp)
//   --port N                         (0 = ephemeral; default 0)
//   --max-life-ms N                  exit after N ms (default 900000 = 15 min)
//   --verbose                        pass the server's console.log chatter through to stderr
//
// Prints exactly one line to stdout when ready:
//   LISTENING http://127.0.0.1:<port>/mcp   (streamableHttp: the MCP endpoint)
//   LISTENING http://127.0.0.1:<port>/sse   (sse: the SSE GET endpoint; POSTs go to /message)
// Exits when stdin (if it is a pipe) reaches EOF, or after --max-life-ms.

import http from 'node:http';
import { createRequire } from 'node:module';
import path from 'node:path';
import { pathToFileURL } from 'node:url';
import { parseArgs } from 'node:util';
import { boundLife } from './lifetime.mjs';

const { values: flags } = parseArgs({
    options: {
        transport: { type: 'string', default: 'streamableHttp' },
        port: { type: 'string', default: '0' },
        'max-life-ms': { type: 'string', default: String(15 * 60 * 1000) },
        verbose: { type: 'boolean', default: false }
    },
    strict: true
});

function die(message) {
    process.stderr.write(`everything: ${message}\n`);
    process.exit(2);
}

const TRANSPORT = flags.transport;
const PORT = Number(flags.port);
const MAX_LIFE_MS = Number(flags['max-life-ms']);
const PATHS = { streamableHttp: '/mcp', sse: '/sse' };
if (!(TRANSPORT in PATHS)) die(`bad --transport ${TRANSPORT} (want streamableHttp|sse)`);
if (!Number.isInteger(PORT) || PORT < 0 || PORT > 65535) die(`bad --port ${flags.port}`);
if (!Number.isFinite(MAX_LIFE_MS) || MAX_LIFE_MS <= 0) die(`bad --max-life-ms ${flags['max-life-ms']}`);

// stdout carries only the LISTENING line: server-everything prints its chatter with console.log.
const toStderr = (...args) => process.stderr.write(`[everything] ${args.map(String).join(' ')}\n`);
console.log = flags.verbose ? toStderr : () => {};
console.info = console.log;
console.debug = console.log;

const originalListen = http.Server.prototype.listen;
http.Server.prototype.listen = function listenOnLoopback(...args) {
    http.Server.prototype.listen = originalListen; // only the package's one server
    const callback = typeof args.at(-1) === 'function' ? args.pop() : undefined;
    this.once('listening', () => {
        const { address, port } = this.address();
        if (address !== '127.0.0.1') die(`bound ${address}, not 127.0.0.1`);
        process.stdout.write(`LISTENING http://127.0.0.1:${port}${PATHS[TRANSPORT]}\n`);
    });
    this.once('error', err => die(`listen failed: ${err.message}`));
    return originalListen.call(this, PORT, '127.0.0.1', callback);
};

process.env.PORT = String(PORT);
process.argv = [process.argv[0], 'mcp-server-everything', TRANSPORT];

const require = createRequire(import.meta.url);
const pkgDir = path.dirname(require.resolve('@modelcontextprotocol/server-everything/package.json'));
await import(pathToFileURL(path.join(pkgDir, 'dist', 'index.js')).href);

boundLife(MAX_LIFE_MS, () => process.exit(0));
