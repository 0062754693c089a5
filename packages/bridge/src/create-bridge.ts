import type { Implementation, Transport } from '@x/protocol/core';
import { connectUpstream } from './connect-upstream.js';
import { DEFAULT_MAX_IN_FLIGHT_REQUESTS, DEFAULT_UPSTREAM_CONNECT_TIMEOUT_MS } from './constants.js';
import { type Pipe, pipeTransports } from './pipe-transports.js';
import { TranslatingSession } from './translating-session.js';
import { UpstreamLink } from './upstream-link.js';

/**
 * Options of `createBridge`.
 *
 * @example
 * ```ts
 * const options: BridgeOptions = {
 *   upstream: () => new StdioClientTransport({ command: 'node', args: ['server.js'] }),
 *   upstreamName: 'node server.js',
 *   upstreamConnectTimeoutMs: 10_000,
 * };
 * ```
 */
export interface BridgeOptions {
  /**
   * Opens a fresh upstream transport; called once per downstream session (a stdio command is spawned per
   * session, a URL connected per session), so no two downstream clients share an upstream.
   */
  upstream: () => Transport | Promise<Transport>;
  /** Names the upstream in errors (`data.name`). Default `'upstream'`. */
  upstreamName?: string | undefined;
  /**
   * `'translate'` (default): a `Server` per session in front of an upstream `Client`, so either era
   * downstream reaches either era upstream. `'raw'`: `pipeTransports`, messages unchanged (both ends must
   * speak the same revision; nothing is parsed beyond the JSON-RPC envelope).
   */
  mode?: 'translate' | 'raw' | undefined;
  /**
   * How long opening and connecting an upstream may take (spawn + `initialize`, or `server/discover`);
   * past it the session is refused with -32000 naming this option. Default
   * `DEFAULT_UPSTREAM_CONNECT_TIMEOUT_MS` (30 s).
   */
  upstreamConnectTimeoutMs?: number | undefined;
  /** Raw mode's bound (see `pipeTransports`). */
  maxQueuedMessages?: number | undefined;
  /**
   * Raw mode: see `pipeTransports`. With `shared`: requests waiting their turn for the shared upstream;
   * past it a request is answered with -32000 naming this option. Default
   * `DEFAULT_MAX_IN_FLIGHT_REQUESTS` (1 000).
   */
  maxInFlightRequests?: number | undefined;
  /**
   * One upstream for every downstream session instead of one each (translate mode only): opened by the
   * first session, kept, opened again once lost, closed by `bridge.close()`. Safe only for 2026-07-28
   * (stateless) downstream clients, so a legacy `initialize` is refused with -32600 naming `shared`.
   * Requests go upstream one at a time, so an elicitation, sampling or roots request (and a log) the
   * upstream sends during one reaches the client that sent it and no other; the price is concurrency.
   * Default false.
   */
  shared?: boolean | undefined;
  /** The `clientInfo` the bridge shows upstream. Default `{ name: 'x-mcp-bridge', version: '0.0.0' }`. */
  clientInfo?: Implementation | undefined;
  /** The `serverInfo` the bridge shows downstream (translate mode). Default: the upstream's. */
  serverInfo?: Implementation | undefined;
  /**
   * Faults that reach no request: failed sends, dropped notifications, upstreams that could not connect,
   * an upstream process that crashed (a `ServerExitError` from `@x/transport-stdio`).
   */
  onerror?: ((error: Error) => void) | undefined;
  /**
   * An upstream that reconnects by itself is back, its session re-established: a stdio server
   * restarted after a crash (`new StdioClientTransport({ …, restart: true })`), a WebSocket client with
   * `reconnect`, a `FailoverTransport` that moved on. By then the upstream `Client` has re-initialized
   * and re-subscribed to the resources this session's downstream subscribed to; the downstream session
   * stays open (the request in flight when the upstream died got -32000 naming the upstream).
   */
  onupstreamreconnect?: ((event: UpstreamReconnect) => void) | undefined;
}

/**
 * What `onupstreamreconnect` is told: which upstream came back, and for which downstream session.
 *
 * @example
 * ```ts
 * createBridge({ upstream, onupstreamreconnect: ({ upstreamName }) => console.error(`${upstreamName} restarted`) });
 * ```
 */
export interface UpstreamReconnect {
  readonly upstreamName: string;
  /** The session whose upstream it is; undefined for a `shared` upstream (it serves every session). */
  readonly session: BridgeSession | undefined;
}

/**
 * One downstream session and the upstream connection opened for it.
 *
 * @example
 * ```ts
 * const session = await bridge.connect(downstream);
 * await session.closed; // the downstream left, or the upstream was lost
 * ```
 */
export interface BridgeSession {
  /** Settles once both sides are closed. */
  readonly closed: Promise<void>;
  close(): Promise<void>;
}

/**
 * A bridge: hand it each downstream transport (a stdio server transport, each Streamable HTTP / SSE /
 * WebSocket session) and it opens that session's own upstream.
 *
 * @example
 * ```ts
 * await using bridge = createBridge({ upstream: () => new StdioClientTransport({ command: 'my-server' }) });
 * ```
 */
export interface Bridge extends AsyncDisposable {
  /**
   * Opens an upstream for `downstream` and serves it; resolves once both are connected. When the upstream
   * cannot be reached, every request the downstream sent is answered with -32000 naming the upstream, the
   * downstream is closed, and the promise rejects with that error.
   */
  connect(downstream: Transport): Promise<BridgeSession>;
  /** Sessions open now. */
  readonly sessions: ReadonlySet<BridgeSession>;
  /** Closes every session (and so every upstream). */
  close(): Promise<void>;
}

