import { spawnSync } from 'node:child_process';
import { availableParallelism } from 'node:os';
import type { WorkloadName } from './types.js';

/** Which CPU the client and the server of a pinned run are held to. */
export interface Pinning {
  client: number;
  server: number;
}

/**
 * The sequential window with both processes pinned, so the scheduler cannot move them between runs:
 * `w1-split` gives each process a core of its own (every call wakes the other core), `w1-shared` puts
 * both on one core (every call's CPU time adds up on it). Unpinned, each run lands somewhere between.
 */
export function pinningOf(workload: WorkloadName): Pinning | undefined {
  if (workload === 'w1-split') return { client: 0, server: 1 };
  if (workload === 'w1-shared') return { client: 1, server: 1 };
  return undefined;
}

let pinnable: boolean | undefined;

/** Whether this machine can pin: `taskset` (util-linux) on the PATH and at least two CPUs. */
export function canPin(): boolean {
  if (pinnable === undefined) {
    const probe = spawnSync('taskset', ['-c', '0', process.execPath, '-e', ''], { stdio: 'ignore' });
    pinnable = probe.status === 0 && availableParallelism() >= 2;
  }
  return pinnable;
}

/** `command args…` run on `cpu` only (`taskset -c cpu command args…`). */
export function pinned(
  command: { command: string; args: string[] },
  cpu: number,
): { command: string; args: string[] } {
  return { command: 'taskset', args: ['-c', String(cpu), command.command, ...command.args] };
}
