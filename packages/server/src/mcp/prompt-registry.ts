import {
  ErrorCode,
  type GetPromptResult,
  type Icon,
  McpError,
  type Prompt,
  type PromptArgument,
} from '@x/protocol/core';
import { describeValue, kindOf } from '../describe-value.js';
import type { ServerContext } from '../server-context.js';
import type { CacheHint } from '../server-options.js';
import { ListPages } from './list-pages.js';
import { type HandleTarget, RegistryHandle } from './registry-handle.js';
import { type CompleteCallback, ownCompleter } from './resource-template.js';
import { checkScopes, requiredScopesOf } from './required-scopes.js';
import { type CompiledSchema, compileSchema, type InferSchema, type SchemaInput } from './schema-adapter.js';

/**
 * How a prompt is described in `prompts/list`. Its arguments come from `argsSchema` (an object schema
 * of string properties: names, descriptions and `required`), or from `arguments` when given.
 *
 * @example
 * ```ts
 * server.registerPrompt('review', {
 *   argsSchema: z.object({ language: z.string().describe('Source language') }),
 *   complete: { language: (prefix) => ['go', 'rust', 'typescript'].filter((l) => l.startsWith(prefix)) },
 * }, ({ language }) => ({ messages: [{ role: 'user', content: { type: 'text', text: `Review this ${language}` } }] }));
 * ```
 */
export interface PromptConfig<A extends SchemaInput | undefined = undefined> {
  title?: string | undefined;
  description?: string | undefined;
  argsSchema?: A;
  arguments?: PromptArgument[] | undefined;
  /** Completion of argument values (`completion/complete` with a `ref/prompt`). */
  complete?: Record<string, CompleteCallback> | undefined;
  icons?: Icon[] | undefined;
  _meta?: Record<string, unknown> | undefined;
  /**
   * OAuth scopes a caller's token must carry for `prompts/get` (see `ToolConfig.requiredScopes`):
   * otherwise -32600 `insufficient_scope` before the handler runs; unchecked without `authInfo`.
   */
  requiredScopes?: readonly string[] | undefined;
}

/**
 * Builds the messages of `prompts/get`; `args` are typed by the prompt's `argsSchema`.
 *
 * @example
 * ```ts
 * const Args = z.object({ topic: z.string() });
 * const explain: PromptHandler<typeof Args> = ({ topic }) => ({
 *   messages: [{ role: 'user', content: { type: 'text', text: `Explain ${topic} to a newcomer.` } }],
 * });
 * server.registerPrompt('explain', { argsSchema: Args }, explain);
 * ```
 */
export type PromptHandler<A extends SchemaInput | undefined> = (
  args: A extends SchemaInput ? InferSchema<A> : Record<string, string>,
  ctx: ServerContext,
) => GetPromptResult | Promise<GetPromptResult>;

/**
 * The handle `registerPrompt` returns.
 *
 * @example
 * ```ts
 * const prompt = server.registerPrompt('summarize', { description: 'Summarize a text' }, () => ({
 *   messages: [],
 * }));
 * prompt.update({ description: 'Summarize a text in three bullet points' });
 * prompt.disable(); // gone from prompts/list; clients get list_changed
 * ```
 */
/** What `RegisteredPrompt.update` may change: everything but the arguments schema, and the name. */
type PromptUpdate = Omit<PromptConfig<undefined>, 'argsSchema'> & { name?: string | undefined };

export interface RegisteredPrompt {
  readonly name: string;
  readonly enabled: boolean;
  enable(): void;
  disable(): void;
  update(changes: PromptUpdate): void;
  remove(): void;
}

type AnyHandler = (args: unknown, ctx: ServerContext) => GetPromptResult | Promise<GetPromptResult>;

interface Entry {
  definition: Prompt;
  config: PromptConfig<SchemaInput | undefined>;
  args: CompiledSchema | undefined;
  handler: AnyHandler;
  enabled: boolean;
  scopes: readonly string[] | undefined;
}

/** The prompts of one `McpServer`. */
export class PromptRegistry implements HandleTarget<string, PromptUpdate> {
  readonly #prompts = new Map<string, Entry>();
  readonly pages: ListPages<Prompt>;
  readonly #changed: () => void;

