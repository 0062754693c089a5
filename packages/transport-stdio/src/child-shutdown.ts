import type { ChildProcess } from 'node:child_process';

/**
 * How long each step of the spec's shutdown sequence may take before the next, harsher one.
 *
 * @example
 * ```ts
 * // A server that flushes a cache on exit gets 10 s after stdin closes, then 1 s after SIGTERM.
 * const transport = new StdioClientTransport({
 *   command: 'node',
 *   args: ['server.js'],
 *   stdinCloseTimeoutMs: 10_000,
 *   sigtermTimeoutMs: 1_000,
 * });
 * ```
 */
export interface ShutdownTimeouts {
  /**
   * After closing the server's stdin, how long to wait for it to exit before `SIGTERM`. Default 2000 ms.
   *
   * @default {@link DEFAULT_STDIN_CLOSE_TIMEOUT_MS}
   */
  stdinCloseTimeoutMs?: number | undefined;
  /**
   * After `SIGTERM`, how long to wait before `SIGKILL`. Default 2000 ms.
   *
   * @default {@link DEFAULT_SIGTERM_TIMEOUT_MS}
   */
  sigtermTimeoutMs?: number | undefined;
}

/**
 * Default wait for the server to exit after its stdin is closed, before `SIGTERM` (ms).
 *
 * @example
 * ```ts
 * const transport = new StdioClientTransport({
 *   command: 'node',
 *   args: ['server.js'],
 *   stdinCloseTimeoutMs: 3 * DEFAULT_STDIN_CLOSE_TIMEOUT_MS,
 * });
 * ```
 */
export const DEFAULT_STDIN_CLOSE_TIMEOUT_MS = 2000;
/**
 * Default wait for the server to exit after `SIGTERM`, before `SIGKILL` (ms).
 *
 * @example
 * ```ts
 * const transport = new StdioClientTransport({
 *   command: 'node',
 *   args: ['server.js'],
 *   sigtermTimeoutMs: DEFAULT_SIGTERM_TIMEOUT_MS / 2,
 * });
 * ```
 */
export const DEFAULT_SIGTERM_TIMEOUT_MS = 2000;

/**
 * Stops a server process the way the spec asks (lifecycle § Shutdown, stdio): close its input, wait,
 * `SIGTERM`, wait, `SIGKILL`. Resolves once `exited` does, which the caller ties to the child's 'exit'.
 * On Windows both signals become `TerminateProcess`, so the middle step is merely redundant.
 */
export async function shutDownChild(
  child: ChildProcess,
  exited: Promise<void>,
  timeouts: ShutdownTimeouts = {},
): Promise<void> {
  // `end()` rather than `destroy()`: queued messages still reach the server before it sees EOF.
  child.stdin?.end();
  if (await settlesWithin(exited, timeouts.stdinCloseTimeoutMs ?? DEFAULT_STDIN_CLOSE_TIMEOUT_MS)) return;
  child.kill('SIGTERM');
  if (await settlesWithin(exited, timeouts.sigtermTimeoutMs ?? DEFAULT_SIGTERM_TIMEOUT_MS)) return;
  child.kill('SIGKILL');
  // SIGKILL cannot be caught or ignored; 'exit' follows as soon as the kernel has torn the process down.
  await exited;
}

async function settlesWithin(promise: Promise<void>, ms: number): Promise<boolean> {
  let timer: NodeJS.Timeout | undefined;
  const timedOut = new Promise<false>((resolve) => {
    timer = setTimeout(resolve, ms, false);
  });
  try {
    return await Promise.race([promise.then(() => true as const), timedOut]);
  } finally {
    clearTimeout(timer);
  }
}

/**
 * Stops a server that stopped answering (`resetConnection`): no stdin step, since a hung server would not
 * read its EOF; `SIGTERM`, then `SIGKILL` after `sigtermTimeoutMs`. Resolves once `exited` does.
 */
export async function terminateChild(
  child: ChildProcess,
  exited: Promise<void>,
  timeouts: ShutdownTimeouts = {},
): Promise<void> {
  child.kill('SIGTERM');
  if (await settlesWithin(exited, timeouts.sigtermTimeoutMs ?? DEFAULT_SIGTERM_TIMEOUT_MS)) return;
  child.kill('SIGKILL');
  await exited;
}
