import * as z from 'zod';
import { lazySchema, realSchema } from './lazy-schema.js';
import {
  isBooleanSchema,
  isElicitRequest,
  isElicitRequestFormParams,
  isElicitRequestParams,
  isElicitRequestURLParams,
  isElicitResult,
  isElicitationCompleteNotification,
  isElicitationCompleteNotificationParams,
  isEnumSchema,
  isLegacyTitledEnumSchema,
  isNumberSchema,
  isPrimitiveSchemaDefinition,
  isStringSchema,
  isTitledMultiSelectEnumSchema,
  isTitledSingleSelectEnumSchema,
  isUntitledMultiSelectEnumSchema,
  isUntitledSingleSelectEnumSchema,
} from './generated/checks.js';
import { NotificationMetaObjectSchema, ResultSchema } from './common.js';
import { RequestParamsSchema } from './request-params.js';
import { TaskMetadataSchema } from './tasks.js';
import type { Extended, LooseObject } from './schema-types.js';

/**
 * `elicitation/create` (2025-06-18+): form mode everywhere, URL mode 2025-11-25+. A server→client
 * request in the legacy era, an input request of an `input_required` result in 2026-07-28.
 */

const described = () => ({
  title: z.string().optional(),
  description: z.string().optional(),
});

/** A free-text field. */
export const StringSchemaSchema = lazySchema(
  () =>
    z.looseObject({
      type: z.literal('string'),
      ...described(),
      minLength: z.number().int().optional(),
      maxLength: z.number().int().optional(),
      format: z.enum(['email', 'uri', 'date', 'date-time']).optional(),
      default: z.string().optional(),
    }),
  isStringSchema,
);
export type StringSchema = z.infer<typeof StringSchemaSchema>;

/** A number field. */
export const NumberSchemaSchema = lazySchema(
  () =>
    z.looseObject({
      type: z.enum(['number', 'integer']),
      ...described(),
      minimum: z.number().optional(),
      maximum: z.number().optional(),
      default: z.number().optional(),
    }),
  isNumberSchema,
);
export type NumberSchema = z.infer<typeof NumberSchemaSchema>;

/** A checkbox. */
export const BooleanSchemaSchema = lazySchema(
  () =>
    z.looseObject({
      type: z.literal('boolean'),
      ...described(),
      default: z.boolean().optional(),
    }),
  isBooleanSchema,
);
export type BooleanSchema = z.infer<typeof BooleanSchemaSchema>;

const TitledOption = lazySchema(() => z.looseObject({ const: z.string(), title: z.string() }));

/** Single choice from plain values (2025-11-25+). */
export const UntitledSingleSelectEnumSchemaSchema = lazySchema(
  () =>
    z.looseObject({
      type: z.literal('string'),
      ...described(),
      enum: z.array(z.string()),
      default: z.string().optional(),
    }),
  isUntitledSingleSelectEnumSchema,
);
export type UntitledSingleSelectEnumSchema = z.infer<typeof UntitledSingleSelectEnumSchemaSchema>;

/** Single choice from titled values (2025-11-25+). */
export const TitledSingleSelectEnumSchemaSchema = lazySchema(
  () =>
    z.looseObject({
      type: z.literal('string'),
      ...described(),
      oneOf: z.array(realSchema(TitledOption)),
      default: z.string().optional(),
    }),
  isTitledSingleSelectEnumSchema,
);
export type TitledSingleSelectEnumSchema = z.infer<typeof TitledSingleSelectEnumSchemaSchema>;

/** Multiple choice from plain values (2025-11-25+). */
export const UntitledMultiSelectEnumSchemaSchema = lazySchema(
  () =>
    z.looseObject({
      type: z.literal('array'),
      ...described(),
      minItems: z.number().int().optional(),
      maxItems: z.number().int().optional(),
      items: z.looseObject({ type: z.literal('string'), enum: z.array(z.string()) }),
      default: z.array(z.string()).optional(),
    }),
  isUntitledMultiSelectEnumSchema,
);
export type UntitledMultiSelectEnumSchema = z.infer<typeof UntitledMultiSelectEnumSchemaSchema>;

/** Multiple choice from titled values (2025-11-25+). */
export const TitledMultiSelectEnumSchemaSchema = lazySchema(
  () =>
    z.looseObject({
      type: z.literal('array'),
      ...described(),
      minItems: z.number().int().optional(),
      maxItems: z.number().int().optional(),
      items: z.looseObject({ anyOf: z.array(realSchema(TitledOption)) }),
      default: z.array(z.string()).optional(),
    }),
  isTitledMultiSelectEnumSchema,
);
export type TitledMultiSelectEnumSchema = z.infer<typeof TitledMultiSelectEnumSchemaSchema>;

