/** How a promise ended, or that it did not within the time given. */
export type Outcome =
  | { settled: 'resolved'; value: unknown }
  | { settled: 'rejected'; error: unknown }
  | { settled: 'hung' };

/**
 * Settles `promise` or gives up after `ms` (a call that outlives its own timeout by far is a hang).
 *
 * @example
 * ```ts
 * const outcome = await settleWithin(client.callTool({ name: 'x' }), 10_000);
 * if (outcome.settled === 'hung') throw new Error('never settled');
 * ```
 */
export function settleWithin(promise: Promise<unknown>, ms: number): Promise<Outcome> {
  return new Promise((resolve) => {
    const timer = setTimeout(() => resolve({ settled: 'hung' }), ms);
    promise.then(
      (value) => {
        clearTimeout(timer);
        resolve({ settled: 'resolved', value });
      },
      (error: unknown) => {
        clearTimeout(timer);
        resolve({ settled: 'rejected', error });
      },
    );
  });
}
