export { JsonSchemaCompileError } from './compile-error.js';
export {
  compileJsonSchema,
  DEFAULT_MAX_SCHEMA_DEPTH,
  DEFAULT_MAX_SCHEMA_ERRORS,
} from './compile-json-schema.js';
export { toStandardSchema } from './to-standard-schema.js';
export type {
  CompileJsonSchemaOptions,
  JsonSchema,
  JsonSchemaDialect,
  JsonSchemaValidationError,
  JsonSchemaValidationResult,
  JsonSchemaValidator,
} from './types.js';
