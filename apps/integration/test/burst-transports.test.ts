import type { Client } from '@x/client';
import type { JSONRPCMessage } from '@x/protocol/core';
import type { StreamableHttpServerTransport } from '@x/transport-streamable-http';
import { StreamableHttpClientTransport } from '@x/transport-streamable-http';
import { SseClientTransport, type SseServerTransport } from '@x/transport-sse';
import { afterEach, describe, expect, it } from 'vitest';
import {
  createE2eServer,
  e2eClient,
  payload,
  Resources,
  tapReceived,
  textOf,
} from './fixtures/e2e-helpers.js';
import { hostHttp, hostSse } from './fixtures/e2e-http.js';
import { waitFor } from '@x/test-kit';

// Issue #35 finding 1, on every HTTP transport: the WebSocket lost answers in a burst of large results.
// The same burst (24 concurrent results of 1 MiB and a ping sent behind them, with the default limits)
// must arrive whole on Streamable HTTP (JSON and SSE replies, the GET stream) and legacy SSE.
// burst-ws.test.ts covers WebSocket; transport-stdio.test.ts covers stdio (a built server process).

const resources = new Resources();
afterEach(() => resources.closeAll());

const MiB = 1024 * 1024;
const BURST = 24;
/** Far below the 60 s default: a lost answer fails the test by timing out, not by hanging. */
const CALL_TIMEOUT_MS = 8_000;

/** 24 concurrent 1 MiB results and a ping behind them: every one must arrive, intact. */
async function burst(client: Client): Promise<void> {
  const calls = Array.from({ length: BURST }, () =>
    client.callTool({ name: 'blob', arguments: { length: MiB } }, { timeout: CALL_TIMEOUT_MS }),
  );
  const [results] = await Promise.all([Promise.all(calls), client.ping({ timeout: CALL_TIMEOUT_MS })]);
  const expected = payload(MiB);
  expect(results.map((result) => textOf(result) === expected)).toEqual(results.map(() => true));
}

/**
 * The burst's own messages among what a client received: the server may also send notifications of its
 * own on the stream (a `notifications/tools/list_changed` after its tools were registered arrives late
 * when the machine is busy), which are no part of the burst.
 */
const burstOf = (received: readonly JSONRPCMessage[]) =>
  received.filter(
    (message): message is JSONRPCMessage & { params: { data: string } } =>
      'method' in message && message.method === 'notifications/message',
  );

const hostSseTracked = async (onsession: (transport: SseServerTransport) => unknown) =>
  resources.track(await hostSse(onsession));

describe('a burst of large messages loses nothing (issue #35)', () => {
  it.each([
    { reply: 'SSE', enableJsonResponse: false },
    { reply: 'JSON', enableJsonResponse: true },
  ])(
    'Streamable HTTP, $reply replies: 24 concurrent 1 MiB results and a ping',
    async ({ enableJsonResponse }) => {
      const server = createE2eServer();
      const hosted = resources.track(await hostHttp(server, { enableJsonResponse }));
      const client = resources.track(e2eClient({ protocolVersion: 'legacy' }));
      await client.connect(new StreamableHttpClientTransport(hosted.url));
      await burst(client);
    },
    30_000,
  );

  it('Streamable HTTP GET stream: 24 server messages of 1 MiB sent at once all arrive', async () => {
    const server = createE2eServer();
    const sessions: StreamableHttpServerTransport[] = [];
    const hosted = resources.track(
      await hostHttp(server, {}, (transport) => {
        sessions.push(transport);
        return server.connect(transport);
      }),
    );
    const client = resources.track(e2eClient({ protocolVersion: 'legacy' }));
    const transport = new StreamableHttpClientTransport(hosted.url);
    await client.connect(transport);
    await waitFor(() => hosted.log.some((e) => e.method === 'GET'), { what: 'the GET stream' });
    const received = tapReceived(transport);
    const data = payload(MiB);
    // No related request: each goes out on the standalone GET stream, all in one turn.
    const sends = Array.from({ length: BURST }, (_, i) =>
      sessions[0]!.send({
        jsonrpc: '2.0',
        method: 'notifications/message',
        params: { level: 'info', data: `${i}:${data}` },
      }),
    );
    await Promise.all(sends);
    await waitFor(() => burstOf(received).length === BURST, {
      timeoutMs: CALL_TIMEOUT_MS,
      what: 'every message',
    });
    const texts = burstOf(received).map((message) => message.params.data);
    expect(texts.map((text, i) => text === `${i}:${data}`)).toEqual(texts.map(() => true));
    // The session still works after the burst.
    await client.ping({ timeout: CALL_TIMEOUT_MS });
  }, 30_000);

  it('legacy SSE: 24 server messages of 1 MiB sent in one turn all arrive', async () => {
    const server = createE2eServer();
    const sessions: SseServerTransport[] = [];
    const { url } = await hostSseTracked((transport) => {
      sessions.push(transport);
      return server.connect(transport);
    });
    const client = resources.track(e2eClient({ protocolVersion: '2024-11-05' }));
    const transport = new SseClientTransport(url);
    await client.connect(transport);
    const received = tapReceived(transport);
    const data = payload(MiB);
    const sends = Array.from({ length: BURST }, (_, i) =>
      sessions[0]!.send({
        jsonrpc: '2.0',
        method: 'notifications/message',
        params: { level: 'info', data: `${i}:${data}` },
      }),
    );
    await Promise.all(sends);
    await waitFor(() => burstOf(received).length === BURST, {
      timeoutMs: CALL_TIMEOUT_MS,
      what: 'every message',
    });
    const texts = burstOf(received).map((message) => message.params.data);
    expect(texts.map((text, i) => text === `${i}:${data}`)).toEqual(texts.map(() => true));
    await client.ping({ timeout: CALL_TIMEOUT_MS });
  }, 30_000);

  it('legacy SSE: 24 concurrent 1 MiB results and a ping', async () => {
    const server = createE2eServer();
    const { url } = await hostSseTracked((transport) => server.connect(transport));
    const client = resources.track(e2eClient({ protocolVersion: '2024-11-05' }));
    await client.connect(new SseClientTransport(url));
    await burst(client);
  }, 30_000);
});