  constructor(options: { pageSize: number | undefined; hint: CacheHint; changed: () => void }) {
    this.#changed = options.changed;
    this.pages = new ListPages<Prompt>({
      key: 'prompts',
      pageSize: options.pageSize,
      hint: options.hint,
      items: () => [...this.#prompts.values()].filter((p) => p.enabled).map((p) => p.definition),
    });
  }

  register(
    name: string,
    config: PromptConfig<SchemaInput | undefined>,
    handler: AnyHandler,
  ): RegisteredPrompt {
    if (this.#prompts.has(name)) throw new Error(`Prompt "${name}" is already registered`);
    this.#prompts.set(name, build(name, config, handler));
    this.#touch();
    return new RegistryHandle(this, name);
  }

  entry(name: string): Entry | undefined {
    return this.#prompts.get(name);
  }

  /** The `requiredScopes` of an enabled prompt. */
  scopesOf(name: string): readonly string[] | undefined {
    const prompt = this.#prompts.get(name);
    return prompt?.enabled === true ? prompt.scopes : undefined;
  }

  completer(name: string, argument: string): CompleteCallback | undefined | null {
    const entry = this.#prompts.get(name);
    if (entry === undefined || !entry.enabled) return null;
    return ownCompleter(entry.config.complete, argument);
  }

  /** `prompts/get`: unknown prompt or arguments failing the schema are -32602 (spec: server/prompts). */
  async get(params: Record<string, unknown>, ctx: ServerContext): Promise<object> {
    const name = params['name'];
    if (typeof name !== 'string') {
      throw new McpError(ErrorCode.InvalidParams, `prompts/get needs a string name (got ${kindOf(name)})`);
    }
    const prompt = this.#prompts.get(name);
    if (prompt === undefined || !prompt.enabled)
      throw new McpError(ErrorCode.InvalidParams, `Unknown prompt: ${describeValue(name)}`);
    checkScopes(prompt.scopes, ctx);
    let args: unknown = params['arguments'] ?? {};
    if (prompt.args !== undefined) {
      const checked = await prompt.args.validate(args);
      if (!checked.ok) {
        throw new McpError(
          ErrorCode.InvalidParams,
          `Invalid arguments for prompt ${prompt.definition.name}: ${checked.message}`,
        );
      }
      args = checked.value;
    }
    return prompt.handler(args, ctx);
  }

  nameOf(name: string): string {
    return name;
  }

  isEnabled(name: string): boolean {
    return this.#prompts.get(name)?.enabled ?? false;
  }

  update(name: string, changes: PromptUpdate): string {
    const entry = this.#require(name);
    const { name: next = name, ...config } = changes;
    if (next !== name && this.#prompts.has(next)) throw new Error(`Prompt "${next}" is already registered`);
    const rebuilt = build(next, { ...entry.config, ...config }, entry.handler);
    rebuilt.enabled = entry.enabled;
    this.#prompts.delete(name);
    this.#prompts.set(next, rebuilt);
    this.#touch();
    return next;
  }

  setEnabled(name: string, enabled: boolean): void {
    const entry = this.#require(name);
    if (entry.enabled === enabled) return;
    entry.enabled = enabled;
    this.#touch();
  }

  remove(name: string): void {
    if (this.#prompts.delete(name)) this.#touch();
  }

  #require(name: string): Entry {
    const entry = this.#prompts.get(name);
    if (entry === undefined) throw new Error(`Prompt "${name}" is not registered`);
    return entry;
  }

  #touch(): void {
    this.pages.invalidate();
    this.#changed();
  }
}

function build(name: string, config: PromptConfig<SchemaInput | undefined>, handler: AnyHandler): Entry {
  const args =
    config.argsSchema === undefined
      ? undefined
      : compileSchema({ schema: config.argsSchema, what: `Prompt "${name}"`, side: 'input' });
  const definition: Prompt = { name };
  if (config.title !== undefined) definition.title = config.title;
  if (config.description !== undefined) definition.description = config.description;
  const argumentList = config.arguments ?? (args === undefined ? undefined : argumentsOf(args.jsonSchema));
  if (argumentList !== undefined && argumentList.length > 0) definition.arguments = argumentList;
  if (config.icons !== undefined) definition.icons = config.icons;
  if (config._meta !== undefined) definition._meta = config._meta;
  const scopes = requiredScopesOf(config.requiredScopes, `Prompt "${name}"`);
  return { definition, config, args, handler, enabled: true, scopes };
}

/** Prompt arguments from an object schema: property names, their descriptions, and `required`. */
function argumentsOf(schema: Record<string, unknown>): PromptArgument[] {
  const properties = (schema['properties'] ?? {}) as Record<string, Record<string, unknown>>;
  const required = new Set(Array.isArray(schema['required']) ? (schema['required'] as string[]) : []);
  return Object.entries(properties).map(([name, property]) => {
    const argument: PromptArgument = { name };
    if (typeof property['description'] === 'string') argument.description = property['description'];
    if (required.has(name)) argument.required = true;
    return argument;
  });
}
