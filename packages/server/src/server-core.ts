import {
  type ChangeNotice,
  ErrorCode,
  isLegacyProtocolVersion,
  LEGACY_PROTOCOL_VERSIONS,
  McpError,
  MetaKey,
  MODERN_PROTOCOL_VERSIONS,
  type ProtocolOptions,
  type ResolvedHeartbeat,
  type ServerCapabilities,
} from '@x/protocol/core';
import {
  InterceptorChain,
  isDeferredUnloaded,
  type ParamsParser,
  realSchema,
  resolveHeartbeat,
  resolveRequestLimits,
} from '@x/protocol/internal';
import { capabilityOf, isMethodDeclared } from './capability-methods.js';
import { RequestStateCodec } from './modern/request-state.js';
import type { ServerContext } from './server-context.js';
import {
  type CacheHint,
  DEFAULT_MAX_SUBSCRIPTIONS,
  type ServerInfo,
  type ServerOptions,
} from './server-options.js';
import type { ServerSession } from './session/server-session.js';
import { ServerTasks, TASKS_REVISION } from './tasks/server-tasks.js';

/**
 * Anything with zod's `safeParse`: the method schemas of @x/protocol, or a user's zod schema.
 *
 * @example
 * ```ts
 * // Any zod schema fits; so do the request schemas of @x/protocol.
 * const AddParams: ParamsSchema<{ a: number; b: number }> = z.object({ a: z.number(), b: z.number() });
 * server.setRequestHandler('math/add', AddParams, ({ a, b }) => ({ sum: a + b }));
 * ```
 */
export type ParamsSchema<P> = ParamsParser<P>;

/**
 * Answers one request method of the low-level `Server`: validated params in, a result object out (throw `McpError` to fail).
 *
 * @example
 * ```ts
 * const listTools: ServerRequestHandler = (params, ctx) => {
 *   if (ctx.signal.aborted) throw new McpError(ErrorCode.RequestTimeout, 'cancelled');
 *   return { tools: [{ name: 'echo', inputSchema: { type: 'object' } }] };
 * };
 * server.setRequestHandler('tools/list', listTools);
 * ```
 */
export type ServerRequestHandler<P = Record<string, unknown>> = (
  params: P,
  ctx: ServerContext,
) => object | Promise<object>;

/**
 * Handles one client notification method of the low-level `Server`; `session` is the connection it came on.
 *
 * @example
 * ```ts
 * const onRootsChanged: ServerNotificationHandler = (params, session) => {
 *   console.log('roots changed for', session.clientInfo?.name ?? 'a client');
 * };
 * server.setNotificationHandler('notifications/roots/list_changed', onRootsChanged);
 * ```
 */
export type ServerNotificationHandler = (
  params: Record<string, unknown>,
  session: ServerSession,
) => void | Promise<void>;

interface HandlerEntry extends Route {
  /** Whether the server declares the method's capability; kept current by `registerCapabilities`. */
  declared: boolean;
}

/** A change that subscribed sessions hear about. */
export type ChangeEvent = Exclude<ChangeNotice, { kind: 'taskCancel' | 'taskInput' }>;

/** One connection as the server keeps it (its session engine): what broadcasts and `close()` need. */
export interface CoreSession {
  readonly session: ServerSession;
  deliver(event: ChangeEvent): void;
  close(): Promise<void>;
}

/** One entry of the routing table: the handler of a method and its params schema. */
export interface Route {
  readonly schema: ParamsSchema<unknown> | undefined;
  readonly handler: ServerRequestHandler<unknown>;
}

/**
 * The state every session of one server shares: handler tables, capabilities, versions, the
 * requestState key. A session holds a reference to it, which is what keeps `connect()` O(1).
 * Internal: the public face is `Server`.
 */
