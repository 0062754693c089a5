import type { CompleteRequestParams, Interceptor, Transport } from '@x/protocol/core';
import { DeferredCompleteRequestParamsSchema } from '@x/protocol/internal';
import { complete } from './mcp/complete.js';
import { type ListKind, ListNotifier } from './mcp/list-notifier.js';
import {
  type PromptConfig,
  type PromptHandler,
  PromptRegistry,
  type RegisteredPrompt,
} from './mcp/prompt-registry.js';
import {
  type ReadResourceCallback,
  type ReadTemplateCallback,
  type RegisteredResource,
  ResourceRegistry,
  type ResourceMetadata,
} from './mcp/resource-registry.js';
import { ResourceTemplate } from './mcp/resource-template.js';
import type { SchemaInput } from './mcp/schema-adapter.js';
import type { RegisteredTool, ToolConfig, ToolHandler } from './mcp/tool-config.js';
import { ToolRegistry } from './mcp/tool-registry.js';
import { Server } from './server.js';
import type { ParamsSchema } from './server-core.js';
import type { CacheHint, ConnectOptions, ServerInfo, ServerOptions } from './server-options.js';
import type { ServerSession } from './session/server-session.js';

/**
 * Coalescing window of `notifications/<list>/list_changed` (`listChangedDebounceMs`): 10 ms, so that
 * registering many tools in one go sends one notification, not one per tool, with no delay a user sees.
 *
 * @example
 * ```ts
 * const server = new McpServer(info, { listChangedDebounceMs: 10 * DEFAULT_LIST_CHANGED_DEBOUNCE_MS });
 * ```
 */
export const DEFAULT_LIST_CHANGED_DEBOUNCE_MS = 10;

/**
 * Options of `McpServer`: those of `Server`, plus list behaviour.
 *
 * @example
 * ```ts
 * new McpServer({ name: 'kb', version: '2.0.0' }, {
 *   instructions: 'Search before reading.',
 *   pageSize: 50,
 *   cache: { tools: { ttlMs: 60_000, cacheScope: 'public' } },
 * });
 * ```
 */
export interface McpServerOptions extends ServerOptions {
  /** Items per page of the four lists. Default: everything in one page. */
  pageSize?: number | undefined;
  /** Coalescing window of `notifications/<list>/list_changed`, in ms. Default {@link DEFAULT_LIST_CHANGED_DEBOUNCE_MS} (10). */
  listChangedDebounceMs?: number | undefined;
  /** 2026-07-28 cache hints of the lists. Default `{ ttlMs: 0, cacheScope: 'public' }` each. */
  cache?:
    | {
        tools?: CacheHint | undefined;
        prompts?: CacheHint | undefined;
        resources?: CacheHint | undefined;
        resourceTemplates?: CacheHint | undefined;
      }
    | undefined;
  /** Declare the `logging` capability so `ctx.log` reaches clients. Default true. */
  logging?: boolean | undefined;
}

const DEFAULT_LIST_HINT: CacheHint = { ttlMs: 0, cacheScope: 'public' };

/**
 * The high-level MCP server: register tools, resources and prompts once; every connection, of either
 * protocol era, is served from the same definition (DESIGN §4–§5). Capabilities follow what is
 * registered; lists are built once per change and `list_changed` goes out (debounced) on change.
 *
 * @example
 * ```ts
 * const server = new McpServer({ name: 'demo', version: '1.0.0' });
 * server.registerTool('add', { inputSchema: z.object({ a: z.number(), b: z.number() }) }, ({ a, b }) => ({
 *   content: [{ type: 'text', text: String(a + b) }],
 * }));
 * await server.connect(new StdioServerTransport());
 * ```
 */
export class McpServer {
  /** The low-level server underneath, for custom methods and notifications. */
  readonly server: Server;
  readonly #tools: ToolRegistry;
  readonly #resources: ResourceRegistry;
  readonly #prompts: PromptRegistry;
  readonly #notifier: ListNotifier;
  readonly #wired = new Set<string>();

