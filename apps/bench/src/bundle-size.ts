import { mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join, relative } from 'node:path';
import { fileURLToPath } from 'node:url';
import { gzipSync } from 'node:zlib';
import { build, type Metafile } from 'esbuild';

/** A client transport a browser app can use. */
export type BrowserTransport = 'streamable-http' | 'sse' | 'websocket';

/** Whose client a bundle holds. */
export type BundleSdk = 'x-mcp' | 'v2' | 'v1';

/**
 * One bundle of the small browser app, built with code splitting as a web app's build does: what the
 * page downloads before the app runs (the entry chunk and the chunks it imports statically) and what
 * it fetches only on demand (`import()`ed chunks: the zod schemas a client loads when a server sends
 * something its checks refuse, the JSON Schema validator on the first tool with an output schema).
 */
export interface BundleSize {
  sdk: BundleSdk;
  transport: BrowserTransport;
  /** The package versions bundled, e.g. `@modelcontextprotocol/client 2.4.0`. */
  packages: string;
  /** Minified bytes of the first download (entry chunk + static imports). */
  minBytes: number;
  /** The same chunks gzip-compressed (level 9), each on its own as a server sends them, summed. */
  gzipBytes: number;
  /** Minified bytes of the chunks loaded only on demand. */
  lazyMinBytes: number;
  /** Their gzip bytes, summed. */
  lazyGzipBytes: number;
  /** esbuild's metafile of the minified bundle (what each input contributed). */
  metafile: Metafile;
  /** The output paths (metafile keys) of the first download. */
  initialOutputs: string[];
}

const APP_DIR = fileURLToPath(new URL('..', import.meta.url));

// The same small app for every SDK: connect, list the tools, call the first one, print the result.
const app = (imports: string, transport: string): string => `${imports}
const client = new Client({ name: 'web', version: '1.0.0' });
await client.connect(${transport});
const { tools } = await client.listTools();
const result = await client.callTool({ name: tools[0].name, arguments: {} });
console.log(result);
`;

const URL_EXPR = "new URL('/mcp', location.href)";

/**
 * The app per SDK and transport. The official SDK v2 client (`@modelcontextprotocol/client`) has no
 * WebSocket client transport; v1 (`@modelcontextprotocol/sdk`) does, so WebSocket is compared with v1.
 */
export const BUNDLE_APPS: ReadonlyArray<{
  sdk: BundleSdk;
  transport: BrowserTransport;
  packages: string[];
  source: string;
}> = [
  {
    sdk: 'x-mcp',
    transport: 'streamable-http',
    packages: ['@x/client', '@x/transport-streamable-http'],
    source: app(
      "import { Client } from '@x/client';\nimport { StreamableHttpClientTransport } from '@x/transport-streamable-http';",
      `new StreamableHttpClientTransport(${URL_EXPR})`,
    ),
  },
  {
    sdk: 'x-mcp',
    transport: 'sse',
    packages: ['@x/client', '@x/transport-sse'],
    source: app(
      "import { Client } from '@x/client';\nimport { SseClientTransport } from '@x/transport-sse';",
      `new SseClientTransport(${URL_EXPR})`,
    ),
  },
  {
    sdk: 'x-mcp',
    transport: 'websocket',
    packages: ['@x/client', '@x/transport-ws'],
    source: app(
      "import { Client } from '@x/client';\nimport { WebSocketClientTransport } from '@x/transport-ws';",
      `new WebSocketClientTransport(new URL('/mcp', location.href.replace(/^http/, 'ws')))`,
    ),
  },
  {
    sdk: 'v2',
    transport: 'streamable-http',
    packages: ['@modelcontextprotocol/client'],
    source: app(
      "import { Client, StreamableHTTPClientTransport } from '@modelcontextprotocol/client';",
      `new StreamableHTTPClientTransport(${URL_EXPR})`,
    ),
  },
  {
    sdk: 'v2',
    transport: 'sse',
    packages: ['@modelcontextprotocol/client'],
    source: app(
      "import { Client, SSEClientTransport } from '@modelcontextprotocol/client';",
      `new SSEClientTransport(${URL_EXPR})`,
    ),
  },
  {
    sdk: 'v1',
    transport: 'websocket',
    packages: ['@modelcontextprotocol/sdk'],
    source: app(
      "import { Client } from '@modelcontextprotocol/sdk/client/index.js';\nimport { WebSocketClientTransport } from '@modelcontextprotocol/sdk/client/websocket.js';",
      `new WebSocketClientTransport(new URL('/mcp', location.href.replace(/^http/, 'ws')))`,
    ),
  },
];

/** Options of {@link measureBundleSizes}. */
export interface BundleSizeOptions {
  /** Extra resolve conditions, e.g. `['@x/source']` to bundle the workspace sources instead of `dist/`. */
  conditions?: string[] | undefined;
  /** Only these SDKs. Default: all. */
  sdks?: readonly BundleSdk[] | undefined;
  /** Only these transports. Default: all. */
  transports?: readonly BrowserTransport[] | undefined;
}

/**
 * Bundles the small browser app for every SDK and transport the way a web app's build would
 * (`esbuild --bundle --platform=browser --minify`, ES2022, one ESM file) and measures it.
 *
 * @example
 * ```ts
 * for (const size of await measureBundleSizes()) console.log(size.sdk, size.transport, size.gzipBytes);
 * ```
 */
