import { ErrorCode, McpError, eraOf, type ProtocolVersion } from '@x/protocol/core';
import { deferredClientResultSchemas, methodsOf, revisionMethods } from '@x/protocol/internal';

/** Every client notification of any revision (MCP's own, as opposed to custom methods). */
const CLIENT_NOTIFICATIONS: ReadonlySet<string> = new Set(
  Object.values(revisionMethods).flatMap((methods) => methods.clientNotifications),
);

/** Why a method is missing from a revision, and what to use instead (2026-07-28 changelog, 2-5). */
const REPLACEMENTS: Readonly<Record<string, string>> = {
  ping: '2026-07-28 removed ping; any request (e.g. server/discover) shows the server is alive',
  'logging/setLevel': 'set client.logLevel instead: it travels as _meta io.modelcontextprotocol/logLevel',
  'resources/subscribe': 'use client.listen({ resourceSubscriptions: [uri] }) instead',
  'resources/unsubscribe': 'end the client.listen() subscription instead',
  'notifications/initialized': '2026-07-28 has no initialize handshake',
  'notifications/roots/list_changed': '2026-07-28 removed it; servers ask for roots on every request',
  'server/discover': 'it exists from 2026-07-28 on',
  'subscriptions/listen':
    'it exists from 2026-07-28 on; use resources/subscribe and list_changed notifications',
};

/**
 * A request or notification this client refuses to send because the negotiated revision does not have
 * it. Raised locally, before anything reaches the wire.
 *
 * @example
 * ```ts
 * try { await client.ping(); } catch (error) { if (error instanceof MethodNotSupportedError) {} }
 * ```
 */
export class MethodNotSupportedError extends McpError {
  override readonly name = 'MethodNotSupportedError';
  readonly method: string;
  readonly protocolVersion: string;

  constructor(method: string, protocolVersion: string) {
    const hint = Object.hasOwn(REPLACEMENTS, method) ? REPLACEMENTS[method] : undefined;
    super(
      ErrorCode.MethodNotFound,
      `${method} is not available on protocol ${protocolVersion}${hint === undefined ? '' : `: ${hint}`}`,
    );
    this.method = method;
    this.protocolVersion = protocolVersion;
  }
}

/**
 * Throws when `method` is an MCP client request the revision lacks. Custom (non-MCP) methods pass, and
 * so does everything while no revision is negotiated yet (the handshake itself).
 */
export function assertRequestAvailable(version: ProtocolVersion | undefined, method: string): void {
  if (version === undefined || !Object.hasOwn(deferredClientResultSchemas, method)) return;
  // tasks/get and tasks/cancel come back on 2026-07-28 with the tasks extension (SEP-2663).
  if ((method === 'tasks/get' || method === 'tasks/cancel') && eraOf(version) === 'modern') return;
  if (!methodsOf(version).clientRequests.has(method)) throw new MethodNotSupportedError(method, version);
}

/** Same as {@link assertRequestAvailable}, for client notifications. */
export function assertNotificationAvailable(version: ProtocolVersion | undefined, method: string): void {
  if (version === undefined || !CLIENT_NOTIFICATIONS.has(method)) return;
  if (!methodsOf(version).clientNotifications.has(method)) throw new MethodNotSupportedError(method, version);
}
