// `pnpm --dir apps/bench compat-row`: the bench row of issue 39 — the same official-SDK 1.x server code
// on the genuine SDK and aliased onto @x/compat, driven by the same client (src/compat/). Writes
// COMPAT.md (or `--out FILE`); `--smoke` runs tiny counts and writes only with `--out`.
import { writeFileSync } from 'node:fs';
import { availableParallelism, loadavg } from 'node:os';
import { parseArgs } from 'node:util';
import { compatMarkdown, type RowFigures } from './compat/report.js';
import { type CellResult, type RowTransport, runCell, type Side } from './compat/run-cell.js';
import { median } from './stats.js';

const SIDES: readonly Side[] = ['official', 'compat'];
const TRANSPORTS: readonly RowTransport[] = ['stdio', 'http'];

const { values } = parseArgs({
  options: {
    smoke: { type: 'boolean', default: false },
    reps: { type: 'string' },
    calls: { type: 'string' },
    warmup: { type: 'string' },
    out: { type: 'string' },
  },
});
const smoke = values.smoke === true;
const reps = Number(values.reps ?? (smoke ? 1 : 3));
const calls = Number(values.calls ?? (smoke ? 20 : 3000));
const warmup = Number(values.warmup ?? (smoke ? 5 : 300));
const out = values.out ?? (smoke ? undefined : new URL('../COMPAT.md', import.meta.url).pathname);

const loadBefore = loadavg();
const results = new Map<string, CellResult[]>();
for (let rep = 0; rep < reps; rep++) {
  for (const transport of TRANSPORTS) {
    // The starting side rotates per repetition, as in the main bench.
    const order = rep % 2 === 0 ? SIDES : [...SIDES].reverse();
    for (const side of order) {
      const result = await runCell({ side, transport, warmup, calls });
      const key = `${transport}/${side}`;
      results.set(key, [...(results.get(key) ?? []), result]);
      console.log(
        `rep ${rep + 1}/${reps} ${key}: ${result.callsPerSec.toFixed(0)} calls/s, p50 ${result.p50Ms.toFixed(3)} ms, p99 ${result.p99Ms.toFixed(3)} ms, ${result.cpuPerCallUs.toFixed(0)} µs CPU/call, ${result.serverPeakRssMiB.toFixed(1)} MiB`,
      );
    }
  }
}

const rows: RowFigures[] = [];
for (const transport of TRANSPORTS) {
  for (const side of SIDES) {
    const cells = results.get(`${transport}/${side}`) ?? [];
    const of = (pick: (cell: CellResult) => number) => median(cells.map(pick));
    rows.push({
      transport,
      side,
      callsPerSec: of((c) => c.callsPerSec),
      p50Ms: of((c) => c.p50Ms),
      p99Ms: of((c) => c.p99Ms),
      cpuPerCallUs: of((c) => c.cpuPerCallUs),
      serverPeakRssMiB: of((c) => c.serverPeakRssMiB),
      schemaDialect: cells[0]?.schemaDialect ?? 'none',
    });
  }
}
const markdown = compatMarkdown({
  rows,
  reps,
  warmup,
  calls,
  loadBefore,
  loadAfter: loadavg(),
  node: process.versions.node,
  cpus: availableParallelism(),
  date: new Date().toISOString().slice(0, 16).replace('T', ' ') + ' UTC',
});
if (out !== undefined) writeFileSync(out, markdown);
console.log(markdown);
