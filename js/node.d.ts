// TypeScript declarations of mcpwasm/node: the Node-only helpers, and
// everything of the main entry point.

import type { AuthorizationAgent, AuthStorage } from "./index.js";

export * from "./index.js";

export interface LoopbackAuthorizationOptions {
  /** Shows the authorization URL to the user (opens a browser, prints it, …). */
  open: (url: string) => void | Promise<void>;
  /** Port on 127.0.0.1 (default 0: any free port). */
  port?: number;
  /** Callback path (default "/callback"). */
  path?: string;
  /** Default 300000. */
  timeoutMs?: number;
  /** The page the browser shows after a successful sign-in. */
  successHtml?: string;
}

/** A loopback callback listener: an onAuthorizationUrl that knows its redirect URI. */
export interface LoopbackAuthorization extends AuthorizationAgent {
  /** Stops the listener. */
  close(): Promise<void>;
}

/** Starts a callback listener on 127.0.0.1 (RFC 8252) for connect's auth.onAuthorizationUrl. */
export function loopbackAuthorization(options: LoopbackAuthorizationOptions): Promise<LoopbackAuthorization>;

/** AuthStorage in a JSON file (mode 0600, written atomically). */
export function fileStore(file: string): AuthStorage;
