export { JsonSchemaCompileError } from './compile-error.js';
export { compileJsonSchema } from './compile-json-schema.js';
export { toStandardSchema } from './to-standard-schema.js';
export type {
  CompileJsonSchemaOptions,
  JsonSchema,
  JsonSchemaDialect,
  JsonSchemaValidationError,
  JsonSchemaValidationResult,
  JsonSchemaValidator,
} from './types.js';
