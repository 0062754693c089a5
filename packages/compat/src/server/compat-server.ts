import {
  type ClientCapabilities,
  CreateMessageResultSchema,
  type CreateMessageRequestParams,
  type CreateMessageResult,
  ElicitResultSchema,
  type ElicitRequestParams,
  type ElicitResult,
  EmptyResultSchema,
  ErrorCode,
  type Implementation,
  ListRootsResultSchema,
  type ListRootsResult,
  type LoggingMessageNotificationParams,
  McpError,
  type OutgoingNotification,
  type OutgoingRequest,
  type RequestOptions,
  ResultSchema,
  type ServerCapabilities,
  type Transport,
} from '@x/protocol';
import { Server as XServer, type ServerSession } from '@x/server';
import type { TaskMessageQueue, TaskStore } from '../experimental/tasks/task-store.js';
import { ATTACH, INNER } from '../shared/inner.js';
import { type AnySchema, describeIssues, methodOf } from '../shared/method-of.js';
import {
  type ParsedOf,
  parseResult,
  type RequestHandlerExtra,
  toRequestExtra,
} from '../shared/request-handler-extra.js';

/**
 * Options of the official 1.x `Server`. `capabilities` and `instructions` are honoured; the task and
 * validator options of 1.x (`taskStore`, `jsonSchemaValidator`, …) are accepted and ignored (x-mcp
 * validates tool schemas itself; see the README).
 *
 * @example
 * ```ts
 * new Server({ name: 'echo', version: '1.0.0' }, { capabilities: { tools: {} }, instructions: 'Echoes.' });
 * ```
 */
export interface ServerOptions {
  capabilities?: ServerCapabilities | undefined;
  instructions?: string | undefined;
  enforceStrictCapabilities?: boolean | undefined;
  /** 1.x tasks: the store of `experimental.tasks.registerToolTask` tools (`McpServer` only). */
  taskStore?: TaskStore | undefined;
  /** Accepted and not used: x-mcp sends a task's requests to the client directly. */
  taskMessageQueue?: TaskMessageQueue | undefined;
  [INNER]?: XServer | undefined;
}

/** A connection a compat transport made on its own (see `ATTACH`). */
export interface AttachingTransport {
  [ATTACH](server: XServer, onsession: (session: ServerSession) => void): Promise<void>;
}

/**
 * The official 1.x low-level `Server` (`@modelcontextprotocol/sdk/server/index.js`) on top of x-mcp's
 * `Server`: handlers keyed by request schema, one connection per instance, the `initialize` era only
 * (as 1.x). Requests to the client (`createMessage`, `elicitInput`, `listRoots`) go to the connection.
 *
 * @example
 * ```ts
 * const server = new Server({ name: 'echo', version: '1.0.0' }, { capabilities: { tools: {} } });
 * server.setRequestHandler(ListToolsRequestSchema, () => ({ tools: [] }));
 * await server.connect(new StdioServerTransport());
 * ```
 */
export class Server {
  /** Called once the connection closes. */
  onclose?: (() => void) | undefined;
  /** Called with errors the connection reports. */
  onerror?: ((error: Error) => void) | undefined;
  /** Called when the client sends `notifications/initialized`. */
  oninitialized?: (() => void) | undefined;
  readonly #x: XServer;
  #session: ServerSession | undefined;
  #transport: Transport | undefined;

