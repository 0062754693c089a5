#!/usr/bin/env node
// `pnpm --filter @x/compat conformance`: the official conformance suite (server, 2025-11-25
// requirements, and the whole suite) against two programs written for the official SDK 1.x, the
// conformance fixture (test/fixtures/official-conformance-server.mjs, on Express with the Node
// transport, and with `--web` on the Web-standard transport) and server-everything, each on
// the genuine official SDK and aliased onto @x/compat (see lib/conformance-compare.mjs). Prints each
// side's counts and time, and the scenarios whose outcome differs; exits 1 when one differs that
// `KNOWN_DIFFERENCES` does not list, or when a listed one no longer differs. Needs @x/compat built.
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { compareConformance, KNOWN_DIFFERENCES } from './lib/conformance-compare.mjs';

const runs = ['fixture', 'fixture-web', 'everything'].flatMap((server) => [
  { server, name: `${server}-server-2025-11-25`, args: ['--requirements', '2025-11-25'] },
  { server, name: `${server}-server-all`, args: ['--suite', 'all'] },
]);
let failed = false;
for (const run of runs) {
  const known = KNOWN_DIFFERENCES[run.server];
  const { sides, differing } = await compareConformance({
    server: run.server,
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
    const reason = known[scenario];
    console.log(
      `  ${reason === undefined ? '✗' : '≠'} ${scenario}: ${on('genuine')} on the genuine SDK, ${on('compat')} on @x/compat` +
        (reason === undefined ? ' (not a known difference)' : ` (known: ${reason})`),
    );
    if (reason === undefined) failed = true;
  }
  for (const scenario of Object.keys(known)) {
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
