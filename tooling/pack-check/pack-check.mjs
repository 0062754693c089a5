#!/usr/bin/env node
// Packs every published package (pnpm pack: the .pnpmfile.cjs beforePacking hook applies) and checks the
// tarballs as a user gets them. Used by test/pack-check.test.ts (in `pnpm test`) and by `pnpm release`
// before publishing (`node tooling/pack-check/pack-check.mjs`: static checks, publint, attw).
import { execFile } from 'node:child_process';
import { cpSync, mkdirSync, mkdtempSync, readFileSync, writeFileSync } from 'node:fs';
import { createRequire } from 'node:module';
import { tmpdir } from 'node:os';
import { dirname, join, resolve } from 'node:path';
import { fileURLToPath } from 'node:url';
import { promisify } from 'node:util';
import { BROWSER_ENTRIES, entrySpecifiers, manifestProblems, publishedPackages } from './packages.mjs';

const run = promisify(execFile);
const here = dirname(fileURLToPath(import.meta.url));
export const ROOT = resolve(here, '../..');
const require = createRequire(join(ROOT, 'package.json'));

/** Runs at most `limit` of the tasks at once (2-core CI machines: packing and attw are CPU-bound). */
export async function inBatches(items, limit, task) {
  const results = new Array(items.length);
  let next = 0;
  const worker = async () => {
    while (next < items.length) {
      const index = next++;
      results[index] = await task(items[index]);
    }
  };
  await Promise.all(Array.from({ length: Math.min(limit, items.length) }, worker));
  return results;
}

/**
 * Packs every published package into `dest` with `pnpm pack --ignore-scripts` (the caller has built:
 * `prepack` would build each package again). Returns `{ pkg, tarball, files, packed }` per package:
 * the tarball path, its file list (without `package/`) and the packed package.json.
 */
export async function packAll(dest, root = ROOT) {
  mkdirSync(dest, { recursive: true });
  return inBatches(publishedPackages(root), 2, async (pkg) => {
    const { stdout } = await run(
      'pnpm',
      ['pack', '--config.ignore-scripts=true', '--json', '--pack-destination', dest],
      {
        cwd: pkg.dir,
        maxBuffer: 16 * 1024 * 1024,
      },
    );
    const tarball = JSON.parse(stdout.slice(stdout.indexOf('{'))).filename;
    const list = await run('tar', ['-tzf', tarball], { maxBuffer: 16 * 1024 * 1024 });
    const files = list.stdout
      .split('\n')
      .filter((line) => line.startsWith('package/'))
      .map((line) => line.slice('package/'.length));
    const manifest = await run('tar', ['-xzOf', tarball, 'package/package.json']);
    return { pkg, tarball, files, packed: JSON.parse(manifest.stdout) };
  });
}

/** The manifest problems of one packed package (see manifestProblems). */
export function staticProblems(result) {
  return manifestProblems(result.packed, result.pkg.folder, result.files);
}

/** publint's messages on a tarball (strict: warnings count), formatted; empty when clean. */
export async function publintProblems(tarball) {
  const { publint } = await import(require.resolve('publint'));
  const { formatMessage } = await import(require.resolve('publint/utils'));
  const bytes = readFileSync(tarball);
  const { messages, pkg } = await publint({
    pack: { tarball: bytes.buffer.slice(bytes.byteOffset, bytes.byteOffset + bytes.byteLength) },
    level: 'warning',
    strict: true,
  });
  return messages.map((message) => `${message.type}: ${formatMessage(message, pkg) ?? message.code}`);
}

/** Resolutions the ESM-only profile of @arethetypeswrong/cli ignores: the packages ship no CommonJS. */
const ESM_ONLY_IGNORED = new Set(['node10', 'node16-cjs']);

/**
 * @arethetypeswrong's checks on a tarball with the CLI's ESM-only profile, in this process (the CLI
 * loads its TypeScript once per run: 8 runs cost ~10 s of CPU more): its problems as text, empty when
 * clean. `attw --pack --profile esm-only` in a package folder shows the same findings in a table.
 */
export async function attwProblems(tarball) {
  const cli = createRequire(require.resolve('@arethetypeswrong/cli/package.json'));
  const core = await import(cli.resolve('@arethetypeswrong/core'));
  const pkg = core.createPackageFromTarballData(new Uint8Array(readFileSync(tarball)));
  const analysis = await core.checkPackage(pkg);
  if (analysis.types === false) return ['no types found'];
  return analysis.problems
    .filter((problem) => !('resolutionKind' in problem) || !ESM_ONLY_IGNORED.has(problem.resolutionKind))
    .map((problem) =>
      [problem.kind, problem.entrypoint, problem.resolutionKind]
        .filter((part) => part !== undefined)
        .join(' '),
    );
}

