import type {
  CacheScope,
  ClientCapabilities,
  HeartbeatOptions,
  Implementation,
  PriorityFunction,
  ProtocolOptions,
  ServerCapabilities,
  SessionStore,
  SubscriptionFanOut,
} from '@x/protocol/core';
import type { RequestStateOptions } from './modern/request-state.js';
import type { ServerTaskOptions } from './tasks/server-tasks.js';

/**
 * Who the server is (`serverInfo` on legacy, `_meta` `io.modelcontextprotocol/serverInfo` on
 * 2026-07-28): name, version and optionally title, description, websiteUrl, icons.
 *
 * @example
 * ```ts
 * const info: ServerInfo = {
 *   name: 'files',
 *   version: '1.2.0',
 *   title: 'Project files',
 *   websiteUrl: 'https://example.com',
 * };
 * const server = new McpServer(info);
 * ```
 */
export type ServerInfo = Implementation;

/**
 * Which protocol eras a server answers (DESIGN §4).
 *
 * @example
 * ```ts
 * // Refuse `initialize`: only 2026-07-28 (stateless) clients are served.
 * const eras: ServedEras = 'modern';
 * const server = new McpServer({ name: 'edge', version: '1.0.0' }, { eras });
 * ```
 */
export type ServedEras = 'both' | 'legacy' | 'modern';

/**
 * `ttlMs`/`cacheScope` of a cacheable 2026-07-28 result (spec: server/utilities/caching).
 *
 * @example
 * ```ts
 * // Clients may reuse this resource for a minute, and share it across users.
 * server.registerResource(
 *   'changelog',
 *   'docs://changelog',
 *   { mimeType: 'text/markdown', cache: { ttlMs: 60_000, cacheScope: 'public' } },
 *   (uri) => ({
 *     contents: [{ uri, text: '# Changelog' }],
 *   }),
 * );
 * ```
 */
export interface CacheHint {
  ttlMs: number;
  cacheScope: CacheScope;
}

/**
 * Default of `ServerOptions.maxSubscriptions`: resource subscriptions one session may hold. A client
 * watches a handful of resources; a thousand leaves room and bounds what one connection can make the
 * server remember (200,000 subscriptions to made-up URIs held 62 MB before there was a cap).
 *
 * @example
 * ```ts
 * new McpServer(info, { maxSubscriptions: DEFAULT_MAX_SUBSCRIPTIONS * 10 });
 * ```
 */
export const DEFAULT_MAX_SUBSCRIPTIONS = 1000;

/**
 * Options of the low-level `Server` (and of `McpServer`, which passes them on).
 *
 * @example
 * ```ts
 * new Server({ name: 'files', version: '1.0.0' }, {
 *   capabilities: { tools: { listChanged: true } },
 *   instructions: 'Read-only access to the project tree.',
 *   eras: 'both',
 * });
 * ```
 */
