import {
  insufficientScopeError,
  isJSONRPCRequest,
  type JSONRPCMessage,
  missingScopes,
} from '@x/protocol/core';
import { quotedString } from '@x/protocol/http';
import { errorResponse } from './http-responses.js';
import type { StreamableHttpHandlerOptions } from './options.js';

/**
 * The field of `params` that names what a request runs, per method: the same one `Mcp-Name` mirrors
 * (2026-07-28 streamable-http, "Standard Request Headers"). A `Map`: the method comes from the wire.
 */
const NAME_FIELD: ReadonlyMap<string, 'name' | 'uri'> = new Map([
  ['tools/call', 'name'],
  ['prompts/get', 'name'],
  ['resources/read', 'uri'],
]);

/**
 * The 403 for one request whose token lacks scopes the handler's `requiredScopes` option names, or
 * undefined to go on. Spec 2026-07-28 basic/authorization "Runtime Insufficient Scope Errors": "HTTP 403
 * Forbidden", "`WWW-Authenticate` header with the `Bearer` scheme" and `error="insufficient_scope"`,
 * `scope` ("the minimum scopes needed for the operation", all of them in one challenge) and
 * `resource_metadata`. The body is the JSON-RPC error the server would have answered in-protocol.
 * Requests without `AuthInfo` are not checked, as in `McpServer`.
 */
export function scopeChallenge(
  options: StreamableHttpHandlerOptions,
  message: JSONRPCMessage,
  auth: { scopes: readonly string[] } | undefined,
): Response | undefined {
  const lookup = options.requiredScopes;
  if (lookup === undefined || auth === undefined || !isJSONRPCRequest(message)) return undefined;
  const field = NAME_FIELD.get(message.method);
  const value = field === undefined ? undefined : message.params?.[field];
  const name = typeof value === 'string' ? value : undefined;
  const required = lookup(name === undefined ? { method: message.method } : { method: message.method, name });
  if (required === undefined || required.length === 0) return undefined;
  const missing = missingScopes(auth.scopes, required);
  if (missing.length === 0) return undefined;
  const error = insufficientScopeError(required, missing);
  let challenge = `Bearer error="insufficient_scope", scope=${quotedString(required.join(' '))}`;
  if (options.resourceMetadataUrl !== undefined) {
    challenge += `, resource_metadata=${quotedString(options.resourceMetadataUrl)}`;
  }
  challenge += `, error_description=${quotedString(error.message)}`;
  return errorResponse(403, error.code, error.message, {
    id: message.id,
    data: error.data,
    headers: { 'www-authenticate': challenge },
  });
}
