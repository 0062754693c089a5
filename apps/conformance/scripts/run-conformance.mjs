#!/usr/bin/env node
// Runs the official MCP conformance suite (pinned in package.json) against our server and client, holds
// each run against its baseline, and ends with `conformance checks: N passed, N failed`.
//
//   node scripts/run-conformance.mjs [--leg NAME]... [--verbose]
//        [--server-cmd "node dist/server.js"] [--client-cmd "node dist/client.js"]
//        [--baselines DIR] [--out DIR]
//
// Exits 1 when a scenario fails that its baseline does not list, when a listed one passes (stale
// entry), or when a run could not complete. Expects dist/ to be built (the `conformance` script does).
import { mkdirSync, rmSync } from 'node:fs';
import { join, resolve } from 'node:path';
import { parseArgs } from 'node:util';
import { readBaseline } from './lib/baseline.mjs';
import { collectChecks, evaluate } from './lib/checks.mjs';
import { runConformance } from './lib/conformance-cli.mjs';
import { LEGS } from './lib/legs.mjs';
import { startServer } from './lib/server-process.mjs';

const APP = resolve(import.meta.dirname, '..');
// The whole run takes about a minute; a run past this is hung (a client or server that never answers).
const LEG_TIMEOUT_MS = 150_000;
const { values: opts } = parseArgs({
  options: {
    leg: { type: 'string', multiple: true },
    'server-cmd': { type: 'string', default: 'node dist/server.js' },
    'client-cmd': { type: 'string', default: 'node dist/client.js' },
    baselines: { type: 'string', default: join(APP, 'baselines') },
    out: { type: 'string', default: join(APP, 'results') },
    verbose: { type: 'boolean', default: false },
  },
});

const legs = opts.leg ? LEGS.filter((leg) => opts.leg.includes(leg.name)) : LEGS;
if (legs.length === 0)
  fail(`no leg named ${opts.leg.join(', ')}; legs: ${LEGS.map((l) => l.name).join(', ')}`);
rmSync(opts.out, { recursive: true, force: true });
// Exit handlers stop the server and the CLI's process group; signals skip them unless we exit ourselves.
for (const signal of ['SIGINT', 'SIGTERM']) process.once(signal, () => process.exit(130));

const totals = { passed: 0, failed: 0, baselined: 0, warnings: 0 };
const problems = [];
for (const leg of legs) {
  const started = Date.now();
  const dir = join(opts.out, leg.name);
  mkdirSync(dir, { recursive: true });
  const baselineFile = join(opts.baselines, `${leg.name}.yml`);
  const baseline = readBaseline(baselineFile)[leg.mode];
  const common = [...leg.args, '--expected-failures', baselineFile, '-o', dir];
  let code;
  let output;
  let timedOut;
  if (leg.mode === 'server') {
    const server = await startServer({ command: opts['server-cmd'], cwd: APP, logFile: `${dir}.server.log` });
    try {
      ({ code, output, timedOut } = await run(['server', '--url', server.url, ...common], dir));
    } finally {
      await server.stop();
    }
  } else {
    ({ code, output, timedOut } = await run(['client', '--command', opts['client-cmd'], ...common], dir));
  }
  const checks = collectChecks(dir, leg.mode, output);
  const verdict = evaluate(checks, baseline, leg.mode);
  for (const key of Object.keys(totals)) totals[key] += verdict[key];
  const seconds = ((Date.now() - started) / 1000).toFixed(1);
  console.log(
    `[${leg.name}] ${checks.size} scenarios: ${verdict.passed} passed, ${verdict.failed} failed, ` +
      `${verdict.baselined} baselined, ${verdict.warnings} warnings (CLI exit ${code}, ${seconds} s)`,
  );
  for (const { scenario, checks: failed } of verdict.unexpected) {
    problems.push(`${leg.name}: ${scenario} fails and is not in ${leg.name}.yml`);
    for (const check of failed)
      console.log(`    ✗ ${scenario} › ${check.id}: ${oneLine(check.errorMessage)}`);
  }
  for (const entry of verdict.stale) problems.push(`${leg.name}: stale baseline entry ${entry}`);
  if (timedOut) problems.push(`${leg.name}: stopped after ${LEG_TIMEOUT_MS / 1000} s (see ${dir}.cli.log)`);
  else if (checks.size === 0) problems.push(`${leg.name}: no results were written (see ${dir}.cli.log)`);
  // The CLI's own verdict catches what checks.json cannot show (a crash, a client timeout it scored).
  else if (code !== 0 && verdict.unexpected.length === 0 && verdict.stale.length === 0)
    problems.push(`${leg.name}: the CLI exited ${code} (see ${dir}.cli.log)`);
}

for (const problem of problems) console.log(`  ! ${problem}`);
console.log(`(baselined failures: ${totals.baselined} checks; warnings: ${totals.warnings})`);
console.log(`conformance checks: ${totals.passed} passed, ${totals.failed} failed`);
process.exit(problems.length > 0 ? 1 : 0);

function run(args, dir) {
  return runConformance({
    args,
    cwd: APP,
    logFile: `${dir}.cli.log`,
    echo: opts.verbose,
    timeoutMs: LEG_TIMEOUT_MS,
  });
}

function oneLine(text = '') {
  const flat = String(text).replace(/\s+/g, ' ').trim();
  return flat.length > 200 ? `${flat.slice(0, 200)}…` : flat;
}

function fail(message) {
  console.error(message);
  process.exit(2);
}
