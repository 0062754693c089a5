import * as z from 'zod';
import { lazySchema, realSchema } from './lazy-schema.js';
import {
  isDiscoverRequest,
  isDiscoverResult,
  isInitializeRequest,
  isInitializeRequestParams,
  isInitializeResult,
  isInitializedNotification,
  isPingRequest,
} from './generated/checks.js';
import { ClientCapabilitiesSchema, ServerCapabilitiesSchema } from './capabilities.js';
import { CacheScopeSchema, ImplementationSchema, NotificationParamsSchema, ResultSchema } from './common.js';
import { RequestParamsSchema } from './request-params.js';
import type { Extended, LooseObject } from './schema-types.js';

/**
 * Connection set-up of both eras: the legacy `initialize` handshake and `ping`, and the modern
 * `server/discover` (2026-07-28, `server/discover`).
 */

/** Params of `initialize` (legacy era). */
export const InitializeRequestParamsSchema: Extended<
  typeof RequestParamsSchema,
  {
    protocolVersion: z.ZodString;
    capabilities: typeof ClientCapabilitiesSchema;
    clientInfo: typeof ImplementationSchema;
  }
> = lazySchema(
  () =>
    realSchema(RequestParamsSchema).extend({
      protocolVersion: z.string(),
      capabilities: realSchema(ClientCapabilitiesSchema),
      clientInfo: realSchema(ImplementationSchema),
    }),
  isInitializeRequestParams,
);
export type InitializeRequestParams = z.infer<typeof InitializeRequestParamsSchema>;

/** `initialize` (legacy era). */
export const InitializeRequestSchema: LooseObject<{
  method: z.ZodLiteral<'initialize'>;
  params: typeof InitializeRequestParamsSchema;
}> = lazySchema(
  () =>
    z.looseObject({
      method: z.literal('initialize'),
      params: realSchema(InitializeRequestParamsSchema),
    }),
  isInitializeRequest,
);
export type InitializeRequest = z.infer<typeof InitializeRequestSchema>;

/**
 * The server's half of the handshake.
 *
 * @example
 * ```ts
 * const init = InitializeResultSchema.parse({
 *   protocolVersion: '2025-06-18',
 *   capabilities: { tools: {} },
 *   serverInfo: { name: 'files', version: '1.0.0' },
 * });
 * console.log(init.serverInfo.name, init.protocolVersion); // files 2025-06-18
 * ```
 */
export const InitializeResultSchema: Extended<
  typeof ResultSchema,
  {
    protocolVersion: z.ZodString;
    capabilities: typeof ServerCapabilitiesSchema;
    serverInfo: typeof ImplementationSchema;
    instructions: z.ZodOptional<z.ZodString>;
  }
> = lazySchema(
  () =>
    realSchema(ResultSchema).extend({
      protocolVersion: z.string(),
      capabilities: realSchema(ServerCapabilitiesSchema),
      serverInfo: realSchema(ImplementationSchema),
      instructions: z.string().optional(),
    }),
  isInitializeResult,
);
export type InitializeResult = z.infer<typeof InitializeResultSchema>;

/** `notifications/initialized` (legacy era). */
export const InitializedNotificationSchema: LooseObject<{
  method: z.ZodLiteral<'notifications/initialized'>;
  params: z.ZodOptional<typeof NotificationParamsSchema>;
}> = lazySchema(
  () =>
    z.looseObject({
      method: z.literal('notifications/initialized'),
      params: realSchema(NotificationParamsSchema).optional(),
    }),
  isInitializedNotification,
);
export type InitializedNotification = z.infer<typeof InitializedNotificationSchema>;

/** `ping` (legacy era, either direction); answered with an empty result. */
export const PingRequestSchema: LooseObject<{
  method: z.ZodLiteral<'ping'>;
  params: z.ZodOptional<typeof RequestParamsSchema>;
}> = lazySchema(
  () =>
    z.looseObject({
      method: z.literal('ping'),
      params: realSchema(RequestParamsSchema).optional(),
    }),
  isPingRequest,
);
export type PingRequest = z.infer<typeof PingRequestSchema>;

/** `server/discover` (2026-07-28). */
export const DiscoverRequestSchema: LooseObject<{
  method: z.ZodLiteral<'server/discover'>;
  params: z.ZodOptional<typeof RequestParamsSchema>;
}> = lazySchema(
  () =>
    z.looseObject({
      method: z.literal('server/discover'),
      params: realSchema(RequestParamsSchema).optional(),
    }),
  isDiscoverRequest,
);
export type DiscoverRequest = z.infer<typeof DiscoverRequestSchema>;

/** What a 2026-07-28 server supports; a cacheable result (`ttlMs`, `cacheScope`). */
export const DiscoverResultSchema: Extended<
  typeof ResultSchema,
  {
    supportedVersions: z.ZodArray<z.ZodString>;
    capabilities: typeof ServerCapabilitiesSchema;
    instructions: z.ZodOptional<z.ZodString>;
    ttlMs: z.ZodOptional<z.ZodNumber>;
    cacheScope: z.ZodOptional<typeof CacheScopeSchema>;
  }
> = lazySchema(
  () =>
    realSchema(ResultSchema).extend({
      supportedVersions: z.array(z.string()),
      capabilities: realSchema(ServerCapabilitiesSchema),
      instructions: z.string().optional(),
      ttlMs: z.number().int().min(0).optional(),
      cacheScope: realSchema(CacheScopeSchema).optional(),
    }),
  isDiscoverResult,
);
export type DiscoverResult = z.infer<typeof DiscoverResultSchema>;