export async function measureBundleSizes(options: BundleSizeOptions = {}): Promise<BundleSize[]> {
  const dir = mkdtempSync(join(tmpdir(), 'x-mcp-bundle-size-'));
  try {
    const sizes: BundleSize[] = [];
    for (const entry of BUNDLE_APPS) {
      if (options.sdks !== undefined && !options.sdks.includes(entry.sdk)) continue;
      if (options.transports !== undefined && !options.transports.includes(entry.transport)) continue;
      const file = join(dir, `${entry.sdk}-${entry.transport}.js`);
      writeFileSync(file, entry.source);
      const outdir = join(dir, `${entry.sdk}-${entry.transport}`);
      const result = await build({
        entryPoints: [file],
        bundle: true,
        splitting: true,
        outdir,
        platform: 'browser',
        format: 'esm',
        target: 'es2022',
        minify: true,
        write: false,
        metafile: true,
        logLevel: 'silent',
        conditions: options.conditions ?? [],
        // The app lives in a temp folder: resolve packages from this app, as a project depending on them.
        nodePaths: [join(APP_DIR, 'node_modules')],
      });
      const bytesOf = new Map<string, Uint8Array>();
      for (const output of result.outputFiles)
        bytesOf.set(relative(process.cwd(), output.path), output.contents);
      const initial = initialOutputs(result.metafile);
      let minBytes = 0;
      let gzipBytes = 0;
      let lazyMinBytes = 0;
      let lazyGzipBytes = 0;
      for (const [path, bytes] of bytesOf) {
        if (!path.endsWith('.js')) continue;
        const gzip = gzipSync(bytes, { level: 9 }).length;
        if (initial.includes(path)) {
          minBytes += bytes.length;
          gzipBytes += gzip;
        } else {
          lazyMinBytes += bytes.length;
          lazyGzipBytes += gzip;
        }
      }
      sizes.push({
        sdk: entry.sdk,
        transport: entry.transport,
        packages: entry.packages.map((name) => `${name} ${versionOf(name)}`).join(', '),
        minBytes,
        gzipBytes,
        lazyMinBytes,
        lazyGzipBytes,
        metafile: result.metafile,
        initialOutputs: initial,
      });
    }
    return sizes;
  } finally {
    rmSync(dir, { recursive: true, force: true });
  }
}

/** The entry chunk and every chunk it reaches through static imports (metafile output paths). */
function initialOutputs(metafile: Metafile): string[] {
  const outputs = metafile.outputs;
  const entry = Object.keys(outputs).find((path) => outputs[path]!.entryPoint !== undefined);
  if (entry === undefined) throw new Error('the bundle has no entry chunk');
  const seen = [entry];
  for (let i = 0; i < seen.length; i++) {
    for (const imported of outputs[seen[i]!]!.imports) {
      if (imported.kind === 'import-statement' && !imported.external && !seen.includes(imported.path)) {
        seen.push(imported.path);
      }
    }
  }
  return seen;
}

/** The version of a dependency of this app (its `node_modules` entry). */
function versionOf(name: string): string {
  const manifest = join(APP_DIR, 'node_modules', name, 'package.json');
  return (JSON.parse(readFileSync(manifest, 'utf8')) as { version: string }).version;
}

/** Bytes per package (or per workspace package) in a bundle, largest first. */
export function bytesByPackage(
  metafile: Metafile,
  outputs: readonly string[] = Object.keys(metafile.outputs),
): Array<{ name: string; bytes: number }> {
  const totals = new Map<string, number>();
  for (const path of outputs) {
    const output = metafile.outputs[path]!;
    for (const [input, { bytesInOutput }] of Object.entries(output.inputs)) {
      const name = packageOf(input);
      totals.set(name, (totals.get(name) ?? 0) + bytesInOutput);
    }
  }
  return [...totals].map(([name, bytes]) => ({ name, bytes })).sort((a, b) => b.bytes - a.bytes);
}

function packageOf(input: string): string {
  const inWorkspace = /(?:^|\/)packages\/([^/]+)\//.exec(input);
  if (inWorkspace !== null) return `@x/${inWorkspace[1]}`;
  const modules = input.split('node_modules/');
  const last = modules[modules.length - 1]!.split('/');
  return last[0]!.startsWith('@') ? `${last[0]}/${last[1]}` : last[0]!;
}

/**
 * The markdown table of {@link measureBundleSizes}' results: each x-mcp bundle next to the official one
 * (first download, then what loads on demand).
 */
export function bundleSizeTable(sizes: readonly BundleSize[]): string {
  const kb = (bytes: number): string => `${(bytes / 1024).toFixed(1)}`;
  const pct = (ours: number, theirs: number): string => `${((ours / theirs) * 100).toFixed(0)}%`;
  const lines = [
    '| transport | x-mcp first download (min / gzip KiB) | on demand (min / gzip KiB) | official | official first download (min / gzip KiB) | on demand | x-mcp / official (min / gzip) |',
    '| --- | ---: | ---: | --- | ---: | ---: | ---: |',
  ];
  for (const ours of sizes.filter((size) => size.sdk === 'x-mcp')) {
    const theirs = sizes.find((size) => size.sdk !== 'x-mcp' && size.transport === ours.transport);
    const cells = [
      ours.transport,
      `${kb(ours.minBytes)} / ${kb(ours.gzipBytes)}`,
      `${kb(ours.lazyMinBytes)} / ${kb(ours.lazyGzipBytes)}`,
      theirs?.packages ?? '—',
      theirs === undefined ? '—' : `${kb(theirs.minBytes)} / ${kb(theirs.gzipBytes)}`,
      theirs === undefined ? '—' : `${kb(theirs.lazyMinBytes)} / ${kb(theirs.lazyGzipBytes)}`,
      theirs === undefined
        ? '—'
        : `${pct(ours.minBytes, theirs.minBytes)} / ${pct(ours.gzipBytes, theirs.gzipBytes)}`,
    ];
    lines.push(`| ${cells.join(' | ')} |`);
  }
  return lines.join('\n');
}
