// `pnpm --dir apps/bench bridge-hop`: what a bridge hop costs. The same stdio echo server reached
// directly, through `@x/bridge` (raw and translating mode) and through `mcp-proxy`, each fronting it on
// Streamable HTTP; latency of sequential `tools/call` and throughput with many in flight.
// Flags: --warmup N (300) --calls N (2000) --throughput-calls N (2000) --in-flight N (64) --reps N (3)
// --setups direct,bridge-raw,… --out FILE (BRIDGE.md) --json FILE.
import { writeFileSync } from 'node:fs';
import { fileURLToPath } from 'node:url';
import { parseArgs } from 'node:util';
import { type HopCounts, type HopSample, measureHop } from './bridge/measure.js';
import { describeMachine, endLoad, type HopRow, renderHopReport } from './bridge/report.js';
import { SETUP_NAMES, type SetupName, startSetup } from './bridge/setups.js';
import { median } from './stats.js';

const DEFAULT_OUT = fileURLToPath(new URL('../BRIDGE.md', import.meta.url));

const { values } = parseArgs({
  options: {
    warmup: { type: 'string', default: '300' },
    calls: { type: 'string', default: '2000' },
    'throughput-calls': { type: 'string', default: '2000' },
    'in-flight': { type: 'string', default: '64' },
    reps: { type: 'string', default: '3' },
    setups: { type: 'string', default: SETUP_NAMES.join(',') },
    out: { type: 'string', default: DEFAULT_OUT },
    json: { type: 'string' },
  },
});

const count = (name: keyof typeof values): number => {
  const value = Number(values[name]);
  if (!Number.isInteger(value) || value < 1) throw new Error(`--${name} must be a positive integer`);
  return value;
};
const counts: HopCounts = {
  warmup: count('warmup'),
  calls: count('calls'),
  throughputCalls: count('throughput-calls'),
  inFlight: count('in-flight'),
};
const reps = count('reps');
const setups = String(values.setups)
  .split(',')
  .map((name) => {
    if (!(SETUP_NAMES as readonly string[]).includes(name)) throw new Error(`unknown setup ${name}`);
    return name as SetupName;
  });

const machine = describeMachine();
const samples = new Map<SetupName, HopSample[]>(setups.map((setup) => [setup, []]));
const errors = new Map<SetupName, string>();
for (let rep = 0; rep < reps; rep++) {
  // Rotated per repetition, so no setup always runs first (on the coolest machine).
  for (let i = 0; i < setups.length; i++) {
    const setup = setups[(i + rep) % setups.length] as SetupName;
    if (errors.has(setup)) continue;
    try {
      const endpoint = await startSetup(setup);
      try {
        const sample = await measureHop(endpoint, counts);
        samples.get(setup)?.push(sample);
        console.error(
          `[bridge-hop] rep ${rep + 1}/${reps} ${setup}: p50 ${sample.p50Ms.toFixed(3)} ms, p99 ${sample.p99Ms.toFixed(3)} ms, ${Math.round(sample.callsPerSec)} calls/s`,
        );
      } finally {
        await endpoint.close();
      }
    } catch (error) {
      errors.set(setup, error instanceof Error ? error.message : String(error));
      console.error(`[bridge-hop] ${setup} failed:`, error);
    }
  }
}

const rows: HopRow[] = setups.map((setup) => {
  const error = errors.get(setup);
  if (error !== undefined) return { setup, reps, error };
  const taken = samples.get(setup) ?? [];
  return {
    setup,
    reps,
    p50Ms: median(taken.map((s) => s.p50Ms)),
    p99Ms: median(taken.map((s) => s.p99Ms)),
    callsPerSec: median(taken.map((s) => s.callsPerSec)),
  };
});
const report = renderHopReport(rows, counts, endLoad(machine));
writeFileSync(String(values.out), report);
if (values.json !== undefined)
  writeFileSync(values.json, `${JSON.stringify({ counts, machine: endLoad(machine), rows }, null, 2)}\n`);
process.stdout.write(report);
process.exitCode = errors.size > 0 ? 1 : 0;
