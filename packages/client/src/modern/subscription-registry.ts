import {
  MetaKey,
  type RequestId,
  type SubscriptionFilter,
  SubscriptionsListenResultSchema,
} from '@x/protocol';
import type { ClientEngine } from '../client-engine.js';
import type { RequestEnvelope } from './request-envelope.js';
import { type ListenNotification, Subscription } from './subscription.js';

/** Marks a listen request the server cancelled itself: a graceful end, not a failure. */
const ENDED_BY_SERVER = Symbol('ended by server');

/**
 * Open `subscriptions/listen` streams by request id, and the routing of tagged notifications to them
 * (every notification on a stream carries `io.modelcontextprotocol/subscriptionId` = the listen id).
 */
export class SubscriptionRegistry {
  readonly #byId = new Map<RequestId, Subscription>();

  open(
    engine: ClientEngine,
    envelope: RequestEnvelope,
    filter: SubscriptionFilter,
    signal?: AbortSignal,
  ): Subscription {
    const controller = new AbortController();
    if (signal?.aborted) controller.abort(signal.reason);
    else signal?.addEventListener('abort', () => controller.abort(signal.reason), { once: true });
    let id: RequestId | undefined;
    // Long-lived by design: no idle or total timeout.
    const done = engine.request(
      { method: 'subscriptions/listen', params: envelope.apply({ notifications: filter }) },
      SubscriptionsListenResultSchema,
      {
        signal: controller.signal,
        timeout: Number.POSITIVE_INFINITY,
        maxTotalTimeout: Number.POSITIVE_INFINITY,
        onrequestid: (assigned) => {
          id = assigned;
        },
      },
    );
    const subscription = new Subscription(controller, id);
    if (id !== undefined) this.#byId.set(id, subscription);
    done
      .then(
        () => subscription.end(),
        (error: unknown) => {
          if (error === ENDED_BY_SERVER || controller.signal.aborted) subscription.end();
          else subscription.fail(error);
        },
      )
      .finally(() => {
        if (id !== undefined && this.#byId.get(id) === subscription) this.#byId.delete(id);
      });
    return subscription;
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
