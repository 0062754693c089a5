import {
  type CallToolRequestParams,
  type CallToolResult,
  type CancelTaskResult,
  type CreateTaskResult,
  type ClientRequestMap,
  type ClientRequestMethod,
  type CompleteRequestParams,
  type CompleteResult,
  ConnectionClosedError,
  type DiscoverResult,
  type EmptyResult,
  type Era,
  type GetPromptRequestParams,
  type GetPromptResult,
  type GetTaskResult,
  type Implementation,
  type Interceptor,
  type ListPromptsResult,
  type ListResourcesResult,
  type ListResourceTemplatesResult,
  type ListTasksResult,
  type ListToolsResult,
  type LoggingLevel,
  type PaginatedRequestParams,
  type Prompt,
  type ProtocolVersion,
  type ReadResourceRequestParams,
  type ReadResourceResult,
  type Resource,
  type ResourceTemplate,
  type ServerCapabilities,
  type SubscriptionFilter,
  type Task,
  type Tool,
  type Transport,
} from '@x/protocol/core';
import { ClientEngine } from './client-engine.js';
import { type ClientEventListener, type ClientEventName, ClientEvents } from './client-events.js';
import {
  ClientHandlers,
  type ElicitationHandler,
  type ElicitationModes,
  type RootsHandler,
  type SamplingHandler,
} from './client-handlers.js';
import { wireNotifications } from './client-notifications.js';
import { heartbeatProbe } from './heartbeat-probe.js';
import {
  type ClientOptions,
  type ClientRequestOptions,
  type ConnectOptions,
  DEFAULT_MAX_INPUT_ROUNDS,
  DEFAULT_MAX_PAGES,
  DEFAULT_PROBE_TIMEOUT_MS,
} from './client-options.js';
import { Connector } from './connect/connector.js';
import { InMemoryEraCache } from './connect/era-cache.js';
import { loadDefaultJsonSchemaCompiler } from './default-json-schema-compiler.js';
import type { EraSession } from './era-session.js';
import { ClientTasks } from './legacy/client-tasks.js';
import { registerServerRequests } from './legacy/server-requests.js';
import { type TaskCallOptions, TaskRequestor, type TaskRunOptions } from './legacy/task-requestor.js';
import { ListAccess } from './list-access.js';
import { ListRefresher } from './list-refresher.js';
import { RequestEnvelope } from './modern/request-envelope.js';
import type { Subscription } from './modern/subscription.js';
import { SubscriptionRegistry } from './modern/subscription-registry.js';
import { ResultCache } from './result-cache.js';
import { resolveRetry } from './retry/retry-options.js';
import { ToolRegistry } from './tool-registry.js';

/**
 * An MCP client for every revision: it negotiates the era on `connect()` (2026-07-28 per-request `_meta`,
 * or the `initialize` handshake of 2024-11-05 … 2025-11-25) and then offers the same typed API on both.
 *
 * @example
 * ```ts
 * const client = new Client({ name: 'my-app', version: '1.0.0' });
 * client.setElicitationHandler(async (params) => ({ action: 'accept', content: { name: 'Ada' } }));
 * await client.connect(transport);
 * const { tools } = await client.listTools();
 * const result = await client.callTool({ name: tools[0]!.name, arguments: {} });
 * await client.close();
 * ```
 */
export class Client {
  /** Non-fatal faults: transport errors, throwing listeners, failed auto-refreshes. */
  onerror?: ((error: Error) => void) | undefined;
  /** The negotiated connection ended. */
  onclose?: (() => void) | undefined;

  readonly #engine: ClientEngine;
  readonly #handlers: ClientHandlers;
  readonly #envelope: RequestEnvelope;
  readonly #events: ClientEvents;
  readonly #tools: ToolRegistry;
  readonly #cache = new ResultCache();
  readonly #lists: ListAccess;
  readonly #subscriptions = new SubscriptionRegistry();
  readonly #refresher: ListRefresher;
  readonly #connector: Connector;
  readonly #tasks: TaskRequestor;
  readonly #receiver: ClientTasks | undefined;
  #session: EraSession | undefined;
  /** Legacy `resources/subscribe` URIs, re-sent after the transport re-established the connection. */
  readonly #subscribed = new Set<string>();

