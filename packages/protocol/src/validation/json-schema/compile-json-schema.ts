import { JsonSchemaCompileError } from './compile-error.js';
import { Compiler } from './compiler.js';
import { detectDialect } from './dialect.js';
import { isJsonObject, ValueDepthError } from './json-value.js';
import { DepthLimitError, ValidationState } from './runtime.js';
import { SchemaIndex } from './schema-index.js';
import { DEFAULT_BASE_URI } from './uri.js';
import type {
  CompileJsonSchemaOptions,
  JsonSchema,
  JsonSchemaValidationResult,
  JsonSchemaValidator,
} from './types.js';

const VALID: JsonSchemaValidationResult = Object.freeze({ valid: true });

/**
 * Errors a JSON Schema validator collects before it stops (`maxErrors`): 20, enough to show a user
 * everything wrong with a typical tool input, a bound on the work a hostile value can cause.
 *
 * @example
 * ```ts
 * const validate = compileJsonSchema(schema, { maxErrors: DEFAULT_MAX_SCHEMA_ERRORS / 4 });
 * ```
 */
export const DEFAULT_MAX_SCHEMA_ERRORS = 20;

/**
 * Nesting of `$ref` evaluations while validating one value (`maxDepth`): 256. Recursive schemas recurse
 * only through refs, so this bounds the stack and work a deeply nested value can cause.
 *
 * @example
 * ```ts
 * const validate = compileJsonSchema(schema, { maxDepth: DEFAULT_MAX_SCHEMA_DEPTH / 2 });
 * ```
 */
export const DEFAULT_MAX_SCHEMA_DEPTH = 256;

/**
 * Compiles a JSON Schema (2020-12, or draft-07 when `$schema` says so) into a reusable validator.
 * All refs are resolved and every keyword is turned into a closure up front, so `validate` never
 * re-reads the raw schema. Runs on any JS runtime: no `eval`, no `new Function`, no I/O.
 *
 * @throws {JsonSchemaCompileError} for an unsupported dialect, a malformed keyword, an invalid
 *   `pattern`, or a `$ref` that does not resolve inside the document.
 *
 * @example
 * ```ts
 * const { validate } = compileJsonSchema({
 *   type: 'object',
 *   properties: { city: { type: 'string', minLength: 1 } },
 *   required: ['city'],
 * });
 * validate({ city: 'Paris' }); // { valid: true }
 * validate({}); // { valid: false, errors: [{ path: '/city', keyword: 'required', message: "must have required property 'city'" }] }
 * ```
 */
export function compileJsonSchema(
  schema: JsonSchema | boolean,
  options: CompileJsonSchemaOptions = {},
): JsonSchemaValidator {
  try {
    return compile(schema, options);
  } catch (error) {
    // Compilation recurses with the schema's nesting; a hostile schema must not crash the caller.
    if (error instanceof RangeError) {
      throw new JsonSchemaCompileError('#', 'schema is nested too deeply', { cause: error });
    }
    throw error;
  }
}

function compile(schema: JsonSchema | boolean, options: CompileJsonSchemaOptions): JsonSchemaValidator {
  const dialect = detectDialect(schema);
  const index = new SchemaIndex(schema, dialect);
  const compiler = new Compiler({
    dialect,
    index,
    tracking: dialect === '2020-12' && usesUnevaluated(schema),
    assertFormats: options.assertFormats ?? false,
  });
  const root = compiler.compile(schema, DEFAULT_BASE_URI, '#');
  // Unreferenced definitions are never evaluated, but a broken one is still a broken schema.
  for (const definition of index.definitions) {
    compiler.compile(definition.schema, definition.parentBase, definition.schemaPath);
  }
  const maxErrors = Math.max(1, options.maxErrors ?? DEFAULT_MAX_SCHEMA_ERRORS);
  const maxDepth = options.maxDepth ?? DEFAULT_MAX_SCHEMA_DEPTH;
  // A successful run leaves its state exactly as it found it (empty errors, balanced path stack
  // and counters), so the hot path reuses it instead of allocating one per call. Taking it out of
  // `spare` while in use keeps a re-entrant call (a getter on the value calling validate) safe.
  let spare: ValidationState | undefined;
  return {
    dialect,
    validate: (value) => {
      const state = spare ?? new ValidationState(maxErrors, maxDepth);
      spare = undefined;
      try {
        if (root(value, state, undefined)) {
          spare = state;
          return VALID;
        }
      } catch (error) {
        if (error instanceof DepthLimitError) {
          return {
            valid: false,
            errors: [...state.errors, { path: error.path, keyword: 'maxDepth', message: error.message }],
          };
        }
        if (error instanceof ValueDepthError) {
          return {
            valid: false,
            errors: [...state.errors, { path: state.pointer(), keyword: 'maxDepth', message: error.message }],
          };
        }
        throw error;
      }
      return { valid: false, errors: state.errors };
    },
  };
}

/**
 * Annotation collection costs allocations on every in-place applicator, so it is only switched on
 * for documents that mention `unevaluated*` anywhere (even in places refs reach by raw pointer).
 */
function usesUnevaluated(node: unknown): boolean {
  if (Array.isArray(node)) return node.some(usesUnevaluated);
  if (!isJsonObject(node)) return false;
  for (const key of Object.keys(node)) {
    if (key === 'unevaluatedProperties' || key === 'unevaluatedItems' || usesUnevaluated(node[key]))
      return true;
  }
  return false;
}
