#!/usr/bin/env node
// `pnpm --filter @x/compat conformance`: the official conformance suite (server, 2025-11-25
// requirements, and the whole suite) against server-everything on the genuine official SDK and aliased
// onto @x/compat (see lib/conformance-compare.mjs). Prints each side's counts and time, and the
// scenarios whose outcome differs; exits 1 when one differs that `KNOWN_DIFFERENCES` does not list, or
// when a listed one no longer differs. Needs @x/compat built.
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { compareConformance, KNOWN_DIFFERENCES } from './lib/conformance-compare.mjs';

const runs = [
  { name: 'server-2025-11-25', args: ['--requirements', '2025-11-25'] },
  { name: 'server-all', args: ['--suite', 'all'] },
];
let failed = false;
for (const run of runs) {
  const { sides, differing } = await compareConformance({
    args: run.args,
    outDir: join(tmpdir(), 'x-compat-conformance', run.name),
  });
  for (const [name, side] of Object.entries(sides)) {
    const passed = [...side.outcomes.values()].filter(Boolean).length;
    console.log(
      `[${run.name}] ${name}: ${side.outcomes.size} scenarios, ${passed} passed, ${side.outcomes.size - passed} failed (${side.seconds.toFixed(1)} s)`,
    );
  }
  for (const scenario of differing) {
    const on = (side) => (sides[side].outcomes.get(scenario) ? 'passes' : 'fails');
    const known = KNOWN_DIFFERENCES[scenario];
    console.log(
      `  ${known === undefined ? '✗' : '≠'} ${scenario}: ${on('genuine')} on the genuine SDK, ${on('compat')} on @x/compat` +
        (known === undefined ? ' (not a known difference)' : ` (known: ${known})`),
    );
    if (known === undefined) failed = true;
  }
  for (const scenario of Object.keys(KNOWN_DIFFERENCES)) {
    const ran = sides.genuine.outcomes.has(scenario);
    if (ran && !differing.includes(scenario)) {
      console.log(`  ✗ ${scenario}: listed as a known difference, but the outcomes are the same now`);
      failed = true;
    }
  }
}
console.log(
  failed
    ? 'conformance: unexpected differences'
    : 'conformance: identical outcomes apart from the known differences',
);
process.exit(failed ? 1 : 0);