  constructor(clientInfo: Implementation, options: ClientOptions = {}) {
    this.#engine = new ClientEngine({
      timeout: options.timeout,
      resetTimeoutOnProgress: options.resetTimeoutOnProgress,
      maxTotalTimeout: options.maxTotalTimeout,
      heartbeat: options.heartbeat,
      priority: options.priority,
      maxConcurrentRequests: options.maxConcurrentRequests,
      maxQueuedRequests: options.maxQueuedRequests,
    });
    this.#engine.heartbeatProbe = (timeoutMs) =>
      heartbeatProbe(this.#session, this.#engine.transport, timeoutMs);
    const receiver = options.tasks === undefined ? undefined : new ClientTasks(options.tasks);
    this.#receiver = receiver;
    this.#handlers = new ClientHandlers(options.capabilities, receiver);
    this.#envelope = new RequestEnvelope(clientInfo, () => this.#handlers.capabilities('modern'));
    this.#envelope.logLevel = options.logLevel;
    this.#events = new ClientEvents(this.#report);
    this.#tools = new ToolRegistry(options.jsonSchemaCompiler, loadDefaultJsonSchemaCompiler);
    this.#lists = new ListAccess({
      session: () => this.#live(),
      cache: this.#cache,
      caching: options.cache ?? true,
      tools: this.#tools,
      maxPages: options.maxPages ?? DEFAULT_MAX_PAGES,
      warn: options.onwarning ?? ((message) => console.warn(`[@x/client] ${message}`)),
    });
    const refresh = options.autoRefresh;
    const refreshes = (kind: 'tools' | 'prompts' | 'resources') =>
      refresh === true || (typeof refresh === 'object' && refresh[kind] === true);
    this.#refresher = new ListRefresher({
      enabled: {
        tools: refreshes('tools'),
        prompts: refreshes('prompts'),
        resources: refreshes('resources'),
      },
      fetchAll: (kind) => this.#lists.all(`${kind}/list`) as never,
      publish: (kind, list) => this.#events.emit(`${kind}ListChanged`, list as never),
      report: this.#report,
    });
    this.#connector = new Connector({
      negotiation: {
        engine: this.#engine,
        envelope: this.#envelope,
        handlers: this.#handlers,
        clientInfo,
        selection: options.protocolVersion ?? 'auto',
        maxInputRounds: options.maxInputRounds ?? DEFAULT_MAX_INPUT_ROUNDS,
        probeTimeout: options.probeTimeout ?? DEFAULT_PROBE_TIMEOUT_MS,
      },
      eraCache: options.eraCache ?? new InMemoryEraCache(),
      reset: () => {
        this.#tools.clear();
        this.#cache.clear();
        this.#refresher.clear();
      },
    });
    this.#tasks = new TaskRequestor({
      session: () => this.#live(),
      tools: this.#tools,
      listTools: () => this.#lists.all('tools/list'),
      maxPages: options.maxPages ?? DEFAULT_MAX_PAGES,
    });
    this.#engine.retry = resolveRetry(options.retry);
    this.#engine.toolIsRepeatable = (name) => this.#tools.isRepeatable(name);
    // Progress of a task-augmented call outlives its tools/call: not an unknown token to the engine.
    this.#engine.expectsProgressToken = (token) => this.#tasks.ownsProgressToken(token);
    this.#engine.onerror = this.#report;
    this.#engine.onclose = this.#onEngineClose;
    registerServerRequests(this.#engine, this.#handlers, receiver);
    receiver?.register(this.#engine);
    wireNotifications(this.#engine, {
      events: this.#events,
      cache: this.#cache,
      refresher: this.#refresher,
      subscriptions: this.#subscriptions,
      tasks: this.#tasks,
    });
  }

  /** The negotiated era, while connected. */
  get era(): Era | undefined {
    return this.#session?.era;
  }

  get protocolVersion(): ProtocolVersion | undefined {
    return this.#session?.protocolVersion;
  }

  /** From `initialize` (legacy) or `server/discover` (modern). */
  get serverCapabilities(): ServerCapabilities | undefined {
    return this.#session?.serverCapabilities;
  }

  get serverInfo(): Implementation | undefined {
    return this.#session?.serverInfo;
  }

  get instructions(): string | undefined {
    return this.#session?.instructions;
  }

  get transport(): Transport | undefined {
    return this.#engine.transport;
  }

  /**
   * Minimum level of server logs on 2026-07-28, sent with every request as `_meta`
   * `io.modelcontextprotocol/logLevel` (without it servers send none). Legacy: use `setLoggingLevel()`.
   */
  get logLevel(): LoggingLevel | undefined {
    return this.#envelope.logLevel;
  }

  set logLevel(level: LoggingLevel | undefined) {
    this.#envelope.logLevel = level;
  }

  /** The last full lists fetched by `autoRefresh`. */
  get cachedTools(): readonly Tool[] | undefined {
    return this.#refresher.snapshot('tools');
  }

  get cachedPrompts(): readonly Prompt[] | undefined {
    return this.#refresher.snapshot('prompts');
  }

  get cachedResources(): readonly Resource[] | undefined {
    return this.#refresher.snapshot('resources');
  }

  /**
   * Connects and negotiates (see `ClientOptions.protocolVersion`). Rejects, with the transport closed,
   * when the server speaks no version this client supports (`NegotiationError`) or the handshake fails.
   */
  async connect(transport: Transport, options: ConnectOptions = {}): Promise<void> {
    this.#subscribed.clear();
    this.#session = await this.#connector.connect(transport, options);
    // After the era session's own hook (a legacy session re-runs `initialize` and holds requests until
    // it is done), so what is re-sent here reaches a server that knows the session again.
    const active = this.#engine.transport;
    if (active !== undefined) {
      const previous = active.onreconnect;
      active.onreconnect = (() => {
        const handshake: unknown = previous?.();
        this.#resync();
        return handshake;
      }) as () => void;
    }
  }

  /** Closes the transport; pending requests reject with `ConnectionClosedError`. */
  async close(): Promise<void> {
    await this.#engine.close();
  }

  /**
   * Installs interceptors around this client's traffic: its requests and the server's responses, the
   * server's requests (sampling, elicitation, roots) and this client's answers, notifications both ways
   * (see `Interceptor`). The first installed is the outermost. Returns what removes them.
   *
   * @example
   * ```ts
   * client.use(roundTripMetrics({ thresholdMs: 500, onAlert: (alert) => console.warn(alert) }));
   * ```
   */
  use(...interceptors: Interceptor[]): () => void {
    return this.#engine.use(...interceptors);
  }

  /** Subscribes to server notifications; returns the unsubscribe function. */
  on<E extends ClientEventName>(event: E, listener: ClientEventListener<E>): () => void {
    return this.#events.on(event, listener);
  }

  /** Answers `sampling/createMessage` (legacy request or modern input request). */
  setSamplingHandler(handler: SamplingHandler | undefined): void {
    this.#handlers.sampling = handler;
    this.#envelope.invalidate();
  }

  /**
   * Answers `elicitation/create`. Omitted fields of an accepted form get the schema's defaults (SEP-1034).
   *
   * @example
   * ```ts
   * client.setElicitationHandler(async (params) => ({ action: 'accept', content: await askUser(params) }), {
   *   form: true,
   *   url: true,
   * });
   * ```
   */
  setElicitationHandler(handler: ElicitationHandler | undefined, modes?: ElicitationModes): void {
    this.#handlers.setElicitation(handler, modes);
    this.#envelope.invalidate();
  }

  /** Answers `roots/list`; on legacy, call `sendRootsListChanged()` when the roots change. */
  setRootsHandler(handler: RootsHandler | undefined): void {
    this.#handlers.roots = handler;
    this.#envelope.invalidate();
  }

  /** `notifications/roots/list_changed` (legacy only; 2026-07-28 removed it). */
  sendRootsListChanged(): Promise<void> {
    return this.#engine.notification({ method: 'notifications/roots/list_changed' });
  }

  /**
   * Any client request by method, typed by the method map (no caches, no output validation).
   *
   * @example
   * ```ts
   * const { completion } = await client.request({
   *   method: 'completion/complete',
   *   params: { ref: { type: 'ref/prompt', name: 'greet' }, argument: { name: 'who', value: 'A' } },
   * });
   * ```
   */
  request<M extends ClientRequestMethod>(
    request: { method: M; params?: ClientRequestMap[M]['params'] },
    options?: ClientRequestOptions,
  ): Promise<ClientRequestMap[M]['result']> {
    try {
      return this.#send(request.method, request.params as Record<string, unknown> | undefined, options);
    } catch (error) {
      // Only reading `request` itself can throw here (a JavaScript caller passing nothing).
      return Promise.reject(error);
    }
  }

  /** `ping` (legacy only). */
  ping(options?: ClientRequestOptions): Promise<EmptyResult> {
    return this.#send('ping', undefined, options);
  }

  /** `server/discover` (modern only; `connect()` already ran it once). */
  discover(options?: ClientRequestOptions): Promise<DiscoverResult> {
    return this.#send('server/discover', undefined, options);
  }

  complete(params: CompleteRequestParams, options?: ClientRequestOptions): Promise<CompleteResult> {
    return this.#send('completion/complete', params, options);
  }

  /** `logging/setLevel` (legacy only; on 2026-07-28 set `client.logLevel`). */
  setLoggingLevel(level: LoggingLevel, options?: ClientRequestOptions): Promise<EmptyResult> {
    return this.#send('logging/setLevel', { level }, options);
  }

  async listPrompts(
    params?: PaginatedRequestParams,
    options?: ClientRequestOptions,
  ): Promise<ListPromptsResult> {
    return this.#lists.fetch('prompts/list', params?.cursor, params, options);
  }

  getPrompt(params: GetPromptRequestParams, options?: ClientRequestOptions): Promise<GetPromptResult> {
    return this.#send('prompts/get', params, options);
  }

  async listResources(
    params?: PaginatedRequestParams,
    options?: ClientRequestOptions,
  ): Promise<ListResourcesResult> {
    return this.#lists.fetch('resources/list', params?.cursor, params, options);
  }

  async listResourceTemplates(
    params?: PaginatedRequestParams,
    options?: ClientRequestOptions,
  ): Promise<ListResourceTemplatesResult> {
    return this.#lists.fetch('resources/templates/list', params?.cursor, params, options);
  }

  async readResource(
    params: ReadResourceRequestParams,
    options?: ClientRequestOptions,
  ): Promise<ReadResourceResult> {
    return this.#lists.fetch('resources/read', params.uri, params, options);
  }

  /** `resources/subscribe` (legacy only; on 2026-07-28 use `listen({ resourceSubscriptions })`). */
  subscribeResource(params: { uri: string }, options?: ClientRequestOptions): Promise<EmptyResult> {
    return this.#send('resources/subscribe', params, options).then((result) => {
      this.#subscribed.add(params.uri);
      return result;
    });
  }

  unsubscribeResource(params: { uri: string }, options?: ClientRequestOptions): Promise<EmptyResult> {
    this.#subscribed.delete(params.uri);
    return this.#send('resources/unsubscribe', params, options);
  }

  /**
   * One page of tools. Remembers their output schemas for `callTool` and drops tools whose `x-mcp-header`
   * annotations are invalid (2026-07-28 server/tools), with a warning.
   */
  async listTools(params?: PaginatedRequestParams, options?: ClientRequestOptions): Promise<ListToolsResult> {
    return this.#lists.fetch('tools/list', params?.cursor, params, options);
  }

  /**
   * Calls a tool. A successful result is checked against the tool's `outputSchema` as the last
   * `listTools` before the call gave it (an `McpError` when `structuredContent` does not match);
   * `isError` results are not.
   */
  callTool(params: CallToolRequestParams, options?: ClientRequestOptions): Promise<CallToolResult> {
    try {
      const name = params.name;
      const result = this.#live().request('tools/call', params, options);
      // A tool without an output schema (the usual case) has nothing to check: its result is the
      // engine's own promise, with no extra promise or microtask per call.
      if (!this.#tools.hasOutputSchema(name)) return result;
      return result.then((value) => {
        const checked = this.#tools.check(name, value);
        return checked === undefined ? value : checked.then(() => value);
      });
    } catch (error) {
      return Promise.reject(error);
    }
  }

  /**
   * Every tool, page by page (at most `maxPages` pages).
   *
   * @example
   * ```ts
   * for await (const tool of client.iterateTools()) console.log(tool.name);
   * ```
   */
  iterateTools(options?: ClientRequestOptions): AsyncGenerator<Tool, void, undefined> {
    return this.#lists.iterate('tools/list', options);
  }

  iteratePrompts(options?: ClientRequestOptions): AsyncGenerator<Prompt, void, undefined> {
    return this.#lists.iterate('prompts/list', options);
  }

  iterateResources(options?: ClientRequestOptions): AsyncGenerator<Resource, void, undefined> {
    return this.#lists.iterate('resources/list', options);
  }

  iterateResourceTemplates(
    options?: ClientRequestOptions,
  ): AsyncGenerator<ResourceTemplate, void, undefined> {
    return this.#lists.iterate('resources/templates/list', options);
  }

  /**
   * Calls a tool as a task (2025-11-25, experimental; spec basic/utilities/tasks): resolves with the
   * `CreateTaskResult` as soon as the server accepted it. Refused locally (an `McpError`, nothing sent)
   * when the server lacks the `tasks.requests.tools.call` capability or the tool's
   * `execution.taskSupport` is absent or `forbidden` (the tools are listed first when unknown).
   *
   * @example
   * ```ts
   * const { task } = await client.callToolAsTask({ name: 'render', arguments: {} }, { ttl: 600_000 });
   * const state = await client.getTask(task.taskId);
   * if (state.status === 'completed') console.log(await client.getTaskResult(task.taskId));
   * ```
   */
  async callToolAsTask(params: CallToolRequestParams, options?: TaskCallOptions): Promise<CreateTaskResult> {
    return this.#tasks.callToolAsTask(params, options);
  }

  /**
   * The whole task round in one call: creates the task, polls `tasks/get` honouring `pollInterval`,
   * calls `tasks/result` on `input_required` (so the server's elicitation/sampling reach this client's
   * handlers) or a terminal status, and resolves with the tool's result. Aborting `signal` stops
   * polling and cancels the task.
   *
   * @example
   * ```ts
   * const result = await client.callToolInTask(
   *   { name: 'render', arguments: { scene: 'intro' } },
   *   { onstatus: (task) => console.log(task.status, task.statusMessage ?? '') },
   * );
   * ```
   */
  async callToolInTask(params: CallToolRequestParams, options?: TaskRunOptions): Promise<CallToolResult> {
    return this.#tasks.callToolInTask(params, options);
  }

  /**
   * `tasks/get`: a task's current state.
   *
   * @example
   * ```ts
   * const { status, pollInterval } = await client.getTask(taskId);
   * ```
   */
  async getTask(taskId: string, options?: ClientRequestOptions): Promise<GetTaskResult> {
    return this.#tasks.getTask(taskId, options);
  }

  /**
   * `tasks/result`: blocks until the task is terminal and returns what the tool call returned (its
   * `structuredContent` checked as `callTool` does), or rejects with the call's JSON-RPC error.
   *
   * @example
   * ```ts
   * const result = await client.getTaskResult(taskId, { timeout: 600_000 });
   * ```
   */
  async getTaskResult(taskId: string, options?: ClientRequestOptions): Promise<CallToolResult> {
    return this.#tasks.getTaskResult(taskId, options);
  }

  /**
   * `tasks/list`: one page of this client's tasks.
   *
   * @example
   * ```ts
   * const { tasks, nextCursor } = await client.listTasks();
   * ```
   */
  async listTasks(params?: PaginatedRequestParams, options?: ClientRequestOptions): Promise<ListTasksResult> {
    return this.#tasks.listTasks(params, options);
  }

  /**
   * Every task, page by page (at most `maxPages` pages).
   *
   * @example
   * ```ts
   * for await (const task of client.iterateTasks()) console.log(task.taskId, task.status);
   * ```
   */
  iterateTasks(options?: ClientRequestOptions): AsyncGenerator<Task, void, undefined> {
    return this.#tasks.iterateTasks(options);
  }

  /**
   * `tasks/cancel`: the server stops the task and answers with it `cancelled`; a task already
   * terminal is refused with -32602.
   *
   * @example
   * ```ts
   * const { status } = await client.cancelTask(taskId); // 'cancelled'
   * ```
   */
  async cancelTask(taskId: string, options?: ClientRequestOptions): Promise<CancelTaskResult> {
    return this.#tasks.cancelTask(taskId, options);
  }

  /**
   * `subscriptions/listen` (2026-07-28): a stream of the change notifications in `filter`. Stop iterating
   * (or abort `signal`) to cancel it. On a legacy connection the iteration fails with
   * `MethodNotSupportedError`; use `subscribeResource()` and `on(…)` there.
   */
  listen(filter: SubscriptionFilter, options: { signal?: AbortSignal } = {}): Subscription {
    return this.#subscriptions.open(this.#engine, this.#envelope, filter, options.signal);
  }

  /** A request on the live session; not connected (or any synchronous throw) is a rejection. */
  #send<M extends ClientRequestMethod>(
    method: M,
    params: Record<string, unknown> | undefined,
    options: ClientRequestOptions | undefined,
  ): Promise<ClientRequestMap[M]['result']> {
    try {
      return this.#live().request(method, params, options);
    } catch (error) {
      return Promise.reject(error);
    }
  }

  #live(): EraSession {
    const session = this.#session;
    if (session === undefined) throw new ConnectionClosedError('Not connected');
    return session;
  }

  /**
   * The transport re-established a lost connection (a reconnect, a failover switch, a restarted stdio
   * server): the server side starts from nothing, so re-send what this session had set up: legacy
   * `resources/subscribe` (after the re-run `initialize`), 2026-07-28 `subscriptions/listen` streams.
   */
  #resync(): void {
    for (const uri of this.#subscribed) {
      this.#send('resources/subscribe', { uri }, undefined).catch(this.#report);
    }
    this.#subscriptions.reopen();
  }

  readonly #onEngineClose = (): void => {
    const wasConnected = this.#session !== undefined;
    this.#session = undefined;
    this.#subscriptions.failParked(
      new ConnectionClosedError('Connection closed while the subscription waited for its transport'),
    );
    this.#receiver?.reset();
    this.#engine.version = undefined;
    if (!wasConnected) return;
    try {
      this.onclose?.();
    } catch (error) {
      this.#report(error);
    }
  };

  readonly #report = (error: unknown): void => {
    try {
      this.onerror?.(error instanceof Error ? error : new Error(String(error)));
    } catch {
      // An onerror that throws has nowhere left to report to.
    }
  };
}
