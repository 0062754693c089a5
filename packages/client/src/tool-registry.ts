import { type CallToolResult, ErrorCode, McpError, type Tool, xMcpHeaderProblem } from '@x/protocol/core';

/**
 * Outcome of validating one value, as `compileJsonSchema` from `@x/protocol` reports it.
 *
 * @example
 * ```ts
 * const report = (check: JsonSchemaCheck): string =>
 *   check.valid ? 'ok' : check.errors.map((e) => `${e.path || '/'}: ${e.message}`).join('; ');
 * ```
 */
export type JsonSchemaCheck =
  | { readonly valid: true }
  | {
      readonly valid: false;
      readonly errors: readonly { readonly path: string; readonly message: string }[];
    };

/**
 * Compiles a JSON Schema once into a reusable validator (throws for schemas it cannot handle).
 *
 * @example
 * ```ts
 * // The default compiler, but with `format` asserted (email, uri, date-time…) instead of annotated.
 * const jsonSchemaCompiler: JsonSchemaCompiler = (schema) =>
 *   compileJsonSchema(schema, { assertFormats: true });
 * const client = new Client({ name: 'my-app', version: '1.0.0' }, { jsonSchemaCompiler });
 * ```
 */
export type JsonSchemaCompiler = (schema: Record<string, unknown>) => {
  readonly validate: (value: unknown) => JsonSchemaCheck;
};

interface ToolEntry {
  readonly outputSchema: Record<string, unknown> | undefined;
  /** `execution.taskSupport`; absent means `forbidden` (2025-11-25 basic/utilities/tasks). */
  readonly taskSupport: 'forbidden' | 'optional' | 'required';
  /** Annotated `readOnlyHint` or `idempotentHint`: a retry policy may repeat a call. */
  readonly repeatable: boolean;
  validate: ((value: unknown) => JsonSchemaCheck) | undefined;
}

/**
 * What the client remembers about the server's tools from `tools/list`: output schemas, compiled on a
 * tool's first call and reused until the next listing (no per-call compilation), to check
 * `structuredContent` (2025-06-18+ server/tools, "Output Schema": clients SHOULD validate).
 */
export class ToolRegistry {
  readonly #entries = new Map<string, ToolEntry>();
  #compile: JsonSchemaCompiler | undefined;
  readonly #loadCompiler: () => Promise<JsonSchemaCompiler>;

  /** `compile`, or (undefined) the compiler `loadCompiler` imports on the first output schema. */
  constructor(compile: JsonSchemaCompiler | undefined, loadCompiler: () => Promise<JsonSchemaCompiler>) {
    this.#compile = compile;
    this.#loadCompiler = loadCompiler;
  }

  /**
   * Records one page of `tools/list` (the first page starts over) and returns the tools worth keeping:
   * those with an invalid `x-mcp-header` are dropped, each with a warning.
   */
  record(tools: Tool[], firstPage: boolean, warn: (message: string) => void): Tool[] {
    if (firstPage) this.#entries.clear();
    let kept: Tool[] | undefined;
    for (let i = 0; i < tools.length; i++) {
      const tool = tools[i]!;
      const problem = xMcpHeaderProblem(tool.inputSchema);
      if (problem !== undefined) {
        warn(`Ignoring tool "${tool.name}": ${problem}`);
        kept ??= tools.slice(0, i);
        continue;
      }
      kept?.push(tool);
      this.#entries.set(tool.name, {
        outputSchema: tool.outputSchema,
        taskSupport: tool.execution?.taskSupport ?? 'forbidden',
        repeatable: tool.annotations?.readOnlyHint === true || tool.annotations?.idempotentHint === true,
        validate: undefined,
      });
    }
    return kept ?? tools;
  }

  clear(): void {
    this.#entries.clear();
  }

  /** The tool's `execution.taskSupport` from the last listing; undefined for a tool not listed. */
  taskSupport(name: string): ToolEntry['taskSupport'] | undefined {
    return this.#entries.get(name)?.taskSupport;
  }

  /** Whether the last listing annotated `name` `readOnlyHint` or `idempotentHint`. */
  isRepeatable(name: string): boolean {
    return this.#entries.get(name)?.repeatable === true;
  }

  /** Whether a `check` of `name`'s results could fail (its listing gave an output schema). */
  hasOutputSchema(name: string): boolean {
    return this.#entries.get(name)?.outputSchema !== undefined;
  }

  /**
   * Throws an `McpError` when a successful result does not match the tool's cached `outputSchema`; a
   * promise of the same outcome while the default compiler is still being imported (first use).
   */
  check(name: string, result: CallToolResult): void | Promise<void> {
    const entry = this.#entries.get(name);
    if (entry?.outputSchema === undefined || result.isError === true) return;
    if (result.structuredContent === undefined) {
      throw new McpError(
        ErrorCode.InvalidParams,
        `Tool "${name}" has an output schema but returned no structuredContent`,
      );
    }
    if (entry.validate === undefined && this.#compile === undefined) {
      return this.#loadCompiler().then((compile) => {
        this.#compile = compile;
        return this.check(name, result);
      });
    }
    entry.validate ??= this.#compileFor(name, entry.outputSchema);
    const check = entry.validate(result.structuredContent);
    if (!check.valid) {
      const details = check.errors.map((e) => `${e.path || '/'}: ${e.message}`).join('; ');
      throw new McpError(
        ErrorCode.InvalidParams,
        `Tool "${name}" returned structuredContent that does not match its output schema: ${details}`,
        { tool: name, errors: check.errors },
      );
    }
  }

  #compileFor(name: string, schema: Record<string, unknown>): (value: unknown) => JsonSchemaCheck {
    try {
      return (this.#compile as JsonSchemaCompiler)(schema).validate;
    } catch (error) {
      throw new McpError(
        ErrorCode.InvalidParams,
        `Tool "${name}" has an output schema this client cannot compile: ${String(error)}`,
        undefined,
        { cause: error },
      );
    }
  }
}
