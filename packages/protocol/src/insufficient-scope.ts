import { ErrorCode, McpError } from './errors.js';

/**
 * The `data` of an insufficient-scope error, in-protocol (`McpServer` registrations with
 * `requiredScopes`) and in the JSON-RPC body of an HTTP 403: `error` mirrors the OAuth error code of the
 * `WWW-Authenticate` challenge (RFC 6750 §3.1), `requiredScopes` are all the operation needs (spec
 * 2026-07-28 basic/authorization "Runtime Insufficient Scope Errors": "servers SHOULD include all scopes
 * required for the current operation in a single challenge"), `missingScopes` those the token lacks.
 *
 * @example
 * ```ts
 * if (error instanceof McpError && isInsufficientScope(error.data)) {
 *   console.log('ask the user to grant', error.data.missingScopes.join(' '));
 * }
 * ```
 */
export interface InsufficientScopeData {
  error: 'insufficient_scope';
  requiredScopes: readonly string[];
  missingScopes: readonly string[];
}

/**
 * The scopes of `required` not in `granted`; empty when every one is there.
 *
 * @example
 * ```ts
 * missingScopes(['mcp:read'], ['mcp:read', 'mcp:admin']); // ['mcp:admin']
 * ```
 */
export function missingScopes(granted: readonly string[], required: readonly string[]): string[] {
  const missing: string[] = [];
  for (const scope of required) if (!granted.includes(scope)) missing.push(scope);
  return missing;
}

/**
 * The error a request without the scopes it needs fails with: code -32600 (Invalid Request) and
 * `data.error === 'insufficient_scope'`. The MCP specification defines no JSON-RPC code for it (only the
 * HTTP 403 challenge), and the implementation-defined range -32000…-32099 is where MCP keeps adding codes
 * of its own (-32002, -32020…-32022, -32042), so the SDK claims none: `data.error` is the discriminator.
 *
 * @example
 * ```ts
 * throw insufficientScopeError(['mcp:admin'], ['mcp:admin']);
 * // McpError -32600 "Insufficient scope: missing mcp:admin", data { error: 'insufficient_scope', … }
 * ```
 */
export function insufficientScopeError(required: readonly string[], missing: readonly string[]): McpError {
  const data: InsufficientScopeData = {
    error: 'insufficient_scope',
    requiredScopes: [...required],
    missingScopes: [...missing],
  };
  return new McpError(ErrorCode.InvalidRequest, `Insufficient scope: missing ${missing.join(' ')}`, data);
}

/**
 * Whether an error's `data` is `InsufficientScopeData`.
 *
 * @example
 * ```ts
 * if (error instanceof McpError && isInsufficientScope(error.data)) reauthorize(error.data.requiredScopes);
 * ```
 */
export function isInsufficientScope(data: unknown): data is InsufficientScopeData {
  return (
    typeof data === 'object' &&
    data !== null &&
    (data as Record<string, unknown>)['error'] === 'insufficient_scope' &&
    Array.isArray((data as Record<string, unknown>)['requiredScopes']) &&
    Array.isArray((data as Record<string, unknown>)['missingScopes'])
  );
}
