import type {
  CallToolResult,
  GetPromptResult,
  Implementation,
  LoggingMessageNotificationParams,
  ReadResourceResult,
  ToolAnnotations,
  ToolExecution,
  Transport,
} from '@x/protocol';
import {
  McpServer as XMcpServer,
  type RegisteredPrompt,
  type RegisteredResource,
  type RegisteredTool,
  type ResourceMetadata,
  type SchemaInput,
  type ServerContext,
  type UriTemplateVariables,
} from '@x/server';
import type { z } from 'zod';
import { ExperimentalMcpServerTasks } from '../experimental/tasks/mcp-server-tasks.js';
import type { TaskStore } from '../experimental/tasks/task-store.js';
import { INNER } from '../shared/inner.js';
import { toRequestExtra } from '../shared/request-handler-extra.js';
import type { RawShape, ToolCallback } from './callback-types.js';
import type { ResourceTemplate } from './compat-resource-template.js';
import { Server, type ServerOptions } from './compat-server.js';
import { completersOf, isRawShape } from './schema-shapes.js';
import { toolErrorsAsResults } from './tool-errors-as-results.js';

/**
 * A 1.x tool callback: `(args, extra)` with an input schema, `(extra)` without. `never[]` accepts any
 * parameter list (the arguments' types come from the user's zod schema); calls go through `invoke`.
 */
type LooseToolCallback = (...args: never[]) => CallToolResult | Promise<CallToolResult>;
/** A 1.x prompt callback: `(args, extra)` with an args schema, `(extra)` without. */
type PromptCallback = (...args: never[]) => GetPromptResult | Promise<GetPromptResult>;
/** A 1.x resource read callback: `(uri: URL, extra)` or, for a template, `(uri: URL, variables, extra)`. */
type ReadCallback = (...args: never[]) => ReadResourceResult | Promise<ReadResourceResult>;

/** `registerTool`'s config in 1.x. */
export interface ToolConfig {
  title?: string | undefined;
  description?: string | undefined;
  inputSchema?: SchemaInput | undefined;
  outputSchema?: SchemaInput | undefined;
  annotations?: ToolAnnotations | undefined;
  /** `taskSupport` of the tool (`forbidden` by default); task tools use `experimental.tasks`. */
  execution?: ToolExecution | undefined;
  _meta?: Record<string, unknown> | undefined;
}

/** `registerPrompt`'s config in 1.x. */
export interface PromptConfig {
  title?: string | undefined;
  description?: string | undefined;
  argsSchema?: SchemaInput | undefined;
  _meta?: Record<string, unknown> | undefined;
}

/**
 * The official 1.x `McpServer` (`@modelcontextprotocol/sdk/server/mcp.js`) on x-mcp's `McpServer`: the
 * `register…` methods and the older `tool`/`resource`/`prompt` overloads, callbacks with the official
 * `extra`, resource URIs as `URL`, `server` the 1.x low-level `Server`. One connection per instance and
 * the `initialize` era only, as 1.x.
 *
 * @example
 * ```ts
 * const server = new McpServer({ name: 'demo', version: '1.0.0' });
 * server.registerTool('add', { inputSchema: { a: z.number(), b: z.number() } }, ({ a, b }) => ({
 *   content: [{ type: 'text', text: String(a + b) }],
 * }));
 * await server.connect(new StdioServerTransport());
 * ```
 */
export class McpServer {
  /** The 1.x low-level server underneath (`server.server.createMessage(…)` and friends). */
  readonly server: Server;
  readonly #x: XMcpServer;
  readonly #taskStore: TaskStore | undefined;
  #experimental: { tasks: ExperimentalMcpServerTasks } | undefined;

