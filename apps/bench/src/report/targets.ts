import type { RunResults } from '../results.js';
import { SESSION_TRANSPORTS, type TransportName } from '../types.js';
import { formatNumber, formatPercent, formatRatio, ratio, table } from './format.js';
import { Lookup } from './lookup.js';

interface Target {
  label: string;
  /** The figure compared against `limit` per transport; undefined when not measured. */
  value: (lookup: Lookup, transport: TransportName) => number | undefined;
  /** `min`: value ≥ limit passes; `max`: value ≤ limit passes. */
  kind: 'min' | 'max';
  limit: number;
  applies?: (transport: TransportName) => boolean;
  /** What a miss would have taken, in the reader's terms (shown beside ❌). */
  missNote?: (lookup: Lookup, transport: TransportName) => string | undefined;
  /** How the value reads; default a ratio (`1.20×`). */
  format?: (value: number) => string;
}

/** W6's three targets (issue #40 §4) for one of its workloads: `w6` per transport, `w6-listen` on HTTP. */
function w6Targets(workload: 'w6' | 'w6-listen', label: string): Target[] {
  const applies = (t: TransportName): boolean =>
    workload === 'w6' ? t === 'ws' || t === 'http-sse' || t === 'grpc' : t === 'http-sse';
  return [
    {
      label: `${label} server RSS/session ≤ 1.2× raw`,
      kind: 'max',
      limit: 1.2,
      applies,
      value: (l, t) =>
        ratio(l.get(workload, t, 'x-mcp', 'rssPerSessionKiB'), l.get(workload, t, 'raw', 'rssPerSessionKiB')),
    },
    {
      label: `${label} \`tools/call\` p99, all open, ≤ 2× raw`,
      kind: 'max',
      limit: 2,
      applies,
      value: (l, t) => ratio(l.get(workload, t, 'x-mcp', 'p99Ms'), l.get(workload, t, 'raw', 'p99Ms')),
    },
    {
      label: `${label} event-loop stall while all connect ≤ 50 ms`,
      kind: 'max',
      limit: W6_MAX_STALL_MS,
      applies,
      value: (l, t) => l.get(workload, t, 'x-mcp', 'loopStallMs'),
      format: (value) => `${formatNumber(value)} ms`,
    },
  ];
}

/** Issue #40 §4: no event-loop stall over 50 ms while the W6 sessions connect at once. */
export const W6_MAX_STALL_MS = 50;

/**
 * Beside a missed "2× best official" cell: the throughput, as a share of raw, that 2× the best
 * official SDK comes to. Where an official SDK is already near raw (a latency-bound window), that is
 * at or above raw itself, which no MCP layer on the same pipe can reach.
 */
function twiceOfficialNote(workload: 'w1' | 'w2'): NonNullable<Target['missNote']> {
  return (l, t) => {
    const best = l.bestOfficial(workload, t, 'callsPerSec');
    const needed = ratio(best === undefined ? undefined : 2 * best, l.get(workload, t, 'raw', 'callsPerSec'));
    return needed === undefined ? undefined : `(2× is ${formatPercent(needed)} of raw)`;
  };
}

