#!/usr/bin/env node
// Repo check (DESIGN §1): every package under packages/ imports only what its allowance names, never a
// file inside another package (only the subpaths that package's `exports` map declares), never a file
// outside its own folder by a relative path, and protocol/client/server import no `node:` module.
// Runtime dependencies in package.json must be within the allowance too.
import { existsSync, readdirSync, readFileSync, statSync } from 'node:fs';
import { builtinModules } from 'node:module';
import { dirname, join, relative, resolve, sep } from 'node:path';
import { fileURLToPath } from 'node:url';
import { ALLOWANCES, CYCLE_ALLOWANCES } from './allowances.mjs';
import { checkDefaultConstants, checkInlineDefaults } from './check-defaults.mjs';

const IMPORT_PATTERNS = [
  /\bimport\s+(?:type\s+)?(?:[\w*{}\s,$]+?\s+from\s+)?['"]([^'"]+)['"]/g,
  /\bexport\s+(?:type\s+)?(?:\*(?:\s+as\s+\w+)?|\{[^}]*\})\s+from\s+['"]([^'"]+)['"]/g,
  /\bimport\s*\(\s*['"]([^'"]+)['"]\s*\)/g,
  /\brequire\s*\(\s*['"]([^'"]+)['"]\s*\)/g,
];
const BUILTINS = new Set(builtinModules.flatMap((m) => [m, m.split('/')[0]]));

function walk(dir, out = []) {
  for (const entry of readdirSync(dir)) {
    const full = join(dir, entry);
    if (statSync(full).isDirectory()) walk(full, out);
    else if (/\.(m|c)?[jt]sx?$/.test(entry) && !/\.d\.ts$/.test(entry)) out.push(full);
  }
  return out;
}

