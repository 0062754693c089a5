import { readdirSync, readFileSync, realpathSync, statSync } from 'node:fs';
import { dirname, join, sep } from 'node:path';

interface PackageJson {
  name: string;
  files?: string[];
  dependencies?: Record<string, string>;
  peerDependencies?: Record<string, string>;
  peerDependenciesMeta?: Record<string, { optional?: boolean }>;
}

export interface InstallSize {
  bytes: number;
  /** Bytes per package, largest first. */
  packages: Array<{ name: string; bytes: number }>;
  /** Dependencies npm would install that are not on disk here (counted as 0). */
  missing: string[];
}

/**
 * What `npm install <roots>` puts on disk: the roots and their production dependency closure
 * (`dependencies` + non-optional peers, which npm ≥ 7 installs). Registry packages count every file
 * they ship; workspace packages count what `files` publishes. Apparent size (sum of file sizes).
 */
export function installSize(fromDir: string, roots: readonly string[]): InstallSize {
  const seen = new Map<string, string>();
  const missing: string[] = [];
  const queue = roots.map((name) => ({ name, from: fromDir }));
  for (let next = queue.shift(); next !== undefined; next = queue.shift()) {
    const dir = findPackage(next.from, next.name);
    if (dir === undefined) {
      missing.push(next.name);
      continue;
    }
    if (seen.has(dir)) continue;
    const pkg = JSON.parse(readFileSync(join(dir, 'package.json'), 'utf8')) as PackageJson;
    seen.set(dir, pkg.name);
    for (const dep of dependenciesOf(pkg)) queue.push({ name: dep, from: dir });
  }
  const packages = [...seen].map(([dir, name]) => ({ name, bytes: packageBytes(dir) }));
  packages.sort((a, b) => b.bytes - a.bytes);
  return { bytes: packages.reduce((sum, entry) => sum + entry.bytes, 0), packages, missing };
}

function dependenciesOf(pkg: PackageJson): string[] {
  const peers = Object.keys(pkg.peerDependencies ?? {}).filter(
    (name) => pkg.peerDependenciesMeta?.[name]?.optional !== true,
  );
  return [...Object.keys(pkg.dependencies ?? {}), ...peers];
}

/** Node's resolution walk: `node_modules/<name>` in this directory or any parent. */
function findPackage(from: string, name: string): string | undefined {
  for (let dir = from; ; dir = dirname(dir)) {
    const candidate = join(dir, 'node_modules', name, 'package.json');
    try {
      statSync(candidate);
      return realpathSync(dirname(candidate));
    } catch {
      if (dirname(dir) === dir) return undefined;
    }
  }
}

function packageBytes(dir: string): number {
  if (dir.includes(`${sep}node_modules${sep}`)) return treeBytes(dir);
  const pkg = JSON.parse(readFileSync(join(dir, 'package.json'), 'utf8')) as PackageJson;
  const always = readdirSync(dir).filter((entry) => /^(package\.json|readme|license)/i.test(entry));
  return [...new Set([...(pkg.files ?? []), ...always])].reduce(
    (sum, entry) => sum + treeBytes(join(dir, entry)),
    0,
  );
}

function treeBytes(path: string): number {
  let stat: ReturnType<typeof statSync>;
  try {
    stat = statSync(path);
  } catch {
    return 0;
  }
  if (!stat.isDirectory()) return Number(stat.size);
  let sum = 0;
  for (const entry of readdirSync(path)) {
    if (entry !== 'node_modules') sum += treeBytes(join(path, entry));
  }
  return sum;
}
