/**
 * Coalesces list changes into one `list_changed` per list per `delayMs` (registering fifty tools in a
 * loop sends one notification, not fifty). The timer holds no reference to sessions: whoever is
 * connected when it fires hears about it.
 */
export class ListNotifier {
  readonly #delayMs: number;
  readonly #send: (kind: ListKind) => void;
  readonly #due = new Set<ListKind>();
  #timer: ReturnType<typeof setTimeout> | undefined;

  constructor(delayMs: number, send: (kind: ListKind) => void) {
    this.#delayMs = delayMs;
    this.#send = send;
  }

  schedule(kind: ListKind): void {
    this.#due.add(kind);
    this.#timer ??= setTimeout(this.#flush, this.#delayMs);
  }

  /** Sends what is pending now (used on close, and by tests). */
  flush(): void {
    this.#flush();
  }

  readonly #flush = (): void => {
    if (this.#timer !== undefined) clearTimeout(this.#timer);
    this.#timer = undefined;
    const kinds = [...this.#due];
    this.#due.clear();
    for (const kind of kinds) this.#send(kind);
  };
}

export type ListKind = 'tools' | 'prompts' | 'resources';
