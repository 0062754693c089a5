import { z } from 'zod';
import { ClientCapabilitiesSchema } from './capabilities.js';
import { CursorSchema, ImplementationSchema, LoggingLevelSchema, ProgressTokenSchema } from './common.js';
import { MetaKey } from './meta-keys.js';
import type { Extended, LooseObject } from './schema-types.js';

/**
 * The `_meta` of a request and the params every request shares. In 2026-07-28 every client request
 * carries its protocol version and capabilities here (there is no handshake); earlier revisions
 * only knew `progressToken`. The superset keeps all of them optional: the engine checks presence
 * per era, not the schema.
 */
export const RequestMetaObjectSchema: LooseObject<{
  [MetaKey.ProgressToken]: z.ZodOptional<typeof ProgressTokenSchema>;
  [MetaKey.ProtocolVersion]: z.ZodOptional<z.ZodString>;
  [MetaKey.ClientCapabilities]: z.ZodOptional<typeof ClientCapabilitiesSchema>;
  [MetaKey.ClientInfo]: z.ZodOptional<typeof ImplementationSchema>;
  [MetaKey.LogLevel]: z.ZodOptional<typeof LoggingLevelSchema>;
}> = z.looseObject({
  [MetaKey.ProgressToken]: ProgressTokenSchema.optional(),
  [MetaKey.ProtocolVersion]: z.string().optional(),
  [MetaKey.ClientCapabilities]: ClientCapabilitiesSchema.optional(),
  [MetaKey.ClientInfo]: ImplementationSchema.optional(),
  [MetaKey.LogLevel]: LoggingLevelSchema.optional(),
});
export type RequestMetaObject = z.infer<typeof RequestMetaObjectSchema>;

/** Params of a request that has no other params. */
export const RequestParamsSchema: LooseObject<{ _meta: z.ZodOptional<typeof RequestMetaObjectSchema> }> =
  z.looseObject({ _meta: RequestMetaObjectSchema.optional() });
export type RequestParams = z.infer<typeof RequestParamsSchema>;

/**
 * Params of a paginated list request.
 *
 * @example
 * ```ts
 * const params = PaginatedRequestParamsSchema.parse({
 *   cursor: 'page-2',
 *   _meta: { progressToken: 'p1', [MetaKey.ProtocolVersion]: '2026-07-28' },
 * });
 * console.log(params.cursor, params._meta?.[MetaKey.ProtocolVersion]); // page-2 2026-07-28
 * ```
 */
export const PaginatedRequestParamsSchema: Extended<
  typeof RequestParamsSchema,
  { cursor: z.ZodOptional<typeof CursorSchema> }
> = RequestParamsSchema.extend({ cursor: CursorSchema.optional() });
export type PaginatedRequestParams = z.infer<typeof PaginatedRequestParamsSchema>;

/** Params of a request about one resource. */
export const ResourceRequestParamsSchema: Extended<typeof RequestParamsSchema, { uri: z.ZodString }> =
  RequestParamsSchema.extend({ uri: z.string() });
export type ResourceRequestParams = z.infer<typeof ResourceRequestParamsSchema>;
