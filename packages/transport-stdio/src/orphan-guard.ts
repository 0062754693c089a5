import type { ChildProcess } from 'node:child_process';

/**
 * Kills still-running servers when this process exits without closing them, so none outlives it.
 *
 * What is and is not possible: Node runs 'exit' listeners on a normal exit and on `process.exit()`, and
 * there a synchronous `kill()` is all one can do. On `SIGKILL` of this process (or a crash of the runtime)
 * nothing runs at all; then the kernel closes our end of the server's stdin, and a server that follows
 * the spec (exit on stdin EOF, as `StdioServerTransport` does) exits by itself. A server that ignores EOF
 * survives that case; only an OS facility (Linux `PR_SET_PDEATHSIG`, Windows Job Objects) could stop it,
 * and Node exposes neither. An unhandled `SIGINT`/`SIGTERM` ends Node without 'exit' listeners too, but
 * a terminal's Ctrl-C reaches the server anyway: it shares our process group.
 */
const live = new Map<ChildProcess, NodeJS.Signals>();

function killAll(): void {
  for (const [child, signal] of live) {
    try {
      child.kill(signal);
    } catch {
      // Exiting: there is nobody left to report to.
    }
  }
}

export function guardChild(child: ChildProcess, signal: NodeJS.Signals): void {
  if (live.size === 0) process.on('exit', killAll);
  live.set(child, signal);
}

export function releaseChild(child: ChildProcess): void {
  if (!live.delete(child)) return;
  if (live.size === 0) process.off('exit', killAll);
}