export interface ServerOptions {
  /** Declared up front; `registerCapabilities()` adds more later. Default `{}`. */
  capabilities?: ServerCapabilities | undefined;
  instructions?: string | undefined;
  /** Default `'both'`: `initialize` starts a legacy session, modern `_meta` is served statelessly. */
  eras?: ServedEras | undefined;
  /** Legacy revisions offered in `initialize`, newest first. Default: all four. */
  legacyVersions?: readonly string[] | undefined;
  /** Modern revisions accepted in `_meta`, newest first. Default `['2026-07-28']`. */
  modernVersions?: readonly string[] | undefined;
  /** Integrity protection of 2026-07-28 `requestState`. */
  requestState?: RequestStateOptions | undefined;
  /** Cache hint of `server/discover`. Default `{ ttlMs: 0, cacheScope: 'public' }`. */
  discoverCache?: CacheHint | undefined;
  /** Add `io.modelcontextprotocol/serverInfo` to every 2026-07-28 result's `_meta`. Default true. */
  serverInfoInResults?: boolean | undefined;
  /**
   * Experimental tasks (2025-11-25 only): task-augmented `tools/call`, `tasks/get|result|list|cancel`
   * and the `tasks` capability for sessions that negotiated 2025-11-25. Default: off.
   */
  tasks?: ServerTaskOptions | undefined;
  /**
   * Most resource subscriptions one session may hold: legacy `resources/subscribe` URIs; on 2026-07-28
   * the open `subscriptions/listen` streams of a connection, each counting one plus one per URI in its
   * `resourceSubscriptions`. Past it a request is refused with -32600 naming this option. Default 1000
   * (`DEFAULT_MAX_SUBSCRIPTIONS`).
   */
  maxSubscriptions?: number | undefined;
  /**
   * The MCP-level heartbeat towards each legacy session's client (`HeartbeatOptions`): `ping` every
   * `intervalMs`; `maxMisses` unanswered in a row (each waiting `timeoutMs`) close that session's
   * transport with a `HeartbeatTimeoutError`. Started once a session ran `initialize`; never on
   * stateless HTTP requests or 2026-07-28 requests (that era has no server→client requests, so no
   * ping). Default off: the network server transports watch their links already (`keepAliveMs`).
   * `true` for `DEFAULT_HEARTBEAT`.
   */
  heartbeat?: boolean | HeartbeatOptions | undefined;
  /**
   * Moves messages between classes (`MessagePriority`: urgent, normal, bulk; issue #42): where a
   * client's request waits when `maxConcurrentRequests` handlers run, and the class its answer, and
   * every notification and request of the server, is sent in. Return undefined for the default. A
   * tool's name is in `params.name` of its `tools/call`:
   * `(m) => (m.method === 'tools/call' && m.params?.['name'] === 'export' ? 'bulk' : undefined)`.
   * See `ProtocolOptions.priority`.
   */
  priority?: PriorityFunction | undefined;
  /**
   * Handlers of normal and bulk requests one session runs at once; more wait in a queue, normal
   * before bulk, oldest first. Urgent requests (`ping`, `initialize`, `tasks/cancel`, and what
   * `priority` makes urgent) never wait; a cancelled waiting request is dropped before it runs.
   * Default `DEFAULT_MAX_CONCURRENT_REQUESTS` (no limit: `subscriptions/listen` streams and other
   * long-lived requests hold a slot each). See `ProtocolOptions.maxConcurrentRequests`.
   */
  maxConcurrentRequests?: number | undefined;
  /**
   * Requests one session may hold waiting; past it a request is answered -32600 naming this option.
   * Default `DEFAULT_MAX_QUEUED_REQUESTS` (1 000).
   */
  maxQueuedRequests?: number | undefined;
  /**
   * Engine options of every session (timeouts of server→client requests). `priority`,
   * `maxConcurrentRequests` and `maxQueuedRequests` given at the top level win over these.
   */
  protocol?: Omit<ProtocolOptions, 'ping' | 'heartbeat'> | undefined;
  /**
   * Shared legacy session state, for several processes behind one endpoint (DESIGN §9): the handshake
   * outcome, log level and resource subscriptions are written here before the request that set them
   * is answered, and a connection whose transport names a session this process has never seen is
   * served from it. Give the Streamable HTTP handler the same store. Default: none (one process).
   */
  sessionStore?: SessionStore | undefined;
  /**
   * Carries list changes and resource updates to every process (DESIGN §9): `sendToolListChanged()`
   * and friends publish here, and every notice heard here reaches this server's sessions and
   * `subscriptions/listen` streams. Default: none (changes reach this process's sessions directly).
   */
  fanOut?: SubscriptionFanOut | undefined;
  /**
   * How long one call of `sessionStore`, `fanOut` or `tasks.store` may take (ms). Past it the request
   * that waits for it fails with an error naming the store and this option (e.g. "The session store did
   * not answer within 2000 ms (storeTimeoutMs)"), so a store that stops answering (a frozen Redis)
   * never holds requests open. `Infinity` turns it off. Default 2 000 (`DEFAULT_STORE_TIMEOUT_MS`);
   * give the Streamable HTTP handler the same value.
   */
  storeTimeoutMs?: number | undefined;
}

/**
 * Per-connection options of `Server.connect()`.
 *
 * @example
 * ```ts
 * // A stateless legacy HTTP request: no initialize on this connection, version from the header.
 * await server.connect(transport, { legacySession: { protocolVersion: '2025-06-18' } });
 * ```
 */
export interface ConnectOptions {
  /**
   * Serve the connection as an already initialized legacy session, for transports that handle each
   * legacy request on a fresh connection (stateless Streamable HTTP) and so never see `initialize`.
   */
  legacySession?:
    | {
        protocolVersion: string;
        capabilities?: ClientCapabilities | undefined;
        clientInfo?: Implementation | undefined;
      }
    | undefined;
}
