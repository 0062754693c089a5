import type {
  CallToolResult,
  ClientNotificationMap,
  ClientRequestMap,
  CreateMessageRequestParams,
  CreateMessageResult,
  MetaObject,
  ResourceTemplateReference,
  ServerNotificationMap,
  ServerRequestMap,
} from '@x/protocol';

/**
 * Official 1.x type names x-mcp spells differently, as aliases of x-mcp's types.
 *
 * @example
 * ```ts
 * const request: Request = { method: 'tools/list' };
 * ```
 */
export interface Request {
  method: string;
  params?: { [key: string]: unknown; _meta?: RequestMeta | undefined } | undefined;
}

/** A notification of any method. */
export interface Notification {
  method: string;
  params?: { [key: string]: unknown; _meta?: MetaObject | undefined } | undefined;
}

/** A request's `_meta`. */
export type RequestMeta = MetaObject & { progressToken?: string | number | undefined };

/** A progress update's fields. */
export interface Progress {
  progress: number;
  total?: number | undefined;
  message?: string | undefined;
}

/** The official name of a resource-template completion reference. */
export type ResourceReference = ResourceTemplateReference;

/** A request a client sends: `{ method, params }` for each client method. */
export type ClientRequest = {
  [M in keyof ClientRequestMap]: { method: M; params: ClientRequestMap[M]['params'] };
}[keyof ClientRequestMap];

/** A request a server sends. */
export type ServerRequest = {
  [M in keyof ServerRequestMap]: { method: M; params: ServerRequestMap[M]['params'] };
}[keyof ServerRequestMap];

/** A notification a client sends. */
export type ClientNotification = {
  [M in keyof ClientNotificationMap]: { method: M; params?: ClientNotificationMap[M] };
}[keyof ClientNotificationMap];

/** A notification a server sends. */
export type ServerNotification = {
  [M in keyof ServerNotificationMap]: { method: M; params?: ServerNotificationMap[M] };
}[keyof ServerNotificationMap];

/** A `tools/call` result, or the 2024-10-07 `{ toolResult }` form. */
export type CompatibilityCallToolResult = CallToolResult | { toolResult: unknown; _meta?: MetaObject };

/** `sampling/createMessage` params with tools (x-mcp's params type covers both forms). */
export type CreateMessageRequestParamsWithTools = CreateMessageRequestParams;

/** A sampling result whose content may be an array (x-mcp's result type covers both forms). */
export type CreateMessageResultWithTools = CreateMessageResult;
