import * as z from 'zod';
import { lazySchema, realSchema } from './lazy-schema.js';
import {
  isPaginatedRequestParams,
  isRequestMetaObject,
  isRequestParams,
  isResourceRequestParams,
} from './generated/checks.js';
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
}> = lazySchema(
  () =>
    z.looseObject({
      [MetaKey.ProgressToken]: realSchema(ProgressTokenSchema).optional(),
      [MetaKey.ProtocolVersion]: z.string().optional(),
      [MetaKey.ClientCapabilities]: realSchema(ClientCapabilitiesSchema).optional(),
      [MetaKey.ClientInfo]: realSchema(ImplementationSchema).optional(),
      [MetaKey.LogLevel]: realSchema(LoggingLevelSchema).optional(),
    }),
  isRequestMetaObject,
);
export type RequestMetaObject = z.infer<typeof RequestMetaObjectSchema>;

/** Params of a request that has no other params. */
export const RequestParamsSchema: LooseObject<{ _meta: z.ZodOptional<typeof RequestMetaObjectSchema> }> =
  lazySchema(() => z.looseObject({ _meta: realSchema(RequestMetaObjectSchema).optional() }), isRequestParams);
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
> = lazySchema(
  () => realSchema(RequestParamsSchema).extend({ cursor: realSchema(CursorSchema).optional() }),
  isPaginatedRequestParams,
);
export type PaginatedRequestParams = z.infer<typeof PaginatedRequestParamsSchema>;

/** Params of a request about one resource. */
export const ResourceRequestParamsSchema: Extended<typeof RequestParamsSchema, { uri: z.ZodString }> =
  lazySchema(() => realSchema(RequestParamsSchema).extend({ uri: z.string() }), isResourceRequestParams);
export type ResourceRequestParams = z.infer<typeof ResourceRequestParamsSchema>;
