import type { JsonSchemaCompiler } from './tool-registry.js';

let loading: Promise<JsonSchemaCompiler> | undefined;

/**
 * `compileJsonSchema` of `@x/protocol/json-schema` (2020-12 by default, draft-07, no network `$ref`s),
 * imported on the first call of a tool with an output schema: a browser app whose tools have none
 * never downloads the validator (~22 KiB minified), and one that has them fetches it once.
 */
export function loadDefaultJsonSchemaCompiler(): Promise<JsonSchemaCompiler> {
  loading ??= import('@x/protocol/json-schema').then(
    (module): JsonSchemaCompiler =>
      (schema) =>
        module.compileJsonSchema(schema),
    (error: unknown) => {
      // A failed download may succeed on the next call.
      loading = undefined;
      throw error;
    },
  );
  return loading;
}
