// Collects the CLI's checks.json files for one leg and holds them against that leg's baseline.
// Unlike the CLI in `--requirements` mode, every scenario that ran is held to the baseline, scored or
// not: an unscored scenario that starts failing (or starts passing) is still news.
import { existsSync, readdirSync, readFileSync } from 'node:fs';
import { join, relative } from 'node:path';

const TIMESTAMP = /-\d{4}-\d{2}-\d{2}T\d{2}-\d{2}-\d{2}-\d{3}Z$/;

/**
 * A scenario that throws leaves its folder without checks.json (the CLI prints `Failed to run scenario
 * S: message` and scores it `0 passed, 1 failed`); it is recorded here as one failed check.
 * @returns {Map<string, Array<{id: string, status: string, errorMessage?: string}>>} scenario → checks
 */
export function collectChecks(legDir, mode, cliOutput) {
  const byScenario = new Map();
  for (const dir of scenarioDirs(legDir)) {
    let scenario = relative(legDir, dir).replace(TIMESTAMP, '').replaceAll('\\', '/');
    if (mode === 'server') scenario = scenario.replace(/^server-/, '');
    const file = join(dir, 'checks.json');
    byScenario.set(
      scenario,
      existsSync(file) ? JSON.parse(readFileSync(file, 'utf8')) : [crashed(scenario, cliOutput)],
    );
  }
  return byScenario;
}

function crashed(scenario, cliOutput) {
  const line = cliOutput.split('\n').find((l) => l.startsWith(`Failed to run scenario ${scenario}:`));
  return { id: 'scenario-crashed', status: 'FAILURE', errorMessage: line ?? 'no checks.json written' };
}

function scenarioDirs(dir) {
  const found = [];
  for (const entry of readdirSync(dir, { withFileTypes: true })) {
    if (!entry.isDirectory()) continue;
    const full = join(dir, entry.name);
    if (TIMESTAMP.test(entry.name)) found.push(full);
    else found.push(...scenarioDirs(full));
  }
  return found;
}

/**
 * Which statuses fail a scenario follows the CLI: in client runs a WARNING fails the scenario too (the
 * CLI scores it so), in server runs only FAILURE does. Those checks are what `failed` counts.
 * @param {Map<string, Array<{id: string, status: string, errorMessage?: string}>>} checks
 * @param {string[]} baseline entries: `scenario` or `scenario:check-id`
 * @param {'server' | 'client'} mode
 * @returns {{ passed: number, failed: number, baselined: number, warnings: number,
 *   unexpected: Array<{ scenario: string, checks: Array<{ id: string, errorMessage?: string }> }>,
 *   stale: string[] }}
 */
export function evaluate(checks, baseline, mode) {
  const isBad =
    mode === 'client'
      ? (c) => c.status === 'FAILURE' || c.status === 'WARNING'
      : (c) => c.status === 'FAILURE';
  const whole = new Set(baseline.filter((e) => !e.includes(':')));
  const single = new Set(baseline.filter((e) => e.includes(':')));
  /** @type {ReturnType<typeof evaluate>} */
  const result = { passed: 0, failed: 0, baselined: 0, warnings: 0, unexpected: [], stale: [] };
  for (const [scenario, list] of checks) {
    const failures = list.filter(isBad);
    result.passed += list.filter((c) => c.status === 'SUCCESS').length;
    result.warnings += list.filter((c) => c.status === 'WARNING').length;
    if (whole.has(scenario)) {
      if (failures.length === 0) result.stale.push(`${scenario} (passes)`);
      result.baselined += failures.length;
      continue;
    }
    const unlisted = failures.filter((c) => !single.has(`${scenario}:${c.id}`));
    result.baselined += failures.length - unlisted.length;
    result.failed += unlisted.length;
    if (unlisted.length > 0) result.unexpected.push({ scenario, checks: unlisted });
  }
  for (const entry of single) {
    const [scenario, id] = splitEntry(entry);
    // A scenario may emit one id several times (once per probe): the entry holds while any of them fails.
    const same = checks.get(scenario)?.filter((c) => c.id === id) ?? [];
    if (!same.some(isBad)) result.stale.push(`${entry} (${same.length > 0 ? 'passes' : 'did not run'})`);
  }
  // An entry for a scenario this leg never ran is stale too: each leg has its own baseline file.
  for (const scenario of whole) if (!checks.has(scenario)) result.stale.push(`${scenario} (did not run)`);
  return result;
}

function splitEntry(entry) {
  const at = entry.lastIndexOf(':');
  return [entry.slice(0, at), entry.slice(at + 1)];
}