/** The environment for npm in a consumer project: no npm_* settings inherited from a pnpm script. */
function npmEnvironment(cache) {
  const env = {};
  for (const [key, value] of Object.entries(process.env)) {
    if (!key.toLowerCase().startsWith('npm_') && !key.toLowerCase().startsWith('pnpm_')) env[key] = value;
  }
  env.npm_config_cache = cache;
  env.npm_config_update_notifier = 'false';
  return env;
}

/**
 * A fresh project in a temporary folder with the consumer apps (consumer/) and every tarball installed by
 * npm (third-party dependencies from the registry, through a cache kept under node_modules/.cache so a
 * second run is fast), plus `zod` and `@types/node` as the READMEs tell users. Writes `entries.json` /
 * `entries.ts` (every entry point of every package) and `browser-entries.ts` (BROWSER_ENTRIES).
 */
export async function installConsumer(results, root = ROOT) {
  const project = mkdtempSync(join(tmpdir(), 'x-mcp-consumer-'));
  cpSync(join(here, 'consumer'), project, { recursive: true });
  const entries = results.flatMap((result) => entrySpecifiers(result.pkg));
  writeFileSync(join(project, 'entries.json'), JSON.stringify(entries));
  writeFileSync(
    join(project, 'entries.ts'),
    entries.map((e, i) => `export * as e${i} from '${e}';\n`).join(''),
  );
  const browser = BROWSER_ENTRIES.filter((entry) => entries.includes(entry));
  writeFileSync(
    join(project, 'browser-entries.ts'),
    browser.map((e, i) => `export * as b${i} from '${e}';\n`).join(''),
  );
  const cache = join(root, 'node_modules/.cache/x-pack-check/npm');
  mkdirSync(cache, { recursive: true });
  const tarballs = results.map((result) => result.tarball);
  // Peer dependencies an entry needs to load (optional ones too: npm installs only required peers by
  // itself), e.g. `express` for `@x/compat/server/express.js`.
  const peers = [
    ...new Set(
      results.flatMap((result) =>
        Object.entries(result.packed.peerDependencies ?? {})
          .filter(([name]) => !name.startsWith('@x/'))
          .map(([name, range]) => `${name}@${range}`),
      ),
    ),
  ];
  await run(
    'npm',
    [
      'install',
      '--no-audit',
      '--no-fund',
      '--prefer-offline',
      '--loglevel=error',
      ...tarballs,
      ...peers,
      'zod@^4',
      '@types/node@^20',
    ],
    { cwd: project, env: npmEnvironment(cache), maxBuffer: 64 * 1024 * 1024 },
  );
  return project;
}

/** Type-checks a consumer project with the repository's TypeScript; returns tsc's output and file list. */
export async function typecheck(project, tsconfig) {
  const tsc = require.resolve('typescript/bin/tsc');
  try {
    const { stdout } = await run(process.execPath, [tsc, '-p', tsconfig, '--listFiles'], {
      cwd: project,
      maxBuffer: 64 * 1024 * 1024,
    });
    return { ok: true, output: '', files: stdout.split('\n').filter(Boolean) };
  } catch (error) {
    return {
      ok: false,
      output: `${error.stdout ?? ''}`
        .split('\n')
        .filter((l) => l.includes('error TS'))
        .join('\n'),
    };
  }
}

/** Bundles the consumer's browser app with esbuild for the browser; returns the output file. */
export async function bundleForBrowser(project) {
  const esbuild = await import(require.resolve('esbuild'));
  const outfile = join(project, 'browser-bundle.mjs');
  await esbuild.build({
    entryPoints: [join(project, 'browser-app.ts')],
    absWorkingDir: project,
    bundle: true,
    platform: 'browser',
    format: 'esm',
    target: 'es2022',
    minify: true,
    outfile,
    logLevel: 'silent',
  });
  return outfile;
}

/** `--static`: the packed package.json and file checks only (no publint, no attw). */
async function main() {
  const lint = !process.argv.includes('--static');
  const dest = mkdtempSync(join(tmpdir(), 'x-mcp-pack-'));
  const results = await packAll(dest);
  let failed = false;
  for (const result of results) {
    const problems = [
      ...staticProblems(result),
      ...(lint ? await publintProblems(result.tarball) : []),
      ...(lint ? await attwProblems(result.tarball) : []),
    ];
    console.log(`${problems.length === 0 ? 'ok  ' : 'FAIL'} ${result.pkg.name}@${result.pkg.version}`);
    for (const problem of problems) console.log(`     ${problem}`);
    if (problems.length > 0) failed = true;
  }
  if (failed) process.exit(1);
}

if (process.argv[1] !== undefined && resolve(process.argv[1]) === fileURLToPath(import.meta.url))
  await main();
