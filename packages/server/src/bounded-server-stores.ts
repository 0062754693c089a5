import { boundSessionStore, boundSubscriptionFanOut, boundTaskStore, StoreDeadline } from '@x/protocol/core';
import type { ServerOptions } from './server-options.js';

/**
 * `options` with its `sessionStore`, `fanOut` and `tasks.store` bounded by `storeTimeoutMs` (default
 * `DEFAULT_STORE_TIMEOUT_MS`): a store that stops answering fails the request that waits for it with an
 * error naming the store and the option, instead of holding it open (issue #35, finding 6).
 */
export function boundServerStores(options: ServerOptions): ServerOptions {
  // Checked even without a store, so a wrong value is refused where it is written.
  // Failures hidden: a handler's error message reaches the client, the store's may carry its address.
  const deadline = new StoreDeadline(options.storeTimeoutMs, { hideFailures: true });
  const { sessionStore, fanOut, tasks } = options;
  if (sessionStore === undefined && fanOut === undefined && tasks?.store === undefined) return options;
  return {
    ...options,
    sessionStore: sessionStore === undefined ? undefined : boundSessionStore(sessionStore, deadline),
    fanOut: fanOut === undefined ? undefined : boundSubscriptionFanOut(fanOut, deadline),
    tasks: tasks?.store === undefined ? tasks : { ...tasks, store: boundTaskStore(tasks.store, deadline) },
  };
}
