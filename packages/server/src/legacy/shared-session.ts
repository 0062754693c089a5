import { type SessionStore, StoreFailedError, StoreTimeoutError } from '@x/protocol/core';
import type { ServerCore } from '../server-core.js';
import type { SessionState } from '../session/session-state.js';
import { LegacySessionState } from './legacy-session-state.js';

/**
 * Answers a request that changed a legacy session's shared state only once `sessionStore` holds the
 * change: the client's next request may land on another process, which reads the session from the store
 * (DESIGN §9). Without a store, or on a connection without a session id, the result goes out at once.
 */
export function persisted<T extends object>(
  core: ServerCore,
  session: SessionState,
  result: T,
  write: (store: SessionStore, sessionId: string) => Promise<unknown>,
): T | Promise<T> {
  const store = core.options.sessionStore;
  const sessionId = session.transport?.sessionId;
  if (store === undefined || sessionId === undefined) return result;
  return write(store, sessionId).then(
    () => result,
    (error: unknown) => {
      // The store's own message may carry its address or credentials: the client reads this one.
      const message =
        error instanceof StoreTimeoutError || error instanceof StoreFailedError
          ? `The ${error.message}`
          : 'The session store failed';
      core.report(error);
      throw new Error(message, { cause: error });
    },
  );
}

/**
 * The legacy state of a session another process opened, read from `sessionStore`: its negotiated
 * version, client info and capabilities, log level and resource subscriptions. Undefined when the store
 * does not know the session or it has not finished `initialize` (then this connection starts fresh).
 */
export async function adoptLegacySession(
  core: ServerCore,
  store: SessionStore,
  sessionId: string,
): Promise<LegacySessionState | undefined> {
  const record = await store.get(sessionId);
  const version = record?.protocolVersion;
  if (record === undefined || version === undefined || !core.legacyVersions.includes(version))
    return undefined;
  const state = new LegacySessionState(core, version, record.clientCapabilities ?? {}, record.clientInfo);
  // The handshake finished on the process that wrote the version; `notifications/initialized` may
  // still be on its way there, and a client that sends another request has seen the result.
  state.initialized = true;
  if (record.logLevel !== undefined) state.setLevel(record.logLevel);
  for (const uri of await store.subscriptions(sessionId)) state.subscribe(uri);
  return state;
}
