import type { RunResults } from '../results.js';
import type { MetricName, WorkloadName } from '../types.js';
import { formatNumber, formatRatio, ratio, table } from './format.js';
import { Lookup } from './lookup.js';

interface Column {
  metric: MetricName;
  label: string;
  /** A count: shown as a whole number. */
  count?: boolean;
}

function formatCell(column: Column, value: number | undefined): string {
  return column.count === true && value !== undefined
    ? Math.round(value).toLocaleString('en-US')
    : formatNumber(value);
}

const THROUGHPUT: Column = { metric: 'callsPerSec', label: 'calls/s ↑' };
const P50: Column = { metric: 'p50Ms', label: 'p50 ms ↓' };
const P99: Column = { metric: 'p99Ms', label: 'p99 ms ↓' };
const CPU: Column = { metric: 'cpuPerCallUs', label: 'CPU µs/call ↓' };
const PEAK: Column = { metric: 'serverPeakRssMiB', label: 'server peak RSS MiB ↓' };
const YOUNG: Column = { metric: 'serverYoungGenMiB', label: 'server young gen MiB ↓' };

/** W6: what holding the sessions costs the server, and what a call made meanwhile waits. */
const W6_COLUMNS: Column[] = [
  { metric: 'sessionsOpen', label: 'sessions open', count: true },
  { metric: 'sessionErrors', label: 'errors ↓', count: true },
  { metric: 'rssPerSessionKiB', label: 'server RSS KiB/session ↓' },
  { metric: 'heapPerSessionKiB', label: 'server heap KiB/session ↓' },
  { ...P50, label: 'probe p50 ms ↓' },
  { ...P99, label: 'probe p99 ms ↓' },
  { metric: 'loopStallMs', label: 'longest loop stall ms (connecting) ↓' },
  { metric: 'openSeconds', label: 'all open after s ↓' },
  PEAK,
];

/** A window measured for insight, not for a target: its throughput, latencies and CPU. */
function notTarget(title: string): { title: string; columns: Column[] } {
  return { title: `${title} (not a target)`, columns: [THROUGHPUT, P50, P99, CPU] };
}

export const WORKLOAD_TABLES: Record<WorkloadName, { title: string; columns: Column[] }> = {
  w1: { title: 'W1 — sequential `tools/call` (echo)', columns: [THROUGHPUT, P50, P99, CPU, PEAK] },
  w2: {
    title: 'W2 — concurrent `tools/call` (echo, calls in flight)',
    columns: [THROUGHPUT, P50, P99, CPU, PEAK, YOUNG],
  },
  w3: {
    title: 'W3 — a tool returning 1 MiB of text',
    columns: [{ metric: 'mibPerSec', label: 'MiB/s ↑' }, { ...CPU, label: 'CPU µs/MiB ↓' }, PEAK],
  },
  w4: {
    title: 'W4 — sequential connect + `initialize`',
    columns: [{ metric: 'connectsPerSec', label: 'connects/s ↑' }],
  },
  w5: {
    title: 'W5 — concurrent sessions × calls',
    columns: [
      THROUGHPUT,
      { metric: 'rssPerSessionKiB', label: 'server RSS KiB/session ↓' },
      { metric: 'heapPerSessionKiB', label: 'server heap KiB/session ↓' },
      CPU,
      PEAK,
      YOUNG,
    ],
  },
  'w1-warm': notTarget('W1 warm — the W1 window after a long warm-up'),
  'w2-warm': notTarget('W2 warm — the W2 window after a long warm-up'),
  'w1-split': notTarget('W1 split — W1 with client and server pinned to a core each'),
  'w1-shared': notTarget('W1 shared — W1 with client and server pinned to one core'),
  w6: { title: 'W6 — many sessions held open on one server process', columns: W6_COLUMNS },
  'w6-listen': {
    title: 'W6 listen — many 2026-07-28 `subscriptions/listen` streams on one server process',
    columns: W6_COLUMNS,
  },
  w7: {
    title: 'W7 — short sessions: a fresh client process connects, makes sequential `tools/call`, closes',
    columns: [
      { metric: 'sessionWallMs', label: 'session wall ms (spawn → exit) ↓' },
      { metric: 'firstCallMs', label: 'first call ms (spawn → answer) ↓' },
      { metric: 'clientCpuMs', label: 'client CPU ms ↓' },
    ],
  },
};

/**
 * One table per workload: a row per transport × SDK with the medians, then x-mcp's figures as ratios
 * to raw and to each official SDK (arrows say which direction is better).
 */
export function workloadTable(results: RunResults, workload: WorkloadName): string {
  const lookup = new Lookup(results);
  const { columns } = WORKLOAD_TABLES[workload];
  const rows: string[][] = [];
  // Cells with figures and a note (e.g. W6 sessions that did not open) get it under the table.
  const warnings: string[] = [];
  for (const transport of results.transports) {
    if (!results.cells.some((cell) => cell.workload === workload && cell.transport === transport)) continue;
    let first = true;
    const label = (): string => {
      const text = first ? `**${transport}**` : '';
      first = false;
      return text;
    };
    for (const sdk of results.sdks) {
      const cell = lookup.cell(workload, transport, sdk);
      if (cell === undefined) continue;
      if (cell.samples === 0) {
        rows.push([
          label(),
          sdk,
          ...columns.map((_, index) => (index === 0 ? `n/a (${cell.note ?? 'no data'})` : '')),
        ]);
        continue;
      }
      rows.push([label(), sdk, ...columns.map((column) => formatCell(column, cell.metrics[column.metric]))]);
      if (cell.note !== undefined) warnings.push(`- ${transport} ${sdk}: ${cell.note}`);
    }
    if (!results.sdks.includes('x-mcp')) continue;
    // Ratios compare x-mcp with the reference and the official SDKs, not with its own modern-era column.
    const others = results.sdks.filter(
      (sdk) =>
        sdk !== 'x-mcp' && sdk !== 'x-mcp-modern' && lookup.cell(workload, transport, sdk) !== undefined,
    );
    for (const other of others) {
      rows.push([
        '',
        `*x-mcp ÷ ${other}*`,
        ...columns.map((column) =>
          formatRatio(
            ratio(
              lookup.get(workload, transport, 'x-mcp', column.metric),
              lookup.get(workload, transport, other, column.metric),
            ),
          ),
        ),
      ]);
    }
  }
  const markdown = table(['transport', 'SDK', ...columns.map((column) => column.label)], rows);
  return warnings.length === 0 ? markdown : `${markdown}\n\n${warnings.join('\n')}`;
}
