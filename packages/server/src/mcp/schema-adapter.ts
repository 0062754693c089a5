import { compileJsonSchema, type JsonSchema } from '@x/protocol';

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
export type SchemaInput = StandardSchemaLike | JsonSchemaObject;

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
export type InferSchema<S> = S extends StandardSchemaLike<infer O> ? O : Record<string, unknown>;

export type Validation = { ok: true; value: unknown } | { ok: false; message: string };

/** A schema ready for the hot path: the JSON Schema to publish and a validator built once. */
export interface CompiledSchema {
  readonly jsonSchema: JsonSchemaObject;
  /** Sync for JSON Schema and for Standard Schemas that validate synchronously. */
  validate(value: unknown): Validation | Promise<Validation>;
}

function isStandard(schema: SchemaInput): schema is StandardSchemaLike {
  return typeof (schema as StandardSchemaLike)['~standard'] === 'object';
}

/**
 * Compiles a registration's schema. A Standard Schema publishes what its `~standard.jsonSchema`
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
  const { schema, what, side, published } = options;
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
