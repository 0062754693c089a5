/**
 * The HTTP exchanges and timers a client transport has open, so `close()` can end them all. Each
 * exchange gets its own `AbortController`: a transport-wide signal handed to every request would
 * collect one abort listener per request (a leak Node reports as MaxListenersExceededWarning).
 */
export class Exchanges {
  #active = new Set<AbortController>();
  #timers = new Set<ReturnType<typeof setTimeout>>();
  #closed = false;

  /** A controller for one exchange, also aborted by `signal` (the caller's) and by `closeAll()`. */
  open(signal?: AbortSignal): AbortController {
    const controller = new AbortController();
    if (this.#closed) controller.abort();
    else this.#active.add(controller);
    if (signal !== undefined) {
      if (signal.aborted) controller.abort(signal.reason);
      else signal.addEventListener('abort', () => controller.abort(signal.reason), { once: true });
    }
    return controller;
  }

  release(controller: AbortController): void {
    this.#active.delete(controller);
  }

  /** Runs `task` after `delayMs` unless `closeAll()` comes first. */
  later(delayMs: number, task: () => void): void {
    if (this.#closed) return;
    const timer = setTimeout(() => {
      this.#timers.delete(timer);
      task();
    }, delayMs);
    this.#timers.add(timer);
  }

  closeAll(): void {
    this.#closed = true;
    for (const timer of this.#timers) clearTimeout(timer);
    this.#timers.clear();
    for (const controller of this.#active) controller.abort();
    this.#active.clear();
  }
}
