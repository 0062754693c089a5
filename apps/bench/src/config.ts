import type { Counts } from './types.js';

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
  w7Calls: 2,
  w7Sessions: 1,
  coldStarts: 1,
};

export const FULL_REPETITIONS = 3;
export const SMOKE_REPETITIONS = 1;
/** A cell that takes longer has hung; it is killed and reported as failed. */
export const CELL_TIMEOUT_MS = { full: 240_000, smoke: 60_000 } as const;
