import { compileJsonSchema, type JsonSchema } from '@x/protocol/json-schema';

/**
 * The Standard Schema v1 surface the server uses (https://standardschema.dev), plus the optional
 * Standard JSON Schema converter (`~standard.jsonSchema`) that zod ≥ 4.2, valibot and arktype ship.
 *
 * @example
 * ```ts
 * // zod 4, valibot and arktype schemas already are one; a hand-written one needs only `validate`.
 * const Positive: StandardSchemaLike<number> = {
 *   '~standard': {
 *     version: 1,
 *     vendor: 'example',
 *     validate: (v) =>
 *       typeof v === 'number' && v > 0 ? { value: v } : { issues: [{ message: 'must be positive' }] },
 *   },
 * };
 * ```
 */
export interface StandardSchemaLike<Output = unknown> {
  readonly '~standard': {
    readonly version: 1;
    readonly vendor: string;
    readonly validate: (value: unknown) => StandardResult<Output> | Promise<StandardResult<Output>>;
    readonly jsonSchema?:
      | {
          readonly input: (options: { target: string }) => Record<string, unknown>;
          readonly output: (options: { target: string }) => Record<string, unknown>;
        }
      | undefined;
    readonly types?: { readonly input: unknown; readonly output: Output } | undefined;
  };
}

type StandardResult<Output> =
  | { readonly value: Output; readonly issues?: undefined }
  | {
      readonly issues: ReadonlyArray<{
        readonly message: string;
        readonly path?: ReadonlyArray<unknown> | undefined;
      }>;
    };

/**
 * A raw JSON Schema (2020-12 unless `$schema` says otherwise), published verbatim.
 *
 * @example
 * ```ts
 * const inputSchema: JsonSchemaObject = {
 *   type: 'object',
 *   properties: { city: { type: 'string' } },
 *   required: ['city'],
 * };
 * server.registerTool('weather', { inputSchema }, (args) => ({
 *   content: [{ type: 'text', text: `Sunny in ${String(args['city'])}` }],
 * }));
 * ```
 */
export type JsonSchemaObject = Record<string, unknown>;

/**
 * What tools, prompts and resources accept as a schema.
 *
 * @example
 * ```ts
 * // Either form is accepted wherever a tool, prompt or resource takes a schema.
 * const asZod: SchemaInput = z.object({ city: z.string() });
 * const asJsonSchema: SchemaInput = { type: 'object', properties: { city: { type: 'string' } } };
 * ```
 */
export type SchemaInput = StandardSchemaLike | RawShape | JsonSchemaObject;

/**
 * A v1-style raw shape: the properties of an object schema, each a Standard Schema (the official SDK's
 * `inputSchema: { text: z.string() }`). The server wraps it in an object schema: a property is required
 * unless its schema accepts `undefined` (`.optional()`, `.default()`), and extra properties are allowed.
 *
 * @example
 * ```ts
 * server.registerTool('echo', { inputSchema: { text: z.string(), times: z.number().optional() } }, ({ text, times }) => ({
 *   content: [{ type: 'text', text: text.repeat(times ?? 1) }],
 * }));
 * ```
 */
export type RawShape = { readonly [key: string]: StandardSchemaLike };

type OutputOf<S> = S extends StandardSchemaLike<infer O> ? O : unknown;

/**
 * The object a raw shape validates to: a key is optional where its schema's output admits `undefined`.
 *
 * @example
 * ```ts
 * const shape = { city: z.string(), days: z.number().optional() };
 * type Args = InferShape<typeof shape>; // { city: string } & { days?: number | undefined }
 * ```
 */
export type InferShape<S extends RawShape> = {
  [K in keyof S as undefined extends OutputOf<S[K]> ? never : K]: OutputOf<S[K]>;
} & {
  [K in keyof S as undefined extends OutputOf<S[K]> ? K : never]?: OutputOf<S[K]>;
};

/**
 * The output type a schema validates to: the Standard Schema's output, or `Record<string, unknown>`.
 *
 * @example
 * ```ts
 * const Args = z.object({ city: z.string(), days: z.number().optional() });
 * type Args = InferSchema<typeof Args>; // { city: string; days?: number | undefined }
 * type Raw = InferSchema<{ type: 'object' }>; // Record<string, unknown>
 * ```
 */
export type InferSchema<S> =
  S extends StandardSchemaLike<infer O> ? O : S extends RawShape ? InferShape<S> : Record<string, unknown>;

export type Validation = { ok: true; value: unknown } | { ok: false; message: string };

/** A schema ready for the hot path: the JSON Schema to publish and a validator built once. */
export interface CompiledSchema {
  readonly jsonSchema: JsonSchemaObject;
  /** Sync for JSON Schema and for Standard Schemas that validate synchronously. */
  validate(value: unknown): Validation | Promise<Validation>;
}

function isStandard(schema: unknown): schema is StandardSchemaLike {
  return (
    typeof schema === 'object' &&
    schema !== null &&
    typeof (schema as StandardSchemaLike)['~standard'] === 'object'
  );
}

/**
 * Whether `schema` is a raw shape: a plain object, not itself a schema, with at least one property and
 * every property a Standard Schema. (`{}` and anything with a JSON Schema keyword stay JSON Schemas.)
 */
