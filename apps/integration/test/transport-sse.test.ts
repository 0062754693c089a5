import { createServer } from 'node:http';
import type { AddressInfo, Socket } from 'node:net';
import type { Client } from '@x/client';
import { ConnectionClosedError, ErrorCode, type McpError } from '@x/protocol';
import type { McpServer } from '@x/server';
import { createSseHandler, type SseHandler, SseClientTransport } from '@x/transport-sse';
import { toNodeHandler } from '@x/transport-sse/node';
import { afterEach, describe, expect, it } from 'vitest';
import {
  createE2eServer,
  e2eClient,
  methodsOf,
  payload,
  Resources,
  recordSends,
  rejectionOf,
  startSilenceableProxy,
  textOf,
} from './fixtures/e2e-helpers.js';
import { waitFor } from '@x/test-kit';

// Issue 7, end-to-end: the real x-mcp Client and McpServer over the legacy HTTP+SSE transport
// (2024-11-05) on 127.0.0.1: big results, many calls in flight, and a server that vanishes.

const resources = new Resources();
afterEach(() => resources.closeAll());

interface Hosted {
  sse: SseHandler;
  url: URL;
  /** The server side's TCP socket of every GET (event stream), in order. */
  streamSockets: Socket[];
}

async function host(server: McpServer): Promise<Hosted> {
  const sse = createSseHandler({ onsession: (transport) => server.connect(transport) });
  const handle = toNodeHandler(sse);
  const streamSockets: Socket[] = [];
  const http = createServer((req, res) => {
    if (req.method === 'GET') streamSockets.push(req.socket);
    void handle(req, res);
  });
  await new Promise<void>((resolve) => http.listen(0, '127.0.0.1', resolve));
  const { port } = http.address() as AddressInfo;
  resources.track({
    close: async () => {
      await sse.close();
      http.closeAllConnections();
      await new Promise<void>((resolve) => http.close(() => resolve()));
    },
  });
  return { sse, url: new URL(`http://127.0.0.1:${port}/sse`), streamSockets };
}

async function connect(
  url: URL,
  client: Client = e2eClient({ protocolVersion: '2024-11-05' }),
): Promise<{ client: Client; transport: SseClientTransport; closes: () => number }> {
  const transport = new SseClientTransport(url);
  let closes = 0;
  client.onclose = () => closes++;
  resources.track(client);
  await client.connect(transport);
  return { client, transport, closes: () => closes };
}

describe('legacy HTTP+SSE end to end (issue 7)', () => {
  it.each([
    { selection: '2024-11-05', version: '2024-11-05' },
    { selection: 'legacy', version: '2025-11-25' },
  ] as const)(
    '$selection client: initialize over the stream, a tool call, the session ends with the client',
    async ({ selection, version }) => {
      const server = createE2eServer();
      const hosted = await host(server);
      const { transport, sent } = recordSends(new SseClientTransport(hosted.url));
      const client = resources.track(e2eClient({ protocolVersion: selection }));
      await client.connect(transport);

      expect([client.era, client.protocolVersion]).toEqual(['legacy', version]);
      expect(transport.sessionId).toBeDefined();
      expect(hosted.sse.getSession(transport.sessionId!)).toBeDefined();
      expect(textOf(await client.callTool({ name: 'echo', arguments: { text: 'sse' } }))).toBe('sse');
      expect(methodsOf(sent)).toEqual(['initialize', 'notifications/initialized', 'tools/call']);
      await client.close();
      await waitFor(() => hosted.sse.sessionCount === 0 && server.sessions.size === 0, {
        what: 'server cleanup',
      });
    },
  );

  it('carries a 1 MiB tool result intact', async () => {
    const hosted = await host(createE2eServer());
    const { client } = await connect(hosted.url);
    const length = 1024 * 1024;
    const received = textOf(await client.callTool({ name: 'blob', arguments: { length } }));
    expect(received.length).toBe(length);
    expect(received === payload(length)).toBe(true);
  });

  it('answers 1,000 concurrent calls, each with its own result', async () => {
    const hosted = await host(createE2eServer());
    const { client } = await connect(hosted.url);
    const results = await Promise.all(
      Array.from({ length: 1_000 }, (_, i) =>
        client.callTool({ name: 'echo', arguments: { text: `sse-${i}` } }),
      ),
    );
    expect(results.map(textOf)).toEqual(Array.from({ length: 1_000 }, (_, i) => `sse-${i}`));
  });

  it('server socket of the stream destroyed: the client closes at once and the pending call rejects', async () => {
    let started = 0;
    const server = createE2eServer({ onWaitStarted: () => started++ });
    const hosted = await host(server);
    const { client, closes } = await connect(hosted.url);
    const pending = client.callTool({ name: 'wait', arguments: {} });
    await waitFor(() => started === 1, { what: 'the call to reach the server' });

    hosted.streamSockets[0]!.destroy();
    const error = await rejectionOf(pending);
    expect(error).toBeInstanceOf(ConnectionClosedError);
    expect((error as McpError).code).toBe(ErrorCode.ConnectionClosed);
    await waitFor(() => closes() === 1, { what: 'client onclose' });
    // The server noticed too: the session and its handler's request are gone.
    await waitFor(() => hosted.sse.sessionCount === 0 && server.sessions.size === 0, {
      what: 'server cleanup',
    });
    expect(closes()).toBe(1);
    const after = await rejectionOf(client.callTool({ name: 'echo', arguments: { text: 'x' } }));
    expect(after).toBeInstanceOf(ConnectionClosedError);
  });
});

describe('legacy HTTP+SSE: a server that goes silent', () => {
  it('no FIN, no RST, no keep-alives: the idle timeout closes the client and the pending call rejects', async () => {
    let started = 0;
    const server = createE2eServer({ onWaitStarted: () => started++ });
    const sse = createSseHandler({ onsession: (t) => server.connect(t), keepAliveMs: 50 });
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
    const proxy = resources.track(
      await startSilenceableProxy({ host: '127.0.0.1', port: (http.address() as AddressInfo).port }),
    );
    const client = resources.track(e2eClient({ protocolVersion: '2024-11-05' }));
    let closes = 0;
    client.onclose = () => closes++;
    const transport = new SseClientTransport(`http://127.0.0.1:${proxy.port}/sse`, {
      idleTimeoutMs: 500,
    });
    await client.connect(transport);
    // Observe the rejection at once: it lands while the test is still waiting for onclose.
    const rejected = rejectionOf(client.callTool({ name: 'wait', arguments: {} }));
    await waitFor(() => started === 1, { what: 'the call to reach the server' });
    proxy.silence();
    await waitFor(() => closes === 1, { what: 'client onclose', timeoutMs: 3_000 });
    const error = await rejected;
    expect(error).toBeInstanceOf(ConnectionClosedError);
    expect((error as McpError).code).toBe(ErrorCode.ConnectionClosed);
  });
});
