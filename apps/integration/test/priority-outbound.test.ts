import { type ChildProcess, spawn } from 'node:child_process';
import { once } from 'node:events';
import type { Readable } from 'node:stream';
import { createInterface } from 'node:readline';
import { fileURLToPath } from 'node:url';
import type { JSONRPCMessage } from '@x/protocol';
import { McpServer } from '@x/server';
import { listenWebSocket } from '@x/transport-ws/node';
import { afterEach, describe, expect, it } from 'vitest';
import { WebSocket } from 'ws';
import { z } from 'zod';
import { Resources } from './fixtures/e2e-helpers.js';
import { serveFlood } from './fixtures/flood-peer.mjs';

// Issue #42, outbound: "a `ping` answered within a bound while 1 MiB results and 10,000 progress
// notifications are queued on the same connection". The peer stops reading, so the server's answers
// pile up in its transport's send queue; then a ping arrives. With priorities its answer overtakes the
// queued results and progress (it goes out right after what the pipe or socket already held); first in,
// first out (every message normal: the comparison) it waits behind all of them. The bound is counted in
// messages that arrive before the pong, never in wall-clock time. Orders the docs promise are checked
// too: the progress of one request in order and before its result, the results in request order.

const resources = new Resources();
afterEach(() => resources.closeAll());

const MiB = 1024 * 1024;
const PROGRESS = 10_000;
const STDIO_SERVER = fileURLToPath(new URL('./fixtures/flood-stdio-server.mjs', import.meta.url));

/** The requests that flood the connection: `results` answers of 1 MiB, then `PROGRESS` notifications. */
function floodRequests(results: number): string[] {
  const requests = Array.from({ length: results }, (_, i) => ({
    jsonrpc: '2.0',
    id: i + 1,
    method: 'big',
    params: { size: MiB },
  }));
  return [...requests, { jsonrpc: '2.0', id: 'flood', method: 'flood', params: { progress: PROGRESS } }].map(
    (request) => JSON.stringify(request),
  );
}

const PING = JSON.stringify({ jsonrpc: '2.0', id: 'ping', method: 'ping' });

interface Arrivals {
  resultsBeforePong: number;
  progressBeforePong: number;
  resultIds: unknown[];
  progress: number[];
  /** Progress notifications that arrived after the `flood` request's own result. */
  progressAfterItsResult: number;
}

/** Reads messages until both the pong and the flood's result came, and tallies what came when. */
class Tally {
  readonly arrivals: Arrivals = {
    resultsBeforePong: 0,
    progressBeforePong: 0,
    resultIds: [],
    progress: [],
    progressAfterItsResult: 0,
  };
  #ponged = false;
  #floodDone = false;