export class ServerCore {
  readonly info: ServerInfo;
  readonly instructions: string | undefined;
  readonly legacyVersions: readonly string[];
  readonly modernVersions: readonly string[];
  /** Whether any legacy (`initialize`-era) revision is served; read on every request. */
  readonly servesLegacy: boolean;
  /** Whether any 2026-07-28-era revision is served. */
  readonly servesModern: boolean;
  /** Newest first, both eras: what `server/discover` and -32022 list. */
  readonly supportedVersions: readonly string[];
  readonly discoverCache: CacheHint;
  /** `options.maxSubscriptions` or its default. */
  readonly maxSubscriptions: number;
  readonly options: ServerOptions;
  /** `{ 'io.modelcontextprotocol/serverInfo': info }`, shared by every modern result. */
  readonly serverInfoMeta: Record<string, unknown> | undefined;
  readonly sessions = new Set<CoreSession>();
  /** `Server.use()`'s interceptors, shared by every session's engine (so `use()` reaches open ones). */
  readonly interceptors = new InterceptorChain();
  /** The engine options of every session: built once, not per session (a stateless server makes many). */
  readonly engineOptions: ProtocolOptions;
  /** `options.heartbeat` resolved: started on each legacy session once it is initialized. */
  readonly heartbeat: ResolvedHeartbeat | undefined;
  /** Experimental tasks, when `options.tasks` enabled them. */
  readonly tasks: ServerTasks | undefined;
  readonly #handlers = new Map<string, HandlerEntry>();
  readonly #notificationHandlers = new Map<string, ServerNotificationHandler>();
  #capabilities: ServerCapabilities;
  #codec: RequestStateCodec | undefined;
  onerror: ((error: Error) => void) | undefined;
  /** Set by `Server` once it subscribes to `options.fanOut`: notices are published after it. */
  fanOutReady: Promise<unknown> | undefined;

  constructor(info: ServerInfo, options: ServerOptions) {
    this.info = info;
    this.options = options;
    this.instructions = options.instructions;
    const eras = options.eras ?? 'both';
    // Only revisions whose method sets are known can be served (methodsOf).
    this.legacyVersions =
      eras === 'modern'
        ? []
        : (options.legacyVersions ?? LEGACY_PROTOCOL_VERSIONS).filter(isLegacyProtocolVersion);
    this.modernVersions = eras === 'legacy' ? [] : (options.modernVersions ?? MODERN_PROTOCOL_VERSIONS);
    this.servesLegacy = this.legacyVersions.length > 0;
    this.servesModern = this.modernVersions.length > 0;
    this.supportedVersions = [...this.modernVersions, ...this.legacyVersions];
    this.discoverCache = options.discoverCache ?? { ttlMs: 0, cacheScope: 'public' };
    this.maxSubscriptions = options.maxSubscriptions ?? DEFAULT_MAX_SUBSCRIPTIONS;
    this.serverInfoMeta =
      options.serverInfoInResults === false ? undefined : { [MetaKey.ServerInfo]: infoOnly(info) };
    this.#capabilities = { ...options.capabilities };
    const engine = options.protocol;
    this.engineOptions = {
      ...engine,
      ping: false,
      priority: options.priority ?? engine?.priority,
      maxConcurrentRequests: options.maxConcurrentRequests ?? engine?.maxConcurrentRequests,
      maxQueuedRequests: options.maxQueuedRequests ?? engine?.maxQueuedRequests,
    };
    // Checked here, once: a bad limit fails `new Server()`, not each session's start.
    resolveRequestLimits(this.engineOptions);
    this.heartbeat = resolveHeartbeat(options.heartbeat);
    this.tasks =
      options.tasks === undefined
        ? undefined
        : new ServerTasks(
            options.tasks,
            (error) => this.report(error),
            (notice) => this.announce(notice),
          );
  }

  get capabilities(): ServerCapabilities {
    return this.#capabilities;
  }

  /**
   * The capabilities `initialize` declares for `version`: `tasks` exists in 2025-11-25 only, so it is
   * added there when tasks are enabled and removed from every other revision (their schemas lack it).
   */
  capabilitiesFor(version: string): ServerCapabilities {
    const capabilities = this.#capabilities;
    if (version === TASKS_REVISION && this.tasks !== undefined) {
      return { ...capabilities, tasks: this.tasks.capability(capabilities) };
    }
    if (capabilities.tasks === undefined) return capabilities;
    const { tasks: _tasks, ...rest } = capabilities;
    return rest;
  }

  get requestStates(): RequestStateCodec {
    this.#codec ??= new RequestStateCodec(this.options.requestState);
    return this.#codec;
  }

