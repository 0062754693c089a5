import { existsSync } from 'node:fs';
import { createServer } from 'node:http';
import type { AddressInfo } from 'node:net';
import { fileURLToPath } from 'node:url';
import type { Client } from '@x/client';
import { InMemoryTransport, RequestTimeoutError, type Transport } from '@x/protocol';
import { createSseHandler, SseClientTransport } from '@x/transport-sse';
import { toNodeHandler } from '@x/transport-sse/node';
import { StdioClientTransport } from '@x/transport-stdio';
import { StreamableHttpClientTransport } from '@x/transport-streamable-http';
import { WebSocketClientTransport } from '@x/transport-ws';
import { listenWebSocket } from '@x/transport-ws/node';
import { GrpcClientTransport, listenGrpc } from '@x/transport-grpc';
import { afterEach, beforeAll, describe, expect, it } from 'vitest';
import { createE2eServer, e2eClient, Resources, textOf } from './fixtures/e2e-helpers.js';
import { hostHttp } from './fixtures/e2e-http.js';

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
 * The tool runs 3.5× the timeout and reports every quarter of it: without a progress token the call
 * fails at the timeout; with one, each report restarts the idle clock with 4× headroom for a busy machine.
 */
const TIMEOUT_MS = 2_000;
const LONG = { ms: 7_000, every: 500 } as const;

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
  const sse = createSseHandler({ onsession: (transport) => server.connect(transport) });
  const handle = toNodeHandler(sse);
  const http = createServer((req, res) => void handle(req, res));
  await new Promise<void>((resolve) => http.listen(0, '127.0.0.1', resolve));
  resources.track({
    close: async () => {
      await sse.close();
      http.closeAllConnections();
      await new Promise<void>((resolve) => http.close(() => resolve()));
    },
  });
  const { port } = http.address() as AddressInfo;
  return new SseClientTransport(new URL(`http://127.0.0.1:${port}/sse`));
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

describe('a long call that reports progress outlives the request timeout, without onprogress', () => {
  for (const { name, connect, eras } of TRANSPORTS) {
    it(`over ${name}, in the ${eras.join(' and the ')} era`, async () => {
      const clients = await Promise.all(eras.map((era) => client(connect, era)));
      // Both eras at once: the test takes one tool run, not one per era.
      const results = await Promise.all(
        clients.map((mcp) => mcp.callTool({ name: 'long', arguments: LONG })),
      );
      for (const result of results) {
        // At least ms/every reports, each one a restart of the 2 s idle clock.
        expect(Number(textOf(result).replace('done:', ''))).toBeGreaterThanOrEqual(LONG.ms / LONG.every);
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
