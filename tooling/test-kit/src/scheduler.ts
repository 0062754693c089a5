// Each helper names the queue it drains, because tests that wait "a tick" meant different things:
// a microtask, a process.nextTick, a timers-phase turn or a check-phase turn of the event loop.

/**
 * Resolves after `rounds` microtask hops (`await Promise.resolve()`): promise chains up to that
 * depth settle, but no I/O, timer or `process.nextTick` queued after the call runs.
 *
 * @example
 * engine.receive(message);
 * await afterMicrotasks(20); // the handler's promise chain has run
 */
export async function afterMicrotasks(rounds = 1): Promise<void> {
  for (let i = 0; i < rounds; i++) await Promise.resolve();
}

/**
 * Resolves from a `process.nextTick` callback: after callbacks already in the nextTick queue, before
 * timers, `setImmediate` and I/O.
 *
 * @example
 * writer.write('b\n');
 * await afterNextTick(); // a flush scheduled with process.nextTick has run
 */
export function afterNextTick(): Promise<void> {
  return new Promise((resolve) => process.nextTick(resolve));
}

/**
 * Resolves after `rounds` zero-delay `setTimeout`s, one after the other: each lets every microtask,
 * nextTick and already-due timer run first.
 *
 * @example
 * limiter.run(task);
 * await afterTimeouts(); // the task has started
 */
export async function afterTimeouts(rounds = 1): Promise<void> {
  for (let i = 0; i < rounds; i++) await new Promise((resolve) => setTimeout(resolve, 0));
}

/**
 * Resolves from a `setImmediate` callback: after the current event-loop turn, including I/O
 * callbacks that were already pending.
 *
 * @example
 * socket.write(frame);
 * await afterTurn();
 */
export function afterTurn(): Promise<void> {
  return new Promise((resolve) => setImmediate(resolve));
}
