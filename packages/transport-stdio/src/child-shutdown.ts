import type { ChildProcess } from 'node:child_process';

/** How long each step of the spec's shutdown sequence may take before the next, harsher one. */
export interface ShutdownTimeouts {
  /** After closing the server's stdin, how long to wait for it to exit before `SIGTERM`. Default 2000 ms. */
  stdinCloseTimeoutMs?: number | undefined;
  /** After `SIGTERM`, how long to wait before `SIGKILL`. Default 2000 ms. */
  sigtermTimeoutMs?: number | undefined;
}

export const DEFAULT_STDIN_CLOSE_TIMEOUT_MS = 2000;
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
