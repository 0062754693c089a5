import { Client, FailoverTransport } from '@x/client';
import type { Transport } from '@x/protocol';
import type { ClientOptions } from '../args/client-options.js';
import { describeTarget, type Target } from '../args/target.js';
import { UsageError } from '../args/usage-error.js';
import { ElicitationAnswerer } from '../elicitation/elicitation-answerer.js';
import type { Terminal } from '../output/terminal.js';
import { cliVersion } from '../version.js';
import type { CliFetch } from './auth.js';
import type { LazyCliAuth } from './lazy-auth.js';
import { ConnectError } from './connect-error.js';

/** What the session runs over, for `info` and error messages. */
export type TransportName = 'streamable-http' | 'sse' | 'websocket' | 'grpc' | 'stdio';

/** A connected client plus what it took to get there; `close()` releases everything. */
export interface Session {
  readonly client: Client;
  readonly transport: TransportName;
  close(): Promise<void>;
}

export interface OpenSessionOptions {
  readonly target: Target;
  readonly options: ClientOptions;
  readonly terminal: Terminal;
  readonly command: string;
  /** Ctrl-C: gives up connecting. */
  readonly signal: AbortSignal;
}

/**
 * The MCP heartbeat of `listen` (the client's `heartbeat` option, issue 28 §3): a legacy session's
 * notifications arrive on a stream a transport may give up re-opening without closing the connection
 * (Streamable HTTP's GET stream), and a stdio server can hang with its pipes open; only a request
 * finds out. A probe every `--heartbeat` ms (default 10 s), dead after two unanswered in a row (each
 * waiting as long). Other commands keep the client's default (on for network targets, with a 2-minute
 * interval they never reach).
 */
const LISTEN_HEARTBEAT_MS = 10_000;

function listenHeartbeat(ms: number | undefined) {
  const intervalMs = ms ?? LISTEN_HEARTBEAT_MS;
  return intervalMs === 0 ? false : { intervalMs, timeoutMs: intervalMs, maxMisses: 2 };
}

/** Default time to connect, when `--timeout` does not say. */
const CONNECT_TIMEOUT_MS = 30_000;

/**
 * Connects a `Client` to the target: http(s) → Streamable HTTP with fallback to legacy HTTP+SSE (the
 * client's `fallback`, used on a 400/404/405 answer), ws(s) → WebSocket, a ws(s) and an http(s) URL →
 * grpc(s) → the gRPC tunnel (TLS for grpcs, trusting the system's roots plus NODE_EXTRA_CA_CERTS), a
 * `FailoverTransport` (WebSocket, then Streamable HTTP, then legacy HTTP+SSE at the http(s) URL;
 * switches are noted on stderr; requests safe to
 * repeat are retried unless `--retry 0`), `-- cmd` → stdio (`--retry n` restarts a crashed server). The era is
 * negotiated by the client (`--legacy` / `--protocol-version` narrow it). Elicitations are answered at
 * the terminal, or declined when there is nobody to answer.
 *
 * @example
 * ```ts
 * const session = await openSession({ target, options, terminal, command: 'tools', signal });
 * try { await session.client.listTools(); } finally { await session.close(); }
 * ```
 */
