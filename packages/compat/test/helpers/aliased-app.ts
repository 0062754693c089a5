import {
  mkdtempSync,
  mkdirSync,
  readFileSync,
  realpathSync,
  rmSync,
  symlinkSync,
  writeFileSync,
} from 'node:fs';
import { tmpdir } from 'node:os';
import { dirname, join, posix } from 'node:path';
import { fileURLToPath } from 'node:url';

const compatDir = realpathSync(join(dirname(fileURLToPath(import.meta.url)), '..', '..'));
/** The real official SDK 1.32.2 (a devDependency under its own name): its shipped examples. */
export const OFFICIAL_EXAMPLES = join(
  realpathSync(join(compatDir, 'node_modules', '@modelcontextprotocol', 'sdk')),
  'dist',
  'esm',
  'examples',
);

/**
 * A throwaway application folder whose `@modelcontextprotocol/sdk` (and 2.x's `/server`, `/client`,
 * `/node`) is `@x/compat`, the way a package manager lays out `"@modelcontextprotocol/sdk": "npm:@x/compat@…"`: a node_modules entry under the
 * official name pointing at this package (built: Node loads `dist/`). `zod` is the application's own.
 */
export interface AliasedApp extends Disposable {
  readonly dir: string;
  /** Copies an official example in (and the sibling examples it imports); returns its path in the app. */
  addOfficialExample(relativePath: string): string;
  /** Copies a file of this package's `test/fixtures` in as it is; returns its path in the app. */
  addFixture(name: string): string;
}

/**
 * Builds the app folder. An official example is copied byte for byte except its import specifiers of
 * the SDK's own modules: inside the SDK's package they are relative (`'../../server/mcp.js'`); in an
 * application they are `'@modelcontextprotocol/sdk/server/mcp.js'`. An import of a sibling example
 * (`'../shared/inMemoryEventStore.js'` from `server/…`) is copied in the same way, beside it under its
 * flattened name (`shared-inMemoryEventStore.js`), and the specifier points there
 * (`'./shared-inMemoryEventStore.js'`). Nothing else changes (asserted).
 */
export function aliasedApp(): AliasedApp {
  const dir = mkdtempSync(join(tmpdir(), 'x-compat-app-'));
  writeFileSync(
    join(dir, 'package.json'),
    JSON.stringify({
      name: 'aliased-app',
      private: true,
      type: 'module',
      dependencies: {
        '@modelcontextprotocol/sdk': 'npm:@x/compat@0.0.0',
        '@modelcontextprotocol/server': 'npm:@x/compat@0.0.0',
        '@modelcontextprotocol/client': 'npm:@x/compat@0.0.0',
        '@modelcontextprotocol/node': 'npm:@x/compat@0.0.0',
        zod: '^4.0.0',
      },
    }),
  );
  mkdirSync(join(dir, 'node_modules', '@modelcontextprotocol'), { recursive: true });
  // 1.x's one package and 2.x's three all point at @x/compat (2.x's names are its main entry and `./stdio`).
  for (const name of ['sdk', 'server', 'client', 'node']) {
    symlinkSync(compatDir, join(dir, 'node_modules', '@modelcontextprotocol', name), 'dir');
  }
  symlinkSync(realpathSync(join(compatDir, 'node_modules', 'zod')), join(dir, 'node_modules', 'zod'), 'dir');
  // The examples' own third-party imports (Hono, cors), from the official SDK's dependencies.
  const officialDeps = join(
    realpathSync(join(compatDir, 'node_modules', '@modelcontextprotocol', 'sdk')),
    '..',
    '..',
  );
  mkdirSync(join(dir, 'node_modules', '@hono'));
  for (const name of ['hono', '@hono/node-server', 'cors'])
    symlinkSync(realpathSync(join(officialDeps, name)), join(dir, 'node_modules', name), 'dir');
  const flat = (relativePath: string) => relativePath.replaceAll('/', '-');
  const addOfficialExample = (relativePath: string): string => {
    const source = readFileSync(join(OFFICIAL_EXAMPLES, relativePath), 'utf8');
    const siblings: string[] = [];
    const rewritten = source
      .replace(/from '\.\.\/\.\.\/([^']+)'/g, "from '@modelcontextprotocol/sdk/$1'")
      .replace(/from '(\.\.?\/[^']+)'/g, (_, specifier: string) => {
        const sibling = posix.normalize(posix.join(posix.dirname(relativePath), specifier));
        if (sibling.startsWith('../'))
          throw new Error(`${relativePath} imports ${specifier}, outside the examples`);
        siblings.push(sibling);
        return `from './${flat(sibling)}'`;
      });
    const untouched = (text: string) => text.replace(/^import .*$/gm, '');
    if (untouched(rewritten) !== untouched(source))
      throw new Error(`${relativePath}: more than imports changed`);
    const target = join(dir, flat(relativePath));
    writeFileSync(target, rewritten);
    for (const sibling of siblings) addOfficialExample(sibling);
    return target;
  };
  return {
    dir,
    addOfficialExample(relativePath) {
      return addOfficialExample(relativePath);
    },
    addFixture(name) {
      const target = join(dir, name);
      writeFileSync(target, readFileSync(join(compatDir, 'test', 'fixtures', name)));
      return target;
    },
    [Symbol.dispose]() {
      rmSync(dir, { recursive: true, force: true });
    },
  };
}
