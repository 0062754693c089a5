// Proof of issue 39 for the 2.x packages: a server and a client written against the official 2.x API
// only (test/fixtures/v2-server.mjs, v2-client.mjs; the 2.x npm packages ship no examples) run on the
// genuine 2.x packages and, copied into an app folder whose `@modelcontextprotocol/server`, `/client`
// and `/node` are @x/compat (as `npm:` aliases lay them out), on x-mcp. Over stdio (`serveStdio`; a
// `StdioServerTransport` connected by hand) and Streamable HTTP (`createMcpHandler` + `toNodeHandler`;
// a `NodeStreamableHTTPServerTransport` per request), driven by the genuine 2.x client, the 2.x client
// on @x/compat and the x-mcp Client. Needs @x/compat built.
import { execFile } from 'node:child_process';
import { existsSync } from 'node:fs';
import { dirname, join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { promisify } from 'node:util';
import { Client } from '@x/client';
import type { Transport } from '@x/protocol';
import { StdioClientTransport } from '@x/transport-stdio';
import { StreamableHttpClientTransport } from '@x/transport-streamable-http';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { type AliasedApp, aliasedApp } from './helpers/aliased-app.js';
import { startExampleServer } from './helpers/example-process.js';

const run = promisify(execFile);
const fixtures = join(dirname(fileURLToPath(import.meta.url)), 'fixtures');
const built = join(fixtures, '..', '..', 'dist', 'v2', 'index.js');
const GENUINE_SERVER = join(fixtures, 'v2-server.mjs');
const GENUINE_CLIENT = join(fixtures, 'v2-client.mjs');

let app: AliasedApp;
let compatServer: string;
let compatClient: string;
beforeAll(() => {
  if (!existsSync(built))
    throw new Error('@x/compat is not built: pnpm turbo run build --filter=@x/compat...');
  app = aliasedApp();
  compatServer = app.addFixture('v2-server.mjs');
  compatClient = app.addFixture('v2-client.mjs');
});
afterAll(() => app?.[Symbol.dispose]());

/** What v2-client.mjs prints. */
interface Seen {
  era: string;
  confirm: { isError: boolean; text: string };
  [key: string]: unknown;
}

/** Everything the client saw but the era and the text of a failed `confirm` (each SDK words it its own way). */
function comparable(seen: Seen): unknown {
  const { era: _era, confirm, ...rest } = seen;
  return { ...rest, confirm: confirm.isError ? { isError: true } : confirm };
}

const ANSWERED = { isError: false, text: 'deploy: accept {"ok":true}' };
const SEEN_ON_MODERN = {
  server: 'v2-fixture',
  era: 'modern',
  tools: ['add', 'confirm', 'fail', 'whoami'],
  add: { text: '42', structured: { sum: 42 } },
  confirm: ANSWERED,
  whoami: 'tools/call',
  fail: { isError: true },
  greeting: 'Hello Ada',
  prompt: 'Review this typescript',
  completion: ['typescript'],
};

/** `served`: the era the genuine 2.x server speaks with a negotiating client in that mode. */
const modes = [
  { mode: 'stdio', over: 'stdio', served: 'modern' },
  { mode: 'stdio-connect', over: 'stdio', served: 'legacy' },
  { mode: 'http', over: 'http', served: 'modern' },
  { mode: 'http-transport', over: 'http', served: 'legacy' },
] as const;

/** Runs a client program against a server program (spawned over stdio, or started and reached over HTTP). */
async function drive(
  clientFile: string,
  serverFile: string,
  mode: string,
  over: 'stdio' | 'http',
): Promise<Seen> {
  if (over === 'stdio') {
    const { stdout } = await run(process.execPath, [clientFile, serverFile, mode], { timeout: 60_000 });
    return JSON.parse(stdout) as Seen;
  }
  await using server = await startExampleServer(serverFile, dirname(serverFile), { args: [mode] });
  const { stdout } = await run(process.execPath, [clientFile, server.url.href], { timeout: 60_000 });
  return JSON.parse(stdout) as Seen;
}

describe.each(modes)('2.x server, $mode', ({ mode, over, served }) => {
  it('the genuine 2.x client sees the same on @x/compat as on the genuine 2.x server', async () => {
    const [genuine, compat] = await Promise.all([
      drive(GENUINE_CLIENT, GENUINE_SERVER, mode, over),
      drive(GENUINE_CLIENT, compatServer, mode, over),
    ]);
    expect(compat.tools).toEqual(SEEN_ON_MODERN.tools);
    expect(comparable(compat)).toEqual(comparable(genuine));
  }, 120_000);

  it('the 2.x client on @x/compat negotiates 2026-07-28 and answers the inputRequired round', async () => {
    expect(await drive(compatClient, compatServer, mode, over)).toEqual(SEEN_ON_MODERN);
  }, 120_000);

  it('the 2.x client on @x/compat talks to the genuine 2.x server', async () => {
    const seen = await drive(compatClient, GENUINE_SERVER, mode, over);
    expect(seen.era).toBe(served);
    // A stateless legacy HTTP request has no way to ask the client: an isError result on both SDKs.
    const confirm = mode === 'http-transport' ? { isError: true, text: '' } : ANSWERED;
    expect(comparable(seen)).toEqual(comparable({ ...SEEN_ON_MODERN, confirm }));
  }, 120_000);

  it('the x-mcp Client calls its tools, the elicitation answered on 2026-07-28', async () => {
    const client = new Client({ name: 'x-mcp', version: '1.0.0' });
    client.setElicitationHandler(async (params) => ({
      action: 'accept',
      content: { ok: params.message === 'Run deploy?' },
    }));
    const call = async (transport: Transport) => {
      await client.connect(transport);
      try {
        const add = await client.callTool({ name: 'add', arguments: { a: 1, b: 2 } });
        const confirm = await client.callTool({ name: 'confirm', arguments: { action: 'deploy' } });
        return { era: client.era, add: add.structuredContent, confirm: confirm.content };
      } finally {
        await client.close();
      }
    };
    let seen: unknown;
    if (over === 'stdio') {
      seen = await call(new StdioClientTransport({ command: process.execPath, args: [compatServer, mode] }));
    } else {
      await using server = await startExampleServer(compatServer, app.dir, { args: [mode] });
      seen = await call(new StreamableHttpClientTransport(server.url));
    }
    expect(seen).toEqual({
      era: 'modern',
      add: { sum: 3 },
      confirm: [{ type: 'text', text: ANSWERED.text }],
    });
  }, 120_000);
});
