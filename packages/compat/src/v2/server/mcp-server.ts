import {
  type CallToolResult,
  ErrorCode,
  McpError,
  type GetPromptResult,
  type Icon,
  type Implementation,
  type LoggingMessageNotificationParams,
  type ReadResourceResult,
  type ServerCapabilities,
  type ToolAnnotations,
  type Transport,
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
import * as z from 'zod/v4';
import { Server } from '../../server/compat-server.js';
import { completersOf, isRawShape } from '../../server/schema-shapes.js';
import { toolErrorsAsResults } from '../../server/tool-errors-as-results.js';
import { INNER } from '../../shared/inner.js';
import { runHandler } from './handler-context.js';
import type { ResourceTemplate } from './resource-template.js';

type Callback<R> = (...args: never[]) => R | Promise<R>;

/** `registerTool`'s config in 2.x: `inputSchema`/`outputSchema` a Standard Schema (or a deprecated raw shape). */
export interface ToolConfig {
  title?: string | undefined;
  description?: string | undefined;
  inputSchema?: unknown;
  outputSchema?: unknown;
  annotations?: ToolAnnotations | undefined;
  icons?: Icon[] | undefined;
  _meta?: Record<string, unknown> | undefined;
}

/** `registerPrompt`'s config in 2.x. */
export interface PromptConfig {
  title?: string | undefined;
  description?: string | undefined;
  argsSchema?: unknown;
  icons?: Icon[] | undefined;
  _meta?: Record<string, unknown> | undefined;
}

/** Options of the 2.x `McpServer`. */
export interface McpServerOptions {
  capabilities?: ServerCapabilities | undefined;
  instructions?: string | undefined;
}

const X_SERVERS = new WeakMap<McpServer, XMcpServer>();

/**
 * The x-mcp server a 2.x `McpServer` stands on (for `createMcpHandler` and `serveStdio`, which serve
 * many connections from it).
 *
 * @example
 * ```ts
 * const x = xServerOf(factoryResult);
 * ```
 */
export function xServerOf(server: McpServer): XMcpServer {
  const x = X_SERVERS.get(server);
  if (x === undefined)
    throw new TypeError('@x/compat: not a @modelcontextprotocol/server McpServer of this package');
  return x;
}

/**
 * The official 2.x `McpServer` (`@modelcontextprotocol/server`) on x-mcp's `McpServer`: `register…`
 * with Standard Schemas (raw shapes too), handlers `(args, ctx)` with the 2.x context, `inputRequired`
 * results, both protocol eras on every connection.
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
  /** The low-level server underneath (its 1.x-style API: `createMessage`, `sendLoggingMessage`, …). */
  readonly server: Server;
  readonly #x: XMcpServer;

  constructor(serverInfo: Implementation, options: McpServerOptions = {}) {
    this.#x = new XMcpServer(serverInfo, {
      capabilities: options.capabilities ?? {},
      instructions: options.instructions,
      logging: true,
    });
    this.#x.server.use(toolErrorsAsResults);
    this.server = new Server(serverInfo, { ...options, [INNER]: this.#x.server });
    X_SERVERS.set(this, this.#x);
  }

  /** Serves `transport` (one connection per `connect`, as 2.x). */
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
   * Registers a tool; the callback gets `(args, ctx)`, or `(ctx)` without an `inputSchema`.
   *
   * @example
   * ```ts
   * server.registerTool('echo', { inputSchema: z.object({ text: z.string() }) }, ({ text }) => ({
   *   content: [{ type: 'text', text }],
   * }));
   * ```
   */
  registerTool(name: string, config: ToolConfig, callback: Callback<CallToolResult>): RegisteredTool {
    const inputSchema = toSchema(config.inputSchema);
    const outputSchema = toSchema(config.outputSchema);
    return this.#x.registerTool(
      name,
      stripUndefined({ ...config, inputSchema, outputSchema }) as never,
      (args: unknown, ctx: ServerContext) =>
        runHandler(ctx, (c) =>
          config.inputSchema === undefined ? invoke(callback, c) : invoke(callback, args, c),
        ).catch(toolErrorResult),
    );
  }

  /**
   * Registers a resource at a fixed URI or behind a `ResourceTemplate`; the read callback gets the URI
   * as a `URL`.
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
    read: Callback<ReadResourceResult>,
  ): RegisteredResource {
    if (typeof uriOrTemplate === 'string') {
      return this.#x.registerResource(name, uriOrTemplate, config, (uri, ctx) =>
        runHandler(ctx, (c) => invoke(read, new URL(uri), c)),
      );
    }
    return this.#x.registerResource(name, uriOrTemplate, config, (uri, variables, ctx) =>
      runHandler(ctx, (c) => invoke(read, new URL(uri), variables as UriTemplateVariables, c)),
    );
  }

  /**
   * Registers a prompt; `completable()` arguments get completion.
   *
   * @example
   * ```ts
   * server.registerPrompt('greet', { argsSchema: z.object({ name: z.string() }) }, ({ name }) => ({
   *   messages: [{ role: 'user', content: { type: 'text', text: `Hello ${name}` } }],
   * }));
   * ```
   */
  registerPrompt(name: string, config: PromptConfig, callback: Callback<GetPromptResult>): RegisteredPrompt {
    const shape = shapeOf(config.argsSchema);
    return this.#x.registerPrompt(
      name,
      stripUndefined({
        ...config,
        argsSchema: toSchema(config.argsSchema),
        complete: completersOf(shape),
      }) as never,
      (args: unknown, ctx: ServerContext) =>
        runHandler(ctx, (c) =>
          config.argsSchema === undefined ? invoke(callback, c) : invoke(callback, args, c),
        ),
    );
  }

  /** `notifications/message` to the client. */
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

/**
 * 2.x answers a tool that throws (or whose input request cannot be sent) with an `isError` result
 * carrying the message, so the model sees it. Two errors stay what they are: URL elicitation required
 * (-32042, the client acts on it) and x-mcp's end of a 2026-07-28 input round (not a failure).
 */
function toolErrorResult(error: unknown): CallToolResult {
  if (error instanceof McpError && error.code === ErrorCode.UrlElicitationRequired) throw error;
  if (error instanceof Error && error.name === 'InputRequiredSignal') throw error;
  return {
    content: [{ type: 'text', text: error instanceof Error ? error.message : String(error) }],
    isError: true,
  };
}

/** A raw shape (deprecated in 2.x, still accepted) becomes `z.object(shape)`. */
function toSchema(schema: unknown): SchemaInput | undefined {
  if (schema === undefined) return undefined;
  return (isRawShape(schema) ? z.object(schema as z.ZodRawShape) : schema) as SchemaInput;
}

/** The fields of a prompt's arguments schema (raw shape or zod object), where `completable()` marks sit. */
function shapeOf(schema: unknown): unknown {
  if (isRawShape(schema)) return schema;
  const shape = (schema as { shape?: unknown } | undefined)?.shape;
  return typeof shape === 'object' ? shape : undefined;
}

function invoke<R>(callback: (...args: never[]) => R, ...args: unknown[]): R {
  return (callback as (...args: unknown[]) => R)(...args);
}

function stripUndefined<T extends object>(value: T): T {
  return Object.fromEntries(Object.entries(value).filter(([, v]) => v !== undefined)) as T;
}
