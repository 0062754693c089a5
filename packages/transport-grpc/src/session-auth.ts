import { Metadata, status as Status } from '@grpc/grpc-js';
import type { AuthInfo } from '@x/protocol/core';
import { SESSION_METHOD_PATH } from './constants.js';

/**
 * Authenticates a `Session` stream before the session exists, from its call metadata. It is the HTTP
 * servers' `authenticate` hook with the metadata as a `Request` (method POST, URL
 * `http://<authority>/mcp.transport.v1.Mcp/Session`, one header per text metadata entry), so
 * `bearerAuth(...)` of `@x/auth` works unchanged; the raw `Metadata` comes second. Return the caller's
 * `AuthInfo`, `undefined` for an anonymous caller, or a `Response`: 401 refuses the stream with
 * `UNAUTHENTICATED`, 403 with `PERMISSION_DENIED`, its `WWW-Authenticate` travels in the trailers.
 *
 * @example
 * ```ts
 * const authenticate: GrpcAuthenticate = (request) =>
 *   request.headers.get('authorization') === 'Bearer s3cret'
 *     ? { token: 's3cret', clientId: 'ci', scopes: [] }
 *     : new Response(null, { status: 401, headers: { 'www-authenticate': 'Bearer' } });
 * ```
 */
export type GrpcAuthenticate = (
  request: Request,
  metadata: Metadata,
) => AuthInfo | Response | undefined | Promise<AuthInfo | Response | undefined>;

/** A refused stream: its status, details and trailers. */
export interface Refusal {
  code: number;
  details: string;
  metadata: Metadata;
}

/** The metadata as the `Request` an HTTP `authenticate` hook reads. */
export function metadataRequest(metadata: Metadata, authority: string): Request {
  const headers = new Headers();
  for (const [key, value] of Object.entries(metadata.getMap())) {
    if (typeof value !== 'string' || key.startsWith(':')) continue;
    try {
      headers.append(key, value);
    } catch {
      // A value Headers refuses (a control character) cannot be a credential an HTTP hook reads.
    }
  }
  return new Request(`http://${authority || 'localhost'}${SESSION_METHOD_PATH}`, { method: 'POST', headers });
}

const STATUS_OF_HTTP = new Map<number, number>([
  [400, Status.INVALID_ARGUMENT],
  [401, Status.UNAUTHENTICATED],
  [403, Status.PERMISSION_DENIED],
  [404, Status.NOT_FOUND],
  [429, Status.RESOURCE_EXHAUSTED],
  [503, Status.UNAVAILABLE],
]);

/** The gRPC refusal of an `authenticate` hook's `Response`. */
export async function refusalOf(response: Response): Promise<Refusal> {
  const code =
    STATUS_OF_HTTP.get(response.status) ??
    (response.status >= 500 ? Status.INTERNAL : Status.UNAUTHENTICATED);
  const metadata = new Metadata();
  const challenge = response.headers.get('www-authenticate');
  if (challenge !== null) metadata.set('www-authenticate', challenge);
  let body = '';
  try {
    body = (await response.text()).slice(0, 512);
  } catch {
    // The status says enough.
  }
  const details = `authenticate answered HTTP ${response.status}${body === '' ? '' : `: ${body}`}`;
  return { code, details, metadata };
}

/** The `Response` a client's `onUnauthorized` / `onForbidden` hook reads for a refused stream. */
export function responseOf(code: number, metadata: Metadata | undefined): Response {
  const status = code === Status.PERMISSION_DENIED ? 403 : 401;
  const headers = new Headers();
  const challenge = metadata?.get('www-authenticate')[0];
  if (typeof challenge === 'string') headers.set('www-authenticate', challenge);
  return new Response(null, { status, headers });
}