const TARGETS: Target[] = [
  {
    label: 'W1 calls/s ≥ 70% of raw',
    kind: 'min',
    limit: 0.7,
    value: (l, t) => ratio(l.get('w1', t, 'x-mcp', 'callsPerSec'), l.get('w1', t, 'raw', 'callsPerSec')),
  },
  {
    label: 'W1 calls/s ≥ 2× best official',
    kind: 'min',
    limit: 2,
    value: (l, t) => ratio(l.get('w1', t, 'x-mcp', 'callsPerSec'), l.bestOfficial('w1', t, 'callsPerSec')),
    missNote: twiceOfficialNote('w1'),
  },
  {
    label: 'W2 calls/s ≥ 70% of raw',
    kind: 'min',
    limit: 0.7,
    value: (l, t) => ratio(l.get('w2', t, 'x-mcp', 'callsPerSec'), l.get('w2', t, 'raw', 'callsPerSec')),
  },
  {
    label: 'W2 calls/s ≥ 2× best official',
    kind: 'min',
    limit: 2,
    value: (l, t) => ratio(l.get('w2', t, 'x-mcp', 'callsPerSec'), l.bestOfficial('w2', t, 'callsPerSec')),
    missNote: twiceOfficialNote('w2'),
  },
  {
    label: 'W1 p99 ≤ 2× raw',
    kind: 'max',
    limit: 2,
    value: (l, t) => ratio(l.get('w1', t, 'x-mcp', 'p99Ms'), l.get('w1', t, 'raw', 'p99Ms')),
  },
  {
    label: 'W3 MiB/s ≥ 90% of raw',
    kind: 'min',
    limit: 0.9,
    value: (l, t) => ratio(l.get('w3', t, 'x-mcp', 'mibPerSec'), l.get('w3', t, 'raw', 'mibPerSec')),
  },
  {
    label: 'W4 connects/s ≥ 60% of raw',
    kind: 'min',
    limit: 0.6,
    value: (l, t) =>
      ratio(l.get('w4', t, 'x-mcp', 'connectsPerSec'), l.get('w4', t, 'raw', 'connectsPerSec')),
  },
  {
    label: 'W5 server RSS/session ≤ 1.5× raw',
    kind: 'max',
    limit: 1.5,
    applies: (t) => SESSION_TRANSPORTS.includes(t),
    value: (l, t) =>
      ratio(l.get('w5', t, 'x-mcp', 'rssPerSessionKiB'), l.get('w5', t, 'raw', 'rssPerSessionKiB')),
  },
  ...w6Targets('w6', 'W6'),
  ...w6Targets('w6-listen', 'W6 listen'),
  {
    // Issue #40: a short session (spawn, connect, 100 calls, close), judged on the whole process's wall time.
    label: 'W7 session wall time ≤ 1.3× raw',
    kind: 'max',
    limit: 1.3,
    applies: (t) => t !== 'in-memory',
    value: (l, t) => ratio(l.get('w7', t, 'x-mcp', 'sessionWallMs'), l.get('w7', t, 'raw', 'sessionWallMs')),
  },
  {
    label: 'server peak RSS (W2) ≤ 1.3× raw',
    kind: 'max',
    limit: 1.3,
    value: (l, t) =>
      ratio(l.get('w2', t, 'x-mcp', 'serverPeakRssMiB'), l.get('w2', t, 'raw', 'serverPeakRssMiB')),
  },
];

export interface TargetVerdicts {
  met: number;
  missed: number;
  markdown: string;
}

/** The targets per transport: ✅/❌ with x-mcp's ratio (and, for some misses, what passing takes). */
export function targetTable(results: RunResults): TargetVerdicts {
  const lookup = new Lookup(results);
  let met = 0;
  let missed = 0;
  const rows = TARGETS.map((target) => [
    target.label,
    ...results.transports.map((transport) => {
      if (target.applies !== undefined && !target.applies(transport)) return '—';
      const value = target.value(lookup, transport);
      if (value === undefined) return 'n/a';
      const pass = target.kind === 'min' ? value >= target.limit : value <= target.limit;
      if (pass) met++;
      else missed++;
      const shown = target.format === undefined ? formatRatio(value) : target.format(value);
      if (pass) return `✅ ${shown}`;
      const note = target.missNote?.(lookup, transport);
      return note === undefined ? `❌ ${shown}` : `❌ ${shown} ${note}`;
    }),
  ]);
  const install = installVerdict(results);
  if (install !== undefined) {
    if (install.pass) met++;
    else missed++;
    rows.push([
      'stdio-only server install ≤ ½ of v2',
      `${install.pass ? '✅' : '❌'} ${formatRatio(install.value)} (all transports)`,
      ...results.transports.slice(1).map(() => ''),
    ]);
  }
  return { met, missed, markdown: table(['target', ...results.transports], rows) };
}

function installVerdict(results: RunResults): { value: number; pass: boolean } | undefined {
  const value = ratio(results.installSize['x-mcp']?.bytes, results.installSize.v2?.bytes);
  return value === undefined ? undefined : { value, pass: value <= 0.5 };
}

/** Throughput as % of raw, the form the issue quotes the official SDK in. */
export function percentOfRawTable(results: RunResults): string {
  const lookup = new Lookup(results);
  const sdks = results.sdks.filter((sdk) => sdk !== 'raw');
  const header = [
    'transport',
    ...(['w1', 'w2'] as const).flatMap((w) => sdks.map((sdk) => `${w.toUpperCase()} ${sdk}`)),
  ];
  const rows = results.transports.map((transport) => [
    transport,
    ...(['w1', 'w2'] as const).flatMap((workload) =>
      sdks.map((sdk) =>
        formatPercent(
          ratio(
            lookup.get(workload, transport, sdk, 'callsPerSec'),
            lookup.get(workload, transport, 'raw', 'callsPerSec'),
          ),
        ),
      ),
    ),
  ]);
  return table(header, rows);
}