/** The 2025-06-18 enum field with parallel `enumNames` (named `EnumSchema` there, kept for compatibility). */
export const LegacyTitledEnumSchemaSchema: Extended<
  typeof UntitledSingleSelectEnumSchemaSchema,
  { enumNames: z.ZodOptional<z.ZodArray<z.ZodString>> }
> = lazySchema(
  () =>
    realSchema(UntitledSingleSelectEnumSchemaSchema).extend({
      enumNames: z.array(z.string()).optional(),
    }),
  isLegacyTitledEnumSchema,
);
export type LegacyTitledEnumSchema = z.infer<typeof LegacyTitledEnumSchemaSchema>;

/** Any enum field. */
export const EnumSchemaSchema: z.ZodUnion<
  readonly [
    typeof UntitledSingleSelectEnumSchemaSchema,
    typeof TitledSingleSelectEnumSchemaSchema,
    typeof UntitledMultiSelectEnumSchemaSchema,
    typeof TitledMultiSelectEnumSchemaSchema,
    typeof LegacyTitledEnumSchemaSchema,
  ]
> = lazySchema(
  () =>
    z.union([
      realSchema(UntitledSingleSelectEnumSchemaSchema),
      realSchema(TitledSingleSelectEnumSchemaSchema),
      realSchema(UntitledMultiSelectEnumSchemaSchema),
      realSchema(TitledMultiSelectEnumSchemaSchema),
      realSchema(LegacyTitledEnumSchemaSchema),
    ]),
  isEnumSchema,
);
export type EnumSchema = z.infer<typeof EnumSchemaSchema>;

/** Any field of an elicitation form: flat, primitive-valued (spec: no nesting). */
export const PrimitiveSchemaDefinitionSchema: z.ZodUnion<
  readonly [
    typeof UntitledSingleSelectEnumSchemaSchema,
    typeof TitledSingleSelectEnumSchemaSchema,
    typeof UntitledMultiSelectEnumSchemaSchema,
    typeof TitledMultiSelectEnumSchemaSchema,
    typeof LegacyTitledEnumSchemaSchema,
    typeof StringSchemaSchema,
    typeof NumberSchemaSchema,
    typeof BooleanSchemaSchema,
  ]
> = lazySchema(
  () =>
    z.union([
      realSchema(UntitledSingleSelectEnumSchemaSchema),
      realSchema(TitledSingleSelectEnumSchemaSchema),
      realSchema(UntitledMultiSelectEnumSchemaSchema),
      realSchema(TitledMultiSelectEnumSchemaSchema),
      realSchema(LegacyTitledEnumSchemaSchema),
      realSchema(StringSchemaSchema),
      realSchema(NumberSchemaSchema),
      realSchema(BooleanSchemaSchema),
    ]),
  isPrimitiveSchemaDefinition,
);
export type PrimitiveSchemaDefinition = z.infer<typeof PrimitiveSchemaDefinitionSchema>;

/** Params of a form-mode elicitation (`mode` is absent before 2025-11-25). */
export const ElicitRequestFormParamsSchema: Extended<
  typeof RequestParamsSchema,
  {
    mode: z.ZodOptional<z.ZodLiteral<'form'>>;
    message: z.ZodString;
    requestedSchema: LooseObject<{
      $schema: z.ZodOptional<z.ZodString>;
      type: z.ZodLiteral<'object'>;
      properties: z.ZodRecord<z.ZodString, typeof PrimitiveSchemaDefinitionSchema>;
      required: z.ZodOptional<z.ZodArray<z.ZodString>>;
    }>;
    task: z.ZodOptional<typeof TaskMetadataSchema>;
  }
> = lazySchema(
  () =>
    realSchema(RequestParamsSchema).extend({
      mode: z.literal('form').optional(),
      message: z.string(),
      requestedSchema: z.looseObject({
        $schema: z.string().optional(),
        type: z.literal('object'),
        properties: z.record(z.string(), realSchema(PrimitiveSchemaDefinitionSchema)),
        required: z.array(z.string()).optional(),
      }),
      task: realSchema(TaskMetadataSchema).optional(),
    }),
  isElicitRequestFormParams,
);
export type ElicitRequestFormParams = z.infer<typeof ElicitRequestFormParamsSchema>;

