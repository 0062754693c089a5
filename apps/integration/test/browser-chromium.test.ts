import { existsSync, mkdtempSync, rmSync } from 'node:fs';
import { createServer, type Server } from 'node:http';
import type { AddressInfo, Socket } from 'node:net';
import { tmpdir } from 'node:os';
import { basename, join } from 'node:path';
import { fileURLToPath } from 'node:url';
import type { McpServer } from '@x/server';
import { InMemoryEventStore } from '@x/transport-streamable-http';
import { createSseHandler } from '@x/transport-sse';
import { toNodeHandler as toNodeSseHandler } from '@x/transport-sse/node';
import { listenWebSocket } from '@x/transport-ws/node';
import { startHttpServer, type HttpServerHandle } from '@x/test-kit';
import { build } from 'esbuild';
import { type BrowserContext, chromium, type Page } from 'playwright-core';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import * as z from 'zod';
import type { BrowserMcp, OpenOptions } from './fixtures/browser-app.js';
import { createE2eServer, Resources } from './fixtures/e2e-helpers.js';
import { type Hosted, hostHttp } from './fixtures/e2e-http.js';

// Issue 30, item 1: the x-mcp client in a real browser. The page (fixtures/browser-app.ts) is bundled
// with esbuild `--platform=browser` from the packages' browser entries and runs in headless Chromium
// (Debian's `chromium`, driven with playwright-core). It is served from one origin and talks to x-mcp
// servers on other origins (another port of 127.0.0.1 is another origin), so every CORS preflight is a
// real one. What a server must configure for a browser page on another origin:
// - Streamable HTTP: `cors: { origin: [pageOrigin] }` and, unless the page is on a loopback origin,
//   `dnsRebindingProtection: { allowedOrigins: [pageOrigin] }` (spec: servers MUST validate Origin);
// - legacy SSE: the same two options (`cors`, `allowedOrigins`);
// - WebSocket: `allowedOrigins` only (WebSockets have no CORS; the server checks `Origin`).
// One browser is launched for the whole file; every page session is closed after its test.

const CHROMIUM = process.env['CHROMIUM_PATH'] ?? '/usr/bin/chromium';
const here = fileURLToPath(new URL('.', import.meta.url));

const resources = new Resources();
let browser: BrowserContext;
let page: Page;
let pageHost: HttpServerHandle;
let profile: string;
let pageOrigin: string;
/** Script files the page fetched, in order; the chunks that hold zod and the JSON Schema validator. */
const fetchedScripts: string[] = [];
const zodChunks: string[] = [];
const validatorChunks: string[] = [];

