import { type CallToolResult, ErrorCode, McpError, type Tool, xMcpHeaderProblem } from '@x/protocol/core';
import { isThenable } from '@x/protocol/internal';
import { InputRequiredSignal } from '../modern/input-round.js';
import { isTaskHandle, type ServerContext, type TaskHandle } from '../server-context.js';
import { missingTasksExtension } from '../tasks/extension-tasks.js';
import type { RegisteredTool, ToolConfig, ToolResult, ToolUpdate } from './tool-config.js';
import type { CacheHint } from '../server-options.js';
import { ListPages } from './list-pages.js';
import { type HandleTarget, RegistryHandle } from './registry-handle.js';
import {
  type CompiledSchema,
  compileSchema,
  type JsonSchemaObject,
  type SchemaInput,
  type Validation,
} from './schema-adapter.js';
import { describeValue, kindOf } from '../describe-value.js';
import { checkScopes, requiredScopesOf } from './required-scopes.js';

type AnyHandler = (
  args: unknown,
  ctx: ServerContext,
) => ToolResult<unknown> | TaskHandle | Promise<ToolResult<unknown> | TaskHandle>;

interface ToolEntry {
  config: ToolConfig<SchemaInput | undefined, SchemaInput | undefined>;
  definition: Tool;
  input: CompiledSchema | undefined;
  output: CompiledSchema | undefined;
  handler: AnyHandler;
  enabled: boolean;
  /** `requiredScopes`, checked; undefined when none. */
  scopes: readonly string[] | undefined;
}

const NAME = /^[A-Za-z0-9_.-]{1,128}$/;
const NO_ARGUMENTS: JsonSchemaObject = Object.freeze({ type: 'object', properties: {} }) as JsonSchemaObject;
const EMPTY_ARGS = Object.freeze({});

/** The tools of one `McpServer`, shared by every session. */
export class ToolRegistry implements HandleTarget<string, ToolUpdate> {
  readonly #tools = new Map<string, ToolEntry>();
  readonly pages: ListPages<Tool>;
  readonly #changed: () => void;

