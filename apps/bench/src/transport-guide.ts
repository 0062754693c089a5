// `pnpm --dir apps/bench transport-guide [--results FILE] [--check]`: rewrites the measured table of
// docs/choosing-a-transport.md from a `pnpm bench` run's JSON (default: apps/bench/results.json, which
// every full run writes), or with `--check` exits 1 when the table is not that run's. `pnpm bench` runs
// this itself at the end of a full run that measured every transport in both eras.
import { readFileSync, writeFileSync } from 'node:fs';
import { fileURLToPath } from 'node:url';
import { parseArgs } from 'node:util';
import { replaceGuideTable, transportGuideTable } from './report/transport-guide.js';
import type { RunResults } from './results.js';

/** The guide whose table this rewrites. */
export const GUIDE_PATH = fileURLToPath(new URL('../../../docs/choosing-a-transport.md', import.meta.url));
/** The run every full `pnpm bench` leaves behind, read by default. */
export const RESULTS_JSON_PATH = fileURLToPath(new URL('../results.json', import.meta.url));

/** The guide's text with its table made from `results`. */
export function guideText(results: RunResults, guide: string = readFileSync(GUIDE_PATH, 'utf8')): string {
  return replaceGuideTable(guide, transportGuideTable(results));
}

if (process.argv[1] === fileURLToPath(import.meta.url)) {
  const { values } = parseArgs({
    options: {
      results: { type: 'string', default: RESULTS_JSON_PATH },
      check: { type: 'boolean', default: false },
    },
  });
  const results = JSON.parse(readFileSync(values.results, 'utf8')) as RunResults;
  const current = readFileSync(GUIDE_PATH, 'utf8');
  const next = guideText(results, current);
  if (values.check) {
    if (next !== current) {
      process.stderr.write(
        `${GUIDE_PATH} is not the table of ${values.results}: run pnpm --dir apps/bench transport-guide\n`,
      );
      process.exitCode = 1;
    }
  } else {
    writeFileSync(GUIDE_PATH, next);
    process.stderr.write(`wrote ${GUIDE_PATH}\n`);
  }
}