  /** Merges capabilities in (shallowly per capability). Legacy sessions see them from their next initialize. */
  registerCapabilities(capabilities: ServerCapabilities): void {
    const merged: Record<string, unknown> = { ...this.#capabilities };
    for (const [key, value] of Object.entries(capabilities)) {
      const previous = merged[key];
      merged[key] =
        typeof previous === 'object' && previous !== null && typeof value === 'object' && value !== null
          ? { ...previous, ...value }
          : value;
    }
    this.#capabilities = merged as ServerCapabilities;
    for (const [method, entry] of this.#handlers)
      entry.declared = isMethodDeclared(method, this.#capabilities);
  }

  setRequestHandler(
    method: string,
    schema: ParamsSchema<unknown> | undefined,
    handler: ServerRequestHandler<unknown>,
  ): void {
    if (!isMethodDeclared(method, this.#capabilities)) {
      throw new Error(
        `Cannot handle ${method}: the server does not declare the "${capabilityOf(method)}" capability`,
      );
    }
    // A lazily built @x/protocol schema is resolved once here, not through its facade per request; a
    // deferred one (zod loaded only for a value its check refuses) stays as it is: `parseParams` loads it.
    const route = isDeferredUnloaded(schema) ? schema : realSchema(schema);
    this.#handlers.set(method, { schema: route, handler, declared: true });
  }

  removeRequestHandler(method: string): boolean {
    return this.#handlers.delete(method);
  }

  hasRequestHandler(method: string): boolean {
    return this.#handlers.has(method);
  }

  setNotificationHandler(method: string, handler: ServerNotificationHandler): void {
    this.#notificationHandlers.set(method, handler);
  }

  notificationHandler(method: string): ServerNotificationHandler | undefined {
    return this.#notificationHandlers.get(method);
  }

  /**
   * The routing table's entry for `method` (-32601 when there is none, or its capability is not
   * declared). The era module that accepted the request calls `route.handler` itself, with
   * `parseParams(route.schema, params, method)`: one lookup, no extra hop.
   */
  route(method: string): Route {
    const entry = this.#handlers.get(method);
    if (entry === undefined || !entry.declared) {
      throw new McpError(ErrorCode.MethodNotFound, `Method not found: ${method}`);
    }
    return entry;
  }

  /**
   * Tells every process: through `options.fanOut` once `Server` subscribed to it (`fanOutReady`), so
   * this process hears its own notices there too; directly without a fan-out.
   */
  announce(notice: ChangeNotice): void {
    const ready = this.fanOutReady;
    const fanOut = this.options.fanOut;
    if (ready === undefined || fanOut === undefined) {
      this.receive(notice);
      return;
    }
    ready.then(() => fanOut.publish(notice)).catch((error: unknown) => this.report(error));
  }

  /** A notice from any process: changes go to the sessions, task controls to the task running here. */
  receive(notice: ChangeNotice): void {
    if (notice.kind === 'taskCancel') {
      this.tasks?.receiver
        .adoptCancel(notice.taskId, notice.owner)
        .catch((error: unknown) => this.report(error));
    } else if (notice.kind === 'taskInput') {
      this.tasks?.extension
        .receiveInput(notice.taskId, notice.inputResponses)
        ?.catch((error: unknown) => this.report(error));
    } else {
      if (notice.kind === 'task') this.tasks?.extension.observe(notice.task);
      this.broadcast(notice);
    }
  }

  /** Tells every session that wants to know (legacy sessions and modern listeners alike). */
  broadcast(event: ChangeEvent): void {
    for (const session of this.sessions) session.deliver(event);
  }

  /** -32600 for a subscription past `maxSubscriptions`: the error names the option and its value. */
  tooManySubscriptions(what: string): McpError {
    return new McpError(
      ErrorCode.InvalidRequest,
      `${what} exceeds maxSubscriptions (${this.maxSubscriptions}) for this session; unsubscribe first`,
    );
  }

  report(error: unknown): void {
    try {
      this.onerror?.(error instanceof Error ? error : new Error(String(error)));
    } catch {
      // nowhere left to report to
    }
  }
}

function infoOnly(info: ServerInfo): ServerInfo {
  const { name, version, title, description, websiteUrl, icons } = info;
  const out: ServerInfo = { name, version };
  if (title !== undefined) out.title = title;
  if (description !== undefined) out.description = description;
  if (websiteUrl !== undefined) out.websiteUrl = websiteUrl;
  if (icons !== undefined) out.icons = icons;
  return out;
}
