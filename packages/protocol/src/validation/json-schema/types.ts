/**
 * The JSON Schema dialects this validator implements (MCP 2025-11-25 §"JSON Schema Usage").
 *
 * @example
 * ```ts
 * const dialect: JsonSchemaDialect = compileJsonSchema({
 *   $schema: 'http://json-schema.org/draft-07/schema#',
 *   type: 'string',
 * }).dialect;
 * // 'draft-07'
 * ```
 */
export type JsonSchemaDialect = '2020-12' | 'draft-07';

/**
 * A JSON Schema object. Loosely typed on purpose: schemas arrive as raw JSON from users and
 * peers, and every keyword's shape is checked when the schema is compiled.
 *
 * @example
 * ```ts
 * const schema: JsonSchema = {
 *   type: 'object',
 *   properties: { n: { type: 'integer', minimum: 0 } },
 *   required: ['n'],
 * };
 * const { validate } = compileJsonSchema(schema);
 * ```
 */
export interface JsonSchema {
  $schema?: string | undefined;
  $id?: string | undefined;
  $ref?: string | undefined;
  type?: string | readonly string[] | undefined;
  [keyword: string]: unknown;
}

/**
 * One validation failure. `path` is a JSON Pointer (RFC 6901) into the validated value; `''` is the root.
 *
 * @example
 * ```ts
 * const result = compileJsonSchema({ type: 'object', required: ['city'] }).validate({});
 * if (!result.valid)
 *   for (const { path, keyword, message } of result.errors) console.log(path || '/', keyword, message);
 * // /city required must have required property 'city'
 * ```
 */
export interface JsonSchemaValidationError {
  readonly path: string;
  readonly message: string;
  readonly keyword: string;
}

/**
 * The outcome of `validate(value)`: `valid`, or the errors found (up to `maxErrors`).
 *
 * @example
 * ```ts
 * const result: JsonSchemaValidationResult = compileJsonSchema({ type: 'string', maxLength: 3 }).validate(
 *   'abcd',
 * );
 * if (!result.valid) console.log(result.errors[0]?.message);
 * ```
 */
export type JsonSchemaValidationResult =
  | { readonly valid: true }
  | { readonly valid: false; readonly errors: JsonSchemaValidationError[] };

/**
 * A schema compiled once by `compileJsonSchema`, ready to validate many values.
 *
 * @example
 * ```ts
 * // Compile once, validate every call.
 * const validator: JsonSchemaValidator = compileJsonSchema(tool.inputSchema);
 * const check = (args: unknown) => validator.validate(args).valid;
 * ```
 */
export interface JsonSchemaValidator {
  /** The dialect the schema was compiled as (from `$schema`, else 2020-12). */
  readonly dialect: JsonSchemaDialect;
  /** Validates `value`. Safe to detach from the validator object (`const { validate } = v`). */
  readonly validate: (value: unknown) => JsonSchemaValidationResult;
}

/**
 * Options of `compileJsonSchema(schema, options)`.
 *
 * @example
 * ```ts
 * // Fail fast, and treat `format: 'email'` as an assertion rather than an annotation.
 * const { validate } = compileJsonSchema(
 *   { type: 'string', format: 'email' },
 *   { assertFormats: true, maxErrors: 1 },
 * );
 * validate('not-an-email'); // { valid: false, errors: [{ keyword: 'format', … }] }
 * ```
 */
export interface CompileJsonSchemaOptions {
  /**
   * Whether `format` asserts (date-time, date, time, email, uri, uuid, ipv4, ipv6). JSON Schema
   * 2020-12 makes `format` an annotation by default, so the default is `false`. Unknown formats
   * are always annotations.
   */
  readonly assertFormats?: boolean;
  /** Stop collecting after this many errors (default `DEFAULT_MAX_SCHEMA_ERRORS`, 20). `1` means fail-fast. */
  readonly maxErrors?: number;
  /**
   * Maximum nesting of `$ref` evaluations while validating one value (default `DEFAULT_MAX_SCHEMA_DEPTH`, 256). Recursive
   * schemas only recurse through refs, so this bounds the work a deeply nested value can cause.
   */
  readonly maxDepth?: number;
}