export async function openSession(input: OpenSessionOptions): Promise<Session> {
  const { target, options, terminal, signal } = input;
  checkOptionsFitTarget(input);
  const client = new Client(
    { name: 'x-mcp', version: cliVersion() },
    {
      protocolVersion: options.protocolVersion,
      timeout: options.timeout,
      retry: retryOf(target, options),
      onwarning: (message) => terminal.warn(message),
      ...(input.command === 'listen' ? { heartbeat: listenHeartbeat(options.heartbeat) } : {}),
      ...(options.logLevel === undefined ? {} : { logLevel: options.logLevel }),
    },
  );
  const answerer = new ElicitationAnswerer(terminal);
  client.setElicitationHandler(answerer.handler);
  // Roots are only offered when asked for: a server should not learn the working directory by default.
  if (options.roots.length > 0) client.setRootsHandler(() => ({ roots: [...options.roots] }));
  if (process.env['X_MCP_DEBUG'] !== undefined) {
    client.onerror = (error) => terminal.err(terminal.errStyle.dim(`debug: ${error.message}`));
  }

  // OAuth for http(s) targets unless the command line brings its own credentials (--token, -H).
  const auth = await startAuth(input);
  const httpOptions = (): { headers: Record<string, string>; fetch?: CliFetch } =>
    auth === undefined
      ? { headers: { ...options.headers } }
      : { headers: { ...options.headers }, fetch: auth.fetch };

  // Each transport package is loaded only when the target needs it: startup stays quick.
  let transport: TransportName;
  let connecting: Promise<void>;
  /** The stdio transport, whose `closeReason` says how the server process ended. */
  let stdio: Transport | undefined;
  if (target.kind === 'stdio') {
    transport = 'stdio';
    const { StdioClientTransport } = await import('@x/transport-stdio');
    const retries = options.retry ?? 0;
    const child = new StdioClientTransport({
      command: target.command,
      args: target.args,
      env: options.env,
      ...(retries > 0 ? { restart: { maxAttempts: retries } } : {}),
    });
    if (retries > 0) {
      // Kept by the client, which chains its own re-initialization after it.
      child.onreconnect = () =>
        terminal.warn(`the server crashed and was restarted (${child.restarts}/${retries})`);
    }
    stdio = child;
    connecting = client.connect(child);
  } else if (target.kind === 'failover') {
    transport = 'websocket';
    const [{ WebSocketClientTransport }, { StreamableHttpClientTransport }] = await Promise.all([
      import('@x/transport-ws'),
      import('@x/transport-streamable-http'),
    ]);
    const { url, http } = target;
    const failover = new FailoverTransport({
      transports: [
        {
          name: 'websocket',
          create: () => new WebSocketClientTransport(url, { headers: { ...options.headers } }),
        },
        { name: 'streamable-http', create: () => new StreamableHttpClientTransport(http, httpOptions()) },
        // Legacy HTTP+SSE at the same URL last (2025-11-25 transports, "Backwards Compatibility"): a
        // legacy session whose HTTP server only speaks it moves there (loaded only when reached).
        { name: 'sse', create: () => sse(http, httpOptions()) },
      ],
      onevent: (event) => {
        if (event.type === 'probing') return;
        const why = event.reason === undefined ? '' : `: ${event.reason.message}`;
        const verb = event.type === 'switched' ? 'switched' : 'back';
        terminal.warn(`${verb} from ${event.from} to ${event.to}${why}`);
      },
    });
    connecting = client.connect(failover).then(() => {
      transport = failover.activeName as TransportName;
    });
  } else if (target.kind === 'ws') {
    transport = 'websocket';
    const { WebSocketClientTransport } = await import('@x/transport-ws');
    connecting = client.connect(
      new WebSocketClientTransport(target.url, { headers: { ...options.headers } }),
    );
  } else if (target.kind === 'grpc') {
    transport = 'grpc';
    const { connectGrpc } = await import('./grpc-transport.js');
    connecting = client.connect(await connectGrpc(target.url, options.headers));
  } else if (options.transport === 'sse') {
    transport = 'sse';
    connecting = client.connect(await sse(target.url, httpOptions()));
  } else {
    transport = 'streamable-http';
    const { StreamableHttpClientTransport } = await import('@x/transport-streamable-http');
    const primary = new StreamableHttpClientTransport(target.url, httpOptions());
    connecting = client.connect(
      primary,
      options.transport === 'http'
        ? {}
        : {
            fallback: (): Promise<Transport> => {
              transport = 'sse';
              return sse(target.url, httpOptions());
            },
          },
    );
  }

  const close = async (): Promise<void> => {
    answerer.close();
    // Auth first: it ends a pending authorization, which a request of the client may be waiting on.
    await auth?.close();
    await client.close().catch(() => {});
  };
  try {
    await withTimeout(connecting, {
      ms: options.timeout ?? CONNECT_TIMEOUT_MS,
      what: describeTarget(target),
      signal,
      paused: auth?.interacting,
    });
  } catch (error) {
    // The request timed out while the user was still at the authorization server: say so, not
    // "no answer to the handshake".
    const signingIn = auth?.interacting() === true && !signal.aborted;
    // The server process died while we were connecting: what the handshake met ("Not connected") says
    // less than how it ended (exit code or signal, its last stderr lines: ServerExitError).
    const exit = stdio?.closeReason;
    await close();
    if (exit !== undefined && !signal.aborted) throw exit;
    // `--transport http` turned the SSE fallback off; if the URL is a legacy HTTP+SSE endpoint, say so
    // instead of leaving the user with the 4xx its POST handler answered.
    if (options.transport === 'http' && target.kind === 'http' && !signal.aborted && isHttpRefusal(error)) {
      const { isSseEndpoint } = await import('./sse-endpoint-probe.js');
      if (await isSseEndpoint(target.url, options.headers)) {
        throw new ConnectError(
          `${target.url.href} is a legacy HTTP+SSE endpoint (protocol 2024-11-05), not Streamable HTTP: use --transport sse, or leave --transport out to fall back automatically`,
          { cause: error },
        );
      }
    }
    if (signingIn) {
      const where = describeTarget(target);
      throw new ConnectError(
        `timed out waiting for the authorization at ${where}; run 'x-mcp login ${where}' first (it waits up to 5 minutes)`,
        { cause: error },
      );
    }
    throw error;
  }
  // The user signed in while the client was connecting: if that outlasted the client's era probe
  // (server/discover, 10 s), it settled for the legacy era. Connect once more, now with the token.
  if (auth?.authorized() === true && client.era === 'legacy' && options.protocolVersion === 'auto') {
    await close();
    return openSession(input);
  }
  if (options.logLevel !== undefined && client.era === 'legacy' && client.serverCapabilities?.logging) {
    await client.setLoggingLevel(options.logLevel);
  }
  return { client, transport, close };
}

