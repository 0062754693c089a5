import {
  type ClientCapabilities,
  ErrorCode,
  type JSONRPCRequest,
  McpError,
  MetaKey,
  type RequestContext,
  type RequestId,
  type SubscriptionFilter,
} from '@x/protocol/core';
import {
  DeferredSubscriptionsListenRequestParamsSchema,
  formatIssues,
  safeParseDeferred,
} from '@x/protocol/internal';
import type { ChangeEvent, ServerCore } from '../server-core.js';
import { declaresTasks, missingTasksExtension, ownerOf } from '../tasks/extension-tasks.js';

interface Listener {
  readonly ctx: RequestContext;
  readonly filter: SubscriptionFilter;
  readonly uris: ReadonlySet<string>;
  /** Tasks whose `notifications/tasks` this stream gets (SEP-2663), and whose they must be. */
  readonly taskIds: ReadonlySet<string> | undefined;
  readonly owner: string | undefined;
  readonly meta: Record<string, unknown>;
  readonly end: (result: object) => void;
}

const LIST_FLAGS = {
  tools: 'toolsListChanged',
  prompts: 'promptsListChanged',
  resources: 'resourcesListChanged',
} as const;

/**
 * The `subscriptions/listen` streams of one connection (spec 2026-07-28: basic/patterns/subscriptions):
 * acknowledged first, every message tagged with the subscription id (the listen request's id), ended
 * by the client's cancellation or gracefully by the server with a final result.
 *
 * @example
 * ```ts
 * // End every open subscription of one connection gracefully (e.g. before a deploy).
 * for (const session of server.sessions) await session.subscriptions.endAll();
 * ```
 */
export class SubscriptionHub {
  readonly #core: ServerCore;
  readonly #listeners = new Map<RequestId, Listener>();
  /** Open streams plus the URIs they watch, counted against `maxSubscriptions`. */
  #held = 0;

  constructor(core: ServerCore) {
    this.#core = core;
  }

  get size(): number {
    return this.#listeners.size;
  }

  async listen(
    request: JSONRPCRequest,
    ctx: RequestContext,
    capabilities: ClientCapabilities = {},
  ): Promise<object> {
    const parsed = await safeParseDeferred(
      DeferredSubscriptionsListenRequestParamsSchema,
      request.params ?? {},
    );
    if (!parsed.success) {
      throw new McpError(
        ErrorCode.InvalidParams,
        `Invalid params for subscriptions/listen: ${formatIssues(parsed.error)}`,
      );
    }
    const filter = this.#accept(parsed.data.notifications);
    const uris = new Set(filter.resourceSubscriptions ?? []);
    const wantedTasks = (parsed.data.notifications as { taskIds?: unknown }).taskIds;
    let taskIds: Set<string> | undefined;
    let owner: string | undefined;
    if (Array.isArray(wantedTasks) && this.#core.tasks !== undefined) {
      // SEP-2663 "Task Status Notifications": -32021 for a client without the extension.
      if (!declaresTasks(capabilities)) throw missingTasksExtension('subscriptions/listen for taskIds');
      taskIds = new Set(wantedTasks.filter((id): id is string => typeof id === 'string'));
      owner = await ownerOf(ctx.authInfo);
      (filter as { taskIds?: string[] }).taskIds = [...taskIds];
    }
    // Each open stream counts one, plus one per URI it watches: both are state this connection holds.
    // Task ids are watched state too: each counts like a resource URI.
    const cost = 1 + uris.size + (taskIds?.size ?? 0);
    if (this.#held + cost > this.#core.maxSubscriptions) {
      throw this.#core.tooManySubscriptions(
        `subscriptions/listen with ${uris.size} resource URIs and ${taskIds?.size ?? 0} task ids (${this.#held} held by this connection's open streams)`,
      );
    }
    this.#held += cost;
    const meta = { [MetaKey.SubscriptionId]: request.id };
    const signal = ctx.signal;
    const done = new Promise<object>((resolve) => {
      const listener: Listener = {
        ctx,
        filter,
        uris,
        taskIds,
        owner,
        meta,
        end: resolve,
      };
      this.#listeners.set(request.id, listener);
      // Cancelled by the client (or the connection closed): no response goes out (cancellation rules).
      signal.addEventListener('abort', () => this.#stop(request.id, {}), { once: true });
    });
    // MUST be the first message of the subscription (spec: "Acknowledgment").
    try {
      await ctx.sendNotification({
        method: 'notifications/subscriptions/acknowledged',
        params: { notifications: filter, _meta: meta },
      });
    } catch (error) {
      this.#stop(request.id, {}); // not held for a stream that never opened
      throw error;
    }
    return done;
  }

  deliver(event: ChangeEvent): void {
    for (const listener of this.#listeners.values()) {
      if (event.kind === 'task') {
        if (listener.taskIds?.has(event.task.taskId) === true && listener.owner === event.owner) {
          this.#send(listener, 'notifications/tasks', { ...event.task, _meta: listener.meta });
        }
      } else if (event.kind === 'resource') {
        if (listener.uris.has(event.uri)) {
          this.#send(listener, 'notifications/resources/updated', { uri: event.uri, _meta: listener.meta });
        }
      } else if (listener.filter[LIST_FLAGS[event.kind]] === true) {
        this.#send(listener, `notifications/${event.kind}/list_changed`, { _meta: listener.meta });
      }
    }
  }

  /** Ends one subscription gracefully (a final result tagged with its id). */
  end(id: RequestId): boolean {
    const listener = this.#listeners.get(id);
    if (listener === undefined) return false;
    const meta =
      this.#core.serverInfoMeta === undefined
        ? listener.meta
        : { ...this.#core.serverInfoMeta, ...listener.meta };
    this.#stop(id, { resultType: 'complete', _meta: meta });
    return true;
  }

  /** Ends every subscription gracefully and waits until the final results could be written. */
  async endAll(): Promise<void> {
    if (this.#listeners.size === 0) return;
    for (const id of [...this.#listeners.keys()]) this.end(id);
    await new Promise((resolve) => setTimeout(resolve, 0));
  }

  /** Forgets every subscription without a response (the connection is gone). */
  dropAll(_reason: unknown): void {
    this.#listeners.clear();
    this.#held = 0;
  }

  #stop(id: RequestId, result: object): void {
    const listener = this.#listeners.get(id);
    if (listener === undefined) return;
    this.#listeners.delete(id);
    this.#held -= 1 + listener.uris.size + (listener.taskIds?.size ?? 0);
    listener.end(result);
  }

  /** The part of the filter this server honours (spec: unsupported types are omitted from the ack). */
  #accept(requested: SubscriptionFilter): SubscriptionFilter {
    const caps = this.#core.capabilities;
    const accepted: SubscriptionFilter = {};
    if (requested.toolsListChanged === true && caps.tools?.listChanged === true)
      accepted.toolsListChanged = true;
    if (requested.promptsListChanged === true && caps.prompts?.listChanged === true) {
      accepted.promptsListChanged = true;
    }
    if (requested.resourcesListChanged === true && caps.resources?.listChanged === true) {
      accepted.resourcesListChanged = true;
    }
    if (requested.resourceSubscriptions !== undefined && caps.resources?.subscribe === true) {
      accepted.resourceSubscriptions = [...requested.resourceSubscriptions];
    }
    return accepted;
  }

  #send(listener: Listener, method: string, params: Record<string, unknown>): void {
    listener.ctx.sendNotification({ method, params }).catch((error) => this.#core.report(error));
  }
}
