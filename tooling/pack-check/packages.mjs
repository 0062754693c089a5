// The packages this repository publishes and the facts every published package.json must state.
import { readdirSync, readFileSync, existsSync } from 'node:fs';
import { join } from 'node:path';

export const REPOSITORY_URL = 'https://github.com/x-mcp/x-mcp';

/**
 * Entry points promised to run in a browser: their types need no `@types/node` and they bundle with
 * `esbuild --platform=browser`. Everything else (the `./node` subpaths, `@x/transport-stdio`, new
 * packages until they are added here) may be Node-only.
 */
export const BROWSER_ENTRIES = [
  '@x/protocol',
  '@x/protocol/http',
  '@x/protocol/transport',
  '@x/protocol/json-schema',
  '@x/client',
  '@x/server',
  '@x/auth',
  '@x/transport-sse',
  '@x/transport-streamable-http',
  '@x/transport-ws',
];

/**
 * Every non-private package under packages/: `{ name, version, dir, manifest }`, sorted by name.
 * @param {string} root the repository root
 */
export function publishedPackages(root) {
  const out = [];
  for (const entry of readdirSync(join(root, 'packages'), { withFileTypes: true })) {
    if (!entry.isDirectory()) continue;
    const dir = join(root, 'packages', entry.name);
    const file = join(dir, 'package.json');
    if (!existsSync(file)) continue;
    const manifest = JSON.parse(readFileSync(file, 'utf8'));
    if (manifest.private === true) continue;
    out.push({ name: manifest.name, version: manifest.version, dir, folder: entry.name, manifest });
  }
  return out.sort((a, b) => a.name.localeCompare(b.name));
}

/**
 * The import specifiers of a package's `exports` (`@x/protocol`, `@x/protocol/http`, …), without
 * `./package.json`.
 * @param {{ name: string, manifest: { exports?: unknown } }} pkg
 */
export function entrySpecifiers(pkg) {
  const exportsField = pkg.manifest.exports;
  if (typeof exportsField !== 'object' || exportsField === null) return [pkg.name];
  return Object.keys(exportsField)
    .filter((key) => key.startsWith('.') && key !== './package.json' && !key.includes('*'))
    .map((key) => (key === '.' ? pkg.name : `${pkg.name}/${key.slice(2)}`));
}

/**
 * What is wrong with a packed package.json (the one inside the tarball), as sentences; empty when clean.
 * @param {Record<string, unknown>} packed
 * @param {string} folder the package's folder under packages/
 * @param {string[]} tarballFiles the paths in the tarball, without the `package/` prefix
 */
export function manifestProblems(packed, folder, tarballFiles) {
  const problems = [];
  const name = packed.name;
  const text = JSON.stringify(packed);
  if (text.includes('@x/source'))
    problems.push(`${name}: the packed package.json keeps the @x/source condition`);
  if (text.includes('workspace:')) problems.push(`${name}: the packed package.json keeps a workspace: range`);
  if (packed.devDependencies !== undefined)
    problems.push(`${name}: the packed package.json has devDependencies`);
  if (packed.license !== 'MIT') problems.push(`${name}: license is not MIT`);
  if (packed.type !== 'module') problems.push(`${name}: "type" is not "module" (the packages are ESM-only)`);
  const repository = /** @type {{ url?: string, directory?: string } | undefined} */ (packed.repository);
  if (repository?.url !== `git+${REPOSITORY_URL}.git` || repository.directory !== `packages/${folder}`) {
    problems.push(
      `${name}: repository must be { type: git, url: git+${REPOSITORY_URL}.git, directory: packages/${folder} }`,
    );
  }
  if (packed.homepage !== `${REPOSITORY_URL}/tree/main/packages/${folder}#readme`) {
    problems.push(`${name}: homepage must be ${REPOSITORY_URL}/tree/main/packages/${folder}#readme`);
  }
  const bugs = /** @type {{ url?: string } | undefined} */ (packed.bugs);
  if (bugs?.url !== `${REPOSITORY_URL}/issues`)
    problems.push(`${name}: bugs.url must be ${REPOSITORY_URL}/issues`);
  const keywords = packed.keywords;
  if (!Array.isArray(keywords) || !keywords.includes('mcp'))
    problems.push(`${name}: keywords must include "mcp"`);
  const files = packed.files;
  for (const wanted of ['dist', 'README.md', 'CHANGELOG.md', 'LICENSE']) {
    if (!Array.isArray(files) || !files.includes(wanted))
      problems.push(`${name}: "files" must list ${wanted}`);
  }
  for (const wanted of ['LICENSE', 'README.md', 'package.json']) {
    if (!tarballFiles.includes(wanted)) problems.push(`${name}: the tarball has no ${wanted}`);
  }
  if (!tarballFiles.some((file) => file.startsWith('dist/') && file.endsWith('.js'))) {
    problems.push(`${name}: the tarball has no dist/*.js (was it built?)`);
  }
  for (const target of exportTargets(packed.exports)) {
    if (!tarballFiles.includes(target.slice(2)))
      problems.push(`${name}: exports names ${target}, not in the tarball`);
  }
  return problems;
}

/** Every file path an `exports` value names (`./dist/index.js`, …). */
function exportTargets(value) {
  if (typeof value === 'string') return value.startsWith('./') ? [value] : [];
  if (typeof value !== 'object' || value === null) return [];
  return Object.values(value).flatMap(exportTargets);
}