  /** Takes one message; true once everything expected arrived. */
  take(text: string): boolean {
    const message = JSON.parse(text) as { id?: unknown; method?: string; params?: { progress: number } };
    const a = this.arrivals;
    if (message.method === 'notifications/progress') {
      a.progress.push(message.params?.progress ?? -1);
      if (!this.#ponged) a.progressBeforePong++;
      if (this.#floodDone) a.progressAfterItsResult++;
    } else if (message.id === 'ping') {
      this.#ponged = true;
    } else if (message.id === 'flood') {
      this.#floodDone = true;
    } else {
      a.resultIds.push(message.id);
      if (!this.#ponged) a.resultsBeforePong++;
    }
    return this.#ponged && this.#floodDone;
  }
}

/** The lines of `stream`, one `next()` at a time. */
function lineReader(stream: Readable): () => Promise<string> {
  const lines = createInterface({ input: stream, crlfDelay: Number.POSITIVE_INFINITY })[
    Symbol.asyncIterator
  ]();
  return async () => {
    const { value, done } = await lines.next();
    if (done === true) throw new Error('stream ended');
    return value as string;
  };
}

async function floodOverStdio(fifo: boolean, results: number): Promise<Arrivals> {
  const args = [STDIO_SERVER, '--max-buffered-bytes', String(MiB), ...(fifo ? ['--fifo'] : [])];
  const child: ChildProcess = spawn(process.execPath, args, { stdio: ['pipe', 'pipe', 'pipe'] });
  resources.track({
    close: async () => {
      if (child.exitCode !== null || child.signalCode !== null) return;
      child.kill('SIGKILL');
      await once(child, 'exit');
    },
  });
  const events = lineReader(child.stderr as Readable);
  const stdin = child.stdin as NonNullable<ChildProcess['stdin']>;
  // Nobody reads the child's stdout until the pong is queued: its pipe fills and its transport queues.
  stdin.write(`${floodRequests(results).join('\n')}\n`);
  expect(await events()).toBe('flooded');
  stdin.write(`${PING}\n`);
  expect(await events()).toBe('ponged');
  const tally = new Tally();
  const output = lineReader(child.stdout as Readable);
  while (!tally.take(await output())) {
    // reading on
  }
  return tally.arrivals;
}

async function floodOverWebSocket(fifo: boolean, results: number): Promise<Arrivals> {
  let reported: ((event: string) => void) | undefined;
  const report = (event: string): void => reported?.(event);
  const nextReport = (): Promise<string> => new Promise((resolve) => (reported = resolve));
  const listener = resources.track(
    await listenWebSocket({
      port: 0,
      host: '127.0.0.1',
      maxBufferedBytes: MiB,
      maxQueuedBytes: 256 * MiB,
      sendStallTimeoutMs: 0,
      onsession: (transport) => {
        serveFlood(transport, { fifo, report });
        return transport.start();
      },
    }),
  );
  const socket = new WebSocket(listener.url as URL, 'mcp');
  resources.track({ close: () => socket.terminate() });
  await once(socket, 'open');
  const tally = new Tally();
  const done = new Promise<void>((resolve) => {
    socket.on('message', (data) => {
      if (tally.take(String(data))) resolve();
    });
  });
  // The client stops reading: the socket's buffers fill, then the server's send queue.
  socket.pause();
  let flooded = nextReport();
  for (const request of floodRequests(results)) socket.send(request);
  expect(await flooded).toBe('flooded');
  flooded = nextReport();
  socket.send(PING);
  expect(await flooded).toBe('ponged');
  socket.resume();
  await done;
  return tally.arrivals;
}

/** What every run keeps, priority or not: the docs' promises (docs/message-ordering.md, Outbound). */
function expectOrdersKept(arrivals: Arrivals, results: number): void {
  expect(arrivals.resultIds).toEqual(Array.from({ length: results }, (_, i) => i + 1));
  expect(arrivals.progress).toHaveLength(PROGRESS);
  expect(arrivals.progress.every((value, i) => value === i + 1)).toBe(true);
  expect(arrivals.progressAfterItsResult).toBe(0);
}

describe.each([
  // A pipe holds 64 KiB: a few results fill it.
  { transport: 'stdio (a child process)', flood: floodOverStdio, results: 8 },
  // Loopback TCP buffers hold several MiB: enough results that most of them must wait in the queue.
  { transport: 'WebSocket (127.0.0.1)', flood: floodOverWebSocket, results: 40 },
])('outbound priority over $transport (issue #42)', ({ flood, results }) => {
  it(`answers a ping queued behind ${results} results of 1 MiB and ${PROGRESS} progress notifications before them`, async () => {
    const arrivals = await flood(false, results);
    // Only what the pipe or socket held already came first: no progress, a fraction of the results.
    expect(arrivals.progressBeforePong).toBe(0);
    expect(arrivals.resultsBeforePong).toBeLessThan(results / 2);
    expectOrdersKept(arrivals, results);
  }, 120_000);

  it('first in, first out (every message normal), the same ping waits for the whole flood', async () => {
    const arrivals = await flood(true, results);
    expect(arrivals.progressBeforePong).toBe(PROGRESS);
    expect(arrivals.resultsBeforePong).toBe(results);
    expectOrdersKept(arrivals, results);
  }, 120_000);
});

/**
 * The same through the engine: an `McpServer` whose tool fires `PROGRESS` progress notifications (4 KiB
 * each, so the socket's and the kernel's buffers cannot take them all) at a client that stopped
 * reading; the engine answers the ping sent meanwhile. Progress is bulk and the ping's answer at least
 * normal, so it leaves before the progress still queued: what came before it is only what the socket
 * and the kernel had taken.
 */
describe('outbound priority through the engine (McpServer over 127.0.0.1 WebSocket, issue #42)', () => {
  it('answers a ping before the progress notifications queued ahead of it; the call’s own order kept', async () => {
    const server = new McpServer({ name: 'flood', version: '1.0.0' });
    const padding = 'p'.repeat(4096);
    server.registerTool(
      'flood',
      { inputSchema: z.object({ progress: z.number().int() }) },
      async ({ progress }, ctx) => {
        for (let n = 1; n <= progress; n++) {
          ctx.sendProgress({ progress: n, total: progress, message: padding }).catch(() => {});
        }
        return { content: [{ type: 'text', text: 'done' }] };
      },
    );
    let progressSent = 0;
    let onSent: (() => void) | undefined;
    let pongSent = false;
    const listener = resources.track(
      await listenWebSocket({
        port: 0,
        host: '127.0.0.1',
        maxQueuedBytes: 256 * MiB,
        sendStallTimeoutMs: 0,
        onsession: (transport) => {
          // Watches what the engine hands to the transport, to know when the flood and the pong are queued.
          const send = transport.send.bind(transport);
          transport.send = (message: JSONRPCMessage, options) => {
            if ('method' in message && message.method === 'notifications/progress') progressSent++;
            if ('id' in message && message.id === 'ping' && !('method' in message)) pongSent = true;
            const sent = send(message, options);
            onSent?.();
            return sent;
          };
          return server.connect(transport);
        },
      }),
    );
    const sentUntil = (done: () => boolean): Promise<void> =>
      new Promise((resolve) => {
        onSent = () => {
          if (done()) resolve();
        };
        onSent();
      });
    const socket = new WebSocket(listener.url as URL, 'mcp');
    resources.track({ close: () => socket.terminate() });
    await once(socket, 'open');
    const tally = new Tally();
    let initialized: (() => void) | undefined;
    const done = new Promise<void>((resolve) => {
      socket.on('message', (data) => {
        const text = String(data);
        if (initialized !== undefined) {
          initialized();
          initialized = undefined;
          return;
        }
        if (tally.take(text)) resolve();
      });
    });
    await new Promise<void>((resolve) => {
      initialized = resolve;
      socket.send(
        JSON.stringify({
          jsonrpc: '2.0',
          id: 'init',
          method: 'initialize',
          params: {
            protocolVersion: '2025-06-18',
            capabilities: {},
            clientInfo: { name: 'raw', version: '1' },
          },
        }),
      );
    });
    socket.send(JSON.stringify({ jsonrpc: '2.0', method: 'notifications/initialized' }));
    socket.pause();
    socket.send(
      JSON.stringify({
        jsonrpc: '2.0',
        id: 'flood',
        method: 'tools/call',
        params: { name: 'flood', arguments: { progress: PROGRESS }, _meta: { progressToken: 'flood' } },
      }),
    );
    await sentUntil(() => progressSent === PROGRESS);
    socket.send(PING);
    await sentUntil(() => pongSent);
    socket.resume();
    await done;
    const arrivals = tally.arrivals;
    expect(arrivals.progressBeforePong).toBeLessThan(PROGRESS / 2);
    expect(arrivals.progress).toHaveLength(PROGRESS);
    expect(arrivals.progress.every((value, i) => value === i + 1)).toBe(true);
    expect(arrivals.progressAfterItsResult).toBe(0);
  }, 120_000);
});
