import type { StandardSchemaV1 } from '../standard-schema.js';
import { parsePointer } from './json-pointer.js';
import type { JsonSchemaValidator } from './types.js';

/**
 * Exposes a compiled JSON Schema as a Standard Schema v1, so raw JSON Schemas can be used wherever
 * the SDK (or a third-party library) accepts Standard Schema. `Output` is an unchecked claim
 * about what a valid value looks like; the schema alone cannot prove it to the type system.
 *
 * @example
 * ```ts
 * const schema = toStandardSchema<{ city: string }>(compileJsonSchema(tool.inputSchema));
 * const result = await schema['~standard'].validate(args); // typed as possibly async, as Standard Schema is
 * if (result.issues) throw new McpError(ErrorCode.InvalidParams, result.issues[0]!.message);
 * ```
 */
export function toStandardSchema<Output = unknown>(
  validator: JsonSchemaValidator,
): StandardSchemaV1<unknown, Output> {
  return {
    '~standard': {
      version: 1,
      vendor: 'x-mcp',
      validate: (value) => {
        const result = validator.validate(value);
        if (result.valid) return { value: value as Output };
        return {
          issues: result.errors.map(({ path, message }) => ({ message, path: pathSegments(value, path) })),
        };
      },
    },
  };
}

/**
 * Turns a JSON Pointer into Standard Schema path segments, walking the value so that array
 * indices become numbers and object keys stay strings (`{ "0": … }` keeps the string key).
 */
function pathSegments(root: unknown, pointer: string): PropertyKey[] {
  const segments: PropertyKey[] = [];
  let node = root;
  for (const token of parsePointer(pointer)) {
    if (Array.isArray(node)) {
      const index = Number(token);
      segments.push(index);
      node = node[index];
    } else {
      segments.push(token);
      node = typeof node === 'object' && node !== null ? (node as Record<string, unknown>)[token] : undefined;
    }
  }
  return segments;
}