function stripComments(source) {
  return source.replace(/\/\*[\s\S]*?\*\//g, '').replace(/(^|[^:'"`\\])\/\/.*$/gm, '$1');
}

export function importsOf(source) {
  const text = stripComments(source);
  const found = [];
  for (const pattern of IMPORT_PATTERNS) {
    for (const match of text.matchAll(pattern)) found.push(match[1]);
  }
  return found;
}

function packageNameOf(specifier) {
  const parts = specifier.split('/');
  return specifier.startsWith('@') ? parts.slice(0, 2).join('/') : parts[0];
}

/** Checks every package folder under `packagesDir`; returns a list of human-readable violations. */
export function checkPackages(packagesDir, allowances = ALLOWANCES) {
  const violations = [];
  const manifests = new Map();
  for (const entry of readdirSync(packagesDir)) {
    const manifestPath = join(packagesDir, entry, 'package.json');
    try {
      manifests.set(entry, JSON.parse(readFileSync(manifestPath, 'utf8')));
    } catch {
      // not a package folder
    }
  }
  const exportsByName = new Map(
    [...manifests.values()].map((m) => [m.name, new Set(Object.keys(m.exports ?? { '.': '' }))]),
  );

  for (const [folder, manifest] of manifests) {
    const name = manifest.name;
    const allowance = allowances[name];
    if (!allowance) {
      violations.push(
        `${name}: no import allowance is defined for this package (tooling/repo-check/allowances.mjs)`,
      );
      continue;
    }
    for (const dep of Object.keys({ ...manifest.dependencies, ...manifest.peerDependencies })) {
      if (!allowance.deps.includes(dep)) {
        violations.push(
          `${name}: runtime dependency "${dep}" is outside the allowance (${allowance.deps.join(', ')})`,
        );
      }
    }
    const root = resolve(packagesDir, folder);
    const srcDir = join(root, 'src');
    let files = [];
    try {
      files = walk(srcDir);
    } catch {
      continue;
    }
    // Node-only folders of a runtime-neutral package (allowance `nodeDirs`).
    const nodeDirs = (allowance.nodeDirs ?? []).map((dir) => join(srcDir, dir));
    const inNodeDir = (path) => nodeDirs.some((dir) => path === dir || path.startsWith(dir + sep));
    for (const file of files) {
      const where = relative(resolve(packagesDir, '..'), file);
      const fileMayUseNode = allowance.node || inNodeDir(file);
      for (const specifier of importsOf(readFileSync(file, 'utf8'))) {
        if (specifier.startsWith('.')) {
          const target = resolve(dirname(file), specifier);
          if (target !== root && !target.startsWith(root + sep)) {
            violations.push(`${where}: relative import "${specifier}" leaves the package`);
          } else if (!target.startsWith(srcDir + sep)) {
            violations.push(`${where}: relative import "${specifier}" reaches outside src/`);
          } else if (!inNodeDir(file) && inNodeDir(target)) {
            violations.push(
              `${where}: imports the Node-only "${specifier}"; only files under ${allowance.nodeDirs
                .map((dir) => `src/${dir}/`)
                .join(', ')} may`,
            );
          }
          continue;
        }
        if (
          specifier.startsWith('node:') ||
          BUILTINS.has(specifier) ||
          BUILTINS.has(packageNameOf(specifier))
        ) {
          if (!fileMayUseNode)
            violations.push(`${where}: imports "${specifier}", but ${name} must import no node: module`);
          else if (!specifier.startsWith('node:'))
            violations.push(`${where}: import built-in "${specifier}" as "node:${specifier}"`);
          continue;
        }
        const refusal = allowance.refused?.[specifier];
        if (refusal !== undefined) {
          violations.push(`${where}: imports "${specifier}": ${refusal}`);
          continue;
        }
        const dep = packageNameOf(specifier);
        if (dep === name) {
          violations.push(`${where}: imports its own package name "${specifier}"; use a relative import`);
          continue;
        }
        if (!allowance.deps.includes(dep)) {
          violations.push(
            `${where}: imports "${specifier}", outside the allowance of ${name} (${allowance.deps.join(', ')})`,
          );
          continue;
        }
        const declared = exportsByName.get(dep);
        const subpath = '.' + specifier.slice(dep.length);
        if (declared && !declared.has(subpath)) {
          violations.push(
            `${where}: deep import "${specifier}"; ${dep} exports only ${[...declared].join(', ')}`,
          );
        }
      }
    }
  }
  return violations;
}

/** The source file a relative specifier names (`./x.js` → `x.ts`, `./dir` → `dir/index.ts`), or undefined. */
function resolveSource(fromFile, specifier) {
  const base = resolve(dirname(fromFile), specifier);
  const stem = base.replace(/\.(m|c)?jsx?$/, '');
  const candidates = [
    base,
    `${stem}.ts`,
    `${stem}.tsx`,
    `${stem}.mts`,
    `${stem}.cts`,
    join(base, 'index.ts'),
  ];
  return candidates.find((path) => existsSync(path) && statSync(path).isFile());
}

/**
 * Import cycles among a package's source files (STYLE: "modules form a tree"). Every relative import
 * counts, `import type` included: a type-only cycle still means two modules that cannot be read or
 * moved apart. Returns each strongly connected component of more than one file (or a file importing
 * itself), as sorted paths relative to `srcDir`.
 */
export function findCycles(srcDir) {
  const files = walk(srcDir).filter((file) => !/\.test\.[cm]?[jt]sx?$/.test(file));
  const edges = new Map();
  for (const file of files) {
    const targets = new Set();
    for (const specifier of importsOf(readFileSync(file, 'utf8'))) {
      if (!specifier.startsWith('.')) continue;
      const target = resolveSource(file, specifier);
      if (target) targets.add(target);
    }
    edges.set(file, [...targets]);
  }
  // Tarjan's strongly connected components, iterative so deep import chains cannot overflow the stack.
  const index = new Map();
  const low = new Map();
  const onStack = new Set();
  const stack = [];
  const cycles = [];
  let next = 0;
  for (const start of files) {
    if (index.has(start)) continue;
    const work = [{ node: start, i: 0 }];
    index.set(start, next);
    low.set(start, next++);
    stack.push(start);
    onStack.add(start);
    while (work.length > 0) {
      const frame = work[work.length - 1];
      const targets = edges.get(frame.node) ?? [];
      if (frame.i < targets.length) {
        const target = targets[frame.i++];
        if (!index.has(target)) {
          index.set(target, next);
          low.set(target, next++);
          stack.push(target);
          onStack.add(target);
          work.push({ node: target, i: 0 });
        } else if (onStack.has(target)) {
          low.set(frame.node, Math.min(low.get(frame.node), index.get(target)));
        }
        continue;
      }
      work.pop();
      if (work.length > 0) {
        const parent = work[work.length - 1].node;
        low.set(parent, Math.min(low.get(parent), low.get(frame.node)));
      }
      if (low.get(frame.node) !== index.get(frame.node)) continue;
      const component = [];
      let member;
      do {
        member = stack.pop();
        onStack.delete(member);
        component.push(member);
      } while (member !== frame.node);
      const selfLoop = component.length === 1 && (edges.get(frame.node) ?? []).includes(frame.node);
      if (component.length > 1 || selfLoop) {
        cycles.push(component.map((file) => relative(srcDir, file).split(sep).join('/')).sort());
      }
    }
  }
  return cycles;
}

/**
 * Checks every package's `src/` for import cycles; a cycle listed in `allowed` (package name → lists of
 * files, exactly as `findCycles` reports them) is tolerated. Returns human-readable violations.
 */
export function checkCycles(packagesDir, allowed = CYCLE_ALLOWANCES) {
  const violations = [];
  for (const entry of readdirSync(packagesDir)) {
    let name;
    try {
      name = JSON.parse(readFileSync(join(packagesDir, entry, 'package.json'), 'utf8')).name;
    } catch {
      continue;
    }
    const srcDir = join(packagesDir, entry, 'src');
    if (!existsSync(srcDir)) continue;
    const tolerated = new Set((allowed[name] ?? []).map((files) => [...files].sort().join(' ')));
    for (const cycle of findCycles(srcDir)) {
      if (tolerated.has(cycle.join(' '))) continue;
      violations.push(
        `${name}: import cycle over ${cycle.length} file(s) in src/ (type-only imports count): ${cycle.join(' → ')}`,
      );
    }
  }
  return violations;
}

// Casts a source file may not make, with the reason the error gives (issue 36).
const REFUSED_CASTS = [
  {
    pattern: /\bas\s+unknown\s+as\s+Response\b/,
    reason:
      'a stand-in passed off as a Response breaks every caller that reads it as one: return a LazyResponse (@x/protocol/http), which implements Response and builds the platform one only when read',
  },
];

/**
 * Refuses the casts of {@link REFUSED_CASTS} in every package's `src/` (comments aside). Returns
 * human-readable violations.
 */
export function checkCasts(packagesDir) {
  const violations = [];
  for (const entry of readdirSync(packagesDir)) {
    const srcDir = join(packagesDir, entry, 'src');
    if (!existsSync(srcDir)) continue;
    for (const file of walk(srcDir)) {
      const text = stripComments(readFileSync(file, 'utf8'));
      for (const { pattern, reason } of REFUSED_CASTS) {
        const match = pattern.exec(text);
        if (match !== null) {
          violations.push(`${relative(packagesDir, file)}: refused cast \`${match[0]}\`: ${reason}`);
        }
      }
    }
  }
  return violations;
}

const isMain = process.argv[1] && resolve(process.argv[1]) === fileURLToPath(import.meta.url);
if (isMain) {
  const packagesDir = resolve(
    process.argv[2] ?? join(dirname(fileURLToPath(import.meta.url)), '..', '..', 'packages'),
  );
  const violations = [
    ...checkPackages(packagesDir),
    ...checkCycles(packagesDir),
    ...checkCasts(packagesDir),
    ...checkInlineDefaults(packagesDir),
    ...checkDefaultConstants(packagesDir),
  ];
  if (violations.length > 0) {
    console.error(`repo check: ${violations.length} violation(s):\n  ${violations.join('\n  ')}`);
    process.exit(1);
  }
  console.log(
    'repo check: package imports are within their allowances; defaults are named constants, one value per name',
  );
}
