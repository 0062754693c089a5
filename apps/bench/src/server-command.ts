import { fileURLToPath } from 'node:url';
import type { ServerSpec } from './server.js';

const SERVER_SCRIPT = fileURLToPath(new URL('./server.js', import.meta.url));

/**
 * The command line of a server process; `--expose-gc` so stats after GC mean retained memory.
 * `BENCH_CPU_PROF=<dir>` profiles every server process (`--cpu-prof`) for hunting hot spots;
 * `BENCH_SERVER_FLAGS="--flag …"` adds Node/V8 flags to every server process (experiments only).
 */
export function serverCommand(spec: ServerSpec): { command: string; args: string[] } {
  const profileDir = process.env['BENCH_CPU_PROF'];
  const profile =
    profileDir === undefined ? [] : ['--cpu-prof', '--cpu-prof-interval=100', `--cpu-prof-dir=${profileDir}`];
  const flags = process.env['BENCH_SERVER_FLAGS']?.split(' ').filter((flag) => flag !== '') ?? [];
  return {
    command: process.execPath,
    args: ['--expose-gc', ...profile, ...flags, SERVER_SCRIPT, JSON.stringify(spec)],
  };
}