  constructor(info: ServerInfo, options: McpServerOptions = {}) {
    this.server = new Server(info, options);
    if (options.logging !== false) this.server.registerCapabilities({ logging: {} });
    this.#notifier = new ListNotifier(
      options.listChangedDebounceMs ?? DEFAULT_LIST_CHANGED_DEBOUNCE_MS,
      (kind) => this.#broadcast(kind),
    );
    const cache = options.cache ?? {};
    const pageSize = options.pageSize;
    this.#tools = new ToolRegistry({
      pageSize,
      hint: cache.tools ?? DEFAULT_LIST_HINT,
      changed: () => this.#notifier.schedule('tools'),
    });
    this.#resources = new ResourceRegistry({
      pageSize,
      hints: {
        resources: cache.resources ?? DEFAULT_LIST_HINT,
        templates: cache.resourceTemplates ?? DEFAULT_LIST_HINT,
      },
      changed: () => this.#notifier.schedule('resources'),
      updated: (uri) => this.server.sendResourceUpdated(uri),
    });
    this.#prompts = new PromptRegistry({
      pageSize,
      hint: cache.prompts ?? DEFAULT_LIST_HINT,
      changed: () => this.#notifier.schedule('prompts'),
    });
  }

  /** Open connections. */
  get sessions(): ReadonlySet<ServerSession> {
    return this.server.sessions;
  }

  /**
   * Installs interceptors around every connection's traffic (`Server.use`).
   *
   * @example
   * ```ts
   * server.use(trafficLog({ log: (entry) => logger.info(entry) }));
   * ```
   */
  use(...interceptors: Interceptor[]): () => void {
    return this.server.use(...interceptors);
  }

  /**
   * Registers a tool. Arguments are validated against `inputSchema` before the handler runs (a failure
   * is a tool result with `isError: true`); `structuredContent` is checked against `outputSchema`.
   * Throws at registration for an invalid name, a schema that cannot be published, a non-object
   * `inputSchema` or an invalid `x-mcp-header` annotation.
   *
   * @example
   * ```ts
   * server.registerTool('weather', {
   *   description: 'Current weather',
   *   inputSchema: z.object({ city: z.string() }),
   *   outputSchema: z.object({ celsius: z.number() }),
   * }, async ({ city }, ctx) => {
   *   const celsius = await lookup(city, ctx.signal);
   *   return { content: [{ type: 'text', text: `${celsius} °C` }], structuredContent: { celsius } };
   * });
   * ```
   */
  registerTool<I extends SchemaInput | undefined = undefined, O extends SchemaInput | undefined = undefined>(
    name: string,
    config: ToolConfig<I, O>,
    handler: ToolHandler<I, O>,
  ): RegisteredTool {
    this.#wire('tools', () => {
      this.server.registerCapabilities({ tools: { listChanged: true } });
      this.server.setRequestHandler('tools/list', (params, ctx) =>
        this.#tools.pages.page(params['cursor'], ctx.era),
      );
      // The registry's own handler: no hop through this file per call (and no bound function, which
      // V8 calls more slowly than a closure on this path).
      this.server.setRequestHandler('tools/call', this.#tools.handleCall);
    });
    return this.#tools.register(
      name,
      config as ToolConfig<SchemaInput | undefined, SchemaInput | undefined>,
      handler as Parameters<ToolRegistry['register']>[2],
    );
  }

  /**
   * Registers a resource at a fixed URI, or a family of resources behind a `ResourceTemplate`.
   *
   * @example
   * ```ts
   * server.registerResource('readme', 'file:///README.md', { mimeType: 'text/markdown' }, async (uri) => ({
   *   contents: [{ uri, text: await readFile('README.md', 'utf8') }],
   * }));
   * server.registerResource('user', new ResourceTemplate('users://{id}'), {}, (uri, { id }) => ({
   *   contents: [{ uri, mimeType: 'application/json', text: JSON.stringify(users.get(String(id))) }],
   * }));
   * ```
   */
  registerResource(
    name: string,
    uri: string,
    metadata: ResourceMetadata,
    read: ReadResourceCallback,
  ): RegisteredResource;
  registerResource(
    name: string,
    template: ResourceTemplate,
    metadata: ResourceMetadata,
    read: ReadTemplateCallback,
  ): RegisteredResource;
  registerResource(
    name: string,
    target: string | ResourceTemplate,
    metadata: ResourceMetadata,
    read: ReadResourceCallback | ReadTemplateCallback,
  ): RegisteredResource {
    this.#wire('resources', () => {
      this.server.registerCapabilities({ resources: { subscribe: true, listChanged: true } });
      const resources = this.#resources;
      this.server.setRequestHandler('resources/list', (params, ctx) => resources.list(params['cursor'], ctx));
      this.server.setRequestHandler('resources/templates/list', (params, ctx) =>
        resources.templatePages.page(params['cursor'], ctx.era),
      );
      this.server.setRequestHandler('resources/read', (params, ctx) => resources.read(params, ctx));
    });
    const template = target instanceof ResourceTemplate ? target : undefined;
    if (template !== undefined && Object.keys(template.complete).length > 0) this.#wireCompletions();
    return this.#resources.register({
      name,
      uri: template === undefined ? (target as string) : undefined,
      template,
      metadata,
      read,
    });
  }

  /**
   * Registers a prompt; `argsSchema` validates the arguments of `prompts/get` (-32602 on failure) and
   * `complete` offers argument completion.
   *
   * @example
   * ```ts
   * server.registerPrompt('greet', { argsSchema: z.object({ name: z.string() }) }, ({ name }) => ({
   *   messages: [{ role: 'user', content: { type: 'text', text: `Say hello to ${name}` } }],
   * }));
   * ```
   */
  registerPrompt<A extends SchemaInput | undefined = undefined>(
    name: string,
    config: PromptConfig<A>,
    handler: PromptHandler<A>,
  ): RegisteredPrompt {
    this.#wire('prompts', () => {
      this.server.registerCapabilities({ prompts: { listChanged: true } });
      this.server.setRequestHandler('prompts/list', (params, ctx) =>
        this.#prompts.pages.page(params['cursor'], ctx.era),
      );
      this.server.setRequestHandler('prompts/get', (params, ctx) => this.#prompts.get(params, ctx));
    });
    if (config.complete !== undefined) this.#wireCompletions();
    return this.#prompts.register(
      name,
      config as PromptConfig<SchemaInput | undefined>,
      handler as Parameters<PromptRegistry['register']>[2],
    );
  }

  /**
   * The `requiredScopes` of what a request would run: the tool of `tools/call`, the prompt of
   * `prompts/get`, the resource (or template) serving the URI of `resources/read`; undefined for any
   * other method, an unknown or disabled name, or a registration without scopes. An HTTP handler asks
   * it before dispatch, so a token lacking a scope gets 403 `insufficient_scope` and the client can
   * step up (spec 2026-07-28 basic/authorization "Runtime Insufficient Scope Errors"); the in-protocol
   * check still runs for every other path (batches, stdio behind a proxy, WebSocket).
   *
   * @example
   * ```ts
   * createStreamableHttpHandler({
   *   onsession: (transport) => server.connect(transport),
   *   authenticate: bearerAuth({ resource, authorizationServers: [issuer], jwks }),
   *   requiredScopes: ({ method, name }) => server.requiredScopesFor(method, name),
   *   resourceMetadataUrl: resourceMetadataUrl(resource).href,
   * });
   * ```
   */
  requiredScopesFor(method: string, name: string | undefined): readonly string[] | undefined {
    if (name === undefined) return undefined;
    if (method === 'tools/call') return this.#tools.scopesOf(name);
    if (method === 'prompts/get') return this.#prompts.scopesOf(name);
    if (method === 'resources/read') return this.#resources.scopesOf(name);
    return undefined;
  }

  /** Serves one more connection (cheap; see `Server.connect`). */
  connect(transport: Transport, options?: ConnectOptions): Promise<ServerSession> {
    return this.server.connect(transport, options);
  }

  /** `notifications/resources/updated` to every session subscribed to `uri`. */
  sendResourceUpdated(uri: string): void {
    this.server.sendResourceUpdated(uri);
  }

  /** Sends pending list_changed notifications now, then closes every connection. */
  async close(): Promise<void> {
    this.#notifier.flush();
    await this.server.close();
  }

  #broadcast(kind: ListKind): void {
    if (kind === 'tools') this.server.sendToolListChanged();
    else if (kind === 'prompts') this.server.sendPromptListChanged();
    else this.server.sendResourceListChanged();
  }

  #wireCompletions(): void {
    this.#wire('completions', () => {
      this.server.registerCapabilities({ completions: {} });
      const registries = { prompts: this.#prompts, resources: this.#resources };
      this.server.setRequestHandler(
        'completion/complete',
        DeferredCompleteRequestParamsSchema as unknown as ParamsSchema<CompleteRequestParams>,
        (params) => complete(params, registries),
      );
    });
  }

  #wire(feature: string, wire: () => void): void {
    if (this.#wired.has(feature)) return;
    this.#wired.add(feature);
    wire();
  }
}
