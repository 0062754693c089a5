import {
  boundEventStore,
  boundMessageBus,
  boundSessionStore,
  type EventStore,
  type MessageBus,
  type SessionStore,
  StoreDeadline,
} from '@x/protocol/core';
import type { StreamableHttpHandlerOptions } from './options.js';

/** The handler's shared stores, each call under `storeTimeoutMs`. */
export interface BoundedStores {
  sessionStore: SessionStore | undefined;
  eventStore: EventStore | undefined;
  messageBus: MessageBus | undefined;
}

/**
 * Every store the handler calls, bounded by `storeTimeoutMs` (default `DEFAULT_STORE_TIMEOUT_MS`): a
 * store that stops answering (a frozen Redis, a client queueing commands while it reconnects) then
 * fails a request with 503 instead of holding it open (issue #35, finding 6), whatever the store is.
 */
export function boundedStores(options: StreamableHttpHandlerOptions): BoundedStores {
  const deadline = new StoreDeadline(options.storeTimeoutMs);
  return {
    sessionStore:
      options.sessionStore === undefined ? undefined : boundSessionStore(options.sessionStore, deadline),
    eventStore: options.eventStore === undefined ? undefined : boundEventStore(options.eventStore, deadline),
    messageBus: options.messageBus === undefined ? undefined : boundMessageBus(options.messageBus, deadline),
  };
}
