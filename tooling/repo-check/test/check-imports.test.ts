import { mkdirSync, mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterEach, describe, expect, it } from 'vitest';
// @ts-expect-error plain .mjs tooling script without type declarations
import { ALLOWANCES } from '../allowances.mjs';
// @ts-expect-error plain .mjs tooling script without type declarations
import { checkCasts, checkCycles, checkPackages, findCycles, importsOf } from '../check-imports.mjs';

const allowances = {
  '@x/protocol': { deps: ['zod'], node: false },
  '@x/transport-stdio': { deps: ['@x/protocol'], node: true },
};

let root: string;
afterEach(() => rmSync(root, { recursive: true, force: true }));

function pkg(folder: string, manifest: object, files: Record<string, string>): void {
  mkdirSync(join(root, folder, 'src'), { recursive: true });
  writeFileSync(join(root, folder, 'package.json'), JSON.stringify(manifest));
  for (const [name, text] of Object.entries(files)) writeFileSync(join(root, folder, 'src', name), text);
}

function tree(
  protocolSrc: string,
  stdioSrc: string,
  stdioDeps: object = { '@x/protocol': 'workspace:^' },
): string[] {
  root = mkdtempSync(join(tmpdir(), 'repo-check-'));
  pkg(
    'protocol',
    { name: '@x/protocol', exports: { '.': './dist/index.js', './testing': './dist/t.js' } },
    {
      'index.ts': protocolSrc,
    },
  );
  pkg('transport-stdio', { name: '@x/transport-stdio', dependencies: stdioDeps }, { 'index.ts': stdioSrc });
  return checkPackages(root, allowances) as string[];
}

