import type { ChangeNotice, SubscriptionFanOut, Unsubscribe } from '@x/protocol';
import { RedisMessageBus, type RedisMessageBusOptions } from './redis-message-bus.js';

const TOPIC = 'changes';

/**
 * A {@link SubscriptionFanOut} on Redis pub/sub: every `McpServer` given one hears the list changes and
 * resource updates of every process, and tells its own sessions and `subscriptions/listen` streams.
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
  const kind = (value as { kind?: unknown }).kind;
  if (kind === 'resource') return typeof (value as { uri?: unknown }).uri === 'string';
  return kind === 'tools' || kind === 'prompts' || kind === 'resources';
}
