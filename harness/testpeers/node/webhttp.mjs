// The Node http side of the test peers and the bench server: each turns a
// node:http request into a web Request, hands it to its MCP handler (the
// TypeScript SDK's fetch-style handlers) and writes the web Response back —
// whole with a Content-Length for plain bodies, chunk by chunk with
// backpressure for event streams. One copy of that adapter, here.
import http from 'node:http';

/** jsonRpcError is a JSON-RPC error response with no id, as an HTTP answer. */
export const jsonRpcError = (status, code, message) =>
    Response.json({ jsonrpc: '2.0', error: { code, message }, id: null }, { status });

/**
 * serveWeb listens on 127.0.0.1 and serves handle(request) at path, printing
 * "LISTENING http://127.0.0.1:<port><path>" on stdout once it listens.
 * Options:
 *   handle(request) → Response   the MCP handler (required)
 *   port (0), path ('/mcp', exact unless prefix is true), backlog, maxConnections
 *   cors: answer preflights and add CORS headers to every answer
 *   corsExpose: the Access-Control-Expose-Headers value
 *   log(line): verbose logging of requests and responses (bodies cut at 500 characters)
 *   onError(message): a listen failure (default: stderr and exit 2)
 * Resolves with the http.Server.
 */
export function serveWeb(options) {
    const {
        handle,
        port = 0,
        path = '/mcp',
        prefix = false,
        cors = false,
        corsExpose = 'Mcp-Session-Id, Mcp-Protocol-Version, WWW-Authenticate',
        log,
        backlog,
        maxConnections,
        onError = message => {
            process.stderr.write(`${message}\n`);
            process.exit(2);
        }
    } = options;
    const corsHeaders = req =>
        cors && req.headers.origin
            ? { 'access-control-allow-origin': req.headers.origin, 'access-control-expose-headers': corsExpose, vary: 'Origin' }
            : {};

    async function onRequest(req, res) {
        const started = Date.now();
        const pathname = new URL(req.url ?? '/', 'http://127.0.0.1').pathname;
        if (cors && req.method === 'OPTIONS') {
            res.writeHead(204, {
                ...corsHeaders(req),
                'access-control-allow-methods': 'GET, POST, DELETE, OPTIONS',
                'access-control-allow-headers': req.headers['access-control-request-headers'] ?? '*',
                'access-control-max-age': '600'
            });
            res.end();
            return;
        }
        if (prefix ? !pathname.startsWith(path) : pathname !== path) {
            res.writeHead(404, { 'content-type': 'text/plain', ...corsHeaders(req) });
            res.end(`not found: the MCP endpoint is ${path}\n`);
            return;
        }
        // The web Request's signal aborts when the client goes away before the
        // response is complete: for modern requests that is the cancellation signal.
        const abort = new AbortController();
        res.on('close', () => {
            if (!res.writableFinished) abort.abort(new Error('client disconnected'));
        });
        let body;
        if (req.method !== 'GET' && req.method !== 'HEAD') {
            const chunks = [];
            for await (const chunk of req) chunks.push(chunk);
            body = Buffer.concat(chunks);
        }
        const headers = new Headers();
        for (let i = 0; i < req.rawHeaders.length; i += 2) headers.append(req.rawHeaders[i], req.rawHeaders[i + 1]);
        const request = new Request(`http://${req.headers.host ?? '127.0.0.1'}${req.url}`, {
            method: req.method,
            headers,
            body: body && body.length > 0 ? body : undefined,
            signal: abort.signal
        });
        if (log) {
            const sid = req.headers['mcp-session-id'];
            log(`--> ${req.method} ${req.url}${sid ? ` session=${sid}` : ''} ${body ? body.toString().slice(0, 500) : ''}`);
        }
        let response;
        try {
            response = await handle(request);
        } catch (err) {
            log?.(`handler error: ${err?.stack ?? err}`);
            response = jsonRpcError(500, -32603, 'Internal server error');
        }
        const out = { ...corsHeaders(req) };
        response.headers.forEach((value, key) => {
            out[key] = value;
        });
        const streaming = (response.headers.get('content-type') ?? '').startsWith('text/event-stream');
        if (!response.body || !streaming) {
            // Plain bodies (JSON, errors) are sent whole, with a Content-Length.
            const buf = response.body ? Buffer.from(await response.arrayBuffer()) : undefined;
            if (buf) out['content-length'] = String(buf.length);
            res.writeHead(response.status, out);
            res.end(buf);
            log?.(`<-- ${response.status} ${response.headers.get('content-type') ?? ''} (${Date.now() - started} ms) ${buf ? buf.toString().slice(0, 500) : ''}`);
            return;
        }
        res.writeHead(response.status, out);
        res.flushHeaders();
        log?.(`<-- ${response.status} text/event-stream (${Date.now() - started} ms to headers)`);
        const reader = response.body.getReader();
        const cancel = () => reader.cancel().catch(() => {});
        res.on('close', cancel);
        try {
            for (;;) {
                const { done, value } = await reader.read();
                if (done) break;
                log?.(`<-- ${Buffer.from(value).toString().trimEnd().slice(0, 500)}`);
                if (!res.write(value)) {
                    await new Promise(resolve => {
                        res.once('drain', resolve);
                        res.once('close', resolve);
                    });
                }
            }
        } catch (err) {
            log?.(`stream error: ${err?.message ?? err}`);
        } finally {
            res.off('close', cancel);
            res.end();
        }
    }

    const server = http.createServer((req, res) => {
        onRequest(req, res).catch(err => {
            log?.(`unhandled: ${err?.stack ?? err}`);
            if (!res.headersSent) res.writeHead(500);
            res.end();
        });
    });
    server.keepAliveTimeout = 30_000;
    if (maxConnections) server.maxConnections = maxConnections;
    return new Promise(resolve => {
        server.on('error', err => onError(`listen failed: ${err.message}`));
        const args = backlog ? [port, '127.0.0.1', backlog] : [port, '127.0.0.1'];
        server.listen(...args, () => {
            process.stdout.write(`LISTENING http://127.0.0.1:${server.address().port}${path}\n`);
            resolve(server);
        });
    });
}
