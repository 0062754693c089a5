import type { InputRequests, Task } from '../schemas/index.js';
import type { StoredTask, TaskOutcome, TaskStore } from '../tasks/task-store.js';
import type { EventStore } from './event-store.js';
import type { MessageBus, Unsubscribe } from './message-bus.js';
import type { SessionStore } from './session-store.js';
import type { StoreDeadline } from './store-deadline.js';
import type { SubscriptionFanOut } from './subscription-fan-out.js';

/** The bus a bounded bus wraps: `storeEventAndPublish` hands the store the bus it knows (see below). */
const innerBuses = new WeakMap<MessageBus, MessageBus>();

/** A late subscription (made after its deadline passed) is ended at once: nobody listens to it. */
const endLate = (unsubscribe: Unsubscribe): void => {
  unsubscribe().catch(() => undefined);
};

/**
 * `store` with every call under `deadline` (a {@link StoreTimeoutError} naming the session store past
 * it), so a store that stops answering fails requests fast instead of holding them open.
 *
 * @example
 * ```ts
 * const sessionStore = boundSessionStore(new RedisSessionStore({ client }), new StoreDeadline(2_000));
 * ```
 */
export function boundSessionStore(store: SessionStore, deadline: StoreDeadline): SessionStore {
  const name = 'session store';
  return {
    create: (id, record) => deadline.run(name, () => store.create(id, record)),
    get: (id) => deadline.run(name, () => store.get(id)),
    update: (id, patch) => deadline.run(name, () => store.update(id, patch)),
    subscriptions: (id) => deadline.run(name, () => store.subscriptions(id)),
    addSubscription: (id, uri) => deadline.run(name, () => store.addSubscription(id, uri)),
    removeSubscription: (id, uri) => deadline.run(name, () => store.removeSubscription(id, uri)),
    delete: (id) => deadline.run(name, () => store.delete(id)),
  };
}

/**
 * `store` with every call under `deadline` (see {@link boundSessionStore}). `storeEventAndPublish`
 * hands the store the bus `bus` wraps when it is a bounded bus, so a store that recognizes its own bus
 * (`@x/redis`: one round trip) still does. A replay cut by the deadline sends nothing more.
 *
 * @example
 * ```ts
 * const eventStore = boundEventStore(new RedisEventStore({ client }), new StoreDeadline());
 * ```
 */
export function boundEventStore(store: EventStore, deadline: StoreDeadline): EventStore {
  const name = 'event store';
  const bounded: EventStore = {
    storeEvent: (streamId, message) => deadline.run(name, () => store.storeEvent(streamId, message)),
    replayEventsAfter: (lastEventId, sink) => {
      let open = true;
      const replay = deadline.run(name, () =>
        store.replayEventsAfter(lastEventId, {
          send: (eventId, message) => (open ? sink.send(eventId, message) : undefined),
        }),
      );
      return replay.finally(() => {
        open = false;
      });
    },
  };
  const storeAndPublish = store.storeEventAndPublish?.bind(store);
  if (storeAndPublish !== undefined) {
    bounded.storeEventAndPublish = (streamId, message, bus, topic) =>
      deadline.run(name, () => storeAndPublish(streamId, message, innerBuses.get(bus) ?? bus, topic));
  }
  const streamOf = store.getStreamIdForEventId?.bind(store);
  if (streamOf !== undefined) {
    bounded.getStreamIdForEventId = (eventId) => deadline.run(name, () => streamOf(eventId));
  }
  return bounded;
}

/**
 * `bus` with every call under `deadline` (see {@link boundSessionStore}); a subscription that completes
 * after its deadline is ended at once.
 *
 * @example
 * ```ts
 * const messageBus = boundMessageBus(new RedisMessageBus({ client }), new StoreDeadline());
 * ```
 */
export function boundMessageBus(bus: MessageBus, deadline: StoreDeadline): MessageBus {
  const name = 'message bus';
  const bounded: MessageBus = {
    publish: (topic, payload) => deadline.run(name, () => bus.publish(topic, payload)),
    subscribe: (topic, listener) =>
      deadline
        .run(name, () => bus.subscribe(topic, listener), endLate)
        .then(
          (unsubscribe): Unsubscribe =>
            () =>
              deadline.run(name, unsubscribe),
        ),
  };
  innerBuses.set(bounded, innerBuses.get(bus) ?? bus);
  return bounded;
}

/**
 * `fanOut` with every call under `deadline` (see {@link boundMessageBus}).
 *
 * @example
 * ```ts
 * const fanOut = boundSubscriptionFanOut(new RedisSubscriptionFanOut({ client }), new StoreDeadline());
 * ```
 */
export function boundSubscriptionFanOut(
  fanOut: SubscriptionFanOut,
  deadline: StoreDeadline,
): SubscriptionFanOut {
  const name = 'subscription fan-out';
  return {
    publish: (notice) => deadline.run(name, () => fanOut.publish(notice)),
    subscribe: (listener) =>
      deadline
        .run(name, () => fanOut.subscribe(listener), endLate)
        .then(
          (unsubscribe): Unsubscribe =>
            () =>
              deadline.run(name, unsubscribe),
        ),
  };
}

/**
 * `store` with every call under `deadline` (see {@link boundSessionStore}).
 *
 * @example
 * ```ts
 * const server = new McpServer(info, { tasks: { store: new RedisTaskStore({ client }) }, storeTimeoutMs: 1_000 });
 * ```
 */
export function boundTaskStore(store: TaskStore, deadline: StoreDeadline): TaskStore {
  const name = 'task store';
  const bounded: TaskStore = {
    create: (record: StoredTask) => deadline.run(name, () => store.create(record)),
    get: (taskId) => deadline.run(name, () => store.get(taskId)),
    update: (taskId, task: Task) => deadline.run(name, () => store.update(taskId, task)),
    setOutcome: (taskId, outcome: TaskOutcome) => deadline.run(name, () => store.setOutcome(taskId, outcome)),
    getOutcome: (taskId) => deadline.run(name, () => store.getOutcome(taskId)),
    list: (owner, cursor, limit) => deadline.run(name, () => store.list(owner, cursor, limit)),
    delete: (taskId) => deadline.run(name, () => store.delete(taskId)),
  };
  const setInput = store.setInputRequests?.bind(store);
  if (setInput !== undefined) {
    bounded.setInputRequests = (taskId, input: InputRequests | undefined) =>
      deadline.run(name, () => setInput(taskId, input));
  }
  const getInput = store.getInputRequests?.bind(store);
  if (getInput !== undefined) {
    bounded.getInputRequests = (taskId) => deadline.run(name, () => getInput(taskId));
  }
  return bounded;
}
