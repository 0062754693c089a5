import type { Prompt, Resource, Tool } from '@x/protocol/core';

/** The lists a server announces changes of. */
export interface ListSnapshots {
  tools: readonly Tool[];
  prompts: readonly Prompt[];
  resources: readonly Resource[];
}
export type ListKind = keyof ListSnapshots;

export interface ListRefresherOptions {
  enabled: Readonly<Record<ListKind, boolean>>;
  fetchAll: <K extends ListKind>(kind: K) => Promise<ListSnapshots[K]>;
  publish: <K extends ListKind>(kind: K, list: ListSnapshots[K] | undefined) => void;
  report: (error: unknown) => void;
}

/**
 * Opt-in refresh of whole lists on `notifications/…/list_changed`. One fetch per list at a time; changes
 * announced while one runs trigger exactly one more, so a burst of notifications costs two walks at most.
 */
export class ListRefresher {
  readonly #options: ListRefresherOptions;
  readonly #snapshots: Partial<ListSnapshots> = {};
  readonly #running = new Set<ListKind>();
  readonly #again = new Set<ListKind>();

  constructor(options: ListRefresherOptions) {
    this.#options = options;
  }

  snapshot<K extends ListKind>(kind: K): ListSnapshots[K] | undefined {
    return this.#snapshots[kind];
  }

  clear(): void {
    delete this.#snapshots.tools;
    delete this.#snapshots.prompts;
    delete this.#snapshots.resources;
  }

  changed(kind: ListKind): void {
    if (!this.#options.enabled[kind]) {
      this.#options.publish(kind, undefined);
      return;
    }
    if (this.#running.has(kind)) {
      this.#again.add(kind);
      return;
    }
    void this.#refresh(kind);
  }

  async #refresh<K extends ListKind>(kind: K): Promise<void> {
    this.#running.add(kind);
    try {
      do {
        this.#again.delete(kind);
        const list = await this.#options.fetchAll(kind);
        this.#snapshots[kind] = list;
        this.#options.publish(kind, list);
      } while (this.#again.has(kind));
    } catch (error) {
      this.#options.report(error);
    } finally {
      this.#running.delete(kind);
    }
  }
}
