import { JsonSchemaCompileError } from './compile-error.js';
import type { JsonSchemaDialect } from './types.js';

// MCP 2025-11-25 §"JSON Schema Usage": no `$schema` means 2020-12; an unsupported dialect must be
// rejected with an error rather than validated under the wrong rules.
const DIALECTS: ReadonlyMap<string, JsonSchemaDialect> = new Map([
  ['https://json-schema.org/draft/2020-12/schema', '2020-12'],
  ['http://json-schema.org/draft-07/schema', 'draft-07'],
  ['https://json-schema.org/draft-07/schema', 'draft-07'],
]);

export function detectDialect(schema: unknown): JsonSchemaDialect {
  if (typeof schema !== 'object' || schema === null || !('$schema' in schema)) return '2020-12';
  const uri = schema.$schema;
  if (typeof uri !== 'string') throw new JsonSchemaCompileError('#/$schema', '$schema must be a string');
  const dialect = DIALECTS.get(uri.endsWith('#') ? uri.slice(0, -1) : uri);
  if (dialect === undefined) {
    throw new JsonSchemaCompileError(
      '#/$schema',
      `unsupported dialect ${JSON.stringify(uri)} (supported: 2020-12, draft-07)`,
    );
  }
  return dialect;
}
