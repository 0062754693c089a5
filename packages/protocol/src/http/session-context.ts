import type { AuthInfo } from '../transport.js';

/**
 * What a server's `onsession(transport, context)` learns about the request that opened the session: the
 * same shape on every server transport (Streamable HTTP, SSE, WebSocket), so one `onsession` serves them
 * all. `TRequest` is the request as that transport has it: a Web `Request` over HTTP, Node's
 * `IncomingMessage` for a WebSocket upgrade.
 *
 * @example
 * ```ts
 * const onsession = (transport: Transport, { authInfo, clientAddress }: SessionContext) => {
 *   console.log('session from', clientAddress ?? 'unknown', authInfo?.clientId ?? 'anonymous');
 *   return mcpServer.connect(transport);
 * };
 * ```
 */
export interface SessionContext<TRequest = Request> {
  /** The request that opened the session (the POST of `initialize`, the SSE GET, the upgrade). */
  readonly request: TRequest;
  /** What `authenticate` returned for that request; `undefined` without one or for an anonymous caller. */
  readonly authInfo: AuthInfo | undefined;
  /** The caller's address (after `trustedProxies`), when the runtime tells it. */
  readonly clientAddress: string | undefined;
}
