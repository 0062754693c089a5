import { describe, expect, it } from 'vitest';
import {
  boundEventStore,
  boundMessageBus,
  DEFAULT_STORE_TIMEOUT_MS,
  type EventStore,
  InMemoryMessageBus,
  type MessageBus,
  StoreDeadline,
  StoreTimeoutError,
} from '../src/index.js';

describe('StoreDeadline and the bounded stores', () => {
  it('times a call out with a StoreTimeoutError naming the store and the option; Infinity waits', async () => {
    expect(new StoreDeadline().timeoutMs).toBe(DEFAULT_STORE_TIMEOUT_MS);
    const deadline = new StoreDeadline(20);
    const error = await deadline
      .run('event store', () => new Promise(() => undefined))
      .catch((e: unknown) => e);
    expect(error).toBeInstanceOf(StoreTimeoutError);
    expect((error as Error).message).toBe('event store did not answer within 20 ms (storeTimeoutMs)');
    let settle: (value: string) => void = () => undefined;
    const slow = new StoreDeadline(Number.POSITIVE_INFINITY).run(
      'x',
      () => new Promise<string>((resolve) => (settle = resolve)),
    );
    setTimeout(() => settle('late but fine'), 40);
    expect(await slow).toBe('late but fine');
    expect(() => new StoreDeadline(-1)).toThrow(/storeTimeoutMs/);
  });

  it('ends a subscription that completes after its deadline: nobody would ever unsubscribe it', async () => {
    const inner = new InMemoryMessageBus();
    let release: () => void = () => undefined;
    const slowBus: MessageBus = {
      publish: (topic, payload) => inner.publish(topic, payload),
      subscribe: async (topic, listener) => {
        await new Promise<void>((resolve) => (release = resolve));
        return inner.subscribe(topic, listener);
      },
    };
    const bus = boundMessageBus(slowBus, new StoreDeadline(20));
    await expect(bus.subscribe('t', () => undefined)).rejects.toBeInstanceOf(StoreTimeoutError);
    release();
    await expect.poll(() => inner.topicCount).toBe(0);
  });

  it('hands storeEventAndPublish the bus the bounded bus wraps (so @x/redis keeps its one round trip)', async () => {
    const raw = new InMemoryMessageBus();
    const seen: MessageBus[] = [];
    const store: EventStore = {
      storeEvent: async () => 'e1',
      storeEventAndPublish: async (_stream, _message, bus) => {
        seen.push(bus);
        return 'e1';
      },
      replayEventsAfter: async () => undefined,
    };
    const deadline = new StoreDeadline();
    const bounded = boundEventStore(store, deadline);
    const bus = boundMessageBus(raw, deadline);
    await bounded.storeEventAndPublish?.('s', { jsonrpc: '2.0', method: 'x' }, bus, 'topic');
    expect(seen).toEqual([raw]);
    expect(
      boundEventStore({ storeEvent: store.storeEvent, replayEventsAfter: store.replayEventsAfter }, deadline),
    ).not.toHaveProperty('storeEventAndPublish');
  });
});
