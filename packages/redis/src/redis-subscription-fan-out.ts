import type { ChangeNotice, SubscriptionFanOut, Unsubscribe } from '@x/protocol';
import { RedisMessageBus, type RedisMessageBusOptions } from './redis-message-bus.js';

const TOPIC = 'changes';

/**
 * A {@link SubscriptionFanOut} on Redis pub/sub: every `McpServer` given one hears the list changes,
 * resource updates and task changes (SEP-2663 status, cancellations, `tasks/update` answers) of every
 * process, and tells its own sessions, `subscriptions/listen` streams and running tasks.
 *
 * @example
 * ```ts
 * const fanOut = new RedisSubscriptionFanOut({ client });
 * const server = new McpServer(info, { fanOut });
 * // …
 * await server.close();
 * await fanOut.close();
 * ```
 */
export class RedisSubscriptionFanOut implements SubscriptionFanOut {
  readonly #bus: RedisMessageBus;

  constructor(options: RedisMessageBusOptions) {
    this.#bus = new RedisMessageBus(options);
  }

  publish(notice: ChangeNotice): Promise<void> {
    return this.#bus.publish(TOPIC, notice);
  }

  subscribe(listener: (notice: ChangeNotice) => void): Promise<Unsubscribe> {
    return this.#bus.subscribe(TOPIC, (payload) => {
      if (isNotice(payload)) listener(payload);
    });
  }

  /** Closes the subscriber connection. */
  close(): Promise<void> {
    return this.#bus.close();
  }
}

function isNotice(value: unknown): value is ChangeNotice {
  if (typeof value !== 'object' || value === null) return false;
  const notice = value as Record<string, unknown>;
  switch (notice['kind']) {
    case 'tools':
    case 'prompts':
    case 'resources':
      return true;
    case 'resource':
      return typeof notice['uri'] === 'string';
    case 'task':
      return (
        typeof notice['owner'] === 'string' &&
        typeof notice['task'] === 'object' &&
        notice['task'] !== null &&
        typeof (notice['task'] as { taskId?: unknown }).taskId === 'string'
      );
    case 'taskCancel':
      return typeof notice['taskId'] === 'string' && typeof notice['owner'] === 'string';
    case 'taskInput':
      return (
        typeof notice['taskId'] === 'string' &&
        typeof notice['owner'] === 'string' &&
        typeof notice['inputResponses'] === 'object' &&
        notice['inputResponses'] !== null
      );
    default:
      return false;
  }
}