/** Params of a URL-mode elicitation (2025-11-25+; `elicitationId` is gone in 2026-07-28). */
export const ElicitRequestURLParamsSchema: Extended<
  typeof RequestParamsSchema,
  {
    mode: z.ZodLiteral<'url'>;
    message: z.ZodString;
    url: z.ZodString;
    elicitationId: z.ZodOptional<z.ZodString>;
    task: z.ZodOptional<typeof TaskMetadataSchema>;
  }
> = lazySchema(
  () =>
    realSchema(RequestParamsSchema).extend({
      mode: z.literal('url'),
      message: z.string(),
      url: z.string(),
      elicitationId: z.string().optional(),
      task: realSchema(TaskMetadataSchema).optional(),
    }),
  isElicitRequestURLParams,
);
export type ElicitRequestURLParams = z.infer<typeof ElicitRequestURLParamsSchema>;

/** Params of `elicitation/create`. */
export const ElicitRequestParamsSchema: z.ZodUnion<
  readonly [typeof ElicitRequestURLParamsSchema, typeof ElicitRequestFormParamsSchema]
> = lazySchema(
  () => z.union([realSchema(ElicitRequestURLParamsSchema), realSchema(ElicitRequestFormParamsSchema)]),
  isElicitRequestParams,
);
export type ElicitRequestParams = z.infer<typeof ElicitRequestParamsSchema>;

/** `elicitation/create` request. */
export const ElicitRequestSchema: LooseObject<{
  method: z.ZodLiteral<'elicitation/create'>;
  params: typeof ElicitRequestParamsSchema;
}> = lazySchema(
  () =>
    z.looseObject({
      method: z.literal('elicitation/create'),
      params: realSchema(ElicitRequestParamsSchema),
    }),
  isElicitRequest,
);
export type ElicitRequest = z.infer<typeof ElicitRequestSchema>;

/**
 * The user's answer. `content` only for an accepted form.
 *
 * @example
 * ```ts
 * const request = ElicitRequestParamsSchema.parse({
 *   mode: 'url',
 *   message: 'Sign in to continue',
 *   url: 'https://example.com/login',
 * });
 * const answer = ElicitResultSchema.parse({ action: 'accept', content: { name: 'Ada', subscribe: true } });
 * console.log(request.mode, answer.action); // 'url' 'accept'
 * ```
 */
export const ElicitResultSchema: Extended<
  typeof ResultSchema,
  {
    action: z.ZodEnum<{ accept: 'accept'; decline: 'decline'; cancel: 'cancel' }>;
    content: z.ZodOptional<
      z.ZodRecord<
        z.ZodString,
        z.ZodUnion<readonly [z.ZodString, z.ZodNumber, z.ZodBoolean, z.ZodArray<z.ZodString>]>
      >
    >;
  }
> = lazySchema(
  () =>
    realSchema(ResultSchema).extend({
      action: z.enum(['accept', 'decline', 'cancel']),
      content: z
        .record(z.string(), z.union([z.string(), z.number(), z.boolean(), z.array(z.string())]))
        .optional(),
    }),
  isElicitResult,
);
export type ElicitResult = z.infer<typeof ElicitResultSchema>;

/** Params of `notifications/elicitation/complete`. */
export const ElicitationCompleteNotificationParamsSchema: LooseObject<{
  elicitationId: z.ZodString;
  _meta: z.ZodOptional<typeof NotificationMetaObjectSchema>;
}> = lazySchema(
  () =>
    z.looseObject({
      elicitationId: z.string(),
      _meta: realSchema(NotificationMetaObjectSchema).optional(),
    }),
  isElicitationCompleteNotificationParams,
);
export type ElicitationCompleteNotificationParams = z.infer<
  typeof ElicitationCompleteNotificationParamsSchema
>;

/** `notifications/elicitation/complete`: an out-of-band URL elicitation finished (2025-11-25 only). */
export const ElicitationCompleteNotificationSchema: LooseObject<{
  method: z.ZodLiteral<'notifications/elicitation/complete'>;
  params: typeof ElicitationCompleteNotificationParamsSchema;
}> = lazySchema(
  () =>
    z.looseObject({
      method: z.literal('notifications/elicitation/complete'),
      params: realSchema(ElicitationCompleteNotificationParamsSchema),
    }),
  isElicitationCompleteNotification,
);
export type ElicitationCompleteNotification = z.infer<typeof ElicitationCompleteNotificationSchema>;
