import type { Transport } from '@x/protocol/core';
import type { LegacySessionState } from '../legacy/legacy-session-state.js';
import type { SubscriptionHub } from '../modern/subscription-hub.js';
import type { ServerSession } from './server-session.js';

/**
 * The per-connection state the era modules read and change (the session engine implements it).
 * Declared apart from the engine so the era modules, which the engine calls, never import it back.
 */
export interface SessionState {
  /** The public face of this connection, handed to handlers as `ctx.session`. */
  readonly session: ServerSession;
  readonly transport: Transport | undefined;
  /** The legacy handshake state; undefined until `initialize` (or a `legacySession` connect option). */
  readonly legacy: LegacySessionState | undefined;
  /** Whether `legacy` was assumed from the connection rather than negotiated by `initialize`. */
  readonly legacyAssumed: boolean;
  /** Records the outcome of `initialize`; a session has at most one (an assumed one gives way). */
  beginLegacy(state: LegacySessionState, options?: { assumed?: boolean }): void;
  /** Open `subscriptions/listen` streams of 2026-07-28 clients on this connection. */
  readonly subscriptions: SubscriptionHub;
}
