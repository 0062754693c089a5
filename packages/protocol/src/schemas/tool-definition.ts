import * as z from 'zod';
import { lazySchema, realSchema } from './lazy-schema.js';
import {
  isTool,
  isToolAnnotations,
  isToolExecution,
  isToolInputSchema,
  isToolOutputSchema,
} from './generated/checks.js';
import { IconSchema, MetaObjectSchema } from './common.js';

/** Behaviour hints about a tool (2025-03-26+); untrusted unless the server is. */
export const ToolAnnotationsSchema = lazySchema(
  () =>
    z.looseObject({
      title: z.string().optional(),
      readOnlyHint: z.boolean().optional(),
      destructiveHint: z.boolean().optional(),
      idempotentHint: z.boolean().optional(),
      openWorldHint: z.boolean().optional(),
    }),
  isToolAnnotations,
);
export type ToolAnnotations = z.infer<typeof ToolAnnotationsSchema>;

/** Whether a tool supports task-augmented calls (experimental, 2025-11-25 only). */
export const ToolExecutionSchema = lazySchema(
  () =>
    z.looseObject({
      taskSupport: z.enum(['forbidden', 'optional', 'required']).optional(),
    }),
  isToolExecution,
);
export type ToolExecution = z.infer<typeof ToolExecutionSchema>;

/**
 * A tool's input JSON Schema. Always `type: "object"`; 2026-07-28 allows any JSON Schema 2020-12
 * keyword besides, so everything else passes through.
 */
export const ToolInputSchemaSchema = lazySchema(
  () =>
    z.looseObject({
      type: z.literal('object'),
      properties: z.record(z.string(), z.unknown()).optional(),
      required: z.array(z.string()).optional(),
      $schema: z.string().optional(),
    }),
  isToolInputSchema,
);

/** A tool's output JSON Schema (2025-06-18+): `type: "object"` until 2025-11-25, any schema in 2026-07-28. */
export const ToolOutputSchemaSchema = lazySchema(
  () =>
    z.looseObject({
      type: z.string().optional(),
      properties: z.record(z.string(), z.unknown()).optional(),
      required: z.array(z.string()).optional(),
      $schema: z.string().optional(),
    }),
  isToolOutputSchema,
);

/**
 * A tool the server offers.
 *
 * @example
 * ```ts
 * const tool = ToolSchema.parse({
 *   name: 'weather',
 *   inputSchema: { type: 'object', properties: { city: { type: 'string' } }, required: ['city'] },
 *   annotations: { readOnlyHint: true },
 * });
 * console.log(tool.name, tool.annotations?.readOnlyHint); // weather true
 * ```
 */
export const ToolSchema = lazySchema(
  () =>
    z.looseObject({
      name: z.string(),
      title: z.string().optional(),
      description: z.string().optional(),
      inputSchema: realSchema(ToolInputSchemaSchema),
      outputSchema: realSchema(ToolOutputSchemaSchema).optional(),
      annotations: realSchema(ToolAnnotationsSchema).optional(),
      execution: realSchema(ToolExecutionSchema).optional(),
      icons: z.array(realSchema(IconSchema)).optional(),
      _meta: realSchema(MetaObjectSchema).optional(),
    }),
  isTool,
);
export type Tool = z.infer<typeof ToolSchema>;