  constructor(options: { pageSize: number | undefined; hint: CacheHint; changed: () => void }) {
    this.#changed = options.changed;
    this.pages = new ListPages<Tool>({
      key: 'tools',
      pageSize: options.pageSize,
      hint: options.hint,
      items: () => [...this.#tools.values()].filter((t) => t.enabled).map((t) => t.definition),
    });
  }

  /** `call` as the routing table's `tools/call` handler (one closure per server, made once). */
  readonly handleCall = (params: Record<string, unknown>, ctx: ServerContext): object | Promise<object> =>
    this.call(params, ctx);

  get size(): number {
    return this.#tools.size;
  }

  register(name: string, config: ToolEntry['config'], handler: AnyHandler): RegisteredTool {
    if (this.#tools.has(name)) throw new Error(`Tool "${name}" is already registered`);
    this.#tools.set(name, build(name, config, handler, true));
    this.#touch();
    return new RegistryHandle(this, name);
  }

  entry(name: string): ToolEntry | undefined {
    return this.#tools.get(name);
  }

  /** The `requiredScopes` of an enabled tool (a `Map`: a wire name like `constructor` finds nothing). */
  scopesOf(name: string): readonly string[] | undefined {
    const tool = this.#tools.get(name);
    return tool?.enabled === true ? tool.scopes : undefined;
  }

  nameOf(name: string): string {
    return name;
  }

  isEnabled(name: string): boolean {
    return this.#tools.get(name)?.enabled ?? false;
  }

  update(name: string, changes: ToolUpdate): string {
    const current = this.#require(name);
    const { name: rename, handler, enabled, ...config } = changes;
    const next = build(
      rename ?? name,
      { ...current.config, ...config },
      (handler as AnyHandler | undefined) ?? current.handler,
      enabled ?? current.enabled,
    );
    if (rename !== undefined && rename !== name) {
      if (this.#tools.has(rename)) throw new Error(`Tool "${rename}" is already registered`);
      this.#tools.delete(name);
    }
    this.#tools.set(rename ?? name, next);
    this.#touch();
    return rename ?? name;
  }

  setEnabled(name: string, enabled: boolean): void {
    const entry = this.#require(name);
    if (entry.enabled === enabled) return;
    entry.enabled = enabled;
    this.#touch();
  }

  remove(name: string): void {
    if (this.#tools.delete(name)) this.#touch();
  }

  /**
   * `tools/call`, the routing table's handler. First the tool-level task rules, which apply only where
   * the request has tasks (`ctx.tasksEnabled`); elsewhere the tool runs normally.
   *
   * 2025-11-25 (basic/utilities/tasks, "Tool-Level Negotiation"; receivers without the capability
   * "MUST process requests of that type normally"):
   * - `taskSupport` absent or `forbidden` + a task: -32601 (the spec's SHOULD);
   * - `required` without a task: -32601 ("Servers MUST return a -32601 (Method not found) error");
   * - otherwise a task is accepted, and a result with `isError: true` makes it `failed`.
   *
   * 2026-07-28 (SEP-2663, the server decides; a legacy `task` param is ignored):
   * - `optional`/`required` and the request declared the extension: a task (`isError` stays `completed`);
   * - `required` without the extension: -32021 naming it;
   * - otherwise the tool runs now.
   */
  call(params: Record<string, unknown>, ctx: ServerContext): object | Promise<object> {
    if (!ctx.tasksEnabled) return this.#callNow(params, ctx);
    const name = params['name'];
    const tool = typeof name === 'string' ? this.#tools.get(name) : undefined;
    // An unknown tool is -32602 whether or not a task was asked for.
    if (tool === undefined || !tool.enabled) return this.#callNow(params, ctx);
    // Before a task exists: a caller without the scopes gets the error, not a failed task.
    checkScopes(tool.scopes, ctx);
    const support = tool.definition.execution?.taskSupport ?? 'forbidden';
    const requested = ctx.taskRequested !== undefined;
    const extension = ctx.taskKind === 'extension';
    if (requested && support === 'forbidden') {
      if (extension) return this.#callNow(params, ctx);
      return Promise.reject(
        new McpError(
          ErrorCode.MethodNotFound,
          `Tool ${String(name)} does not support task-augmented calls (execution.taskSupport is "${support}")`,
        ),
      );
    }
    if (!requested && support === 'required') {
      return Promise.reject(
        extension
          ? missingTasksExtension(`Tool ${String(name)} (execution.taskSupport "required")`)
          : new McpError(
              ErrorCode.MethodNotFound,
              `Tool ${String(name)} must be called as a task (execution.taskSupport is "required")`,
            ),
      );
    }
    if (!requested || tool.config.startsTask === 'handler') return this.#callNow(params, ctx);
    return this.#callAsTask(params, ctx, extension);
  }

  // Callbacks live in functions of their own, off the everyday path: a closure in `call` or `#callNow`
  // would make V8 allocate a context for what it captures on every call, taken or not.
  #callAsTask(
    params: Record<string, unknown>,
    ctx: ServerContext,
    extension: boolean,
  ): object | Promise<object> {
    return ctx.runAsTask((taskCtx) => this.#callNow(params, taskCtx), {
      failure: extension ? undefined : toolFailure,
    });
  }

  /**
   * Runs the tool now (spec: server/tools "Calling Tools", "Error Handling"): unknown tool -32602; a
   * token without the tool's `requiredScopes` -32600 `insufficient_scope` (see `checkScopes`); arguments
   * failing the input schema are a tool execution error (`isError: true`, SEP-1303) so the model can
   * fix them; a handler exception is one too, except protocol errors (`McpError`) and the 2026-07-28
   * input round; structured content that breaks the output schema is the server's fault, -32603.
   */
  #callNow(params: Record<string, unknown>, ctx: ServerContext): object | Promise<object> {
    const name = params['name'];
    if (typeof name !== 'string') {
      throw new McpError(ErrorCode.InvalidParams, `tools/call needs a string name (got ${kindOf(name)})`);
    }
    const tool = this.#tools.get(name);
    if (tool === undefined || !tool.enabled) {
      throw new McpError(ErrorCode.InvalidParams, `Unknown tool: ${describeValue(name)}`);
    }
    if (tool.scopes !== undefined) checkScopes(tool.scopes, ctx);
    const raw = params['arguments'] ?? EMPTY_ARGS;
    if (typeof raw !== 'object' || raw === null || Array.isArray(raw)) {
      throw new McpError(ErrorCode.InvalidParams, 'tools/call arguments must be an object');
    }
    if (tool.input === undefined) return run(tool, raw, ctx);
    // A synchronous schema and handler answer without a single promise (the everyday case).
    const checked = tool.input.validate(raw);
    if (checked instanceof Promise) return runCheckedLater(tool, checked, ctx);
    return runChecked(tool, checked, ctx);
  }

  #require(name: string): ToolEntry {
    const entry = this.#tools.get(name);
    if (entry === undefined) throw new Error(`Tool "${name}" is not registered`);
    return entry;
  }

  #touch(): void {
    this.pages.invalidate();
    this.#changed();
  }
}

function runCheckedLater(tool: ToolEntry, checked: Promise<Validation>, ctx: ServerContext): Promise<object> {
  return checked.then((outcome) => runChecked(tool, outcome, ctx));
}

