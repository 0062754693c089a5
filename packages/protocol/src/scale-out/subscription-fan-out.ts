import type { DetailedTask } from '../tasks/extension-task.js';
import type { Unsubscribe } from './message-bus.js';

/**
 * A change every session may need to hear about: a list changed (`notifications/<list>/list_changed`),
 * a resource was updated (`notifications/resources/updated`, to its subscribers), or a task of the
 * tasks extension (SEP-2663) changed state (`notifications/tasks`, to the `subscriptions/listen` streams
 * of its `owner` that asked for it). `taskCancel` and `taskInput` reach the process running a task:
 * a `tasks/cancel` or `tasks/update` answered by another process (the one running it stops the work,
 * or hands the answers to the handler waiting for them; the others ignore them).
 *
 * @example
 * ```ts
 * const notices: ChangeNotice[] = [
 *   { kind: 'tools' },
 *   { kind: 'resource', uri: 'file:///notes.md' },
 *   { kind: 'taskCancel', taskId: 'c9d8…', owner: 'anonymous' },
 * ];
 * ```
 */
export type ChangeNotice =
  | { kind: 'tools' | 'prompts' | 'resources' }
  | { kind: 'resource'; uri: string }
  | { kind: 'task'; task: DetailedTask; owner: string }
  | { kind: 'taskCancel'; taskId: string; owner: string }
  | { kind: 'taskInput'; taskId: string; owner: string; inputResponses: Record<string, unknown> };

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
