import type { RunResults } from '../results.js';
import type { MetricName, SdkName, TransportName, WorkloadName } from '../types.js';
import { formatNumber, table } from './format.js';
import { Lookup } from './lookup.js';

/** One row of the guide's measured table: a transport as x-mcp speaks it in one era. */
interface GuideRow {
  transport: TransportName;
  sdk: SdkName;
  label: string;
}

/** One measured column: a workload's metric, as the guide names it. */
interface GuideColumn {
  workload: WorkloadName;
  metric: MetricName;
  label: string;
}

const INITIALIZE_ERA = '`initialize` era';
const MODERN_ERA = '2026-07-28';

/** Every transport x-mcp ships, in both eras where it carries both (in-memory is not a choice). */
export const GUIDE_ROWS: readonly GuideRow[] = [
  { transport: 'stdio', sdk: 'x-mcp', label: `stdio, ${INITIALIZE_ERA}` },
  { transport: 'stdio', sdk: 'x-mcp-modern', label: `stdio, ${MODERN_ERA}` },
  { transport: 'http-sse', sdk: 'x-mcp', label: `Streamable HTTP, SSE replies, ${INITIALIZE_ERA} (session)` },
  {
    transport: 'http-json',
    sdk: 'x-mcp',
    label: `Streamable HTTP, JSON replies, ${INITIALIZE_ERA} (session)`,
  },
  {
    transport: 'http-sse',
    sdk: 'x-mcp-modern',
    label: `Streamable HTTP, SSE replies, ${MODERN_ERA} (stateless)`,
  },
  {
    transport: 'http-json',
    sdk: 'x-mcp-modern',
    label: `Streamable HTTP, JSON replies, ${MODERN_ERA} (stateless)`,
  },
  { transport: 'legacy-sse', sdk: 'x-mcp', label: `legacy HTTP+SSE, ${INITIALIZE_ERA}` },
  { transport: 'ws', sdk: 'x-mcp', label: `WebSocket, ${INITIALIZE_ERA}` },
  { transport: 'ws', sdk: 'x-mcp-modern', label: `WebSocket, ${MODERN_ERA}` },
  { transport: 'grpc', sdk: 'x-mcp', label: `gRPC, ${INITIALIZE_ERA}` },
  { transport: 'grpc', sdk: 'x-mcp-modern', label: `gRPC, ${MODERN_ERA}` },
];

/** What a user choosing a transport weighs: latency, throughput, big results, connects, memory, short sessions. */
export const GUIDE_COLUMNS: readonly GuideColumn[] = [
  { workload: 'w1', metric: 'p50Ms', label: 'call p50 ms ↓' },
  { workload: 'w1', metric: 'p99Ms', label: 'call p99 ms ↓' },
  { workload: 'w1', metric: 'callsPerSec', label: 'sequential calls/s ↑' },
  { workload: 'w2', metric: 'callsPerSec', label: 'concurrent calls/s ↑' },
  { workload: 'w3', metric: 'mibPerSec', label: '1 MiB results, MiB/s ↑' },
  { workload: 'w4', metric: 'connectsPerSec', label: 'connects/s ↑' },
  { workload: 'w5', metric: 'rssPerSessionKiB', label: 'server KiB/session ↓' },
  { workload: 'w7', metric: 'sessionWallMs', label: 'short session ms ↓' },
];

/** The marker lines between which `docs/choosing-a-transport.md` holds the generated table. */
export const GUIDE_BEGIN = '<!-- bench:transport-guide:begin (pnpm --dir apps/bench transport-guide) -->';
export const GUIDE_END = '<!-- bench:transport-guide:end -->';

/**
 * The measured table of `docs/choosing-a-transport.md`: a row per transport and era, x-mcp's medians
 * from one `pnpm bench` run (`—` where the run has no such cell), then the run's date, source, load
 * and counts, so a reader can tell what the numbers are worth.
 */
export function transportGuideTable(results: RunResults): string {
  const lookup = new Lookup(results);
  const rows = GUIDE_ROWS.filter(
    (row) => results.sdks.includes(row.sdk) && results.transports.includes(row.transport),
  ).map((row) => [
    row.label,
    ...GUIDE_COLUMNS.map((column) => {
      const value = lookup.get(column.workload, row.transport, row.sdk, column.metric);
      return value === undefined || Number.isNaN(value) ? '—' : formatNumber(value);
    }),
  ]);
  const counts = results.counts;
  const load = (values: number[]): string => values.map((value) => value.toFixed(1)).join(' / ');
  return [
    table(['transport', ...GUIDE_COLUMNS.map((column) => column.label)], rows),
    '',
    `From \`pnpm bench\` on ${results.date.slice(0, 10)} (source ${results.machine.source}; ${results.machine.cpus} × ${results.machine.cpuModel}, Node ${results.machine.node}; load average ${load(results.machine.loadAverage)} at start, ${load(results.machine.loadAverageEnd)} at end; medians of ${results.repetitions} repetitions).`,
    `Calls: ${counts.w1Calls} sequential (p50, p99, calls/s), ${counts.w2Calls} with ${counts.w2InFlight} in flight, ${counts.w3Calls} × 1 MiB, ${counts.w4Connects} connects (stdio: ${counts.w4StdioConnects}, each spawning the server), ${counts.w5Sessions} sessions open (server RSS growth per session), short sessions of ${counts.w7Calls} calls (a fresh client process, spawn to exit; over stdio it spawns the server too). Every figure with its raw and official-SDK neighbours: [\`apps/bench/RESULTS.md\`](../apps/bench/RESULTS.md).`,
  ].join('\n');
}

/** `text` with the part between the guide's markers replaced by `body`; throws when a marker is missing. */
export function replaceGuideTable(text: string, body: string): string {
  const begin = text.indexOf(GUIDE_BEGIN);
  const end = text.indexOf(GUIDE_END);
  if (begin < 0 || end < begin) throw new Error(`missing ${GUIDE_BEGIN} … ${GUIDE_END}`);
  return `${text.slice(0, begin + GUIDE_BEGIN.length)}\n${body}\n${text.slice(end)}`;
}
