import type { Counts } from './types.js';

/** W6's sessions held open at once (issue #40 §4: 10,000 on one process). */
export const DEFAULT_W6_SESSIONS = 10_000;
/**
 * W6's client load processes. Each holds `sessions / processes` sockets (HTTP sessions two: the GET
 * stream and a keep-alive connection for the POSTs), so each stays well below `ulimit -n` (20,000 here).
 */
export const DEFAULT_W6_LOAD_PROCESSES = 4;
/**
 * W6: opens in flight at once in each load process (1,000 over the default four). All at once would
 * overflow the listening socket's accept backlog (511) and time out in SYN retries instead of measuring
 * the server.
 */
export const DEFAULT_W6_OPEN_CONCURRENCY = 250;
/** W6's timed probe calls while every session is open (the issue's p99 of a `tools/call`). */
export const DEFAULT_W6_PROBE_CALLS = 200;
/** `--quick`: W6 with this many sessions, so the run finishes in minutes. */
export const QUICK_W6_SESSIONS = 1_000;

/**
 * The counts where it gives them (W1 3,000 calls after 300 warm-up, W2 64 in flight, W4 200
 * connects, W5 200 sessions × 10 calls). W2's and W3's totals and stdio's W4 are ours, sized so three
 * repetitions fit in about ten minutes on a 2-core machine.
 */
export const FULL_COUNTS: Counts = {
  w1Warmup: 300,
  w1Calls: 3000,
  w2Warmup: 320,
  w2Calls: 2000,
  w2InFlight: 64,
  longWarmup: 15_000,
  w3Warmup: 2,
  w3Calls: 20,
  w4Connects: 200,
  w4StdioConnects: 10,
  w5Sessions: 200,
  w5CallsPerSession: 10,
  w6Sessions: DEFAULT_W6_SESSIONS,
  w6LoadProcesses: DEFAULT_W6_LOAD_PROCESSES,
  w6ProbeCalls: DEFAULT_W6_PROBE_CALLS,
  w6Repetitions: 1,
  w7Calls: 100,
  w7Sessions: 5,
  coldStarts: 3,
};

/** Tiny counts: every code path once, in seconds. Numbers from it mean nothing. */
export const SMOKE_COUNTS: Counts = {
  w1Warmup: 5,
  w1Calls: 30,
  w2Warmup: 8,
  w2Calls: 32,
  w2InFlight: 8,
  longWarmup: 20,
  w3Warmup: 1,
  w3Calls: 2,
  w4Connects: 4,
  w4StdioConnects: 2,
  w5Sessions: 4,
  w5CallsPerSession: 2,
  w6Sessions: 20,
  w6LoadProcesses: 2,
  w6ProbeCalls: 20,
  w6Repetitions: 1,
  w7Calls: 2,
  w7Sessions: 1,
  coldStarts: 1,
};

export const FULL_REPETITIONS = 3;
export const SMOKE_REPETITIONS = 1;
/** A cell that takes longer has hung; it is killed and reported as failed. */
export const CELL_TIMEOUT_MS = { full: 240_000, smoke: 60_000 } as const;
/** A W6 cell (10,000 sessions opened by SDK clients on a shared machine) gets longer before it counts as hung. */
export const W6_CELL_TIMEOUT_MS = { full: 1_200_000, smoke: 120_000 } as const;
