import type { Client } from '@x/client';
import { echoParams } from '../payload.js';
import { percentile } from '../stats.js';
import type { Endpoint } from './setups.js';

/** The counts of one run. */
export interface HopCounts {
  /** Sequential calls before each timed window. */
  warmup: number;
  /** Sequential calls timed one by one (p50, p99). */
  calls: number;
  /** Calls of the throughput window. */
  throughputCalls: number;
  /** Calls kept in flight during the throughput window. */
  inFlight: number;
}

/** One repetition of one setup. */
export interface HopSample {
  p50Ms: number;
  p99Ms: number;
  callsPerSec: number;
}

/** A result that is not the echo answer means the row is broken: fail it, do not time it. */
async function echo(client: Client): Promise<void> {
  const result = await client.callTool(echoParams());
  const first = result.content[0];
  if (first?.type !== 'text' || first.text !== echoParams().arguments.text) {
    throw new Error(`unexpected tools/call result: ${JSON.stringify(result).slice(0, 200)}`);
  }
}

/**
 * One client session on `endpoint`: `warmup` sequential calls, `calls` sequential calls timed one by
 * one, `warmup` more, then `throughputCalls` with `inFlight` outstanding at all times.
 */
export async function measureHop(endpoint: Endpoint, counts: HopCounts): Promise<HopSample> {
  const client = await endpoint.connect();
  try {
    for (let i = 0; i < counts.warmup; i++) await echo(client);
    const latencies = new Float64Array(counts.calls);
    for (let i = 0; i < counts.calls; i++) {
      const started = performance.now();
      await echo(client);
      latencies[i] = performance.now() - started;
    }
    for (let i = 0; i < counts.warmup; i++) await echo(client);
    let issued = 0;
    const worker = async (): Promise<void> => {
      while (issued < counts.throughputCalls) {
        issued++;
        await echo(client);
      }
    };
    const started = performance.now();
    await Promise.all(Array.from({ length: Math.min(counts.inFlight, counts.throughputCalls) }, worker));
    const seconds = (performance.now() - started) / 1000;
    return {
      p50Ms: percentile(latencies, 50),
      p99Ms: percentile(latencies, 99),
      callsPerSec: counts.throughputCalls / seconds,
    };
  } finally {
    await client.close();
  }
}
