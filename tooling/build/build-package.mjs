#!/usr/bin/env node
// Builds the package in the current directory:
//   dist/<entry>.js  one ES module per `exports` entry, bundled by rolldown (code shared by several
//                    entries goes to dist/chunks/, so classes stay one instance across entries);
//                    dependencies (every bare import) stay imports;
//   dist/**/*.d.ts   declarations per source file, by tsc.
// Why bundle: every ES module Node loads costs memory and start-up time (measured in apps/bench:
// about 45 KiB of RSS per module file); a package of 80 small modules loads as a few.
import { execFileSync } from 'node:child_process';
import { existsSync, readFileSync, rmSync } from 'node:fs';
import { createRequire } from 'node:module';
import { join, resolve } from 'node:path';
import { build } from 'rolldown';

const root = process.cwd();
const manifest = JSON.parse(readFileSync(join(root, 'package.json'), 'utf8'));

/** Every built file `exports` names, with its source: { 'http/index': '<root>/src/http/index.ts' }. */
function entries() {
  const input = {};
  const visit = (target) => {
    if (typeof target === 'string') {
      const match = /^\.\/dist\/(.+)\.js$/.exec(target);
      if (match === null) return;
      const source = resolve(root, 'src', `${match[1]}.ts`);
      if (!existsSync(source)) throw new Error(`${manifest.name}: ${target} has no source ${source}`);
      input[match[1]] = source;
    } else if (typeof target === 'object' && target !== null) {
      for (const [condition, value] of Object.entries(target)) {
        if (condition !== 'types' && condition !== '@x/source') visit(value);
      }
    }
  };
  visit(manifest.exports);
  if (Object.keys(input).length === 0) throw new Error(`${manifest.name}: no exports to build`);
  return input;
}

/** Whether the module `id` (a source file of this package) imports zod. */
function importsZod(id) {
  if (!id.startsWith(join(root, 'src')) || !/\.ts$/.test(id)) return false;
  return /^import\s+(?!type\s)[^;]*\sfrom\s+'zod(?:\/[^']*)?';/m.test(readFileSync(id, 'utf8'));
}

rmSync(join(root, 'dist'), { recursive: true, force: true });

await build({
  input: entries(),
  platform: 'neutral',
  // Every bare specifier (dependencies, `node:` built-ins, sibling packages) stays an import.
  external: (id) => !id.startsWith('.') && !id.startsWith('/') && !id.startsWith('\0'),
  resolve: { extensionAlias: { '.js': ['.ts', '.js'] } },
  transform: { target: 'es2022' },
  tsconfig: false,
  treeshake: true,
  // Entries may export more than their source does (rolldown shares code through them): needed by
  // `includeDependenciesRecursively: false` below.
  preserveEntrySignatures: 'allow-extension',
  output: {
    dir: join(root, 'dist'),
    format: 'esm',
    entryFileNames: '[name].js',
    chunkFileNames: 'chunks/[name]-[hash].js',
    // Every module that imports zod goes to one chunk of its own, with nothing else in it: a browser
    // bundler splits by file, so a zod-free helper sharing a file with schemas would pull zod into
    // the first download of an app that loads the schemas only on demand (`@x/protocol`'s deferred
    // schemas, issue 30). apps/bench's bundle-size test holds it.
    codeSplitting: {
      includeDependenciesRecursively: false,
      groups: [{ name: 'zod-schemas', test: importsZod }],
    },
    comments: { legal: true, annotation: true, jsdoc: false },
    // One character above U+00FF makes V8 hold the whole module source as UTF-16 (twice the bytes,
    // for as long as the module lives): escape them.
    charset: 'ascii',
  },
  logLevel: 'warn',
});

const tsc = createRequire(join(root, 'package.json')).resolve('typescript/bin/tsc');
execFileSync(process.execPath, [tsc, '-p', 'tsconfig.build.json', '--emitDeclarationOnly'], {
  cwd: root,
  stdio: 'inherit',
});
