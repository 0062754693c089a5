import type { Transport } from '@x/protocol/core';
import type { EraSession } from './era-session.js';

/**
 * The client's heartbeat probe for the negotiated era, or undefined when there is nothing to probe:
 * - legacy: `ping` (2025-11-25 basic/utilities/ping: "Implementations SHOULD periodically issue pings
 *   to detect connection health");
 * - 2026-07-28 removed `ping` (changelog 5). On a transport with one connection for the whole
 *   session (stdio, WebSocket) the probe is `server/discover`, the request every server MUST answer
 *   (2026-07-28 server/discover), cheap and without side effects. On a per-request transport
 *   (Streamable HTTP) there is no session and no connection to keep alive (every request is its own
 *   HTTP exchange, and its failure already fails that request); the long-lived `subscriptions/listen`
 *   streams are watched by the transport's `idleTimeoutMs` instead. Nothing is probed there.
 * - not negotiated yet (during `connect()`): nothing.
 */
export function heartbeatProbe(
  session: EraSession | undefined,
  transport: Transport | undefined,
  timeoutMs: number,
): Promise<unknown> | undefined {
  if (session === undefined || transport === undefined) return undefined;
  const options = { timeout: timeoutMs, maxTotalTimeout: timeoutMs };
  if (session.era === 'legacy') return session.request('ping', undefined, options);
  if (transport.hasPerRequestStream === true) return undefined;
  return session.request('server/discover', undefined, options);
}