  constructor(serverInfo: Implementation, options: ServerOptions = {}) {
    this.#x = new XMcpServer(serverInfo, {
      eras: 'legacy',
      capabilities: options.capabilities ?? {},
      instructions: options.instructions,
      // 1.x declares `logging` only when asked to.
      logging: options.capabilities?.logging !== undefined,
      // 1.x task tools run on x-mcp's task receiver (its own store); the 1.x store holds their results.
      ...(options.taskStore === undefined
        ? {}
        : { tasks: { list: options.capabilities?.tasks?.list !== undefined } }),
    });
    this.#taskStore = options.taskStore;
    this.#x.server.use(toolErrorsAsResults);
    this.server = new Server(serverInfo, { ...options, [INNER]: this.#x.server });
  }

  /**
   * 1.x's experimental APIs: `experimental.tasks.registerToolTask(name, config, handler)`.
   *
   * @example
   * ```ts
   * server.experimental.tasks.registerToolTask('slow', { execution: { taskSupport: 'optional' } }, handler);
   * ```
   */
  get experimental(): { tasks: ExperimentalMcpServerTasks } {
    this.#experimental ??= {
      tasks: new ExperimentalMcpServerTasks({
        taskStore: this.#taskStore,
        registerTaskTool: (name, config, handler) =>
          this.#x.registerTool(name, stripUndefined(config) as ToolConfig, handler),
      }),
    };
    return this.#experimental;
  }

  /** Serves `transport` (one connection per instance). */
  connect(transport: Transport): Promise<void> {
    return this.server.connect(transport);
  }

  /** Closes the connection. */
  close(): Promise<void> {
    return this.server.close();
  }

  /** Whether a transport is connected. */
  isConnected(): boolean {
    return this.server.transport !== undefined;
  }

  /**
   * Registers a tool (1.x `registerTool`).
   *
   * @example
   * ```ts
   * server.registerTool('echo', { description: 'Echoes', inputSchema: { text: z.string() } }, ({ text }) => ({
   *   content: [{ type: 'text', text }],
   * }));
   * ```
   */
  registerTool<Args extends undefined | RawShape | z.ZodType = undefined>(
    name: string,
    config: ToolConfig & { inputSchema?: Args },
    callback: ToolCallback<Args>,
  ): RegisteredTool;
  registerTool(name: string, config: ToolConfig, callback: LooseToolCallback): RegisteredTool;
  registerTool(name: string, config: ToolConfig, callback: LooseToolCallback): RegisteredTool {
    const inputSchema = isEmptyShape(config.inputSchema) ? EMPTY_OBJECT_SCHEMA : config.inputSchema;
    return this.#x.registerTool(
      name,
      // 1.x lists every plain tool with `execution: { taskSupport: 'forbidden' }`.
      stripUndefined({ ...config, inputSchema, execution: config.execution ?? FORBIDDEN }),
      toolHandler(config.inputSchema, callback),
    );
  }

  /**
   * The older 1.x form: `tool(name, [description], [paramsSchema], [annotations], callback)`.
   *
   * @example
   * ```ts
   * server.tool('add', 'Adds', { a: z.number(), b: z.number() }, ({ a, b }) => ({
   *   content: [{ type: 'text', text: String(a + b) }],
   * }));
   * ```
   */
  tool(name: string, ...rest: unknown[]): RegisteredTool {
    const callback = rest.pop() as LooseToolCallback;
    const description = typeof rest[0] === 'string' ? (rest.shift() as string) : undefined;
    let inputSchema: SchemaInput | undefined;
    let annotations: ToolAnnotations | undefined;
    if (rest.length > 0 && isRawShapeOrSchema(rest[0])) inputSchema = rest.shift() as SchemaInput;
    if (rest.length > 0) annotations = rest.shift() as ToolAnnotations;
    return this.registerTool(name, { description, inputSchema, annotations }, callback);
  }

  /**
   * Registers a resource at a fixed URI or behind a `ResourceTemplate` (1.x `registerResource`); the
   * read callback gets the URI as a `URL`.
   *
   * @example
   * ```ts
   * server.registerResource('readme', 'file:///README.md', { mimeType: 'text/markdown' }, (uri) => ({
   *   contents: [{ uri: uri.href, text: '# Hello' }],
   * }));
   * ```
   */
  registerResource(
    name: string,
    uriOrTemplate: string | ResourceTemplate,
    config: ResourceMetadata,
    read: ReadCallback,
  ): RegisteredResource {
    if (typeof uriOrTemplate === 'string') {
      return this.#x.registerResource(name, uriOrTemplate, config, (uri, ctx) =>
        invoke(read, new URL(uri), toRequestExtra(ctx)),
      );
    }
    return this.#x.registerResource(name, uriOrTemplate, config, (uri, variables, ctx) =>
      invoke(read, new URL(uri), variables as UriTemplateVariables, toRequestExtra(ctx)),
    );
  }

  /**
   * The older 1.x form: `resource(name, uriOrTemplate, [metadata], read)`.
   *
   * @example
   * ```ts
   * server.resource('config', 'config://app', (uri) => ({ contents: [{ uri: uri.href, text: '{}' }] }));
   * ```
   */
  resource(name: string, uriOrTemplate: string | ResourceTemplate, ...rest: unknown[]): RegisteredResource {
    const read = rest.pop() as ReadCallback;
    const metadata = (rest[0] ?? {}) as ResourceMetadata;
    return this.registerResource(name, uriOrTemplate, metadata, read);
  }

  /**
   * Registers a prompt (1.x `registerPrompt`); `completable()` arguments get completion.
   *
   * @example
   * ```ts
   * server.registerPrompt('greet', { argsSchema: { name: z.string() } }, ({ name }) => ({
   *   messages: [{ role: 'user', content: { type: 'text', text: `Hello ${name}` } }],
   * }));
   * ```
   */
  registerPrompt(name: string, config: PromptConfig, callback: PromptCallback): RegisteredPrompt {
    const argsSchema = config.argsSchema;
    const complete = completersOf(argsSchema);
    return this.#x.registerPrompt(
      name,
      stripUndefined({ ...config, complete }),
      (args: unknown, ctx: ServerContext) =>
        argsSchema === undefined
          ? invoke(callback, toRequestExtra(ctx))
          : invoke(callback, args, toRequestExtra(ctx)),
    );
  }

  /**
   * The older 1.x form: `prompt(name, [description], [argsSchema], callback)`.
   *
   * @example
   * ```ts
   * server.prompt('review', 'Reviews code', { code: z.string() }, ({ code }) => ({
   *   messages: [{ role: 'user', content: { type: 'text', text: code } }],
   * }));
   * ```
   */
  prompt(name: string, ...rest: unknown[]): RegisteredPrompt {
    const callback = rest.pop() as PromptCallback;
    const description = typeof rest[0] === 'string' ? (rest.shift() as string) : undefined;
    const argsSchema = rest[0] as SchemaInput | undefined;
    return this.registerPrompt(name, { description, argsSchema }, callback);
  }

  /** `notifications/message` to the client (see `Server.sendLoggingMessage`). */
  sendLoggingMessage(params: LoggingMessageNotificationParams, sessionId?: string): Promise<void> {
    return this.server.sendLoggingMessage(params, sessionId);
  }

  /** `notifications/tools/list_changed` (x-mcp also sends it by itself on every change). */
  sendToolListChanged(): void {
    this.#x.server.sendToolListChanged();
  }

  /** `notifications/resources/list_changed`. */
  sendResourceListChanged(): void {
    this.#x.server.sendResourceListChanged();
  }

  /** `notifications/prompts/list_changed`. */
  sendPromptListChanged(): void {
    this.#x.server.sendPromptListChanged();
  }
}

