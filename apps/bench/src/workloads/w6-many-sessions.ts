import { DEFAULT_W6_OPEN_CONCURRENCY } from '../config.js';
import { percentile } from '../stats.js';
import type { Metrics } from '../types.js';
import type { W6Kind } from '../w6/load-spec.js';
import { splitSessions, startLoadProcess } from '../w6/load-process.js';
import type { WorkloadContext } from './context.js';

/** Probe calls before the sessions open (untimed), so the probe's timed calls find its code compiled. */
const PROBE_WARMUP_CALLS = 20;

/**
 * W6 (issue #40 §4): `w6Sessions` sessions of one kind held open at once on one server process, opened
 * by `w6LoadProcesses` client processes all at once (each with its opens in flight in parallel). The
 * server's event-loop delay is monitored from before the load starts until the last session is open;
 * then the server's RSS and heap growth per session (after GC, all still open) and the latency of
 * `w6ProbeCalls` sequential echo calls from this process's probe session, made while all are open.
 */
export async function runW6(context: WorkloadContext, kind: W6Kind): Promise<Metrics> {
  const { target, loopDelay } = context;
  if (target?.port === undefined || loopDelay === undefined) throw new Error('W6 needs a server process');
  const port = target.port;
  const { w6Sessions, w6LoadProcesses, w6ProbeCalls } = context.counts;
  const probe = await context.connect();
  for (let i = 0; i < PROBE_WARMUP_CALLS; i++) await probe.echo();
  const before = await context.serverStats(true);

  await loopDelay.start();
  const started = performance.now();
  const loads = splitSessions(w6Sessions, w6LoadProcesses).map((sessions) =>
    startLoadProcess({ sdk: context.sdk, kind, port, sessions, concurrency: DEFAULT_W6_OPEN_CONCURRENCY }),
  );
  try {
    const reports = await Promise.all(loads.map((load) => load.report));
    const openSeconds = (performance.now() - started) / 1000;
    const loop = await loopDelay.stop();
    const opened = reports.reduce((sum, report) => sum + report.opened, 0);
    const errors = reports.reduce((sum, report) => sum + report.errors, 0);
    const samples = [...new Set(reports.flatMap((report) => report.samples))];
    if (errors > 0) context.warn(`${errors} of ${w6Sessions} sessions did not open: ${samples.join(' | ')}`);
    if (opened === 0) throw new Error(`no W6 session opened: ${samples.join(' | ')}`);

    const after = await context.serverStats(true);
    const latencies = new Float64Array(w6ProbeCalls);
    for (let i = 0; i < w6ProbeCalls; i++) {
      const t = performance.now();
      await probe.echo();
      latencies[i] = performance.now() - t;
    }
    const metrics: Metrics = {
      sessionsOpen: opened,
      sessionErrors: errors,
      openSeconds,
      loopStallMs: loop.stallMs,
      p50Ms: percentile(latencies, 50),
      p99Ms: percentile(latencies, 99),
    };
    if (before !== undefined && after !== undefined) {
      metrics.rssPerSessionKiB = (after.rss - before.rss) / opened / 1024;
      metrics.heapPerSessionKiB = (after.heapUsed - before.heapUsed) / opened / 1024;
      metrics.serverPeakRssMiB = after.maxRss / 2 ** 20;
    }
    return metrics;
  } finally {
    await Promise.all(loads.map((load) => load.stop()));
    await probe.close().catch(() => {});
  }
}
