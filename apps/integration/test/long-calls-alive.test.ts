import { existsSync } from 'node:fs';
import { fileURLToPath } from 'node:url';
import type { Client } from '@x/client';
import { InMemoryTransport, RequestTimeoutError, type Transport } from '@x/protocol';
import { SseClientTransport } from '@x/transport-sse';
import { StdioClientTransport } from '@x/transport-stdio';
import { StreamableHttpClientTransport } from '@x/transport-streamable-http';
import { WebSocketClientTransport } from '@x/transport-ws';
import { listenWebSocket } from '@x/transport-ws/node';
import { GrpcClientTransport, listenGrpc } from '@x/transport-grpc';
import { afterEach, beforeAll, describe, expect, it } from 'vitest';
import { createE2eServer, e2eClient, Resources, textOf } from './fixtures/e2e-helpers.js';
import { hostHttp, hostSse } from './fixtures/e2e-http.js';

// Issue #42, "Long calls stay alive by default": a tool that runs longer than the request timeout but
// reports progress all along must succeed although the caller passed no `onprogress`. The spec allows
// it only when the request carries a token: "The receiver MAY then send progress notifications"
// (basic/utilities/progress), and "Implementations MAY choose to reset the timeout clock when receiving
// a progress notification corresponding to the request" (basic/lifecycle, "Timeouts"). So the client
// asks for progress by default, and the timeout restarts on each report up to `maxTotalTimeout`.

const resources = new Resources();
afterEach(() => resources.closeAll());

const E2E_SERVER = fileURLToPath(new URL('./fixtures/e2e-stdio-server.mjs', import.meta.url));

beforeAll(() => {
  const server = fileURLToPath(new URL('../../../packages/server/dist/index.js', import.meta.url));
  if (!existsSync(server)) throw new Error(`Build first (pnpm turbo run build); missing ${server}`);
});

/**
 * The tool runs 2.25× the timeout and reports every tenth of it: without a progress token the call
 * fails at the timeout; with one, each report restarts the idle clock, with 10× headroom for a busy
 * machine (a 4× margin failed once while another suite loaded both cores).
 */
const TIMEOUT_MS = 4_000;
const LONG = { ms: 9_000, every: 400 } as const;

type Era = 'legacy' | 'modern';

/** A transport to a fresh server of the e2e suite, for one client. */
type Connect = () => Promise<Transport>;

async function inMemory(): Promise<Transport> {
  const [clientSide, serverSide] = InMemoryTransport.createLinkedPair();
  const server = createE2eServer();
  resources.track(server);
  await server.connect(serverSide);
  return clientSide;
}

async function stdio(): Promise<Transport> {
  return new StdioClientTransport({ command: process.execPath, args: [E2E_SERVER], stderr: 'ignore' });
}

function streamableHttp(enableJsonResponse: boolean): Connect {
  return async () => {
    const hosted = resources.track(await hostHttp(createE2eServer(), { enableJsonResponse }));
    return new StreamableHttpClientTransport(hosted.url);
  };
}

async function legacySse(): Promise<Transport> {
  const server = createE2eServer();
  const hosted = resources.track(await hostSse((transport) => server.connect(transport)));
  return new SseClientTransport(hosted.url);
}

async function webSocket(): Promise<Transport> {
  const server = createE2eServer();
  const listener = resources.track(await listenWebSocket({ port: 0, onsession: (t) => server.connect(t) }));
  if (listener.url === undefined) throw new Error('the WebSocket listener has no address');
  return new WebSocketClientTransport(listener.url);
}

async function grpc(): Promise<Transport> {
  const server = createE2eServer();
  const listener = resources.track(await listenGrpc({ port: 0, onsession: (t) => server.connect(t) }));
  return new GrpcClientTransport(listener.target);
}

const TRANSPORTS: ReadonlyArray<{ name: string; connect: Connect; eras: readonly Era[] }> = [
  { name: 'in-memory', connect: inMemory, eras: ['legacy', 'modern'] },
  { name: 'stdio', connect: stdio, eras: ['legacy', 'modern'] },
  { name: 'Streamable HTTP (SSE replies)', connect: streamableHttp(false), eras: ['legacy', 'modern'] },
  // The legacy HTTP+SSE transport is the 2024-11-05 revision's only.
  { name: 'legacy SSE', connect: legacySse, eras: ['legacy'] },
  { name: 'WebSocket', connect: webSocket, eras: ['legacy', 'modern'] },
  { name: 'gRPC', connect: grpc, eras: ['legacy', 'modern'] },
];

async function client(connect: Connect, era: Era, options: { resetTimeoutOnProgress?: boolean } = {}) {
  const transport = await connect();
  const mcp: Client = resources.track(e2eClient({ protocolVersion: era, timeout: TIMEOUT_MS, ...options }));
  await mcp.connect(transport);
  expect(mcp.era).toBe(era);
  return mcp;
}

describe('a long call that reports progress outlives the request timeout, without onprogress', {
  timeout: 90_000,
}, () => {
  for (const { name, connect, eras } of TRANSPORTS) {
    it(`over ${name}, in the ${eras.join(' and the ')} era`, async () => {
      const clients = await Promise.all(eras.map((era) => client(connect, era)));
      // Both eras at once: the test takes one tool run, not one per era.
      const results = await Promise.all(
        clients.map((mcp) => mcp.callTool({ name: 'long', arguments: LONG })),
      );
      for (const result of results) {
        // The tool ran (and reported) past several timeouts' worth of time: one report per timeout at
        // the least. Late timers on a busy machine make fewer reports, so no exact count is asserted.
        expect(Number(textOf(result).replace('done:', ''))).toBeGreaterThanOrEqual(
          Math.ceil(LONG.ms / TIMEOUT_MS),
        );
      }
    });
  }

  // A JSON reply is one body sent when the answer is ready: it has no place for progress before it
  // (`enableJsonResponse`; related notifications are dropped, as in the official SDK), so the call ends
  // at the timeout. docs/transports.md says so: use SSE replies or a task for long tools.
  it('over Streamable HTTP with JSON replies, progress cannot travel and the call times out', async () => {
    const connect = streamableHttp(true);
    const clients = await Promise.all((['legacy', 'modern'] as const).map((era) => client(connect, era)));
    const outcomes = await Promise.all(
      clients.map((mcp) =>
        mcp.callTool({ name: 'long', arguments: LONG }).then(
          () => 'answered',
          (error: unknown) => error,
        ),
      ),
    );
    for (const outcome of outcomes) expect(outcome).toBeInstanceOf(RequestTimeoutError);
  });

  it('still fails at the timeout when resetTimeoutOnProgress is off (no token is asked for)', async () => {
    const [legacy, modern] = await Promise.all([
      client(stdio, 'legacy', { resetTimeoutOnProgress: false }),
      client(stdio, 'modern', { resetTimeoutOnProgress: false }),
    ]);
    const outcomes = await Promise.all(
      [legacy, modern].map((mcp) =>
        mcp.callTool({ name: 'long', arguments: LONG }).then(
          () => 'answered',
          (error: unknown) => error,
        ),
      ),
    );
    for (const outcome of outcomes) {
      expect(outcome).toBeInstanceOf(RequestTimeoutError);
      expect(outcome).toMatchObject({ data: { timeout: TIMEOUT_MS } });
    }
  });
});
