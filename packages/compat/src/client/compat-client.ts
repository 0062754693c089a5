import {
  Client as XClient,
  type ClientEventName,
  type ClientRequestOptions,
  type ConnectOptions,
} from '@x/client';
import type {
  CallToolRequestParams,
  CallToolResult,
  ClientCapabilities,
  CompleteRequestParams,
  CompleteResult,
  EmptyResult,
  GetPromptRequestParams,
  GetPromptResult,
  Implementation,
  ListPromptsResult,
  ListResourcesResult,
  ListResourceTemplatesResult,
  ListToolsResult,
  LoggingLevel,
  PaginatedRequestParams,
  ReadResourceRequestParams,
  ReadResourceResult,
  ServerCapabilities,
  Transport,
} from '@x/protocol/core';
import { type AnySchema, describeIssues, methodOf } from '../shared/method-of.js';
import { type ParsedOf, parseResult } from '../shared/request-handler-extra.js';

/**
 * Options of the official 1.x `Client`. `capabilities` are declared as given; `listChanged` and the
 * 1.x validator and task options are not supported (see the README).
 *
 * @example
 * ```ts
 * new Client({ name: 'app', version: '1.0.0' }, { capabilities: { sampling: {} } });
 * ```
 */
export interface ClientOptions {
  capabilities?: ClientCapabilities | undefined;
  enforceStrictCapabilities?: boolean | undefined;
}

/** The notifications a 1.x `setNotificationHandler` can take, and x-mcp's event for each. */
export const NOTIFICATION_EVENTS: Readonly<Record<string, ClientEventName>> = {
  'notifications/message': 'log',
  'notifications/resources/updated': 'resourceUpdated',
  'notifications/tools/list_changed': 'toolsListChanged',
  'notifications/prompts/list_changed': 'promptsListChanged',
  'notifications/resources/list_changed': 'resourcesListChanged',
  'notifications/progress': 'progress',
  'notifications/elicitation/complete': 'elicitationComplete',
  'notifications/tasks/status': 'taskStatus',
};

/** Events whose payload is not the notification's params (the list_changed ones carry a list). */
export const WITHOUT_PARAMS = new Set<ClientEventName>([
  'toolsListChanged',
  'promptsListChanged',
  'resourcesListChanged',
]);

/** The capability a server→client request needs, as 1.x checks it in `setRequestHandler`. */
const REQUEST_CAPABILITY: Readonly<Record<string, keyof ClientCapabilities>> = {
  'sampling/createMessage': 'sampling',
  'elicitation/create': 'elicitation',
  'roots/list': 'roots',
};

/** What a 1.x client request handler gets as `extra`. */
export interface ClientRequestExtra {
  signal: AbortSignal;
}

/**
 * The official 1.x `Client` (`@modelcontextprotocol/sdk/client/index.js`) on x-mcp's `Client`,
 * speaking the `initialize` era only (as 1.x). Results are x-mcp's (checked by x-mcp's schemas, tool
 * output checked against `outputSchema`); `request(req, schema)` and `callTool(params, schema)` check
 * them with the given schema too.
 *
 * @example
 * ```ts
 * const client = new Client({ name: 'app', version: '1.0.0' });
 * await client.connect(new StdioClientTransport({ command: 'node', args: ['server.js'] }));
 * const { tools } = await client.listTools();
 * ```
 */
export class Client {
  readonly #x: XClient;
  readonly #capabilities: ClientCapabilities;
  readonly #notifications = new Map<string, () => void>();

