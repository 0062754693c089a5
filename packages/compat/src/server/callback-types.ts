/**
 * The callback and option type names of the official 1.x `server/mcp.js`, for applications that annotate
 * their handlers with them (`const add: ToolCallback<typeof shape> = …`). Types only: `McpServer`
 * takes these callbacks as it takes any function of the right shape.
 */
import type { CallToolResult, GetPromptResult, ReadResourceResult } from '@x/protocol';
import type { RegisteredResource } from '@x/server';
import type { z } from 'zod';
import type { ToolTaskHandler } from '../experimental/tasks/mcp-server-tasks.js';
import type { RequestHandlerExtra } from '../shared/request-handler-extra.js';
import type { ServerOptions } from './compat-server.js';

/** A zod raw shape, as `inputSchema: { a: z.number() }`. */
export type RawShape = Record<string, z.ZodType>;
/** What a raw shape parses to. */
type ShapeOutput<S extends RawShape> = z.output<z.ZodObject<S>>;

/**
 * A tool callback for a result type and an `extra` type: `(args, extra)` when the tool has an input
 * schema (a raw shape or a zod schema), `(extra)` when it has none.
 *
 * @example
 * ```ts
 * const echo: BaseToolCallback<CallToolResult, RequestHandlerExtra, { text: z.ZodString }> = ({ text }) => ({
 *   content: [{ type: 'text', text }],
 * });
 * ```
 */
export type BaseToolCallback<
  Result,
  Extra,
  Args extends undefined | RawShape | z.ZodType,
> = Args extends z.ZodType
  ? (args: z.output<Args>, extra: Extra) => Result | Promise<Result>
  : Args extends RawShape
    ? (args: ShapeOutput<Args>, extra: Extra) => Result | Promise<Result>
    : (extra: Extra) => Result | Promise<Result>;

/**
 * A tool callback (`registerTool`'s third argument).
 *
 * @example
 * ```ts
 * const shape = { a: z.number(), b: z.number() };
 * const add: ToolCallback<typeof shape> = ({ a, b }) => ({ content: [{ type: 'text', text: String(a + b) }] });
 * server.registerTool('add', { inputSchema: shape }, add);
 * ```
 */
export type ToolCallback<Args extends undefined | RawShape | z.ZodType = undefined> = BaseToolCallback<
  CallToolResult,
  RequestHandlerExtra,
  Args
>;

/** A plain tool callback or a task tool's handlers (`experimental.tasks.registerToolTask`). */
export type AnyToolHandler<Args extends undefined | RawShape | z.ZodType = undefined> =
  | ToolCallback<Args>
  | ToolTaskHandler;

/** A prompt callback: `(args, extra)` with an args shape, `(extra)` without. */
export type PromptCallback<Args extends undefined | RawShape = undefined> = Args extends RawShape
  ? (args: ShapeOutput<Args>, extra: RequestHandlerExtra) => GetPromptResult | Promise<GetPromptResult>
  : (extra: RequestHandlerExtra) => GetPromptResult | Promise<GetPromptResult>;

/** Reads a resource at a fixed URI. */
export type ReadResourceCallback = (
  uri: URL,
  extra: RequestHandlerExtra,
) => ReadResourceResult | Promise<ReadResourceResult>;

/** Reads a resource behind a template, with the template's variables. */
export type ReadResourceTemplateCallback = (
  uri: URL,
  variables: Record<string, string | string[]>,
  extra: RequestHandlerExtra,
) => ReadResourceResult | Promise<ReadResourceResult>;

/** Completes a template variable: its candidates for the value typed so far. */
export type CompleteResourceTemplateCallback = (
  value: string,
  context?: { arguments?: Record<string, string> | undefined },
) => string[] | Promise<string[]>;

/** `McpServer`'s options (the low-level `Server`'s; 1.x's `maxToolInputElements` is not read). */
export type McpServerOptions = ServerOptions;

/** What `registerResource` returns for a template (the same handle as for a fixed URI). */
export type RegisteredResourceTemplate = RegisteredResource;
