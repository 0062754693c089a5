import { existsSync } from 'node:fs';
import { fileURLToPath } from 'node:url';
import type { Client } from '@x/client';
import type { Transport } from '@x/protocol';
import { StdioClientTransport } from '@x/transport-stdio';
import { StreamableHttpClientTransport } from '@x/transport-streamable-http';
import { WebSocketClientTransport } from '@x/transport-ws';
import { listenWebSocket } from '@x/transport-ws/node';
import { waitFor } from '@x/test-kit';
import { afterEach, beforeAll, describe, expect, it } from 'vitest';
import { e2eClient, Resources, textOf } from './fixtures/e2e-helpers.js';
import { hostHttp } from './fixtures/e2e-http.js';
import { createQueueServer, type QueueServerState } from './fixtures/queue-server.mjs';

// Issue #42, inbound: "a cancellation that arrives behind 100 queued requests stops its request before
// it starts", over real transports. The server runs one handler at a time (`maxConcurrentRequests: 1`);
// `block` holds that slot, 100 `mark` calls queue behind it, the client cancels the 100th, and once
// `block` is released the 99 others run in arrival order while the 100th never starts. `release` and
// `status` are urgent by the server's `priority` option, so they run past the full slot.

const resources = new Resources();
afterEach(() => resources.closeAll());

const QUEUE_SERVER = fileURLToPath(new URL('./fixtures/queue-server.mjs', import.meta.url));
const QUEUED = 100;
/** Generous: 100 calls wait behind `block` on a loaded machine; nothing here waits on a timer. */
const WAIT = { timeoutMs: 60_000, intervalMs: 20 } as const;

beforeAll(() => {
  const server = fileURLToPath(new URL('../../../packages/server/dist/index.js', import.meta.url));
  if (!existsSync(server)) throw new Error(`Build first (pnpm turbo run build); missing ${server}`);
});

async function stdio(): Promise<Transport> {
  return new StdioClientTransport({ command: process.execPath, args: [QUEUE_SERVER], stderr: 'ignore' });
}

async function streamableHttp(): Promise<Transport> {
  const { server, watch } = createQueueServer();
  const hosted = resources.track(
    await hostHttp(server, {}, async (transport) => {
      await server.connect(transport);
      watch(transport);
    }),
  );
  return new StreamableHttpClientTransport(hosted.url);
}

async function webSocket(): Promise<Transport> {
  const { server, watch } = createQueueServer();
  const listener = resources.track(
    await listenWebSocket({
      port: 0,
      onsession: async (transport) => {
        await server.connect(transport);
        watch(transport);
      },
    }),
  );
  if (listener.url === undefined) throw new Error('the WebSocket listener has no address');
  return new WebSocketClientTransport(listener.url);
}

async function status(client: Client): Promise<QueueServerState> {
  return JSON.parse(textOf(await client.callTool({ name: 'status', arguments: {} }))) as QueueServerState;
}

const TRANSPORTS = [
  { name: 'stdio (a child process)', connect: stdio, eras: ['legacy', 'modern'] as const },
  { name: 'Streamable HTTP', connect: streamableHttp, eras: ['legacy'] as const },
  { name: 'WebSocket', connect: webSocket, eras: ['legacy', 'modern'] as const },
];

describe('a cancellation behind 100 queued requests stops its request before it starts', {
  timeout: 180_000,
}, () => {
  for (const { name, connect, eras } of TRANSPORTS) {
    for (const era of eras) {
      it(`over ${name}, ${era} era`, async () => {
        const client = resources.track(e2eClient({ protocolVersion: era, timeout: 150_000 }));
        await client.connect(await connect());
        const blocker = client.callTool({ name: 'block', arguments: {} });
        await waitFor(async () => (await status(client)).blocking, {
          ...WAIT,
          what: 'block to hold the slot',
        });

        const cancel = new AbortController();
        const calls = Array.from({ length: QUEUED }, (_, index) =>
          client.callTool(
            { name: 'mark', arguments: { n: index + 1 } },
            index + 1 === QUEUED ? { signal: cancel.signal } : {},
          ),
        );
        const last = calls[QUEUED - 1]?.then(
          () => 'answered',
          (error: unknown) => error,
        );
        // Every call reached the server and waits there (none started: `block` holds the only slot).
        const queued = await waitFor(
          async () => {
            const seen = await status(client);
            return seen.marksReceived === QUEUED ? seen : undefined;
          },
          { ...WAIT, what: `${QUEUED} queued calls` },
        );
        expect(queued.started).toEqual([]);

        cancel.abort('no longer needed');
        expect(await last).toBe('no longer needed');
        await waitFor(async () => (await status(client)).cancels === 1, {
          ...WAIT,
          what: 'the cancellation',
        });

        await client.callTool({ name: 'release', arguments: {} });
        expect(textOf(await blocker)).toBe('released');
        const results = await Promise.all(calls.slice(0, QUEUED - 1));
        expect(results.map(textOf)).toEqual(results.map((_, index) => `ran ${index + 1}`));
        const seen = await status(client);
        // The 99 others ran one at a time, in arrival order; the cancelled one never started.
        expect(seen.started).toEqual(Array.from({ length: QUEUED - 1 }, (_, index) => index + 1));
        expect(seen.started).not.toContain(QUEUED);
      });
    }
  }
});