/**
 * Creates a bridge that puts an upstream MCP server (any transport, any era) in front of downstream
 * clients (any transport, any era), one upstream connection per downstream session.
 *
 * @example
 * ```ts
 * import { createStreamableHttpHandler } from '@x/transport-streamable-http';
 * import { toNodeHandler } from '@x/transport-streamable-http/node';
 * import { StdioClientTransport } from '@x/transport-stdio';
 *
 * const bridge = createBridge({
 *   upstream: () => new StdioClientTransport({ command: 'npx', args: ['@modelcontextprotocol/server-everything'] }),
 * });
 * const handler = createStreamableHttpHandler({ onsession: (transport) => bridge.connect(transport) });
 * createServer(toNodeHandler(handler)).listen(3000);
 * ```
 */
export function createBridge(options: BridgeOptions): Bridge {
  const sessions = new Set<BridgeSession>();
  const name = options.upstreamName ?? 'upstream';
  const timeoutMs = options.upstreamConnectTimeoutMs ?? DEFAULT_UPSTREAM_CONNECT_TIMEOUT_MS;
  if (!(timeoutMs > 0)) throw new RangeError('upstreamConnectTimeoutMs must be a positive number');
  const report = (error: Error): void => options.onerror?.(error);
  const shared = options.shared === true;
  if (shared && options.mode === 'raw') {
    throw new RangeError('shared needs the translate mode: a raw pipe cannot tell whose messages are whose');
  }

  const track = (session: BridgeSession): BridgeSession => {
    sessions.add(session);
    void session.closed.then(() => sessions.delete(session));
    return session;
  };

  const connectRaw = async (downstream: Transport): Promise<BridgeSession> => {
    const upstream = await Promise.resolve().then(options.upstream);
    const pipe: Pipe = await pipeTransports(downstream, upstream, {
      upstreamName: name,
      maxQueuedMessages: options.maxQueuedMessages,
      maxInFlightRequests: options.maxInFlightRequests,
      onerror: report,
    });
    return track({ closed: pipe.closed, close: () => pipe.close() });
  };

  const clientInfo = options.clientInfo ?? { name: 'x-mcp-bridge', version: '0.0.0' };
  const maxWaitingRequests = options.maxInFlightRequests ?? DEFAULT_MAX_IN_FLIGHT_REQUESTS;
  const openLink = async (reconnected: () => void): Promise<UpstreamLink> => {
    const client = await connectUpstream({
      open: options.upstream,
      name,
      timeoutMs,
      clientInfo,
      onreconnect: reconnected,
    });
    return new UpstreamLink(client, {
      upstreamName: name,
      shared,
      maxWaitingRequests,
      connectTimeoutMs: timeoutMs,
      report,
    });
  };

  /** The one upstream of a shared bridge: opened by the first session, opened again once lost. */
  let sharedLink: Promise<UpstreamLink> | undefined;
  const linkShared = (): Promise<UpstreamLink> => {
    if (sharedLink !== undefined) return sharedLink;
    const opening = openLink(() => options.onupstreamreconnect?.({ upstreamName: name, session: undefined }));
    sharedLink = opening;
    const forget = (): void => {
      if (sharedLink === opening) sharedLink = undefined;
    };
    opening.then((link) => link.lost.then(forget), forget);
    return opening;
  };

  const connectTranslating = async (downstream: Transport): Promise<BridgeSession> => {
    // Known once the session exists; a reconnect cannot come before the first handshake is done.
    let session: TranslatingSession | undefined;
    let link: UpstreamLink;
    try {
      link = shared
        ? await linkShared()
        : await openLink(() => {
            if (session !== undefined) options.onupstreamreconnect?.({ upstreamName: name, session });
          });
    } catch (error) {
      report(error as Error);
      await refuse(downstream, error as Error);
      throw error;
    }
    session = new TranslatingSession(link, { upstreamName: name, info: options.serverInfo });
    await session.serve(downstream);
    return track(session);
  };

  const connect = options.mode === 'raw' ? connectRaw : connectTranslating;
  const close = async (): Promise<void> => {
    await Promise.allSettled([...sessions].map((session) => session.close()));
    const link = sharedLink;
    sharedLink = undefined;
    await link?.then((opened) => opened.close()).catch(() => undefined);
  };
  return { connect, sessions, close, [Symbol.asyncDispose]: close };
}

/** Answers every request `downstream` sends with `error`, then closes it (no upstream to serve it). */
async function refuse(downstream: Transport, error: Error): Promise<void> {
  const wire =
    'toJSON' in error && typeof error.toJSON === 'function'
      ? error.toJSON()
      : { code: -32000, message: error.message };
  const answers: Promise<void>[] = [];
  downstream.onmessage = (message) => {
    if ('method' in message && 'id' in message) {
      answers.push(downstream.send({ jsonrpc: '2.0', id: message.id, error: wire }).catch(() => undefined));
    }
  };
  try {
    await downstream.start();
  } catch {
    return;
  }
  // Messages held by the transport are delivered on start; let them arrive, then answer and close.
  await new Promise<void>((resolve) => setTimeout(resolve, 0));
  await Promise.all(answers);
  await downstream.close().catch(() => undefined);
}