/**
 * `--retry n` as the client's policy; with a failover target the defaults unless `--retry 0`, since
 * requests in flight at a switch are otherwise lost.
 */
function retryOf(target: Target, options: ClientOptions): boolean | { maxAttempts: number } {
  const retries = options.retry;
  if (retries === undefined) return target.kind === 'failover';
  return retries === 0 ? false : { maxAttempts: retries };
}

async function sse(
  url: URL,
  options: { headers: Record<string, string>; fetch?: CliFetch },
): Promise<Transport> {
  const { SseClientTransport } = await import('@x/transport-sse');
  return new SseClientTransport(url, { ...options, headers: { ...options.headers } });
}

/** The OAuth client of an http(s) target, unless the command line already authorizes (--token, -H). */
async function startAuth({
  target,
  options,
  terminal,
}: OpenSessionOptions): Promise<LazyCliAuth | undefined> {
  if (target.kind !== 'http' && target.kind !== 'failover') return undefined;
  if (Object.keys(options.headers).some((name) => name.toLowerCase() === 'authorization')) return undefined;
  const { lazyCliAuth } = await import('./lazy-auth.js');
  const serverUrl = target.kind === 'failover' ? target.http : target.url;
  return lazyCliAuth({ serverUrl, terminal, noBrowser: options.noBrowser });
}

/** Headers travel only over HTTP, WebSocket and gRPC (as metadata); environment variables only reach a spawned server. */
function checkOptionsFitTarget({ target, options, command }: OpenSessionOptions): void {
  if (target.kind === 'stdio' && Object.keys(options.headers).length > 0) {
    throw new UsageError(
      '-H/--header applies to URL targets (so does --token); a stdio server gets -e KEY=VALUE instead',
      {
        command,
      },
    );
  }
  if (target.kind !== 'stdio' && Object.keys(options.env).length > 0) {
    throw new UsageError('-e/--env applies to stdio servers (-- <command>); a URL target gets -H headers', {
      command,
    });
  }
  const wanted = options.transport;
  const fits =
    wanted === undefined ||
    (wanted === 'stdio' && target.kind === 'stdio') ||
    (wanted === 'ws' && (target.kind === 'ws' || target.kind === 'failover')) ||
    ((wanted === 'http' || wanted === 'sse') && target.kind === 'http');
  if (!fits) {
    throw new UsageError(`--transport ${wanted} does not fit the target ${describeTarget(target)}`, {
      command,
    });
  }
}

/**
 * Gives up on `promise` after `ms`, or when `signal` aborts. While `paused()` (the user is at the
 * authorization server, which has its own time limit) the clock starts over.
 */
async function withTimeout(
  promise: Promise<void>,
  options: { ms: number; what: string; signal: AbortSignal; paused?: (() => boolean) | undefined },
): Promise<void> {
  const { ms, what, signal, paused } = options;
  let timer: ReturnType<typeof setTimeout> | undefined;
  let onAbort: (() => void) | undefined;
  const timeout = new Promise<never>((_, reject) => {
    const expire = (): void => {
      if (paused?.() === true) timer = setTimeout(expire, ms);
      else reject(new ConnectError(`timed out after ${ms} ms connecting to ${what}`));
    };
    timer = setTimeout(expire, ms);
    onAbort = () => reject(new ConnectError(`interrupted while connecting to ${what}`));
    if (signal.aborted) onAbort();
    else signal.addEventListener('abort', onAbort, { once: true });
  });
  try {
    await Promise.race([promise, timeout]);
  } finally {
    clearTimeout(timer);
    if (onAbort !== undefined) signal.removeEventListener('abort', onAbort);
  }
}

/** An HTTP 4xx the transport attached to the error (a refused POST), directly or as a cause. */
function isHttpRefusal(error: unknown): boolean {
  for (let link = error, depth = 0; typeof link === 'object' && link !== null && depth < 8; depth++) {
    const status = (link as { status?: unknown }).status;
    if (typeof status === 'number' && status >= 400 && status < 500) return true;
    link = (link as { cause?: unknown }).cause;
  }
  return false;
}
