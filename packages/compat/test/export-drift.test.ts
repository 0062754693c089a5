// Drift between @x/compat and the official SDK it stands in for: for every path this package provides,
// the names the installed official 1.x SDK exports there (values and types, read from its `.d.ts` by the
// TypeScript compiler) must be exported by this package's entry too, or be listed below as not provided
// (and so in the README). A name the official SDK gains fails the test with the list of what is missing.
import { readFileSync, realpathSync } from 'node:fs';
import { dirname, join } from 'node:path';
import { fileURLToPath } from 'node:url';
import ts from 'typescript';
import { describe, expect, it } from 'vitest';
import { V2_NOT_PROVIDED } from './helpers/v2-not-provided.js';

const compatDir = join(dirname(fileURLToPath(import.meta.url)), '..');
const officialDir = realpathSync(join(compatDir, 'node_modules', '@modelcontextprotocol', 'sdk'));
const compatExports = JSON.parse(readFileSync(join(compatDir, 'package.json'), 'utf8')).exports as Record<
  string,
  { '@x/source'?: string }
>;

/** Of the official tasks entry: the client/server task APIs, the response-stream helpers, the re-exported wire schemas. */
const TASKS_NOT_PROVIDED: readonly string[] = [
  'BaseResponseMessage',
  'BaseToolCallback',
  'CreateTaskRequestHandler',
  'ErrorMessage',
  'ExperimentalClientTasks',
  'ExperimentalServerTasks',
  'ResponseMessage',
  'ResultMessage',
  'TaskCreatedMessage',
  'TaskRequestHandler',
  'TaskStatusMessage',
  'TaskToolExecution',
  'assertClientRequestTaskCapability',
  'assertToolsCallTaskCapability',
  'takeResult',
  'toArrayAsync',
];

/** Names of the official entry this package does not provide (README, "Not provided"), by path. */
const NOT_PROVIDED: Record<string, readonly string[]> = {
  './client': ['getSupportedElicitationModes'],
  './client/index.js': ['getSupportedElicitationModes'],
  './types.js': [],

  './server/mcp.js': [],

  './server/completable.js': [],
  './server/streamableHttp.js': [],
  './client/streamableHttp.js': ['StartSSEOptions'],
  './client/sse.js': ['SseError'],
  './shared/transport.js': [
    'createFetchWithInit',
    'fetchLeavingRedirects',
    'fetchWithinOrigin',
    'followWithinOrigin',
    'isWithinOrigin',
    'normalizeHeaders',
    'unfollowedRedirect',
  ],
  './shared/protocol.js': [
    'NotificationOptions',
    'Protocol',
    'ProtocolOptions',
    'RequestTaskStore',
    'TaskRequestOptions',
    'mergeCapabilities',
  ],
  './experimental': TASKS_NOT_PROVIDED,
  './experimental/tasks': TASKS_NOT_PROVIDED,
  './experimental/index.js': TASKS_NOT_PROVIDED,
  './experimental/tasks/index.js': TASKS_NOT_PROVIDED,
  './experimental/tasks/interfaces.js': [
    'BaseToolCallback',
    'CreateTaskRequestHandler',
    'TaskRequestHandler',
    'TaskToolExecution',
  ],
  './experimental/tasks/stores/in-memory.js': [],
  ...V2_NOT_PROVIDED,
};

/** The official 2.x packages' `.d.mts` (dev dependencies under their own names), by entry. */
function v2Types(pkg: 'server' | 'client' | 'node', entry: 'index' | 'stdio'): string {
  const dir = realpathSync(join(compatDir, 'node_modules', '@modelcontextprotocol', pkg));
  return join(dir, 'dist', `${entry}.d.mts`);
}

/** 2.x entries: this package's `.` is the union of the three main entries, `./stdio` of the two stdio ones. */
const V2_OFFICIAL: Record<string, () => string[]> = {
  '.': () => [v2Types('server', 'index'), v2Types('client', 'index'), v2Types('node', 'index')],
  './stdio': () => [v2Types('server', 'stdio'), v2Types('client', 'stdio')],
  './v2/server': () => [v2Types('server', 'index')],
  './v2/server/stdio': () => [v2Types('server', 'stdio')],
  './v2/client': () => [v2Types('client', 'index')],
  './v2/client/stdio': () => [v2Types('client', 'stdio')],
  './v2/node': () => [v2Types('node', 'index')],
};

/** The official `.d.ts` files of a subpath (`./server/mcp.js` → 1.x `dist/esm/server/mcp.d.ts`). */
function officialTypes(subpath: string): string[] {
  const v2 = V2_OFFICIAL[subpath];
  if (v2 !== undefined) return v2();
  const bare = subpath.replace(/^\.\//, '').replace(/\.js$/, '');
  const index = ['server', 'client', 'experimental', 'experimental/tasks'].includes(bare);
  return [join(officialDir, 'dist', 'esm', index ? `${bare}/index.d.ts` : `${bare}.d.ts`)];
}

const paths = Object.entries(compatExports)
  .filter(([subpath, target]) => subpath !== './package.json' && target['@x/source'] !== undefined)
  .map(([subpath, target]) => ({
    subpath,
    official: officialTypes(subpath),
    compat: join(compatDir, target['@x/source'] as string),
  }));

/** Every name (value or type) each file exports, from one program over all of them. */
function exportedNames(files: readonly string[]): Map<string, Set<string>> {
  const program = ts.createProgram([...files], {
    module: ts.ModuleKind.NodeNext,
    moduleResolution: ts.ModuleResolutionKind.NodeNext,
    target: ts.ScriptTarget.ES2022,
    strict: true,
    noEmit: true,
    skipLibCheck: true,
    customConditions: ['@x/source'],
    types: ['node'],
  });
  const checker = program.getTypeChecker();
  const names = new Map<string, Set<string>>();
  for (const file of files) {
    const source = program.getSourceFile(file);
    const symbol = source === undefined ? undefined : checker.getSymbolAtLocation(source);
    names.set(
      file,
      new Set(symbol === undefined ? [] : checker.getExportsOfModule(symbol).map((s) => s.name)),
    );
  }
  return names;
}

describe('export drift against the installed official SDK', () => {
  const names = exportedNames(paths.flatMap((path) => [...path.official, path.compat]));
  const officialNames = (path: (typeof paths)[number]) =>
    new Set(path.official.flatMap((file) => [...(names.get(file) ?? [])]));

  it('covers every path this package provides, each with an official counterpart', () => {
    expect(paths.length).toBeGreaterThanOrEqual(27);
    for (const path of paths) {
      for (const file of path.official)
        expect(names.get(file)?.size, `${path.subpath}: ${file}`).toBeGreaterThan(0);
    }
  });

  it.each(paths)('$subpath exports every official name (or lists it as not provided)', (path) => {
    const official = officialNames(path);
    const compat = names.get(path.compat) ?? new Set<string>();
    const listed = new Set(NOT_PROVIDED[path.subpath] ?? []);
    const missing = [...official].filter((name) => !compat.has(name) && !listed.has(name)).sort();
    const stale = [...listed].filter((name) => compat.has(name) || !official.has(name)).sort();
    expect({ missing, stale }).toEqual({ missing: [], stale: [] });
  });
});
