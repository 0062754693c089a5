/**
 * `@x/protocol/json-schema`: the JSON Schema validator (2020-12 unless `$schema` names another dialect) that checks tool input and
 * output schemas, and its Standard Schema adapter. A subpath of its own so the root stays small and
 * code that never validates JSON Schema never loads it.
 */
export {
  compileJsonSchema,
  DEFAULT_MAX_SCHEMA_DEPTH,
  DEFAULT_MAX_SCHEMA_ERRORS,
  JsonSchemaCompileError,
  toStandardSchema,
} from './validation/json-schema/index.js';
export type {
  CompileJsonSchemaOptions,
  JsonSchema,
  JsonSchemaDialect,
  JsonSchemaValidationError,
  JsonSchemaValidationResult,
  JsonSchemaValidator,
} from './validation/json-schema/index.js';
