import type { ChangeEvent, ServerCore } from '../server-core.js';
import type { ServerSession } from '../session/server-session.js';
import type { LegacySessionState } from './legacy-session-state.js';

/**
 * Change notifications on a legacy session: list_changed for a list whose capability declares
 * `listChanged`, `notifications/resources/updated` for a URI the client subscribed to (spec ≤
 * 2025-11-25: server/tools, server/prompts, server/resources "Subscriptions"). Nothing before
 * `notifications/initialized` (basic/lifecycle).
 */
export function deliverLegacy(
  core: ServerCore,
  session: ServerSession,
  state: LegacySessionState,
  event: ChangeEvent,
): void {
  // Task status reaches 2026-07-28 `subscriptions/listen` streams only (SEP-2663).
  if (event.kind === 'task') return;
  const store = core.options.sessionStore;
  // With a shared store, `notifications/initialized` may have gone to another process (see serveLegacy).
  if (!state.initialized && store === undefined) return;
  if (event.kind === 'resource') {
    const sessionId = session.sessionId;
    if (store !== undefined && sessionId !== undefined) {
      // The subscription may have been made on another process: the store is the one truth.
      const uri = event.uri;
      store.subscriptions(sessionId).then(
        (uris) => {
          if (uris.includes(uri)) send(core, session, 'notifications/resources/updated', { uri });
        },
        (error: unknown) => core.report(error),
      );
      return;
    }
    if (!state.isSubscribed(event.uri)) return;
    send(core, session, 'notifications/resources/updated', { uri: event.uri });
    return;
  }
  if (core.capabilities[event.kind]?.listChanged !== true) return;
  send(core, session, `notifications/${event.kind}/list_changed`, undefined);
}

function send(
  core: ServerCore,
  session: ServerSession,
  method: string,
  params: Record<string, unknown> | undefined,
): void {
  session.notification(params === undefined ? { method } : { method, params }).catch((e) => core.report(e));
}
