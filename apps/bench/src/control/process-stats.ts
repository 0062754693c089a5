import { getHeapSpaceStatistics } from 'node:v8';

/** A process's memory and CPU as the report needs them. */
export interface ProcessStats {
  rss: number;
  heapUsed: number;
  /** Memory committed to V8's young generation (both semi-spaces), bytes. */
  youngGen: number;
  /** Peak RSS of the process so far, bytes. */
  maxRss: number;
  /** User + system CPU time so far, microseconds. */
  cpuUs: number;
}

type Gc = () => void;

/**
 * Reads this process's stats; with `collect`, after full GCs (servers run with `--expose-gc`) so
 * per-session memory is what sessions retain, not garbage waiting for the next collection.
 */
export function readProcessStats(collect: boolean): ProcessStats {
  const gc = (globalThis as { gc?: Gc }).gc;
  if (collect && gc !== undefined) {
    gc();
    gc();
  }
  const memory = process.memoryUsage();
  const cpu = process.cpuUsage();
  return {
    rss: memory.rss,
    heapUsed: memory.heapUsed,
    youngGen: getHeapSpaceStatistics().find((space) => space.space_name === 'new_space')?.space_size ?? 0,
    maxRss: process.resourceUsage().maxRSS * 1024,
    cpuUs: cpu.user + cpu.system,
  };
}
