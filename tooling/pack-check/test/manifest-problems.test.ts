// The packed package.json rules of tooling/pack-check (issue 30, item 4), on hand-made manifests: fast,
// no packing. pack-check.test.ts applies them to the real tarballs.
import { describe, expect, it } from 'vitest';
// @ts-expect-error plain .mjs tooling script without type declarations
import { entrySpecifiers, manifestProblems } from '../packages.mjs';

const clean = {
  name: '@x/demo',
  version: '0.0.0',
  license: 'MIT',
  type: 'module',
  keywords: ['mcp'],
  homepage: 'https://github.com/x-mcp/x-mcp/tree/main/packages/demo#readme',
  bugs: { url: 'https://github.com/x-mcp/x-mcp/issues' },
  repository: { type: 'git', url: 'git+https://github.com/x-mcp/x-mcp.git', directory: 'packages/demo' },
  files: ['dist', 'README.md', 'CHANGELOG.md', 'LICENSE'],
  exports: {
    '.': { types: './dist/index.d.ts', default: './dist/index.js' },
    './package.json': './package.json',
  },
};
const files = ['package.json', 'README.md', 'LICENSE', 'dist/index.js', 'dist/index.d.ts'];

describe('manifestProblems', () => {
  it('a clean manifest has none', () => {
    expect(manifestProblems(clean, 'demo', files)).toEqual([]);
  });

  it('finds the source-only condition, dev dependencies and workspace ranges', () => {
    const packed = {
      ...clean,
      exports: {
        '.': { '@x/source': './src/index.ts', types: './dist/index.d.ts', default: './dist/index.js' },
      },
      devDependencies: { '@x/test-kit': '0.0.0' },
      dependencies: { '@x/protocol': 'workspace:^' },
    };
    const problems = manifestProblems(packed, 'demo', files);
    expect(problems).toContain('@x/demo: the packed package.json keeps the @x/source condition');
    expect(problems).toContain('@x/demo: the packed package.json has devDependencies');
    expect(problems).toContain('@x/demo: the packed package.json keeps a workspace: range');
    expect(problems).toContain('@x/demo: exports names ./src/index.ts, not in the tarball');
  });

  it('finds missing metadata, LICENSE, CHANGELOG in files, and an unbuilt tarball', () => {
    const { repository: _r, homepage: _h, bugs: _b, keywords: _k, ...bare } = clean;
    const problems = manifestProblems({ ...bare, files: ['dist'] }, 'demo', ['package.json', 'README.md']);
    expect(problems).toEqual(
      expect.arrayContaining([
        expect.stringMatching(/repository must be/),
        expect.stringMatching(/homepage must be/),
        expect.stringMatching(/bugs\.url must be/),
        '@x/demo: keywords must include "mcp"',
        '@x/demo: "files" must list CHANGELOG.md',
        '@x/demo: "files" must list LICENSE',
        '@x/demo: the tarball has no LICENSE',
        '@x/demo: the tarball has no dist/*.js (was it built?)',
      ]),
    );
  });
});

describe('entrySpecifiers', () => {
  it('names every export subpath as an import specifier', () => {
    const manifest = {
      exports: { '.': './dist/index.js', './node': './dist/node.js', './package.json': './package.json' },
    };
    expect(entrySpecifiers({ name: '@x/demo', manifest })).toEqual(['@x/demo', '@x/demo/node']);
  });
});
