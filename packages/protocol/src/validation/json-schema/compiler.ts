import { JsonSchemaCompileError } from './compile-error.js';
import { appendPointer } from './json-pointer.js';
import type { JsonObject } from './json-value.js';
import { hasOwn, isJsonObject } from './json-value.js';
import { compileArrayKeywords } from './keywords/array-keywords.js';
import { compileLogicKeywords } from './keywords/logic-keywords.js';
import { compileNumberKeywords } from './keywords/number-keywords.js';
import { compileObjectKeywords } from './keywords/object-keywords.js';
import { compileRefKeywords } from './keywords/ref-keywords.js';
import { compileStringKeywords } from './keywords/string-keywords.js';
import { compileTypeKeywords } from './keywords/type-keywords.js';
import { compileUnevaluatedKeywords } from './keywords/unevaluated-keywords.js';
import type { KeywordCompiler, NodeContext } from './node-context.js';
import type { NodeValidator } from './runtime.js';
import {
  Annotations,
  allOfValidators,
  alwaysValid,
  applyInPlace,
  DepthLimitError,
  report,
} from './runtime.js';
import type { SchemaIndex } from './schema-index.js';
import { schemaBase } from './schema-index.js';
import type { JsonSchemaDialect } from './types.js';

// Cheap type checks first; `unevaluated*` last because it reads every other keyword's annotations.
const KEYWORD_COMPILERS: readonly KeywordCompiler[] = [
  compileTypeKeywords,
  compileRefKeywords,
  compileNumberKeywords,
  compileStringKeywords,
  compileArrayKeywords,
  compileObjectKeywords,
  compileLogicKeywords,
  compileUnevaluatedKeywords,
];

const falseSchema: NodeValidator = (_value, state) => {
  report(state, 'false', 'no value is allowed here (false schema)');
  return false;
};

interface Holder {
  validate: NodeValidator;
  done: boolean;
}

export interface CompilerOptions {
  readonly dialect: JsonSchemaDialect;
  readonly index: SchemaIndex;
  readonly tracking: boolean;
  readonly assertFormats: boolean;
}

/**
 * Turns schema nodes into closures, once per (node, base URI). The cache is what makes recursive
 * refs terminate: a ref to a node still being compiled gets its holder and calls through it later.
 */
export class Compiler {
  readonly #options: CompilerOptions;
  readonly #cache = new Map<JsonObject, Map<string, Holder>>();

  constructor(options: CompilerOptions) {
    this.#options = options;
  }

  compile(schema: unknown, parentBase: string, schemaPath: string): NodeValidator {
    const holder = this.#holder(schema, parentBase, schemaPath);
    return holder.done ? holder.validate : (v, s, a) => holder.validate(v, s, a);
  }

  #holder(schema: unknown, parentBase: string, schemaPath: string): Holder {
    if (schema === true) return { validate: alwaysValid, done: true };
    if (schema === false) return { validate: falseSchema, done: true };
    if (!isJsonObject(schema))
      throw new JsonSchemaCompileError(schemaPath, 'a schema must be an object or a boolean');
    const base = schemaBase(schema, parentBase, this.#options.dialect, schemaPath);
    let byBase = this.#cache.get(schema);
    if (byBase === undefined) {
      byBase = new Map();
      this.#cache.set(schema, byBase);
    }
    const cached = byBase.get(base);
    if (cached !== undefined) return cached;
    const holder: Holder = { validate: alwaysValid, done: false };
    byBase.set(base, holder);
    holder.validate = this.#compileNode(schema, base, schemaPath);
    holder.done = true;
    return holder;
  }

  #compileNode(schema: JsonObject, base: string, schemaPath: string): NodeValidator {
    const { dialect, index, tracking, assertFormats } = this.#options;
    const context: NodeContext = {
      schema,
      dialect,
      tracking,
      assertFormats,
      resourceCount: index.resourceCount,
      subschema: (tokens) => {
        let value: unknown = schema;
        let path = schemaPath;
        for (const token of tokens) {
          value = (value as Record<string | number, unknown>)[token];
          path = appendPointer(path, token);
        }
        return this.compile(value, base, path);
      },
      reference: (keyword, reference) => {
        const target = index.resolve(reference, base, appendPointer(schemaPath, keyword));
        const holder = this.#holder(target.schema, target.parentBase, target.schemaPath);
        return (value, state, annotations) => {
          if (++state.depth > state.maxDepth) throw new DepthLimitError(state.pointer());
          const valid = applyInPlace(holder.validate, value, state, annotations);
          state.depth--;
          return valid;
        };
      },
      fail: (keyword, message) => {
        throw new JsonSchemaCompileError(appendPointer(schemaPath, keyword), message);
      },
    };
    const out: NodeValidator[] = [];
    // draft-07 Core §8.3: "All other properties in a "$ref" object MUST be ignored."
    if (dialect === 'draft-07' && hasOwn(schema, '$ref')) compileRefKeywords(context, out);
    else for (const compileKeywords of KEYWORD_COMPILERS) compileKeywords(context, out);
    const validate = allOfValidators(out);
    const ownsAnnotations =
      tracking && (hasOwn(schema, 'unevaluatedProperties') || hasOwn(schema, 'unevaluatedItems'));
    if (!ownsAnnotations) return validate;
    return (value, state, annotations) => validate(value, state, annotations ?? new Annotations());
  }
}
