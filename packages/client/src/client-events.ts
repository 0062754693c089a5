import type {
  ElicitationCompleteNotificationParams,
  LoggingMessageNotificationParams,
  ProgressNotificationParams,
  Prompt,
  Resource,
  ResourceUpdatedNotificationParams,
  TaskStatusNotificationParams,
  Tool,
} from '@x/protocol/core';

/**
 * What a server tells a client without being asked, by event name. A `…ListChanged` listener gets the
 * refreshed full list when `autoRefresh` covers that list, and `undefined` otherwise.
 *
 * @example
 * ```ts
 * const off = client.on('log', ({ level, data }) => console.log(level, data));
 * client.on('toolsListChanged', () => void client.listTools());
 * off();
 * ```
 */
export interface ClientEventMap {
  /** `notifications/message` (server/utilities/logging). */
  log: LoggingMessageNotificationParams;
  /** `notifications/resources/updated`: a subscribed resource changed; read it again. */
  resourceUpdated: ResourceUpdatedNotificationParams;
  toolsListChanged: readonly Tool[] | undefined;
  promptsListChanged: readonly Prompt[] | undefined;
  resourcesListChanged: readonly Resource[] | undefined;
  /** Every `notifications/progress`, also those already routed to a request's `onprogress`. */
  progress: ProgressNotificationParams;
  /** `notifications/elicitation/complete` (2025-11-25): an out-of-band URL elicitation finished. */
  elicitationComplete: ElicitationCompleteNotificationParams;
  /**
   * `notifications/tasks/status` (2025-11-25, experimental): a task changed status. Optional for the
   * receiver to send, so keep polling (`getTask`) rather than rely on it.
   */
  taskStatus: TaskStatusNotificationParams;
}

/**
 * The name of a server-initiated event, as accepted by `client.on()`.
 *
 * @example
 * ```ts
 * const lists: ClientEventName[] = ['toolsListChanged', 'promptsListChanged', 'resourcesListChanged'];
 * for (const name of lists) client.on(name, () => console.log(`${name}: refresh the UI`));
 * ```
 */
export type ClientEventName = keyof ClientEventMap;
/**
 * A listener for one client event; the payload type follows the event name.
 *
 * @example
 * ```ts
 * const onProgress: ClientEventListener<'progress'> = ({ progress, total }) =>
 *   console.log(`${progress}/${total ?? '?'}`);
 * client.on('progress', onProgress);
 * ```
 */
export type ClientEventListener<E extends ClientEventName> = (payload: ClientEventMap[E]) => void;

/** A tiny typed emitter: listeners that throw are reported, never break delivery to the others. */
export class ClientEvents {
  readonly #listeners = new Map<ClientEventName, Set<(payload: never) => void>>();
  readonly #report: (error: unknown) => void;

  constructor(report: (error: unknown) => void) {
    this.#report = report;
  }

  on<E extends ClientEventName>(event: E, listener: ClientEventListener<E>): () => void {
    let set = this.#listeners.get(event);
    if (set === undefined) {
      set = new Set();
      this.#listeners.set(event, set);
    }
    set.add(listener);
    return () => {
      set.delete(listener);
    };
  }

  has(event: ClientEventName): boolean {
    return (this.#listeners.get(event)?.size ?? 0) > 0;
  }

  emit<E extends ClientEventName>(event: E, payload: ClientEventMap[E]): void {
    const set = this.#listeners.get(event);
    if (set === undefined) return;
    for (const listener of set) {
      try {
        (listener as ClientEventListener<E>)(payload);
      } catch (error) {
        this.#report(error);
      }
    }
  }
}
