#!/usr/bin/env node
// `pnpm release` (see RELEASING.md): changeset version → commit → build → pack checks → pnpm publish -r →
// changeset tag. `--dry-run` runs the same steps in a temporary copy of the working tree (the built
// dist/ folders copied, nothing rebuilt) with `pnpm publish -r --dry-run`: it changes nothing in the
// repository and publishes nothing. Prints the versions it would publish. `--keep` keeps the copy.
import { execFileSync } from 'node:child_process';
import {
  cpSync,
  existsSync,
  mkdirSync,
  mkdtempSync,
  readdirSync,
  readFileSync,
  rmSync,
  symlinkSync,
} from 'node:fs';
import { tmpdir } from 'node:os';
import { dirname, join, resolve } from 'node:path';
import { fileURLToPath } from 'node:url';

const ROOT = resolve(dirname(fileURLToPath(import.meta.url)), '../..');
const dryRun = process.argv.includes('--dry-run');
const keep = process.argv.includes('--keep');
// `--quick` (with --dry-run, used by `pnpm test`, which runs publint and attw in its own pack test):
// the static pack checks only.
const quick = dryRun && process.argv.includes('--quick');

/** Runs a command, echoing it; its output goes to ours. */
function step(cwd, command, args) {
  console.log(`\n$ ${command} ${args.join(' ')} in ${cwd}`);
  execFileSync(command, args, { cwd, stdio: 'inherit' });
}

/** A copy of the working tree (tracked and untracked, not ignored files) plus built dist/ folders. */
function copyOfWorkingTree() {
  const copy = mkdtempSync(join(tmpdir(), 'x-mcp-release-'));
  const files = execFileSync('git', ['ls-files', '-co', '--exclude-standard', '-z'], { cwd: ROOT })
    .toString()
    .split('\0')
    .filter((file) => file !== '' && existsSync(join(ROOT, file)));
  for (const file of files) {
    mkdirSync(dirname(join(copy, file)), { recursive: true });
    cpSync(join(ROOT, file), join(copy, file));
  }
  for (const folder of ['packages', 'tooling']) {
    for (const name of readdirSync(join(ROOT, folder))) {
      const source = join(ROOT, folder, name);
      if (existsSync(join(source, 'dist')))
        cpSync(join(source, 'dist'), join(copy, folder, name, 'dist'), { recursive: true });
      if (existsSync(join(source, 'node_modules')))
        symlinkSync(join(source, 'node_modules'), join(copy, folder, name, 'node_modules'));
    }
  }
  symlinkSync(join(ROOT, 'node_modules'), join(copy, 'node_modules'));
  return copy;
}

function publishedVersions(root) {
  const out = [];
  for (const name of readdirSync(join(root, 'packages'))) {
    const file = join(root, 'packages', name, 'package.json');
    if (!existsSync(file)) continue;
    const manifest = JSON.parse(readFileSync(file, 'utf8'));
    if (manifest.private !== true) out.push(`${manifest.name}@${manifest.version}`);
  }
  return out;
}

const changeset = join(ROOT, 'node_modules/.bin/changeset');
const cwd = dryRun ? copyOfWorkingTree() : ROOT;
try {
  if (!dryRun) {
    const dirty = execFileSync('git', ['status', '--porcelain'], { cwd }).toString().trim();
    if (dirty !== '') throw new Error(`the working tree has changes; commit or stash them first:\n${dirty}`);
  }
  step(cwd, changeset, ['version']);
  if (!dryRun) {
    step(cwd, 'pnpm', ['install', '--lockfile-only']);
    // `add -A`: the new CHANGELOG.md files and the consumed changesets are part of the release commit.
    step(cwd, 'git', ['add', '-A']);
    step(cwd, 'git', ['commit', '-m', `release: ${publishedVersions(cwd).join(', ')}`]);
    step(cwd, 'pnpm', ['turbo', 'run', 'build', '--filter=./packages/*', '--force']);
  }
  step(cwd, process.execPath, [
    join(cwd, 'tooling/pack-check/pack-check.mjs'),
    ...(quick ? ['--static'] : []),
  ]);
  if (dryRun) {
    step(cwd, 'pnpm', ['publish', '-r', '--dry-run', '--no-git-checks', '--config.ignore-scripts=true']);
  } else {
    step(cwd, 'pnpm', ['publish', '-r']);
    step(cwd, changeset, ['tag']);
    console.log('\nPublished. Push the release commit and its tags: git push --follow-tags');
  }
  console.log(`\nrelease${dryRun ? ' (dry run)' : ''}: ${publishedVersions(cwd).join(' ')}`);
} finally {
  if (dryRun && !keep) rmSync(cwd, { recursive: true, force: true });
}
