import type { CallToolResult, Icon, ToolAnnotations, ToolExecution } from '@x/protocol/core';
import type { ServerContext, TaskHandle } from '../server-context.js';
import type { InferSchema, JsonSchemaObject, SchemaInput } from './schema-adapter.js';

/**
 * How a tool is described in `tools/list`.
 *
 * @example
 * ```ts
 * const Args = z.object({ a: z.number(), b: z.number() });
 * const config: ToolConfig<typeof Args> = {
 *   title: 'Add', description: 'Adds two numbers', inputSchema: Args,
 *   annotations: { readOnlyHint: true },
 * };
 * ```
 */
export interface ToolConfig<
  I extends SchemaInput | undefined = undefined,
  O extends SchemaInput | undefined = undefined,
> {
  title?: string | undefined;
  description?: string | undefined;
  /** Standard Schema (zod 4, valibot, arktype) or raw JSON Schema 2020-12 of the arguments object. */
  inputSchema?: I;
  /** Schema of `structuredContent`; the handler's structured result is checked against it. */
  outputSchema?: O;
  /** JSON Schema to publish instead of converting `inputSchema` (for Standard Schemas without a converter). */
  inputJsonSchema?: JsonSchemaObject | undefined;
  outputJsonSchema?: JsonSchemaObject | undefined;
  annotations?: ToolAnnotations | undefined;
  icons?: Icon[] | undefined;
  /**
   * Task support, published in `tools/list` (`taskSupport`: `forbidden` (default), `optional`,
   * `required`). With tasks enabled on the server, a call the client lets run as a task (2025-11-25
   * `params.task`; 2026-07-28 the `io.modelcontextprotocol/tasks` extension) gets a task handle at once
   * and the handler runs in the background; `required` without that is -32601 (2025-11-25) or -32021
   * (2026-07-28).
   */
  execution?: ToolExecution | undefined;
  /**
   * Who starts the task of a task-capable call: `auto` (default) starts it before the handler runs;
   * `handler` runs the handler on the request and lets it call `ctx.runAsTask()` itself, e.g. after
   * gathering input synchronously (SEP-2663 "Composition with Multi Round-Trip Requests").
   */
  startsTask?: 'auto' | 'handler' | undefined;
  _meta?: Record<string, unknown> | undefined;
  /**
   * OAuth scopes a caller's token must carry to call the tool: otherwise the call fails before the
   * handler runs with -32600 and `data: { error: 'insufficient_scope', requiredScopes, missingScopes }`.
   * Checked only for requests that carry `authInfo` (behind an `authenticate` hook); not published in
   * `tools/list`. `McpServer.requiredScopesFor` gives them to an HTTP handler for a 403 challenge.
   */
  requiredScopes?: readonly string[] | undefined;
}

/**
 * A `tools/call` result whose `structuredContent` has the output schema's type.
 *
 * @example
 * ```ts
 * const result: ToolResult<{ celsius: number }> = {
 *   content: [{ type: 'text', text: '21 °C' }],
 *   structuredContent: { celsius: 21 },
 * };
 * ```
 */
export type ToolResult<Out> = Omit<CallToolResult, 'structuredContent'> & { structuredContent?: Out };

/**
 * Runs a tool for `tools/call`; `args` are typed (and already validated) by the tool's `inputSchema`.
 *
 * @example
 * ```ts
 * const Args = z.object({ text: z.string() });
 * const echo: ToolHandler<typeof Args, undefined> = ({ text }, ctx) => ({
 *   content: [{ type: 'text', text }],
 * });
 * server.registerTool('echo', { inputSchema: Args }, echo);
 * ```
 */
export type ToolHandler<I extends SchemaInput | undefined, O extends SchemaInput | undefined> = (
  args: I extends SchemaInput ? InferSchema<I> : Record<string, unknown>,
  ctx: ServerContext,
) =>
  | ToolResult<O extends SchemaInput ? InferSchema<O> : unknown>
  | TaskHandle
  | Promise<ToolResult<O extends SchemaInput ? InferSchema<O> : unknown> | TaskHandle>;

/**
 * The handle `registerTool` returns.
 *
 * @example
 * ```ts
 * const tool = server.registerTool('beta', { description: 'Beta feature' }, handler);
 * tool.disable(); // gone from tools/list, calls fail with -32602; clients get list_changed
 * tool.update({ description: 'Now stable' });
 * tool.enable();
 * ```
 */
export interface RegisteredTool {
  readonly name: string;
  readonly enabled: boolean;
  enable(): void;
  disable(): void;
  /** Changes the definition (and the handler); a changed `name` renames the tool. */
  update(changes: ToolUpdate): void;
  remove(): void;
}

/**
 * What `RegisteredTool#update` can change: any part of the definition, the name, the handler, or whether it is enabled.
 *
 * @example
 * ```ts
 * tool.update({
 *   name: 'search-v2',
 *   description: 'Searches the index (v2 ranking)',
 *   handler: async (args) => ({ content: [{ type: 'text', text: JSON.stringify(args) }] }),
 * });
 * ```
 */
export interface ToolUpdate extends ToolConfig<SchemaInput | undefined, SchemaInput | undefined> {
  name?: string | undefined;
  handler?: ToolHandler<SchemaInput | undefined, SchemaInput | undefined> | undefined;
  enabled?: boolean | undefined;
}
