import { CancelHandle as Exchange, InFlightMap } from '@x/protocol/transport';

/** An exchange that also follows a caller's signal, until it is released. */
interface Linked {
  signal: AbortSignal;
  listener: () => void;
}

/**
 * The HTTP exchanges and timers a client transport has open, so `close()` can end them all. Each
 * exchange has its own {@link Exchange}: a transport-wide signal handed to every request would collect
 * one abort listener per request (a leak Node reports as MaxListenersExceededWarning).
 */
export class Exchanges {
  #active = new InFlightMap<Exchange, Linked | undefined>();
  #timers = new Set<ReturnType<typeof setTimeout>>();
  #closed = false;

  /** An exchange, also aborted by `signal` (the caller's) and by `closeAll()`. */
  open(signal?: AbortSignal): Exchange {
    const exchange = new Exchange();
    if (this.#closed) {
      exchange.abort();
      return exchange;
    }
    let linked: Linked | undefined;
    if (signal !== undefined) {
      if (signal.aborted) exchange.abort(signal.reason);
      else {
        const listener = (): void => exchange.abort(signal.reason);
        signal.addEventListener('abort', listener);
        linked = { signal, listener };
      }
    }
    this.#active.set(exchange, linked);
    return exchange;
  }

  release(exchange: Exchange): void {
    const linked = this.#active.get(exchange);
    this.#active.delete(exchange);
    // A long-lived caller signal must not keep one listener per finished exchange.
    linked?.signal.removeEventListener('abort', linked.listener);
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

  /** Whether `exchange` is still open (not released, not aborted by `closeAll`). */
  isOpen(exchange: Exchange): boolean {
    return this.#active.has(exchange) && !exchange.aborted;
  }

  /** Aborts every open exchange but `keep` (which the caller ends itself) and every timer. */
  closeAll(keep?: Exchange): void {
    this.#closed = true;
    for (const timer of this.#timers) clearTimeout(timer);
    this.#timers.clear();
    for (const exchange of this.#active.keys()) if (exchange !== keep) exchange.abort();
    if (keep !== undefined && this.#active.has(keep)) {
      const linked = this.#active.get(keep);
      this.#active.clear();
      this.#active.set(keep, linked);
    } else {
      this.#active.clear();
    }
  }
}
