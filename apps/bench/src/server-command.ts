import { fileURLToPath } from 'node:url';
import type { ServerSpec } from './server.js';

const SERVER_SCRIPT = fileURLToPath(new URL('./server.js', import.meta.url));

/**
 * The Node flags that profile a benchmark process when `BENCH_CPU_PROF=<dir>` is set (one
 * `--cpu-prof` profile per process in `<dir>`, sampled every 100 µs, for hunting hot spots).
 */
export function profileFlags(): string[] {
  const profileDir = process.env['BENCH_CPU_PROF'];
  return profileDir === undefined
    ? []
    : ['--cpu-prof', '--cpu-prof-interval=100', `--cpu-prof-dir=${profileDir}`];
}

/**
 * The command line of a server process; `--expose-gc` so stats after GC mean retained memory, plus
 * {@link profileFlags}. `BENCH_SERVER_FLAGS="--flag …"` adds Node/V8 flags to every server process
 * (experiments only).
 */
export function serverCommand(spec: ServerSpec): { command: string; args: string[] } {
  const profile = profileFlags();
  const flags = process.env['BENCH_SERVER_FLAGS']?.split(' ').filter((flag) => flag !== '') ?? [];
  return {
    command: process.execPath,
    args: ['--expose-gc', ...profile, ...flags, SERVER_SCRIPT, JSON.stringify(spec)],
  };
}
