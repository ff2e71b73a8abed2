// Bounded life for the Node test peers: each stops by itself after maxLifeMs,
// when its parent goes away (stdin, when it is a pipe or socket, reaches its
// end; a terminal or /dev/null does not count, so the peers can be run by
// hand), or on SIGTERM/SIGINT.
import { fstatSync } from 'node:fs';

export function boundLife(maxLifeMs, stop) {
    setTimeout(() => stop('maximum lifetime reached'), maxLifeMs).unref();
    let stdinIsPipe = false;
    try {
        const st = fstatSync(0);
        stdinIsPipe = st.isFIFO() || st.isSocket();
    } catch {
        /* no stdin */
    }
    if (stdinIsPipe) {
        process.stdin.on('data', () => {});
        process.stdin.on('end', () => stop('stdin closed'));
        process.stdin.on('close', () => stop('stdin closed'));
        process.stdin.on('error', () => stop('stdin error'));
    }
    process.on('SIGTERM', () => stop('SIGTERM'));
    process.on('SIGINT', () => stop('SIGINT'));
}
