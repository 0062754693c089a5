/**
 * A local copy of the Standard Schema v1 interface (https://standardschema.dev), so that any
 * validator in the SDK can be handed to libraries that accept Standard Schema without a
 * dependency on `@standard-schema/spec`. The shape is the spec's, field for field.
 *
 * @example
 * ```ts
 * async function parse<T>(schema: StandardSchemaV1<unknown, T>, value: unknown): Promise<T> {
 *   const result = await schema['~standard'].validate(value);
 *   if (result.issues) throw new Error(result.issues.map((issue) => issue.message).join('; '));
 *   return result.value;
 * }
 * ```
 */
export interface StandardSchemaV1<Input = unknown, Output = Input> {
  readonly '~standard': StandardSchemaV1.Props<Input, Output>;
}

export declare namespace StandardSchemaV1 {
  /** The properties a Standard Schema exposes under `~standard`. */
  export interface Props<Input = unknown, Output = Input> {
    readonly version: 1;
    readonly vendor: string;
    readonly validate: (value: unknown) => Result<Output> | Promise<Result<Output>>;
    readonly types?: Types<Input, Output> | undefined;
  }

  export type Result<Output> = SuccessResult<Output> | FailureResult;

  export interface SuccessResult<Output> {
    readonly value: Output;
    readonly issues?: undefined;
  }

  export interface FailureResult {
    readonly issues: ReadonlyArray<Issue>;
  }

  export interface Issue {
    readonly message: string;
    readonly path?: ReadonlyArray<PropertyKey | PathSegment> | undefined;
  }

  export interface PathSegment {
    readonly key: PropertyKey;
  }

  /** Type-level only: lets consumers infer the input and output types. */
  export interface Types<Input = unknown, Output = Input> {
    readonly input: Input;
    readonly output: Output;
  }

  export type InferInput<Schema extends StandardSchemaV1> = NonNullable<
    Schema['~standard']['types']
  >['input'];
  export type InferOutput<Schema extends StandardSchemaV1> = NonNullable<
    Schema['~standard']['types']
  >['output'];
}
