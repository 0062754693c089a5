import type { Unsubscribe } from './message-bus.js';

/**
 * A change every session may need to hear about: a list changed (`notifications/<list>/list_changed`)
 * or a resource was updated (`notifications/resources/updated`, to its subscribers).
 *
 * @example
 * ```ts
 * const notices: ChangeNotice[] = [{ kind: 'tools' }, { kind: 'resource', uri: 'file:///notes.md' }];
 * ```
 */
export type ChangeNotice = { kind: 'tools' | 'prompts' | 'resources' } | { kind: 'resource'; uri: string };

/**
 * Carries list and resource changes to every process that serves the endpoint, so a tool registered, or
 * a resource updated, on one process reaches the legacy sessions and 2026-07-28 `subscriptions/listen`
 * streams held by all of them (DESIGN §9). `McpServer` publishes each change here and delivers each
 * notice it receives to its own sessions; without a fan-out it delivers directly, as one process does.
 * `InMemorySubscriptionFanOut` is the one-process default; `@x/redis` uses Redis pub/sub.
 *
 * @example
 * ```ts
 * const fanOut = new InMemorySubscriptionFanOut();
 * const a = new McpServer(info, { fanOut });
 * const b = new McpServer(info, { fanOut }); // hears a's list changes and resource updates
 * ```
 */
export interface SubscriptionFanOut {
  /** Delivers the notice to every subscriber, in this and every other process (the publisher included). */
  publish(notice: ChangeNotice): Promise<void>;
  subscribe(listener: (notice: ChangeNotice) => void): Promise<Unsubscribe>;
}
