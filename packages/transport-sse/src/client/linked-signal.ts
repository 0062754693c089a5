/**
 * A fresh signal that aborts when any of `signals` does, with a `dispose()` that detaches it again.
 *
 * Why not `AbortSignal.any` or passing the transport's long-lived signal to fetch directly: fetch
 * implementations (undici among them) attach a listener per request to the signal they are given and
 * only drop it when the request is garbage-collected, so a signal shared by thousands of POSTs collects
 * thousands of listeners. Each POST gets its own short-lived signal instead.
 */
export function linkedSignal(signals: ReadonlyArray<AbortSignal | undefined>): {
  signal: AbortSignal;
  dispose: () => void;
} {
  const controller = new AbortController();
  const sources = signals.filter((signal): signal is AbortSignal => signal !== undefined);
  const abort = (event: Event): void => {
    const source = event.target as AbortSignal;
    controller.abort(source.reason);
  };
  const dispose = (): void => {
    for (const source of sources) source.removeEventListener('abort', abort);
  };
  for (const source of sources) {
    if (source.aborted) {
      controller.abort(source.reason);
      break;
    }
    source.addEventListener('abort', abort, { once: true });
  }
  return { signal: controller.signal, dispose };
}
