import type {
  DetailedTask,
  NotificationParams,
  RequestId,
  ResourceUpdatedNotificationParams,
  SubscriptionFilter,
} from '@x/protocol/core';

/**
 * A change notification delivered on a `subscriptions/listen` stream.
 *
 * @example
 * ```ts
 * const subscription = client.listen({
 *   toolsListChanged: true,
 *   resourceSubscriptions: ['file:///notes.md'],
 * });
 * for await (const notification of subscription) {
 *   if (notification.method === 'notifications/resources/updated')
 *     console.log('changed:', notification.params.uri);
 *   else console.log(notification.method);
 * }
 * ```
 */
export type ListenNotification =
  | {
      method:
        | 'notifications/tools/list_changed'
        | 'notifications/prompts/list_changed'
        | 'notifications/resources/list_changed';
      params: NotificationParams;
    }
  | { method: 'notifications/resources/updated'; params: ResourceUpdatedNotificationParams }
  /** A task's new state (SEP-2663), when the filter asked for its id in `taskIds`. */
  | { method: 'notifications/tasks'; params: DetailedTask };

type Waiter = {
  resolve: (result: IteratorResult<ListenNotification, undefined>) => void;
  reject: (error: unknown) => void;
};

/**
 * One `subscriptions/listen` stream (2026-07-28 basic/patterns/subscriptions) as an async iterable. It
 * ends when the server answers the request (graceful closure) or cancels it, and when the consumer stops
 * iterating (`break`, `return()`, `close()`) or aborts its signal: that cancels the request. A dropped
 * connection makes the iteration throw.
 *
 * @example
 * ```ts
 * const subscription = client.listen({ toolsListChanged: true, resourceSubscriptions: ['file:///a'] });
 * console.log('server honours', await subscription.acknowledged);
 * for await (const { method, params } of subscription) console.log(method, params);
 * ```
 */
export class Subscription implements AsyncIterableIterator<ListenNotification, undefined> {
  /** The server's acknowledged filter: what it agreed to send (may be less than requested). */
  readonly acknowledged: Promise<SubscriptionFilter>;
  #id: RequestId | undefined;
  readonly #controller: AbortController;
  readonly #queue: ListenNotification[] = [];
  #waiter: Waiter | undefined;
  #ended = false;
  #failure: { error: unknown } | undefined;
  #ack!: { resolve: (filter: SubscriptionFilter) => void; reject: (error: unknown) => void };

  /** `controller` cancels the listen request when aborted; `id` is that request's JSON-RPC id. */
  constructor(controller: AbortController, id: RequestId | undefined) {
    this.#controller = controller;
    this.#id = id;
    this.acknowledged = new Promise((resolve, reject) => {
      this.#ack = { resolve, reject };
    });
    // Nobody has to await the acknowledgement; its failure also surfaces through iteration.
    this.acknowledged.catch(() => {});
  }

  /**
   * The JSON-RPC id of the listen request, which notifications carry as their subscription id. A stream
   * re-opened after its transport was lost and re-established gets the new request's id.
   */
  get id(): RequestId | undefined {
    return this.#id;
  }

  /** The stream was re-opened as request `id` (the client re-sent `subscriptions/listen`). */
  rebind(id: RequestId | undefined): void {
    this.#id = id;
  }

  [Symbol.asyncIterator](): this {
    return this;
  }

  next(): Promise<IteratorResult<ListenNotification, undefined>> {
    const item = this.#queue.shift();
    if (item !== undefined) return Promise.resolve({ done: false, value: item });
    if (this.#failure !== undefined) {
      const { error } = this.#failure;
      this.#failure = undefined;
      this.#ended = true;
      return Promise.reject(error);
    }
    if (this.#ended) return Promise.resolve({ done: true, value: undefined });
    return new Promise((resolve, reject) => {
      this.#waiter = { resolve, reject };
    });
  }

  /** Stops listening: cancels the request (the server sees `notifications/cancelled`). */
  async return(): Promise<IteratorResult<ListenNotification, undefined>> {
    this.close();
    return { done: true, value: undefined };
  }

  close(): void {
    if (!this.#ended) this.#controller.abort(new Error('Subscription closed by the client'));
    this.end();
  }

  /** Delivered by the client's notification routing. */
  push(notification: ListenNotification): void {
    if (this.#ended) return;
    const waiter = this.#waiter;
    if (waiter === undefined) {
      this.#queue.push(notification);
      return;
    }
    this.#waiter = undefined;
    waiter.resolve({ done: false, value: notification });
  }

  acknowledge(filter: SubscriptionFilter): void {
    this.#ack.resolve(filter);
  }

  /** The stream ended gracefully: queued notifications are still delivered, then iteration is done. */
  end(): void {
    if (this.#ended) return;
    this.#ended = true;
    this.#ack.reject(new Error('Subscription ended before it was acknowledged'));
    const waiter = this.#waiter;
    this.#waiter = undefined;
    waiter?.resolve({ done: true, value: undefined });
  }

  fail(error: unknown): void {
    if (this.#ended) return;
    this.#ack.reject(error);
    const waiter = this.#waiter;
    if (waiter === undefined) {
      this.#failure = { error };
      return;
    }
    this.#ended = true;
    this.#waiter = undefined;
    waiter.reject(error);
  }
}
