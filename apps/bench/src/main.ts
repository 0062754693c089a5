/**
 * `pnpm bench` entry: runs the plan, writes RESULTS.md (full runs) and optional JSON, prints a summary.
 */
import { execFileSync } from 'node:child_process';
import { readFileSync, writeFileSync } from 'node:fs';
import { cpus, loadavg, platform, release, totalmem } from 'node:os';
import { fileURLToPath } from 'node:url';
import { parseCli } from './cli-options.js';
import {
  FULL_COUNTS,
  FULL_REPETITIONS,
  QUICK_W6_SESSIONS,
  SMOKE_COUNTS,
  SMOKE_REPETITIONS,
} from './config.js';
import { installSize } from './install-size.js';
import { type PlanResults, runPlan } from './orchestrate.js';
import { renderMarkdown } from './report/markdown.js';
import { targetTable } from './report/targets.js';
import { GUIDE_ROWS } from './report/transport-guide.js';
import { GUIDE_PATH, guideText, RESULTS_JSON_PATH } from './transport-guide.js';
import { mergeRuns, type RunResults } from './results.js';

const APP_DIR = fileURLToPath(new URL('..', import.meta.url));

const options = parseCli(process.argv.slice(2));
const modeCounts = options.smoke
  ? SMOKE_COUNTS
  : options.quick
    ? { ...FULL_COUNTS, w6Sessions: QUICK_W6_SESSIONS }
    : FULL_COUNTS;
const counts = {
  ...modeCounts,
  w6Sessions: options.w6Sessions ?? modeCounts.w6Sessions,
  w6LoadProcesses: options.w6LoadProcesses ?? modeCounts.w6LoadProcesses,
};
const repetitions =
  options.repetitions ?? (options.smoke || options.quick ? SMOKE_REPETITIONS : FULL_REPETITIONS);
const startedAt = new Date();
const started = performance.now();
const machine = {
  node: process.versions.node,
  platform: `${platform()} ${release()}`,
  cpus: cpus().length,
  cpuModel: cpus()[0]?.model.trim() ?? 'unknown',
  memoryGiB: Math.round(totalmem() / 2 ** 30),
  loadAverage: loadavg(),
  source: sourceState(),
};

const out = options.out ?? (options.smoke || options.quick ? undefined : `${APP_DIR}RESULTS.md`);
const base =
  options.merge === undefined ? undefined : (JSON.parse(readFileSync(options.merge, 'utf8')) as RunResults);
// A full run leaves its JSON beside RESULTS.md: docs/choosing-a-transport.md's table is made from it.
const json =
  options.json ??
  (options.smoke || options.quick || options.out !== undefined ? undefined : RESULTS_JSON_PATH);
const installSizes = options.extras ? measureInstallSizes() : {};

function resultsOf(partial: PlanResults, completed: number): RunResults {
  const own = ownResultsOf(partial, completed);
  return base === undefined ? own : mergeRuns(base, own);
}

function ownResultsOf(partial: PlanResults, completed: number): RunResults {
  return {
    date: startedAt.toISOString(),
    machine: { ...machine, loadAverageEnd: loadavg() },
    mode: options.smoke ? 'smoke' : options.quick ? 'quick' : 'full',
    args: process.argv.slice(2).filter((arg) => arg !== '--'),
    repetitions: completed,
    plannedRepetitions: repetitions,
    counts,
    sdks: options.sdks,
    transports: options.transports,
    workloads: options.workloads,
    ...partial,
    installSize: installSizes,
    durationSec: (performance.now() - started) / 1000,
  };
}

function write(results: RunResults): void {
  if (out !== undefined) writeFileSync(out, renderMarkdown(results));
  if (json !== undefined) writeFileSync(json, `${JSON.stringify(results, null, 2)}\n`);
}

const final = await runPlan({
  smoke: options.smoke,
  repetitions,
  counts,
  sdks: options.sdks,
  transports: options.transports,
  workloads: options.workloads,
  extras: options.extras,
  log: (line) => console.error(line),
  onRepetition: (partial, completed) => {
    if (completed < repetitions) write(resultsOf(partial, completed));
  },
});
const results = resultsOf(final, repetitions);
write(results);
// The transport guide's table, when this run measured every row of it (both eras, every transport).
if (
  !options.smoke &&
  json === RESULTS_JSON_PATH &&
  GUIDE_ROWS.every((row) => results.sdks.includes(row.sdk) && results.transports.includes(row.transport))
) {
  writeFileSync(GUIDE_PATH, guideText(results));
  console.error(`Updated ${GUIDE_PATH}`);
}
const verdicts = targetTable(results);
console.log(verdicts.markdown);
console.log(
  `\n${verdicts.met} targets met, ${verdicts.missed} missed; ${Math.round(results.durationSec)} s.${out === undefined ? '' : ` Report: ${out}`}`,
);

function measureInstallSizes(): RunResults['installSize'] {
  return {
    'x-mcp': installSize(APP_DIR, ['@x/server', '@x/transport-stdio']),
    v1: installSize(APP_DIR, ['@modelcontextprotocol/sdk']),
    v2: installSize(APP_DIR, ['@modelcontextprotocol/server']),
  };
}

/** Which x-mcp code was measured: the commit, and whether packages/ had uncommitted changes (read-only git). */
function sourceState(): string {
  try {
    const git = (...args: string[]): string =>
      execFileSync('git', args, { cwd: APP_DIR, encoding: 'utf8' }).trim();
    const dirty = git('status', '--porcelain', '--', '../../packages').length > 0;
    return `${git('rev-parse', '--short', 'HEAD')}${dirty ? ' + uncommitted changes in packages/' : ''}`;
  } catch {
    return 'unknown (no git)';
  }
}
