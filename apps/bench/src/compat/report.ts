import type { CellResult, RowTransport, Side } from './run-cell.js';

/** The median figures of one (transport, side) over the repetitions. */
export interface RowFigures extends Omit<CellResult, 'schemaDialect'> {
  transport: RowTransport;
  side: Side;
  schemaDialect: string;
}

export interface RowRun {
  rows: RowFigures[];
  reps: number;
  warmup: number;
  calls: number;
  loadBefore: readonly number[];
  loadAfter: readonly number[];
  node: string;
  cpus: number;
  date: string;
}

const SIDE_NAMES: Record<Side, string> = {
  official: 'official SDK 1.32.2',
  compat: 'aliased onto @x/compat',
};

const fixed = (value: number, digits: number) => value.toFixed(digits);
const load = (values: readonly number[]) => values.map((v) => v.toFixed(2)).join(' / ');

/** COMPAT.md: the table and how it was measured. */
export function compatMarkdown(run: RowRun): string {
  const lines = [
    '# Compat row: official-SDK server code on the official SDK and on @x/compat',
    '',
    'Written by `pnpm --dir apps/bench compat-row` (see the README). The same server program',
    '(`src/compat/echo-server.ts`, written against `@modelcontextprotocol/sdk` 1.x: an `echo` tool over',
    'stdio, or Streamable HTTP with a session per client) runs on the genuine SDK and with its SDK imports',
    'aliased onto @x/compat; the same client (the official 1.32.2 `Client`) makes sequential `tools/call`',
    `of \`echo\`: ${run.warmup} warm-up calls, then ${run.calls} timed. A fresh server process per cell;`,
    `${run.reps} repetitions, the sides interleaved, the median shown. CPU/call is the server's CPU time`,
    "(user + system) over the timed window per call; RSS is the server's peak. The last column shows which",
    'SDK served: 1.x lists draft-07 schemas, x-mcp lists 2020-12 ones without `$schema`.',
    '',
    `Measured ${run.date}, Node ${run.node}, ${run.cpus} CPUs; load average (1 / 5 / 15 min)`,
    `${load(run.loadBefore)} before the run, ${load(run.loadAfter)} after.`,
    '',
    '| transport | server runs on | calls/s | p50 ms | p99 ms | CPU/call µs | server peak RSS MiB | `$schema` of the listed tool |',
    '| --- | --- | --- | --- | --- | --- | --- | --- |',
  ];
  for (const row of run.rows) {
    lines.push(
      `| ${row.transport === 'http' ? 'Streamable HTTP' : 'stdio'} | ${SIDE_NAMES[row.side]} | ${fixed(row.callsPerSec, 0)} | ${fixed(row.p50Ms, 3)} | ${fixed(row.p99Ms, 3)} | ${fixed(row.cpuPerCallUs, 0)} | ${fixed(row.serverPeakRssMiB, 1)} | \`${row.schemaDialect}\` |`,
    );
  }
  lines.push('');
  return lines.join('\n');
}
