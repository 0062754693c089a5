import { compileJsonSchema } from '@x/protocol/json-schema';
import type { JsonSchemaCompiler } from './tool-registry.js';

/** `compileJsonSchema` of `@x/protocol`: 2020-12 (default) and draft-07, no network `$ref`s. */
export const defaultJsonSchemaCompiler: JsonSchemaCompiler = (schema) => compileJsonSchema(schema);
