export {
  boundEventStore,
  boundMessageBus,
  boundSessionStore,
  boundSubscriptionFanOut,
  boundTaskStore,
} from './bounded-stores.js';
export type { EventStore, PublishedEvent } from './event-store.js';
export {
  DEFAULT_MAX_EVENTS,
  DEFAULT_MAX_EVENTS_PER_STREAM,
  InMemoryEventStore,
} from './in-memory-event-store.js';
export type { InMemoryEventStoreOptions } from './in-memory-event-store.js';
export { InMemoryMessageBus } from './in-memory-message-bus.js';
export { InMemorySessionStore } from './in-memory-session-store.js';
// The idle timeout of every session store and of the HTTP servers' sessions: one value (issue #36).
export { DEFAULT_SESSION_IDLE_TIMEOUT_MS } from '../transports/limit-defaults.js';
export type { InMemorySessionStoreOptions } from './in-memory-session-store.js';
export { InMemorySubscriptionFanOut } from './in-memory-subscription-fan-out.js';
export type { MessageBus, Unsubscribe } from './message-bus.js';
export type { SessionRecord, SessionStore } from './session-store.js';
export type { ChangeNotice, SubscriptionFanOut } from './subscription-fan-out.js';
export {
  DEFAULT_STORE_TIMEOUT_MS,
  StoreDeadline,
  StoreFailedError,
  StoreTimeoutError,
} from './store-deadline.js';
export type { StoreDeadlineOptions } from './store-deadline.js';