beforeAll(async () => {
  // A missing browser is a broken machine, not a reason to skip: `.ci/run` installs it.
  if (!existsSync(CHROMIUM)) {
    throw new Error(
      `Chromium not found at ${CHROMIUM}: install Debian's chromium (apt-get install -y chromium; .ci/run does) or set CHROMIUM_PATH`,
    );
  }
  // Split into chunks as a web app's build does: what `import()` loads on demand (the zod schemas, the
  // JSON Schema validator) is a file of its own, fetched only when the page needs it.
  const outdir = join(here, 'browser-out');
  const bundled = await build({
    entryPoints: { app: join(here, 'fixtures', 'browser-app.ts') },
    bundle: true,
    splitting: true,
    outdir,
    platform: 'browser',
    format: 'esm',
    target: 'es2022',
    write: false,
    metafile: true,
    logLevel: 'silent',
    // Sources, as every other test here (vitest resolves `@x/*` the same way); `browser` is implied.
    conditions: ['@x/source'],
  });
  const scripts = new Map(bundled.outputFiles.map((file) => [`/${basename(file.path)}`, file.text]));
  for (const [path, output] of Object.entries(bundled.metafile.outputs)) {
    const inputs = Object.keys(output.inputs);
    if (inputs.some((input) => /node_modules\/.*\/zod\//.test(input))) zodChunks.push(`/${basename(path)}`);
    if (inputs.some((input) => /protocol\/src\/json-schema/.test(input)))
      validatorChunks.push(`/${basename(path)}`);
  }
  pageHost = await startHttpServer((request, response) => {
    const script = scripts.get(request.url ?? '');
    if (script !== undefined) {
      fetchedScripts.push(request.url!);
      response.writeHead(200, { 'content-type': 'text/javascript' }).end(script);
    } else {
      response
        .writeHead(200, { 'content-type': 'text/html' })
        .end('<!doctype html><title>x-mcp</title><script type="module" src="/app.js"></script>');
    }
  });
  pageOrigin = pageHost.url;
  profile = mkdtempSync(join(tmpdir(), 'x-mcp-chromium-'));
  // A fresh profile per run: nothing cached from another run (preflights included).
  browser = await chromium.launchPersistentContext(profile, {
    executablePath: CHROMIUM,
    headless: true,
    args: [
      '--no-sandbox',
      '--headless',
      '--disable-gpu',
      '--disable-quic',
      '--no-first-run',
      '--disable-background-networking',
      '--disable-component-update',
      '--disable-sync',
    ],
  });
  page = browser.pages()[0] ?? (await browser.newPage());
  const pageErrors: string[] = [];
  page.on('pageerror', (error) => pageErrors.push(error.message));
  await page.goto(`${pageOrigin}/`);
  await page
    .waitForFunction(() => 'mcp' in globalThis, undefined, { timeout: 20_000 })
    .catch((error) => {
      throw new Error(`the page did not load its app: ${pageErrors.join('; ') || String(error)}`);
    });
}, 60_000);

afterAll(async () => {
  await resources.closeAll();
  await browser?.close();
  await pageHost?.close();
  if (profile !== undefined) rmSync(profile, { recursive: true, force: true });
});

/** Runs one method of the page's `mcp` API in the page and returns its JSON result. */
function inPage<K extends keyof BrowserMcp>(
  method: K,
  ...args: Parameters<BrowserMcp[K]>
): Promise<Awaited<ReturnType<BrowserMcp[K]>>> {
  return page.evaluate(
    ([name, rest]) => {
      const api = (globalThis as unknown as { mcp: Record<string, (...a: unknown[]) => unknown> }).mcp;
      return api[name]!(...rest);
    },
    [method, args] as [string, unknown[]],
  ) as Promise<Awaited<ReturnType<BrowserMcp[K]>>>;
}

let sessions = 0;
/** Opens a page session (closed after the test) and returns its id with what `open` returned. */
async function open(options: OpenOptions) {
  const id = `s${++sessions}`;
  const opened = await inPage('open', id, options);
  resources.track({ close: () => inPage('close', id) });
  return { id, ...opened };
}

/** Connect, list, call, progress and an elicitation answered in the page: the same on every transport. */
async function exercise(id: string) {
  expect(await inPage('listTools', id)).toEqual(['echo', 'blob', 'progress', 'long', 'wait', 'ask']);
  expect(await inPage('call', id, 'echo', { text: 'from the page' })).toEqual({
    text: 'from the page',
    progress: [],
  });
  expect(await inPage('call', id, 'progress', { steps: 3 })).toEqual({ text: 'done:3', progress: [1, 2, 3] });
  expect(await inPage('call', id, 'ask')).toEqual({ text: 'hello Browser', progress: [] });
  expect((await inPage('state', id)).elicitations).toEqual(['Your name?']);
}

/** Streamable HTTP with CORS for the page's origin, resumable streams, and an `OPTIONS` log. */
async function hostStreamableHttp(server: McpServer): Promise<Hosted> {
  return resources.track(
    await hostHttp(server, {
      cors: { origin: [pageOrigin] },
      dnsRebindingProtection: { allowedOrigins: [pageOrigin] },
      eventStore: new InMemoryEventStore(),
      retryIntervalMs: 10,
    }),
  );
}

describe('the x-mcp client in headless Chromium, against x-mcp servers on another origin', () => {
  it('Streamable HTTP, 2026-07-28 (auto): CORS preflights, list, call, progress, elicitation (input_required) answered in the page', async () => {
    const hosted = await hostStreamableHttp(createE2eServer());
    const { id, era, protocolVersion, origin } = await open({
      kind: 'streamable-http',
      url: hosted.url.href,
    });
    expect([era, protocolVersion, origin]).toEqual(['modern', '2026-07-28', pageOrigin]);
    await exercise(id);

    // Real preflights: the browser asked before its first JSON POST and was answered 204.
    const preflights = hosted.log.filter((e) => e.method === 'OPTIONS');
    expect(preflights.length).toBeGreaterThan(0);
    expect(preflights[0]!.status).toBe(204);
    expect(preflights[0]!.headers['origin']).toBe(pageOrigin);
    expect(preflights[0]!.headers['access-control-request-method']).toBe('POST');
    const posts = hosted.log.filter((e) => e.method === 'POST');
    expect(posts.every((e) => e.headers['origin'] === pageOrigin && e.status === 200)).toBe(true);
    expect((await inPage('state', id)).errors).toEqual([]);

    // Issue 30: every message of that session passed the client's zod-free checks, so the page never
    // fetched the chunk with zod and the schemas, nor the JSON Schema validator (no output schemas).
    expect(zodChunks).toHaveLength(1);
    expect(validatorChunks).toHaveLength(1);
    expect(fetchedScripts).toContain('/app.js');
    expect(fetchedScripts).not.toContain(zodChunks[0]);
    expect(fetchedScripts).not.toContain(validatorChunks[0]);
  });

  it('Streamable HTTP without `cors`: the browser refuses the cross-origin answer, so the page cannot connect', async () => {
    const hosted = resources.track(
      await hostHttp(createE2eServer(), { dnsRebindingProtection: { allowedOrigins: [pageOrigin] } }),
    );
    const failure = await inPage('open', 'no-cors', { kind: 'streamable-http', url: hosted.url.href }).then(
      () => 'connected',
      (error: Error) => error.message,
    );
    expect(failure).toMatch(/Failed to fetch/);
    resources.track({ close: () => inPage('close', 'no-cors') });
    // The server saw only preflights (the probe's, then the `initialize` fallback's), none answered
    // with CORS headers, so no POST was ever sent.
    expect(hosted.log.length).toBeGreaterThan(0);
    expect(hosted.log.every((e) => e.method === 'OPTIONS')).toBe(true);
  });

  it('Streamable HTTP, 2025-11-25 session: the elicitation request answered in the page, a dropped stream resumed with Last-Event-ID', async () => {
    const hosted = await hostStreamableHttp(
      createE2eServer({ onDrop: ({ closeSSEStream }) => closeSSEStream?.() }),
    );
    const { id, era, protocolVersion } = await open({
      kind: 'streamable-http',
      url: hosted.url.href,
      protocolVersion: 'legacy',
    });
    expect([era, protocolVersion]).toEqual(['legacy', '2025-11-25']);
    await exercise(id);
    // The page read the session id from a cross-origin response (exposed by CORS) and sent it back.
    const sessionPosts = hosted.log.filter((e) => e.method === 'POST' && e.headers['mcp-session-id']);
    expect(sessionPosts.length).toBeGreaterThan(3);

    // The server ends the call's stream after progress 2 (SEP-1699 polling); the page resumes it.
    expect(await inPage('call', id, 'progress', { steps: 5, dropAfter: 2 })).toEqual({
      text: 'done:5',
      progress: [1, 2, 3, 4, 5],
    });
    const resumed = hosted.log.filter((e) => e.method === 'GET' && e.headers['last-event-id'] !== undefined);
    expect(resumed.map((e) => e.status)).toEqual([200]);
    expect(resumed[0]!.headers['origin']).toBe(pageOrigin);
  });

  it('legacy HTTP+SSE (2024-11-05): list, call, progress, elicitation; the server drops the stream, a new session works', async () => {
    const server = createE2eServer();
    const sse = createSseHandler({
      onsession: (transport) => server.connect(transport),
      cors: { origin: [pageOrigin] },
      dnsRebindingProtection: { allowedOrigins: [pageOrigin] },
    });
    const handle = toNodeSseHandler(sse);
    const methods: string[] = [];
    const streams: Socket[] = [];
    const http: Server = createServer((request, response) => {
      methods.push(request.method ?? '');
      if (request.method === 'GET') streams.push(request.socket);
      void handle(request, response);
    });
    await new Promise<void>((resolve) => http.listen(0, '127.0.0.1', resolve));
    resources.track({
      close: async () => {
        await sse.close();
        http.closeAllConnections();
        await new Promise<void>((resolve) => http.close(() => resolve()));
      },
    });
    const url = `http://127.0.0.1:${(http.address() as AddressInfo).port}/sse`;

    const first = await open({ kind: 'sse', url, protocolVersion: '2024-11-05' });
    expect([first.era, first.protocolVersion]).toEqual(['legacy', '2024-11-05']);
    await exercise(first.id);
    expect(methods).toContain('OPTIONS');

    // Legacy SSE has no resumption: the dropped stream ends the session in the page...
    streams[0]!.destroy();
    expect(await inPage('closed', first.id)).toBe(true);
    // ...and the page reconnects with a new one.
    const second = await open({ kind: 'sse', url, protocolVersion: '2024-11-05' });
    expect(await inPage('call', second.id, 'echo', { text: 'again' })).toEqual({
      text: 'again',
      progress: [],
    });
    expect(streams).toHaveLength(2);
  });

  it('WebSocket: list, call, progress, elicitation; the server drops the connection, the page reconnects and calls again', async () => {
    const server = createE2eServer();
    const sockets: Socket[] = [];
    const origins: Array<string | undefined> = [];
    const listener = resources.track(
      await listenWebSocket({
        port: 0,
        dnsRebindingProtection: { allowedOrigins: [pageOrigin] },
        onsession: (transport, { request }) => {
          sockets.push(request.socket as Socket);
          origins.push(request.headers.origin);
          return server.connect(transport);
        },
      }),
    );
    const url = listener.url!.href;

    const { id, era } = await open({ kind: 'websocket', url, reconnect: true });
    expect(era).toBe('modern');
    await exercise(id);

    sockets[0]!.destroy(); // no close frame: the page sees 1006 and reconnects
    expect(await inPage('reconnected', id, 1)).toBe(1);
    expect(await inPage('call', id, 'echo', { text: 'after the drop' })).toEqual({
      text: 'after the drop',
      progress: [],
    });
    expect((await inPage('state', id)).closed).toBe(false);
    expect(origins).toEqual([pageOrigin, pageOrigin]);
  });

  // Last in the file: once fetched, a chunk stays loaded in the page.
  it('on demand: an output schema fetches the validator, a malformed result fetches zod and fails with -32603 naming the issue', async () => {
    const server = createE2eServer();
    server.registerTool('measure', { outputSchema: z.object({ cm: z.number() }) }, () => ({
      content: [{ type: 'text', text: '3 cm' }],
      structuredContent: { cm: 3 },
    }));
    // A server that breaks the schema: `text` must be a string (server/tools, "Text Content").
    server.registerTool('malformed', {}, () => ({ content: [{ type: 'text', text: 42 }] }) as never);
    const hosted = await hostStreamableHttp(server);
    const { id } = await open({ kind: 'streamable-http', url: hosted.url.href });
    await inPage('listTools', id);
    expect(fetchedScripts).not.toContain(validatorChunks[0]);

    expect(await inPage('call', id, 'measure')).toEqual({ text: '3 cm', progress: [] });
    expect(fetchedScripts).toContain(validatorChunks[0]);
    expect(fetchedScripts).not.toContain(zodChunks[0]);

    const failure = await inPage('call', id, 'malformed').then(
      () => 'resolved',
      (error: Error) => error.message,
    );
    expect(failure).toMatch(/Invalid result for tools\/call/);
    expect(failure).toMatch(/content/);
    expect(fetchedScripts.filter((path) => path === zodChunks[0])).toHaveLength(1);
    // The session goes on: the next everyday call is answered.
    expect(await inPage('call', id, 'echo', { text: 'still here' })).toEqual({
      text: 'still here',
      progress: [],
    });
  });
});