/** The x-mcp handler of a 1.x tool callback: `(extra)` when the tool takes no arguments, as in 1.x. */
function toolHandler(inputSchema: SchemaInput | undefined, callback: LooseToolCallback) {
  return (args: unknown, ctx: ServerContext) =>
    inputSchema === undefined
      ? invoke(callback, toRequestExtra(ctx))
      : invoke(callback, args, toRequestExtra(ctx));
}

/**
 * What an empty raw shape (`inputSchema: {}`, a tool without arguments that still takes `(args, extra)`)
 * becomes for x-mcp, which asks for an object schema: 1.x lists it the same way.
 */
const EMPTY_OBJECT_SCHEMA = { type: 'object', properties: {} } as const;

const FORBIDDEN: ToolExecution = { taskSupport: 'forbidden' };

function isEmptyShape(schema: unknown): boolean {
  return isRawShape(schema) && Object.keys(schema).length === 0;
}

/** Calls a 1.x callback with the arguments 1.x gives it. */
function invoke<R>(callback: (...args: never[]) => R, ...args: unknown[]): R {
  return (callback as (...args: unknown[]) => R)(...args);
}

/** Whether a `tool()` argument is a schema (raw shape, zod object) rather than annotations. */
function isRawShapeOrSchema(value: unknown): boolean {
  if (typeof value !== 'object' || value === null) return false;
  if ('~standard' in value || '_def' in value || '_zod' in value) return true;
  return isRawShape(value);
}

/** Drops `undefined` members (x-mcp's configs are exact optional types). */
function stripUndefined<T extends object>(value: T): T {
  return Object.fromEntries(Object.entries(value).filter(([, v]) => v !== undefined)) as T;
}