  constructor(serverInfo: Implementation, options: ServerOptions = {}) {
    this.#x =
      options[INNER] ??
      new XServer(serverInfo, {
        eras: 'legacy',
        capabilities: options.capabilities ?? {},
        instructions: options.instructions,
      });
    this.#x.onerror = (error) => this.onerror?.(error);
    // x-mcp consumes `notifications/initialized` itself (no user handler sees it): watch it pass.
    this.#x.use({
      incomingNotification: (notification, _extra, next) => {
        const handled = next(notification);
        // Called in the same turn, as 1.x does: a request that arrived with the notification (same
        // chunk) is dispatched after this, so what `oninitialized` registers is there for it.
        if (notification.method === 'notifications/initialized') this.oninitialized?.();
        return handled;
      },
      incomingRequest: async (request, _ctx, next) => {
        const result = await next(request);
        return request.method === 'initialize' ? withDeclaredTasks(result, this.#x.capabilities) : result;
      },
    });
  }

  /** The transport of the connection, once connected. */
  get transport(): Transport | undefined {
    return this.#transport;
  }

  /** Adds capabilities; only before `connect`, as in 1.x. */
  registerCapabilities(capabilities: ServerCapabilities): void {
    if (this.#transport !== undefined) {
      throw new Error('Cannot register capabilities after connecting to transport');
    }
    this.#x.registerCapabilities(capabilities);
  }

  /**
   * Handles the method of `schema` (its `method` literal). The request is checked by `schema` (an
   * invalid one is answered -32602), then `handler` gets it whole, with the official `extra`.
   *
   * @example
   * ```ts
   * server.setRequestHandler(CallToolRequestSchema, async (request, extra) => ({
   *   content: [{ type: 'text', text: `called ${request.params.name}` }],
   * }));
   * ```
   */
  setRequestHandler<S extends AnySchema>(
    schema: S,
    handler: (request: ParsedOf<S>, extra: RequestHandlerExtra) => object | Promise<object>,
  ): void {
    const method = methodOf(schema);
    this.#x.setRequestHandler(method, (params, ctx) => {
      const parsed = schema.safeParse({ method, params });
      if (!parsed.success) {
        throw new McpError(
          ErrorCode.InvalidParams,
          `Invalid params for ${method}: ${describeIssues(parsed.error)}`,
        );
      }
      return handler(parsed.data as ParsedOf<S>, toRequestExtra(ctx));
    });
  }

  /** Removes the handler of `method`. */
  removeRequestHandler(method: string): void {
    this.#x.removeRequestHandler(method);
  }

  /**
   * Handles the notification method of `schema`; an invalid notification is dropped (reported to
   * `onerror`), as notifications have no answer.
   *
   * @example
   * ```ts
   * server.setNotificationHandler(RootsListChangedNotificationSchema, () => refreshRoots());
   * ```
   */
  setNotificationHandler<S extends AnySchema>(
    schema: S,
    handler: (notification: ParsedOf<S>) => void | Promise<void>,
  ): void {
    const method = methodOf(schema);
    this.#x.setNotificationHandler(method, (params) => {
      const parsed = schema.safeParse({ method, params });
      if (!parsed.success) {
        this.onerror?.(new Error(`Invalid ${method} notification: ${describeIssues(parsed.error)}`));
        return;
      }
      return handler(parsed.data as ParsedOf<S>);
    });
  }

  /**
   * Serves `transport`. One connection per instance, as in 1.x: connect a second `Server` (or build the
   * server per session) for more.
   */
  async connect(transport: Transport): Promise<void> {
    if (this.#transport !== undefined) {
      throw new Error(
        'Already connected to a transport. Call close() before connecting to a new transport, or use a separate Server instance per connection.',
      );
    }
    this.#transport = transport;
    if (ATTACH in transport) {
      await (transport as Transport & AttachingTransport)[ATTACH](this.#x, (session) => {
        this.#session = session;
      });
    } else {
      this.#session = await this.#x.connect(transport);
    }
    const closed = transport.onclose;
    transport.onclose = () => {
      closed?.();
      this.#session = undefined;
      this.#transport = undefined;
      this.onclose?.();
    };
  }

  /** Closes the connection. */
  async close(): Promise<void> {
    const transport = this.#transport;
    if (transport === undefined) return;
    const session = this.#session;
    if (session !== undefined) await session.close();
    // A Streamable HTTP transport also owns its handler; a plain one is closed by its session.
    if (session === undefined || ATTACH in transport) await transport.close();
  }

  /** The capabilities the client declared in `initialize`. */
  getClientCapabilities(): ClientCapabilities | undefined {
    return this.#session?.clientCapabilities;
  }

  /** The client's `clientInfo` from `initialize`. */
  getClientVersion(): Implementation | undefined {
    return this.#session?.clientInfo;
  }

  /** The capabilities this server declares. */
  getCapabilities(): ServerCapabilities {
    return this.#x.capabilities;
  }

  /** `sampling/createMessage` to the client (needs its `sampling` capability). */
  async createMessage(
    params: CreateMessageRequestParams,
    options?: RequestOptions,
  ): Promise<CreateMessageResult> {
    return this.#connected().request(
      { method: 'sampling/createMessage', params } as OutgoingRequest,
      CreateMessageResultSchema,
      options,
    );
  }

  /** `elicitation/create` to the client (needs its `elicitation` capability). */
  async elicitInput(params: ElicitRequestParams, options?: RequestOptions): Promise<ElicitResult> {
    return this.#connected().request(
      { method: 'elicitation/create', params } as OutgoingRequest,
      ElicitResultSchema,
      options,
    );
  }

  /** `roots/list` to the client (needs its `roots` capability). */
  async listRoots(params?: Record<string, unknown>, options?: RequestOptions): Promise<ListRootsResult> {
    const request = params === undefined ? { method: 'roots/list' } : { method: 'roots/list', params };
    return this.#connected().request(request as OutgoingRequest, ListRootsResultSchema, options);
  }

  /** `ping` to the client. */
  async ping(): Promise<object> {
    return this.#connected().request({ method: 'ping' } as OutgoingRequest, EmptyResultSchema);
  }

  /** Any request to the client, its result checked by `resultSchema` (zod 3 or 4). */
  async request<S extends AnySchema>(
    request: { method: string; params?: Record<string, unknown> },
    resultSchema: S,
    options?: RequestOptions,
  ): Promise<ParsedOf<S>> {
    const result = await this.#connected().request(request as OutgoingRequest, ResultSchema, options);
    return parseResult(resultSchema, result, request.method);
  }

  /** Any notification to the client. */
  async notification(notification: { method: string; params?: Record<string, unknown> }): Promise<void> {
    return this.#connected().notification(notification as OutgoingNotification);
  }

  /**
   * `notifications/message` to the client. Unlike 1.x it is sent whatever level the client set with
   * `logging/setLevel` (use `ctx`-level logging of x-mcp for that filter); `sessionId` is ignored, as
   * this server has one connection.
   */
  async sendLoggingMessage(params: LoggingMessageNotificationParams, _sessionId?: string): Promise<void> {
    return this.notification({ method: 'notifications/message', params });
  }

  /** `notifications/resources/updated` for `params.uri` to subscribed sessions. */
  async sendResourceUpdated(params: { uri: string }): Promise<void> {
    this.#x.sendResourceUpdated(params.uri);
  }

  /** `notifications/resources/list_changed`. */
  async sendResourceListChanged(): Promise<void> {
    this.#x.sendResourceListChanged();
  }

  /** `notifications/tools/list_changed`. */
  async sendToolListChanged(): Promise<void> {
    this.#x.sendToolListChanged();
  }

  /** `notifications/prompts/list_changed`. */
  async sendPromptListChanged(): Promise<void> {
    this.#x.sendPromptListChanged();
  }

  /** The connection; a call before `connect` (or after close) rejects, as every method here is async. */
  #connected(): ServerSession {
    if (this.#session === undefined) throw new McpError(ErrorCode.ConnectionClosed, 'Not connected');
    return this.#session;
  }
}

/** The one revision whose capabilities have `tasks` (spec 2025-11-25, basic/utilities/tasks). */
const TASKS_PROTOCOL_VERSION = '2025-11-25';

/**
 * x-mcp declares the 2025-11-25 `tasks` capability only when its own task receiver is on; a 1.x
 * application that declares `tasks` and answers `tasks/*` with its own handlers (the official
 * `simpleTaskInteractive.js`) keeps its declaration, as on 1.x, so clients that check it (the x-mcp
 * `Client`) send task-augmented calls.
 */
function withDeclaredTasks(result: object, declared: ServerCapabilities): object {
  const initialized = result as { protocolVersion?: string; capabilities?: ServerCapabilities };
  if (declared.tasks === undefined || initialized.protocolVersion !== TASKS_PROTOCOL_VERSION) return result;
  if (initialized.capabilities === undefined || initialized.capabilities.tasks !== undefined) return result;
  return { ...result, capabilities: { ...initialized.capabilities, tasks: declared.tasks } };
}
