import type { JsonObject } from './json-value.js';
import type { NodeValidator } from './runtime.js';
import type { JsonSchemaDialect } from './types.js';

/** What a keyword compiler sees of the schema node it compiles. */
export interface NodeContext {
  readonly schema: JsonObject;
  readonly dialect: JsonSchemaDialect;
  /** The document uses `unevaluated*`, so in-place applicators must report annotations. */
  readonly tracking: boolean;
  readonly assertFormats: boolean;
  /** Compiles the subschema found at `tokens` below this node. */
  subschema(tokens: readonly (string | number)[]): NodeValidator;
  /** Resolves and compiles a `$ref`-like keyword; the result applies in place and counts depth. */
  reference(keyword: string, reference: string): NodeValidator;
  /** How many schema resources the document has (for `$dynamicRef`). */
  readonly resourceCount: number;
  /** Throws a `JsonSchemaCompileError` located at `keyword` of this node. */
  fail(keyword: string, message: string): never;
}

/** Appends the validators for the keywords it owns, in evaluation order. */
export type KeywordCompiler = (context: NodeContext, out: NodeValidator[]) => void;
