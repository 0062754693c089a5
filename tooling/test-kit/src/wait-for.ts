/** Options of {@link waitFor}. */
export interface WaitForOptions {
  /** How long to poll before failing (default 5000 ms: generous for a loaded 2-core machine). */
  timeoutMs?: number;
  /** Pause between polls (default 5 ms). */
  intervalMs?: number;
  /** What the test waits for, named in the timeout error (default "condition"). */
  what?: string;
}

/**
 * Polls `condition` until it returns a truthy value and resolves with that value; rejects with
 * "Timed out after <timeoutMs> ms waiting for <what>" otherwise. An exception thrown by `condition`
 * fails the wait at once (a bug in the check should not look like a timeout).
 *
 * @example
 * await waitFor(() => received.length === 2, { what: 'two messages' });
 * const socket = await waitFor(() => sockets[0], { timeoutMs: 10_000 });
 */
export async function waitFor<T>(
  condition: () => T | Promise<T>,
  options: WaitForOptions = {},
): Promise<NonNullable<T>> {
  const { timeoutMs = 5_000, intervalMs = 5, what = 'condition' } = options;
  const deadline = Date.now() + timeoutMs;
  for (;;) {
    const value = await condition();
    if (value) return value as NonNullable<T>;
    if (Date.now() > deadline) throw new Error(`Timed out after ${timeoutMs} ms waiting for ${what}`);
    await new Promise((resolve) => setTimeout(resolve, intervalMs));
  }
}