export function isRawShape(schema: SchemaInput): schema is RawShape {
  if (isStandard(schema)) return false;
  const values = Object.values(schema);
  return values.length > 0 && values.every(isStandard);
}

/**
 * The object Standard Schema of a raw shape: validates each property with its own schema (keeping
 * the properties it transforms, and unknown properties as they are) and converts to
 * `{ type: 'object', properties, required }` when every property schema can convert itself.
 */
function objectOfShape(shape: RawShape, what: string): StandardSchemaLike {
  const entries = Object.entries(shape);
  // A property whose schema accepts `undefined` (synchronously) is optional: `.optional()`, `.default()`.
  const optional = new Set(
    entries
      .filter(([, schema]) => {
        const result = schema['~standard'].validate(undefined);
        return !(result instanceof Promise) && result.issues === undefined;
      })
      .map(([key]) => key),
  );
  const validate = (value: unknown): StandardResult<unknown> | Promise<StandardResult<unknown>> => {
    if (typeof value !== 'object' || value === null || Array.isArray(value)) {
      return { issues: [{ message: 'Expected an object' }] };
    }
    const input = value as Record<string, unknown>;
    const out: Record<string, unknown> = { ...input };
    const issues: Array<{ message: string; path?: ReadonlyArray<unknown> }> = [];
    const pending: Array<Promise<void>> = [];
    const take = (key: string, result: StandardResult<unknown>): void => {
      if (result.issues === undefined) {
        if (result.value !== undefined || Object.hasOwn(input, key)) out[key] = result.value;
        return;
      }
      for (const issue of result.issues)
        issues.push({ message: issue.message, path: [key, ...(issue.path ?? [])] });
    };
    for (const [key, schema] of entries) {
      const result = schema['~standard'].validate(Object.hasOwn(input, key) ? input[key] : undefined);
      if (result instanceof Promise) pending.push(result.then((settled) => take(key, settled)));
      else take(key, result);
    }
    const finish = (): StandardResult<unknown> => (issues.length > 0 ? { issues } : { value: out });
    return pending.length === 0 ? finish() : Promise.all(pending).then(finish);
  };
  const convertible = entries.every(([, schema]) => schema['~standard'].jsonSchema !== undefined);
  const convert = (side: 'input' | 'output') => (options: { target: string }) => {
    const properties: Record<string, unknown> = {};
    for (const [key, schema] of entries) {
      const { $schema: _dialect, ...property } = schema['~standard'].jsonSchema![side](options);
      properties[key] = property;
    }
    const required = entries.map(([key]) => key).filter((key) => !optional.has(key));
    const json: Record<string, unknown> = { type: 'object', properties };
    if (required.length > 0) json['required'] = required;
    return json;
  };
  return {
    '~standard': {
      version: 1,
      vendor: `raw shape (${what})`,
      validate,
      jsonSchema: convertible ? { input: convert('input'), output: convert('output') } : undefined,
    },
  };
}

/**
 * Compiles a registration's schema. A raw shape (`{ text: z.string() }`) becomes an object schema first.
 * A Standard Schema publishes what its `~standard.jsonSchema`
 * converter emits (input side for arguments, output side for results) unless `published` is given; a
 * raw JSON Schema is published as the very object passed in (so `$schema`, `$defs`, `$ref`… stay
 * untouched) and validated by @x/protocol's `compileJsonSchema`.
 *
 * @throws Error naming `what` when a Standard Schema has no JSON Schema converter and none is given.
 */
export function compileSchema(options: {
  schema: SchemaInput;
  what: string;
  side: 'input' | 'output';
  published?: JsonSchemaObject | undefined;
}): CompiledSchema {
  const { what, side, published } = options;
  const schema = isRawShape(options.schema) ? objectOfShape(options.schema, what) : options.schema;
  if (!isStandard(schema)) {
    const { validate } = compileJsonSchema(schema as JsonSchema);
    return {
      jsonSchema: published ?? schema,
      validate: (value) => {
        const result = validate(value);
        if (result.valid) return { ok: true, value };
        return {
          ok: false,
          message: result.errors.map((e) => `${e.path || '(root)'}: ${e.message}`).join('; '),
        };
      },
    };
  }
  const standard = schema['~standard'];
  const converter = standard.jsonSchema;
  if (published === undefined && converter === undefined) {
    throw new Error(
      `${what}: the ${standard.vendor} schema has no Standard JSON Schema converter (~standard.jsonSchema); ` +
        'use zod >= 4.2, valibot or arktype, or pass the JSON Schema explicitly',
    );
  }
  const jsonSchema = published ?? converter![side]({ target: 'draft-2020-12' });
  return {
    jsonSchema,
    validate: (value) => {
      const result = standard.validate(value);
      return result instanceof Promise ? result.then(toValidation) : toValidation(result);
    },
  };
}

function toValidation(result: StandardResult<unknown>): Validation {
  if (result.issues === undefined) return { ok: true, value: result.value };
  const message = result.issues
    .map((issue) => {
      const path = issue.path?.map((p) =>
        typeof p === 'object' && p !== null ? String((p as { key: unknown }).key) : String(p),
      );
      return path !== undefined && path.length > 0 ? `${path.join('.')}: ${issue.message}` : issue.message;
    })
    .join('; ');
  return { ok: false, message };
}
