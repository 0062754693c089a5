import { MetaKey, type RequestId, type SubscriptionFilter } from '@x/protocol/core';
import { DeferredSubscriptionsListenResultSchema } from '@x/protocol/internal';
import type { ClientEngine } from '../client-engine.js';
import { isTransportLoss } from '../transport-lost-error.js';
import type { RequestEnvelope } from './request-envelope.js';
import { type ListenNotification, Subscription } from './subscription.js';

/** One stream's listen request, kept to re-send it. */
interface Listen {
  readonly engine: ClientEngine;
  readonly envelope: RequestEnvelope;
  readonly filter: SubscriptionFilter;
  readonly controller: AbortController;
  readonly subscription: Subscription;
}

/** Marks a listen request the server cancelled itself: a graceful end, not a failure. */
const ENDED_BY_SERVER = Symbol('ended by server');

/**
 * Open `subscriptions/listen` streams by request id, and the routing of tagged notifications to them
 * (every notification on a stream carries `io.modelcontextprotocol/subscriptionId` = the listen id).
 */
export class SubscriptionRegistry {
  readonly #byId = new Map<RequestId, Subscription>();
  /**
   * Streams whose listen request was lost with its transport while the connection lives on (a
   * reconnect, a failover switch, a restarted stdio server): re-sent by {@link reopen}.
   */
  readonly #parked = new Map<Subscription, Listen>();

  open(
    engine: ClientEngine,
    envelope: RequestEnvelope,
    filter: SubscriptionFilter,
    signal?: AbortSignal,
  ): Subscription {
    const controller = new AbortController();
    if (signal?.aborted) controller.abort(signal.reason);
    else signal?.addEventListener('abort', () => controller.abort(signal.reason), { once: true });
    const subscription = new Subscription(controller, undefined);
    this.#listen({ engine, envelope, filter, controller, subscription });
    return subscription;
  }

  /**
   * Re-sends `subscriptions/listen` for every stream lost with its transport, once the transport is
   * back: over stdio the client MUST do so (2026-07-28 basic/transports/stdio, "Subscriptions"); over
   * the other transports it keeps the application's streams alive across a switch.
   */
  reopen(): void {
    const parked = [...this.#parked.values()];
    this.#parked.clear();
    for (const listen of parked) {
      if (!listen.controller.signal.aborted) this.#listen(listen);
    }
  }

  /** The connection closed for good: streams waiting for a transport fail with `error`. */
  failParked(error: unknown): void {
    const parked = [...this.#parked.keys()];
    this.#parked.clear();
    for (const subscription of parked) subscription.fail(error);
  }

  #listen(listen: Listen): void {
    const { engine, envelope, filter, controller, subscription } = listen;
    let id: RequestId | undefined;
    // Long-lived by design: no idle or total timeout.
    const done = engine.request(
      { method: 'subscriptions/listen', params: envelope.apply({ notifications: filter }) },
      DeferredSubscriptionsListenResultSchema,
      {
        signal: controller.signal,
        timeout: Number.POSITIVE_INFINITY,
        maxTotalTimeout: Number.POSITIVE_INFINITY,
        onrequestid: (assigned) => {
          id = assigned;
        },
      },
    );
    subscription.rebind(id);
    if (id !== undefined) this.#byId.set(id, subscription);
    done
      .then(
        () => subscription.end(),
        (error: unknown) => {
          if (error === ENDED_BY_SERVER || controller.signal.aborted) subscription.end();
          else if (isTransportLoss(error) && engine.transport !== undefined)
            this.#parked.set(subscription, listen);
          else subscription.fail(error);
        },
      )
      .finally(() => {
        if (id !== undefined && this.#byId.get(id) === subscription) this.#byId.delete(id);
      });
  }

  /** Routes a notification carrying a subscription id to its stream. */
  route(method: string, params: Record<string, unknown>): void {
    const meta = params['_meta'] as Record<string, unknown> | undefined;
    const id = meta?.[MetaKey.SubscriptionId] as RequestId | undefined;
    if (id === undefined) return;
    const subscription = this.#byId.get(id);
    if (subscription === undefined) return;
    if (method === 'notifications/subscriptions/acknowledged') {
      subscription.acknowledge(params['notifications'] as SubscriptionFilter);
    } else {
      subscription.push({ method, params } as ListenNotification);
    }
  }

  /** The server sent `notifications/cancelled` for one of our listen requests: end it gracefully. */
  cancelledByServer(engine: ClientEngine, requestId: RequestId): void {
    if (this.#byId.has(requestId)) engine.endPendingRequest(requestId, ENDED_BY_SERVER);
  }
}
