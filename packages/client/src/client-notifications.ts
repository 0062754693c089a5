import {
  fromDetailedTask,
  type ProgressNotificationParams,
  type TaskStatusNotificationParams,
} from '@x/protocol/core';
import {
  DeferredCancelledNotificationParamsSchema,
  DeferredDetailedTaskSchema,
  DeferredElicitationCompleteNotificationParamsSchema,
  DeferredLoggingMessageNotificationParamsSchema,
  DeferredNotificationParamsSchema,
  DeferredResourceUpdatedNotificationParamsSchema,
  DeferredSubscriptionsAcknowledgedNotificationParamsSchema,
  DeferredTaskStatusNotificationParamsSchema,
} from '@x/protocol/internal';
import type { ClientEngine } from './client-engine.js';
import type { ClientEvents } from './client-events.js';
import type { ListKind, ListRefresher } from './list-refresher.js';
import type { SubscriptionRegistry } from './modern/subscription-registry.js';
import type { ResultCache } from './result-cache.js';

export interface NotificationTargets {
  events: ClientEvents;
  cache: ResultCache;
  refresher: ListRefresher;
  subscriptions: SubscriptionRegistry;
  /** Task-augmented calls: their progress outlives the request, their status ends it. */
  tasks: {
    progress(params: ProgressNotificationParams): boolean;
    status(params: TaskStatusNotificationParams): void;
  };
}

/** Which cached results a list_changed notification makes stale (server/utilities/caching). */
const LIST_CHANGED: ReadonlyArray<readonly [string, ListKind, readonly string[]]> = [
  ['notifications/tools/list_changed', 'tools', ['tools/list']],
  ['notifications/prompts/list_changed', 'prompts', ['prompts/list']],
  ['notifications/resources/list_changed', 'resources', ['resources/list', 'resources/templates/list']],
];

/**
 * Registers the client's handlers for server notifications, the same in both eras: a legacy server sends
 * them on the connection, a modern one on a `subscriptions/listen` stream (tagged with its id) or on the
 * stream of the request they concern (progress, logs).
 */
export function wireNotifications(engine: ClientEngine, targets: NotificationTargets): void {
  const { events, cache, refresher, subscriptions, tasks } = targets;
  for (const [method, kind, cached] of LIST_CHANGED) {
    engine.setNotificationHandler(method, DeferredNotificationParamsSchema, (params) => {
      for (const entry of cached) cache.invalidate(entry);
      subscriptions.route(method, params);
      refresher.changed(kind);
    });
  }
  engine.setNotificationHandler(
    'notifications/resources/updated',
    DeferredResourceUpdatedNotificationParamsSchema,
    (params) => {
      cache.invalidate('resources/read', params.uri);
      subscriptions.route('notifications/resources/updated', params);
      events.emit('resourceUpdated', params);
    },
  );
  engine.setNotificationHandler(
    'notifications/subscriptions/acknowledged',
    DeferredSubscriptionsAcknowledgedNotificationParamsSchema,
    (params) => subscriptions.route('notifications/subscriptions/acknowledged', params),
  );
  engine.setNotificationHandler(
    'notifications/message',
    DeferredLoggingMessageNotificationParamsSchema,
    (params) => events.emit('log', params),
  );
  // The engine already read these params to route progress to its request; no second parse here.
  engine.setNotificationHandler('notifications/progress', (params) => {
    tasks.progress(params as ProgressNotificationParams);
    if (events.has('progress')) events.emit('progress', params as ProgressNotificationParams);
  });
  engine.setNotificationHandler(
    'notifications/elicitation/complete',
    DeferredElicitationCompleteNotificationParamsSchema,
    (params) => events.emit('elicitationComplete', params),
  );
  engine.setNotificationHandler(
    'notifications/tasks/status',
    DeferredTaskStatusNotificationParamsSchema,
    (params) => {
      tasks.status(params);
      events.emit('taskStatus', params);
    },
  );
  // SEP-2663: the tasks extension's status notification, a full DetailedTask, on a listen stream.
  engine.setNotificationHandler('notifications/tasks', DeferredDetailedTaskSchema, (params) => {
    subscriptions.route('notifications/tasks', params);
    const status = { ...params, ...fromDetailedTask(params) } as TaskStatusNotificationParams;
    tasks.status(status);
    events.emit('taskStatus', status);
  });
  // A server may end a listen stream by cancelling it (basic/patterns/cancellation).
  engine.setNotificationHandler(
    'notifications/cancelled',
    DeferredCancelledNotificationParamsSchema,
    (params) => {
      if (params.requestId !== undefined) subscriptions.cancelledByServer(engine, params.requestId);
    },
  );
}
