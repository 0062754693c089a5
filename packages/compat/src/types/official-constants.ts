import {
  CallToolResultSchema,
  InitializedNotificationSchema,
  InitializeRequestSchema,
  type InitializedNotification,
  type InitializeRequest,
  isJSONRPCErrorResponse,
  JSONValueSchema,
  LATEST_LEGACY_PROTOCOL_VERSION,
  LEGACY_PROTOCOL_VERSIONS,
  ResultSchema,
  type ZodSchema,
} from '@x/protocol';

/**
 * The newest revision the official SDK 1.32 speaks (`'2025-11-25'`). x-mcp's own
 * `LATEST_PROTOCOL_VERSION` is `'2026-07-28'`; a 1.x application means the legacy one.
 *
 * @example
 * ```ts
 * import { LATEST_PROTOCOL_VERSION } from '@modelcontextprotocol/sdk/types.js';
 * LATEST_PROTOCOL_VERSION; // '2025-11-25'
 * ```
 */
export const LATEST_PROTOCOL_VERSION: string = LATEST_LEGACY_PROTOCOL_VERSION;

/**
 * The revision assumed when none was negotiated (Streamable HTTP without `MCP-Protocol-Version`).
 *
 * @example
 * ```ts
 * DEFAULT_NEGOTIATED_PROTOCOL_VERSION; // '2025-03-26'
 * ```
 */
export const DEFAULT_NEGOTIATED_PROTOCOL_VERSION = '2025-03-26';

/**
 * The `initialize`-era revisions, newest first. Unlike the official list it has no `'2024-10-07'` (a
 * draft no released spec names): a 1.x peer that offers only that one is answered with `'2025-11-25'`.
 *
 * @example
 * ```ts
 * SUPPORTED_PROTOCOL_VERSIONS.includes('2025-06-18'); // true
 * ```
 */
export const SUPPORTED_PROTOCOL_VERSIONS: string[] = [...LEGACY_PROTOCOL_VERSIONS];

/**
 * The `_meta` key that ties a message to a task (2025-11-25 tasks).
 *
 * @example
 * ```ts
 * const meta = { [RELATED_TASK_META_KEY]: { taskId } };
 * ```
 */
export const RELATED_TASK_META_KEY = 'io.modelcontextprotocol/related-task';

/**
 * Whether a JSON-RPC body is an `initialize` request (how the official HTTP examples decide to open a
 * session).
 *
 * @example
 * ```ts
 * if (!sessionId && isInitializeRequest(req.body)) transport = new StreamableHTTPServerTransport({ … });
 * ```
 */
export function isInitializeRequest(value: unknown): value is InitializeRequest {
  return InitializeRequestSchema.safeParse(value).success;
}

/**
 * Whether a message is `notifications/initialized`.
 *
 * @example
 * ```ts
 * if (isInitializedNotification(message)) ready();
 * ```
 */
export function isInitializedNotification(value: unknown): value is InitializedNotification {
  return InitializedNotificationSchema.safeParse(value).success;
}

/**
 * The official 1.x name of `isJSONRPCErrorResponse` (deprecated there, kept for old code).
 *
 * @example
 * ```ts
 * if (isJSONRPCError(message)) console.error(message.error.message);
 * ```
 */
export const isJSONRPCError: typeof isJSONRPCErrorResponse = isJSONRPCErrorResponse;

/**
 * A `tools/call` result, or the 2024-10-07 `{ toolResult }` form that old servers send.
 *
 * @example
 * ```ts
 * const result = await client.request({ method: 'tools/call', params }, CompatibilityCallToolResultSchema);
 * ```
 */
export const CompatibilityCallToolResultSchema: ZodSchema = CallToolResultSchema.or(
  ResultSchema.extend({ toolResult: JSONValueSchema }),
);
