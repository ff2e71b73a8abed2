// TypeScript declarations of mcpwasm/node: the Node-only helpers, and
// everything of the main entry point.

import type { AuthorizationAgent, AuthStorage, Client, McpPort, SessionInfo, Era, McpManager as BrowserManager } from "./index.js";

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

export interface StdioPortOptions {
  /** The server's program (looked up in PATH). */
  command: string;
  args?: string[];
  /** Added to process.env. */
  env?: Record<string, string>;
  cwd?: string;
  /** The server's standard error, line by line. */
  onStderr?: (line: string) => void;
  /** Longest accepted line in bytes (default 32 MiB); a longer one is dropped and reported. */
  maxMessageSize?: number;
  /** Each wait of close in ms: stdin closed → SIGTERM → SIGKILL (default 2000). The signals go to the server's process group (it leads one of its own, except on Windows), so the processes it started end with it. */
  closeTimeout?: number;
}

/** A port to a stdio server process, for connect's transport "port". */
export interface StdioPort extends McpPort {
  /** The process id, once started. */
  readonly pid: number | undefined;
  /** Resolves when the process has exited. */
  readonly exited: Promise<{ code: number | null; signal: string | null }>;
}

/** A port that starts the server process when the client connects and ends it when the client closes. */
export function stdioPort(options: StdioPortOptions): StdioPort;

export interface ConnectStdioOptions extends StdioPortOptions {
  signal?: AbortSignal;
  era?: Era;
  protocolVersions?: string[];
}

/** Starts a stdio server and connects client to it. */
export function connectStdio(client: Client, options: ConnectStdioOptions): Promise<SessionInfo & { port: StdioPort }>;

/** McpManager that also starts stdio servers ("command", "args", "env", "cwd" entries). */
export class McpManager extends BrowserManager {}
