/**
 * Thrown by `compileJsonSchema` when a schema cannot be compiled: an unsupported dialect or
 * keyword, a malformed keyword value, an invalid regular expression, or a `$ref` that does not
 * resolve inside the schema document (remote refs are never fetched).
 *
 * @example
 * ```ts
 * try {
 *   compileJsonSchema({ $ref: 'https://example.com/other.json' });
 * } catch (error) {
 *   if (error instanceof JsonSchemaCompileError) console.error(error.schemaPath, error.message);
 * }
 * ```
 */
export class JsonSchemaCompileError extends Error {
  override readonly name: string = 'JsonSchemaCompileError';
  /** A URI fragment JSON Pointer into the schema document, e.g. `#/properties/name/pattern`. */
  readonly schemaPath: string;

  constructor(schemaPath: string, message: string, options?: { cause?: unknown }) {
    super(`Invalid JSON Schema at ${schemaPath}: ${message}`, options);
    this.schemaPath = schemaPath;
  }
}