  constructor(clientInfo: Implementation, options: ClientOptions = {}) {
    this.#capabilities = options.capabilities ?? {};
    this.#x = new XClient(clientInfo, {
      protocolVersion: 'legacy',
      capabilities: this.#capabilities,
      // 1.x never repeats a request by itself.
      retry: false,
    });
  }

  /** Called once the connection closes. */
  get onclose(): (() => void) | undefined {
    return this.#x.onclose;
  }
  set onclose(handler: (() => void) | undefined) {
    this.#x.onclose = handler;
  }

  /** Called with errors the connection reports. */
  get onerror(): ((error: Error) => void) | undefined {
    return this.#x.onerror;
  }
  set onerror(handler: ((error: Error) => void) | undefined) {
    this.#x.onerror = handler;
  }

  /** The connected transport. */
  get transport(): Transport | undefined {
    return this.#x.transport;
  }

  /** Connects and runs `initialize`. */
  connect(transport: Transport, options?: ConnectOptions): Promise<void> {
    return this.#x.connect(transport, options);
  }

  /** Closes the connection. */
  close(): Promise<void> {
    return this.#x.close();
  }

  getServerCapabilities(): ServerCapabilities | undefined {
    return this.#x.serverCapabilities;
  }

  getServerVersion(): Implementation | undefined {
    return this.#x.serverInfo;
  }

  getInstructions(): string | undefined {
    return this.#x.instructions;
  }

  ping(options?: ClientRequestOptions): Promise<EmptyResult> {
    return this.#x.ping(options);
  }

  complete(params: CompleteRequestParams, options?: ClientRequestOptions): Promise<CompleteResult> {
    return this.#x.complete(params, options);
  }

  setLoggingLevel(level: LoggingLevel, options?: ClientRequestOptions): Promise<EmptyResult> {
    return this.#x.setLoggingLevel(level, options);
  }

  getPrompt(params: GetPromptRequestParams, options?: ClientRequestOptions): Promise<GetPromptResult> {
    return this.#x.getPrompt(params, options);
  }

  listPrompts(params?: PaginatedRequestParams, options?: ClientRequestOptions): Promise<ListPromptsResult> {
    return this.#x.listPrompts(params, options);
  }

  listResources(
    params?: PaginatedRequestParams,
    options?: ClientRequestOptions,
  ): Promise<ListResourcesResult> {
    return this.#x.listResources(params, options);
  }

  listResourceTemplates(
    params?: PaginatedRequestParams,
    options?: ClientRequestOptions,
  ): Promise<ListResourceTemplatesResult> {
    return this.#x.listResourceTemplates(params, options);
  }

  readResource(
    params: ReadResourceRequestParams,
    options?: ClientRequestOptions,
  ): Promise<ReadResourceResult> {
    return this.#x.readResource(params, options);
  }

  subscribeResource(params: { uri: string }, options?: ClientRequestOptions): Promise<EmptyResult> {
    return this.#x.subscribeResource(params, options);
  }

  unsubscribeResource(params: { uri: string }, options?: ClientRequestOptions): Promise<EmptyResult> {
    return this.#x.unsubscribeResource(params, options);
  }

  listTools(params?: PaginatedRequestParams, options?: ClientRequestOptions): Promise<ListToolsResult> {
    return this.#x.listTools(params, options);
  }

  /**
   * `tools/call`. A `resultSchema` other than the default also checks the result (as 1.x).
   *
   * @example
   * ```ts
   * const result = await client.callTool({ name: 'add', arguments: { a: 1, b: 2 } });
   * ```
   */
  async callTool(
    params: CallToolRequestParams,
    resultSchema?: AnySchema,
    options?: ClientRequestOptions,
  ): Promise<CallToolResult> {
    const result = await this.#x.callTool(params, options);
    return resultSchema === undefined
      ? result
      : (parseResult(resultSchema, result, 'tools/call') as CallToolResult);
  }

  sendRootsListChanged(): Promise<void> {
    return this.#x.sendRootsListChanged();
  }

  /**
   * Any request, its result checked by `resultSchema` (zod 3 or 4).
   *
   * @example
   * ```ts
   * const { tools } = await client.request({ method: 'tools/list', params: {} }, ListToolsResultSchema);
   * ```
   */
  async request<S extends AnySchema>(
    request: { method: string; params?: Record<string, unknown> | undefined },
    resultSchema: S,
    options?: ClientRequestOptions,
  ): Promise<ParsedOf<S>> {
    const result: unknown = await this.#x.request(request as never, options);
    return parseResult(resultSchema, result, request.method);
  }

  /**
   * Answers a server→client request: `sampling/createMessage`, `elicitation/create` or `roots/list`
   * (the only ones a server sends), after the capability is declared in the constructor, as 1.x.
   *
   * @example
   * ```ts
   * client.setRequestHandler(ElicitRequestSchema, async (request) => ({ action: 'accept', content: { ok: true } }));
   * ```
   */
  setRequestHandler<S extends AnySchema>(
    schema: S,
    handler: (request: ParsedOf<S>, extra: ClientRequestExtra) => object | Promise<object>,
  ): void {
    const method = methodOf(schema);
    const capability = REQUEST_CAPABILITY[method];
    if (capability === undefined) {
      throw new Error(
        `@x/compat: a client answers only sampling/createMessage, elicitation/create and roots/list; no handler for ${method}`,
      );
    }
    if (this.#capabilities[capability] === undefined) {
      throw new Error(`Client does not support ${capability} capability (required for ${method})`);
    }
    const answer = async (params: unknown, signal: AbortSignal): Promise<never> => {
      const parsed = schema.safeParse({ method, params });
      if (!parsed.success) throw new Error(`Invalid ${method} request: ${describeIssues(parsed.error)}`);
      return (await handler(parsed.data as ParsedOf<S>, { signal })) as never;
    };
    if (capability === 'sampling') this.#x.setSamplingHandler((params, ctx) => answer(params, ctx.signal));
    else if (capability === 'roots') this.#x.setRootsHandler((params, ctx) => answer(params, ctx.signal));
    else {
      const modes = this.#capabilities.elicitation as { url?: object } | undefined;
      this.#x.setElicitationHandler((params, ctx) => answer(params, ctx.signal), {
        form: true,
        url: modes?.url !== undefined,
      });
    }
  }

  /**
   * Handles a server notification (replacing an earlier handler of the method). The notifications a
   * server sends are supported: logging, progress, list changes, resource updates, elicitation
   * completion, task status.
   *
   * @example
   * ```ts
   * client.setNotificationHandler(LoggingMessageNotificationSchema, (n) => console.log(n.params.data));
   * ```
   */
  setNotificationHandler<S extends AnySchema>(schema: S, handler: (notification: ParsedOf<S>) => void): void {
    const method = methodOf(schema);
    const event = NOTIFICATION_EVENTS[method];
    if (event === undefined) {
      throw new Error(
        `@x/compat: the client cannot handle ${method} notifications (see the README for the list)`,
      );
    }
    this.#notifications.get(method)?.();
    const off = this.#x.on(event, (payload: unknown) => {
      const notification = WITHOUT_PARAMS.has(event) ? { method } : { method, params: payload };
      const parsed = schema.safeParse(notification);
      if (parsed.success) handler(parsed.data as ParsedOf<S>);
      else this.onerror?.(new Error(`Invalid ${method} notification: ${describeIssues(parsed.error)}`));
    });
    this.#notifications.set(method, off);
  }

  /** Stops handling `method`'s notifications. */
  removeNotificationHandler(method: string): void {
    this.#notifications.get(method)?.();
    this.#notifications.delete(method);
  }
}