describe('repo check', () => {
  it('passes a tree that stays within its allowances', () => {
    expect(
      tree(
        "import { z } from 'zod';\nexport type { X } from './x.js';",
        "import { spawn } from 'node:child_process';\nimport { McpError } from '@x/protocol';\nimport { runTransportContract } from '@x/protocol/testing';",
      ),
    ).toEqual([]);
  });

  it('refuses node: modules in runtime-neutral packages', () => {
    const violations = tree("import { readFileSync } from 'node:fs';", '');
    expect(violations).toHaveLength(1);
    expect(violations[0]).toMatch(/must import no node: module/);
  });

  it('refuses bare built-in names, deep imports, foreign packages and escaping relative paths', () => {
    const violations = tree(
      "const m = await import('fs');",
      [
        "import { x } from '@x/protocol/src/engine/protocol.js';",
        "import express from 'express';",
        "import { y } from '../../protocol/src/index.js';",
        "import { z } from 'os';",
      ].join('\n'),
    );
    expect(violations.some((v) => /"fs".*must import no node/.test(v))).toBe(true);
    expect(violations.some((v) => /deep import "@x\/protocol\/src/.test(v))).toBe(true);
    expect(violations.some((v) => /"express", outside the allowance/.test(v))).toBe(true);
    expect(violations.some((v) => /leaves the package/.test(v))).toBe(true);
    expect(violations.some((v) => /as "node:os"/.test(v))).toBe(true);
    expect(violations).toHaveLength(5);
  });

  it('refuses runtime dependencies outside the allowance', () => {
    const violations = tree('', '', { '@x/protocol': 'workspace:^', lodash: '^4' });
    expect(violations).toEqual([expect.stringMatching(/runtime dependency "lodash"/)]);
  });

  it('ignores imports inside comments and finds every import form', () => {
    expect(importsOf("// import 'a'\n/* import 'b' */\nexport * from './c.js';\nimport d from 'd';")).toEqual(
      ['d', './c.js'],
    );
  });

  it('lets only the nodeDirs of a runtime-neutral package import node: modules, and keeps the root off them', () => {
    root = mkdtempSync(join(tmpdir(), 'repo-check-'));
    const files: Record<string, string> = {
      'index.ts': "export { bearerAuth } from './bearer-auth.js';",
      'bearer-auth.ts':
        "import { createHash } from 'node:crypto';\nimport { x } from './node/file-store.js';",
      'node/index.ts':
        "import { bearerAuth } from '../index.js';\nexport { FileStore } from './file-store.js';",
      'node/file-store.ts':
        "import { writeFile } from 'node:fs/promises';\nimport { join } from 'node:path';",
      'nodeish.ts': "import { readFile } from 'node:fs';",
    };
    mkdirSync(join(root, 'auth', 'src', 'node'), { recursive: true });
    writeFileSync(join(root, 'auth', 'package.json'), JSON.stringify({ name: '@x/auth' }));
    for (const [name, text] of Object.entries(files)) writeFileSync(join(root, 'auth', 'src', name), text);
    const violations = checkPackages(root, {
      '@x/auth': { deps: [], node: false, nodeDirs: ['node'] },
    }) as string[];
    expect(violations).toHaveLength(3);
    expect(violations).toEqual(
      expect.arrayContaining([
        expect.stringMatching(
          /bearer-auth\.ts: imports "node:crypto", but @x\/auth must import no node: module/,
        ),
        expect.stringMatching(
          /bearer-auth\.ts: imports the Node-only "\.\/node\/file-store\.js"; only files under src\/node\//,
        ),
        expect.stringMatching(/nodeish\.ts: imports "node:fs"/),
      ]),
    );
  });

  it('refuses the specifiers an allowance refuses, naming the reason (the client never imports the root of @x/protocol)', () => {
    root = mkdtempSync(join(tmpdir(), 'repo-check-'));
    mkdirSync(join(root, 'client', 'src'), { recursive: true });
    writeFileSync(join(root, 'client', 'package.json'), JSON.stringify({ name: '@x/client' }));
    writeFileSync(
      join(root, 'client', 'src', 'index.ts'),
      "import { McpError } from '@x/protocol';\nimport { isThenable } from '@x/protocol/internal';",
    );
    const violations = checkPackages(root, {
      '@x/client': {
        deps: ['@x/protocol'],
        node: false,
        refused: { '@x/protocol': 'import @x/protocol/core' },
      },
    }) as string[];
    expect(violations).toEqual([
      expect.stringMatching(/index\.ts: imports "@x\/protocol": import @x\/protocol\/core$/),
    ]);
  });

  it('lets @x/bridge compose the client and the server, and refuses it any transport, ./internal and node:', () => {
    root = mkdtempSync(join(tmpdir(), 'repo-check-'));
    const bridge = (source: string, dependencies: object = {}): string[] => {
      rmSync(join(root, 'bridge'), { recursive: true, force: true });
      pkg('bridge', { name: '@x/bridge', dependencies }, { 'index.ts': source });
      return checkPackages(root, { '@x/bridge': ALLOWANCES['@x/bridge'] }) as string[];
    };
    expect(
      bridge(
        "import { Client } from '@x/client';\nimport { Server } from '@x/server';\nimport { McpError } from '@x/protocol/core';",
        { '@x/client': 'workspace:^', '@x/server': 'workspace:^', '@x/protocol': 'workspace:^' },
      ),
    ).toEqual([]);
    expect(bridge("import { StdioClientTransport } from '@x/transport-stdio';")).toEqual([
      expect.stringMatching(/imports "@x\/transport-stdio", outside the allowance of @x\/bridge/),
    ]);
    expect(bridge('', { '@x/transport-streamable-http': 'workspace:^' })).toEqual([
      expect.stringMatching(/runtime dependency "@x\/transport-streamable-http" is outside the allowance/),
    ]);
    expect(bridge("import { isThenable } from '@x/protocol/internal';")).toEqual([
      expect.stringMatching(/imports "@x\/protocol\/internal": it is for @x\/client and @x\/server only/),
    ]);
    expect(bridge("import { spawn } from 'node:child_process';")).toEqual([
      expect.stringMatching(/@x\/bridge must import no node: module/),
    ]);
  });

  it('refuses @x/protocol/internal in every transport package, naming @x/protocol/transport as the way', () => {
    root = mkdtempSync(join(tmpdir(), 'repo-check-'));
    const transports = Object.keys(ALLOWANCES).filter((name) => name.startsWith('@x/transport-'));
    expect(transports.length).toBeGreaterThanOrEqual(4);
    const protocolExports = { '.': '', './core': '', './internal': '', './transport': '', './http': '' };
    mkdirSync(join(root, 'protocol', 'src'), { recursive: true });
    writeFileSync(
      join(root, 'protocol', 'package.json'),
      JSON.stringify({ name: '@x/protocol', exports: protocolExports }),
    );
    const allowances: Record<string, unknown> = { '@x/protocol': ALLOWANCES['@x/protocol'] };
    for (const name of transports) {
      const folder = name.slice('@x/'.length);
      mkdirSync(join(root, folder, 'src'), { recursive: true });
      writeFileSync(join(root, folder, 'package.json'), JSON.stringify({ name }));
      writeFileSync(
        join(root, folder, 'src', 'index.ts'),
        [
          "import { deliverMessage } from '@x/protocol/internal';",
          "import { InFlightSet } from '@x/protocol/transport';",
          "import type { Transport } from '@x/protocol/core';",
        ].join('\n'),
      );
      allowances[name] = ALLOWANCES[name];
    }
    const violations = checkPackages(root, allowances) as string[];
    expect(violations).toHaveLength(transports.length);
    for (const violation of violations) {
      expect(violation).toMatch(
        /src\/index\.ts: imports "@x\/protocol\/internal": .*not covered by semver.*'@x\/protocol\/transport'/,
      );
    }
  });

  it('lets only src/node/ of @x/protocol import node: modules; the root and ./http never reach it', () => {
    root = mkdtempSync(join(tmpdir(), 'repo-check-'));
    const files: Record<string, string> = {
      'index.ts': "export { x } from './http/index.js';",
      'http/index.ts': "export { NodeIncoming } from '../node/node-incoming.js';",
      'http/leak.ts': "import { Buffer } from 'node:buffer';",
      'node/index.ts':
        "export { NodeIncoming } from './node-incoming.js';\nimport { x } from '../http/index.js';",
      'node/node-incoming.ts':
        "import { Readable } from 'node:stream';\nimport type { IncomingMessage } from 'node:http';",
    };
    mkdirSync(join(root, 'protocol', 'src', 'node'), { recursive: true });
    mkdirSync(join(root, 'protocol', 'src', 'http'), { recursive: true });
    writeFileSync(
      join(root, 'protocol', 'package.json'),
      JSON.stringify({ name: '@x/protocol', dependencies: { zod: '^4' } }),
    );
    for (const [name, text] of Object.entries(files))
      writeFileSync(join(root, 'protocol', 'src', name), text);
    const violations = checkPackages(root, { '@x/protocol': ALLOWANCES['@x/protocol'] }) as string[];
    expect(violations).toEqual([
      expect.stringMatching(/http\/index\.ts: imports the Node-only "\.\.\/node\/node-incoming\.js"/),
      expect.stringMatching(
        /http\/leak\.ts: imports "node:buffer", but @x\/protocol must import no node: module/,
      ),
    ]);
  });

  it('reports each import cycle with its files, type-only imports included, and tolerates only listed ones', () => {
    root = mkdtempSync(join(tmpdir(), 'repo-check-'));
    const files: Record<string, string> = {
      'index.ts': "export { A } from './a.js';",
      'a.ts': "import type { B } from './b.js';\nexport class A {}",
      'b.ts': "import { c } from './sub/c.js';\nexport interface B {}",
      'sub/c.ts': "import type { A } from '../a.js';\nexport const c = 1;",
      'sub/index.ts': "export { d } from './d.js';",
      'sub/d.ts': "import { e } from './index.js';\nexport const d = 1;",
      'leaf.ts': "import { A } from './a.js';\nimport { d } from './sub';",
      'a.test.ts': "import { leaf } from './leaf.js';",
    };
    mkdirSync(join(root, 'pkg', 'src', 'sub'), { recursive: true });
    writeFileSync(join(root, 'pkg', 'package.json'), JSON.stringify({ name: '@x/pkg' }));
    for (const [name, text] of Object.entries(files)) writeFileSync(join(root, 'pkg', 'src', name), text);
    const cycles = (findCycles(join(root, 'pkg', 'src')) as string[][]).map((c) => c.join(' ')).sort();
    expect(cycles).toEqual(['a.ts b.ts sub/c.ts', 'sub/d.ts sub/index.ts']);
    const violations = checkCycles(root, {}) as string[];
    expect(violations).toHaveLength(2);
    expect(violations).toEqual(
      expect.arrayContaining([
        '@x/pkg: import cycle over 3 file(s) in src/ (type-only imports count): a.ts → b.ts → sub/c.ts',
      ]),
    );
    expect(checkCycles(root, { '@x/pkg': [['sub/index.ts', 'sub/d.ts']] })).toEqual([
      expect.stringMatching(/a\.ts → b\.ts → sub\/c\.ts/),
    ]);
  });

  it('finds no cycle in the real packages beyond the listed allowance', () => {
    expect(checkCycles(join(import.meta.dirname, '..', '..', '..', 'packages'))).toEqual([]);
  });

  it('refuses `as unknown as Response` in src/, naming LazyResponse as the way, and ignores it in comments', () => {
    tree('', '');
    writeFileSync(
      join(root, 'transport-stdio', 'src', 'reply.ts'),
      'export const r = {} as unknown as Response;\n// a comment may say: x as unknown as Response\n',
    );
    writeFileSync(
      join(root, 'protocol', 'src', 'ok.ts'),
      '/* as unknown as Response */\nexport const n = 1;\n',
    );
    const violations = checkCasts(root) as string[];
    expect(violations).toHaveLength(1);
    expect(violations[0]).toMatch(/transport-stdio\/src\/reply\.ts: refused cast `as unknown as Response`/);
    expect(violations[0]).toMatch(/LazyResponse/);
  });

  it('finds no refused cast in the real packages', () => {
    expect(checkCasts(join(import.meta.dirname, '..', '..', '..', 'packages'))).toEqual([]);
  });
});
