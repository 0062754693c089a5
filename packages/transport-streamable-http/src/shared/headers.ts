/**
 * HTTP header names of the Streamable HTTP transport, lower-cased: header names are case-insensitive
 * (RFC 9110 §5.1; 2026-07-28 streamable-http "Case Sensitivity"), and `Headers` lower-cases them anyway.
 */
export const HEADER = {
  sessionId: 'mcp-session-id',
  protocolVersion: 'mcp-protocol-version',
  method: 'mcp-method',
  name: 'mcp-name',
  lastEventId: 'last-event-id',
  accept: 'accept',
  contentType: 'content-type',
} as const;

/**
 * The body field `Mcp-Name` mirrors, per method (2026-07-28 streamable-http, "Standard Request Headers"):
 * the client sets the header from it and the server checks the header against it. A `Map`: the method
 * comes from the wire (or user code), and a plain object would answer `toString` or `constructor` from
 * its prototype (issue #24, item 12).
 */
export const NAME_SOURCE: ReadonlyMap<string, 'name' | 'uri' | 'taskId'> = new Map([
  ['tools/call', 'name'],
  ['prompts/get', 'name'],
  ['resources/read', 'uri'],
  // SEP-2663 "Streamable HTTP: Routing Headers": the client MUST set Mcp-Name to params.taskId.
  ['tasks/get', 'taskId'],
  ['tasks/update', 'taskId'],
  ['tasks/cancel', 'taskId'],
]);

/** Prefix of the custom headers mirrored from tool arguments (2026-07-28, "Custom Headers from Tool Parameters"). */
export const PARAM_HEADER_PREFIX = 'mcp-param-';

/** The `_meta` key carrying a modern request's protocol version (2026-07-28 `basic/index`, "Reserved keys"). */
export const META_PROTOCOL_VERSION = 'io.modelcontextprotocol/protocolVersion';

/** The `_meta` key tagging every message of a `subscriptions/listen` stream. */
export const META_SUBSCRIPTION_ID = 'io.modelcontextprotocol/subscriptionId';

export const JSON_MEDIA_TYPE = 'application/json';
export const SSE_MEDIA_TYPE = 'text/event-stream';
