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
  DiscoverResult,
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
import { NOTIFICATION_EVENTS, WITHOUT_PARAMS } from '../../client/compat-client.js';

/** Options of the 2.x `Client`: the capabilities it declares. */
export interface ClientOptions {
  capabilities?: ClientCapabilities | undefined;
}

/** What a 2.x client request handler gets as `ctx`. */
export interface ClientContext {
  mcpReq: { method: string; signal: AbortSignal };
}

/** A server→client request as a 2.x handler sees it. */
export interface ServerRequest {
  method: string;
  params: Record<string, unknown>;
}

type RequestHandler = (request: ServerRequest, ctx: ClientContext) => unknown;

/**
 * The official 2.x `Client` (`@modelcontextprotocol/client`) on x-mcp's `Client`: it negotiates the
 * era (2026-07-28 `server/discover` first, then `initialize`), answers `inputRequired` rounds with the
 * handlers set by `setRequestHandler('elicitation/create' | 'sampling/createMessage' | 'roots/list')`,
 * and checks `structuredContent` against the tool's `outputSchema`.
 *
 * @example
 * ```ts
 * const client = new Client({ name: 'app', version: '1.0.0' });
 * await client.connect(new StdioClientTransport({ command: 'node', args: ['server.js'] }));
 * const result = await client.callTool({ name: 'add', arguments: { a: 1, b: 2 } });
 * ```
 */
export class Client {
  readonly #x: XClient;
  readonly #capabilities: ClientCapabilities;
  readonly #notifications = new Map<string, () => void>();

  constructor(clientInfo: Implementation, options: ClientOptions = {}) {
    this.#capabilities = options.capabilities ?? {};
    this.#x = new XClient(clientInfo, { capabilities: this.#capabilities, retry: false });
  }

  get onclose(): (() => void) | undefined {
    return this.#x.onclose;
  }
  set onclose(handler: (() => void) | undefined) {
    this.#x.onclose = handler;
  }

  get onerror(): ((error: Error) => void) | undefined {
    return this.#x.onerror;
  }
  set onerror(handler: ((error: Error) => void) | undefined) {
    this.#x.onerror = handler;
  }

  get transport(): Transport | undefined {
    return this.#x.transport;
  }

  /** Connects; the era is negotiated (`server/discover`, else `initialize`). */
  connect(transport: Transport, options?: ConnectOptions): Promise<void> {
    return this.#x.connect(transport, options);
  }

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

  /** The protocol version in use (`'2026-07-28'` on the modern era). */
  getNegotiatedProtocolVersion(): string | undefined {
    return this.#x.protocolVersion;
  }

  /** `'modern'` or `'legacy'`, once connected. */
  getProtocolEra(): 'legacy' | 'modern' | undefined {
    return this.#x.era;
  }

  ping(options?: ClientRequestOptions): Promise<EmptyResult> {
    return this.#x.ping(options);
  }

  discover(options?: ClientRequestOptions): Promise<DiscoverResult> {
    return this.#x.discover(options);
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

  /** `tools/call` (2.x: `(params, options)`, no result schema). */
  callTool(params: CallToolRequestParams, options?: ClientRequestOptions): Promise<CallToolResult> {
    return this.#x.callTool(params, options);
  }

  sendRootsListChanged(): Promise<void> {
    return this.#x.sendRootsListChanged();
  }

  /**
   * Answers `sampling/createMessage`, `elicitation/create` or `roots/list` (as a server→client request
   * on the `initialize` era, as an `inputRequired` round on 2026-07-28). Others throw.
   *
   * @example
   * ```ts
   * client.setRequestHandler('elicitation/create', async () => ({ action: 'accept', content: { ok: true } }));
   * ```
   */
  setRequestHandler(method: string, handler: RequestHandler): void {
    const answer = async (params: unknown, signal: AbortSignal): Promise<never> =>
      (await handler(
        { method, params: params as Record<string, unknown> },
        { mcpReq: { method, signal } },
      )) as never;
    if (method === 'sampling/createMessage')
      this.#x.setSamplingHandler((params, ctx) => answer(params, ctx.signal));
    else if (method === 'roots/list') this.#x.setRootsHandler((params, ctx) => answer(params, ctx.signal));
    else if (method === 'elicitation/create') {
      const modes = this.#capabilities.elicitation as { url?: object } | undefined;
      this.#x.setElicitationHandler((params, ctx) => answer(params, ctx.signal), {
        form: true,
        url: modes?.url !== undefined,
      });
    } else {
      throw new TypeError(
        `@x/compat: a client answers only sampling/createMessage, elicitation/create and roots/list; no handler for ${method}`,
      );
    }
  }

  /**
   * Handles a server notification by method (logging, progress, list changes, resource updates,
   * elicitation complete, task status); others throw.
   *
   * @example
   * ```ts
   * client.setNotificationHandler('notifications/message', (n) => console.log(n.params.data));
   * ```
   */
  setNotificationHandler(
    method: string,
    handler: (notification: { method: string; params?: Record<string, unknown> }) => void,
  ): void {
    const event: ClientEventName | undefined = NOTIFICATION_EVENTS[method];
    if (event === undefined) {
      throw new TypeError(`@x/compat: the client cannot handle ${method} notifications (see the README)`);
    }
    this.#notifications.get(method)?.();
    const off = this.#x.on(event, (payload: unknown) =>
      handler(
        WITHOUT_PARAMS.has(event) ? { method } : { method, params: payload as Record<string, unknown> },
      ),
    );
    this.#notifications.set(method, off);
  }

  removeNotificationHandler(method: string): void {
    this.#notifications.get(method)?.();
    this.#notifications.delete(method);
  }
}