function runChecked(tool: ToolEntry, checked: Validation, ctx: ServerContext): object | Promise<object> {
  if (!checked.ok) return toolError(`Invalid arguments for tool ${tool.definition.name}: ${checked.message}`);
  return run(tool, checked.value, ctx);
}

/** Runs the handler; awaits only what it returns as a promise. */
function run(tool: ToolEntry, args: unknown, ctx: ServerContext): object | Promise<object> {
  let result: ToolResult<unknown> | TaskHandle | PromiseLike<ToolResult<unknown> | TaskHandle>;
  try {
    result = tool.handler(args, ctx);
  } catch (error) {
    return handlerFailure(error);
  }
  if (isThenable(result)) return finishLater(tool, result);
  return finish(tool, result);
}

function finishLater(tool: ToolEntry, result: PromiseLike<ToolResult<unknown>>): Promise<object> {
  return Promise.resolve(result).then((value) => finish(tool, value), handlerFailure);
}

/** A handler exception is a tool error, except protocol errors and the 2026-07-28 input round. */
function handlerFailure(error: unknown): CallToolResult {
  if (error instanceof McpError || error instanceof InputRequiredSignal) throw error;
  return toolError(error instanceof Error ? error.message : String(error));
}

function finish(tool: ToolEntry, result: ToolResult<unknown> | TaskHandle): object | Promise<object> {
  if (tool.output === undefined || result['isError'] === true || isTaskHandle(result)) return result;
  return checkOutput(tool, result as ToolResult<unknown>);
}

function checkOutput(tool: ToolEntry, result: ToolResult<unknown>): object | Promise<object> {
  const name = tool.definition.name;
  const structured = result.structuredContent;
  if (structured === undefined) {
    throw new McpError(
      ErrorCode.InternalError,
      `Tool ${name} has an output schema but returned no structuredContent`,
    );
  }
  const settle = (checked: Validation): object => {
    if (!checked.ok) {
      throw new McpError(
        ErrorCode.InternalError,
        `Tool ${name} returned structuredContent that does not match its outputSchema: ${checked.message}`,
      );
    }
    return checked.value === structured ? result : { ...result, structuredContent: checked.value };
  };
  const checked = tool.output!.validate(structured);
  return checked instanceof Promise ? checked.then(settle) : settle(checked);
}

function toolError(text: string): CallToolResult {
  return { content: [{ type: 'text', text }], isError: true };
}

function build(name: string, config: ToolEntry['config'], handler: AnyHandler, enabled: boolean): ToolEntry {
  if (!NAME.test(name)) {
    throw new Error(
      `Invalid tool name "${name}": use 1-128 characters of A-Z a-z 0-9 _ - . (spec: server/tools "Tool names")`,
    );
  }
  const what = `Tool "${name}"`;
  const input =
    config.inputSchema === undefined
      ? undefined
      : compileSchema({ schema: config.inputSchema, what, side: 'input', published: config.inputJsonSchema });
  const output =
    config.outputSchema === undefined
      ? undefined
      : compileSchema({
          schema: config.outputSchema,
          what,
          side: 'output',
          published: config.outputJsonSchema,
        });
  const inputSchema = input?.jsonSchema ?? config.inputJsonSchema ?? NO_ARGUMENTS;
  if (inputSchema['type'] !== 'object')
    throw new Error(
      `${what}: inputSchema must describe an object: a Standard Schema object (z.object({ … })), a raw ` +
        `shape ({ text: z.string() }) or a JSON Schema of type "object"`,
    );
  // A client drops a tool whose annotation breaks the rule, so the server refuses to register it.
  const headerProblem = xMcpHeaderProblem(inputSchema);
  if (headerProblem !== undefined) throw new Error(`${what}: ${headerProblem}`);
  const definition: Tool = { name, inputSchema: inputSchema as Tool['inputSchema'] };
  if (config.title !== undefined) definition.title = config.title;
  if (config.description !== undefined) definition.description = config.description;
  if (output !== undefined) definition.outputSchema = output.jsonSchema as Tool['outputSchema'];
  if (config.annotations !== undefined) definition.annotations = config.annotations;
  if (config.icons !== undefined) definition.icons = config.icons;
  if (config.execution !== undefined) definition.execution = config.execution;
  if (config._meta !== undefined) definition._meta = config._meta;
  return {
    config,
    definition,
    input,
    output,
    handler,
    enabled,
    scopes: requiredScopesOf(config.requiredScopes, what),
  };
}

/** "For tool calls specifically, this includes cases where the tool call result has isError set to true." */
function toolFailure(result: Record<string, unknown>): { message?: string | undefined } | undefined {
  if (result['isError'] !== true) return undefined;
  const first = (result as CallToolResult).content?.[0];
  return { message: first?.type === 'text' ? first.text : 'The tool reported an error' };
}
