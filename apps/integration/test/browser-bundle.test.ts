import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { builtinModules } from 'node:module';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { build, type Message } from 'esbuild';
import { afterAll, describe, expect, it } from 'vitest';

// DESIGN §1: "Every browser-facing entry point bundles with no `node:` import." Each case bundles a
// browser app the way a user's bundler would (`esbuild --bundle --platform=browser`) and fails on any
// error, including one `node:` (or bare built-in) import anywhere in the graph: esbuild cannot resolve
// those for the browser.
const here = fileURLToPath(new URL('.', import.meta.url));
const dir = mkdtempSync(join(tmpdir(), 'browser-bundle-'));
afterAll(() => rmSync(dir, { recursive: true, force: true }));

const CASES = {
  'Streamable HTTP': `
    import { Client } from '@x/client';
    import { StreamableHttpClientTransport } from '@x/transport-streamable-http';
    const client = new Client({ name: 'web', version: '1.0.0' });
    await client.connect(new StreamableHttpClientTransport(new URL('https://example.com/mcp')));
  `,
  'legacy SSE': `
    import { Client } from '@x/client';
    import { SseClientTransport } from '@x/transport-sse';
    const client = new Client({ name: 'web', version: '1.0.0' });
    await client.connect(new SseClientTransport(new URL('https://example.com/sse')));
  `,
  WebSocket: `
    import { Client } from '@x/client';
    import { WebSocketClientTransport } from '@x/transport-ws';
    const client = new Client({ name: 'web', version: '1.0.0' });
    await client.connect(new WebSocketClientTransport(new URL('wss://example.com/mcp')));
  `,
} as const;

/** Bundles `source` for the browser; the workspace packages resolve to their sources or to `dist/`. */
async function bundle(name: string, source: string, conditions: string[]) {
  const entry = join(dir, `${name.replace(/\W+/g, '-')}.ts`);
  writeFileSync(entry, source);
  const result = await build({
    entryPoints: [entry],
    bundle: true,
    platform: 'browser',
    format: 'esm',
    write: false,
    metafile: true,
    logLevel: 'silent',
    conditions,
    // The entry lives in a temp folder: resolve packages from this workspace, as an app depending on them.
    nodePaths: [join(here, '..', 'node_modules')],
  }).catch((failure: { errors?: Message[] }) => ({ errors: failure.errors ?? [], metafile: undefined }));
  const inputs = Object.keys(result.metafile?.inputs ?? {});
  // Whatever the bundle still imports at run time (esbuild leaves unresolvable externals in place).
  const externals = Object.values(result.metafile?.outputs ?? {}).flatMap((output) =>
    output.imports.filter((i) => i.external).map((i) => i.path),
  );
  return { errors: result.errors.map((error) => error.text), inputs, externals };
}

describe('browser bundles of the client transports', () => {
  const builds = [
    ['sources', ['@x/source']],
    ['dist', []],
  ] as const;
  for (const [name, source] of Object.entries(CASES)) {
    it.each(builds)(
      `@x/client + the ${name} client bundle for the browser with no node: import (%s)`,
      async (_kind, conditions) => {
        const { errors, inputs, externals } = await bundle(name, source, [...conditions]);
        expect(errors).toEqual([]);
        expect(externals).toEqual([]);
        // `(disabled):` marks a module the package's `browser` field maps to nothing (undici on Node only).
        const shipped = inputs.filter((input) => !input.startsWith('(disabled):'));
        expect(
          shipped.filter((input) => input.startsWith('node:') || /[/\\]undici[/\\]/.test(input)),
        ).toEqual([]);
        // No Node built-in under its bare name either (`events`, `buffer`, …), nor a polyfill package.
        const builtins = new Set(builtinModules);
        expect(
          shipped.filter((input) => {
            const pkg = /node_modules[/\\](?:\.pnpm[/\\][^/\\]+[/\\]node_modules[/\\])?([^/\\]+)/.exec(
              input,
            )?.[1];
            return builtins.has(input) || (pkg !== undefined && builtins.has(pkg));
          }),
        ).toEqual([]);
        // Only what the `browser` fields map to nothing: undici and `node:events` (Node-only paths).
        const disabled = inputs.filter((input) => input.startsWith('(disabled):'));
        expect(disabled.every((input) => /undici|node:events/.test(input))).toBe(true);
      },
      60_000,
    );
  }
});
