import { fileURLToPath } from 'node:url';
import { Client } from '@x/client';
import {
  ConnectionClosedError,
  HeartbeatTimeoutError,
  type Transport,
  TransportLostError,
} from '@x/protocol';
import { McpServer } from '@x/server';
import { SseClientTransport } from '@x/transport-sse';
import { StdioClientTransport } from '@x/transport-stdio';
import { StreamableHttpClientTransport } from '@x/transport-streamable-http';
import { WebSocketClientTransport } from '@x/transport-ws';
import { listenWebSocket } from '@x/transport-ws/node';
import { waitFor } from '@x/test-kit';
import { afterEach, describe, expect, it } from 'vitest';
import WebSocket from 'ws';
import { z } from 'zod';
import { hostHttp } from './fixtures/e2e-http.js';
import {
  createE2eServer,
  methodsOf,
  Resources,
  startSilenceableProxy,
  tapReceived,
} from './fixtures/e2e-helpers.js';

// Issue 28 §3: an MCP-level heartbeat on every transport, both sides. Spec 2025-11-25
// basic/utilities/ping: "Implementations SHOULD periodically issue pings to detect connection health
// … After several failed pings, the implementation MAY reset the connection." 2026-07-28 removed ping
// (changelog 5): there the client probes with server/discover, the one request every server MUST answer.

const resources = new Resources();
afterEach(() => resources.closeAll());

const FREEZING = fileURLToPath(new URL('./fixtures/freezing-stdio-server.mjs', import.meta.url));
const FAST = { intervalMs: 40, timeoutMs: 300, maxMisses: 2 };

async function hostWs(server: McpServer) {
  const listener = resources.track(
    await listenWebSocket({ port: 0, keepAliveMs: 0, onsession: (transport) => server.connect(transport) }),
  );
  return listener.url as URL;
}

function countRequests(server: McpServer): Map<string, number> {
  const counts = new Map<string, number>();
  server.use({
    incomingRequest: (request, _ctx, next) => {
      counts.set(request.method, (counts.get(request.method) ?? 0) + 1);
      return next(request);
    },
  });
  return counts;
}

describe('heartbeat over real transports', () => {
  it('WebSocket, legacy: pings while the server answers; a silenced link is declared dead', async () => {
    const server = createE2eServer();
    const counts = countRequests(server);
    const url = await hostWs(server);
    const proxy = resources.track(await startSilenceableProxy({ host: '127.0.0.1', port: Number(url.port) }));
    const client = resources.track(
      new Client({ name: 'c', version: '1' }, { protocolVersion: 'legacy', heartbeat: FAST }),
    );
    const errors: Error[] = [];
    client.onerror = (error) => errors.push(error);
    let closed = false;
    client.onclose = () => {
      closed = true;
    };
    // keepAliveMs 0: the WebSocket's own ping/pong is off, so only the MCP heartbeat can notice.
    await client.connect(
      new WebSocketClientTransport(`ws://127.0.0.1:${proxy.port}${url.pathname}`, { keepAliveMs: 0 }),
    );
    await waitFor(() => (counts.get('ping') ?? 0) >= 3);
    expect(closed).toBe(false);

    proxy.silence(); // the TCP connection stays open, nothing gets through any more
    const call = client
      .callTool({ name: 'echo', arguments: { text: 'lost' } })
      .catch((error: unknown) => error);
    await waitFor(() => closed, { timeoutMs: 10_000 });
    const dead = errors.find((error) => error instanceof HeartbeatTimeoutError);
    expect(dead?.message).toContain('heartbeat.timeoutMs (300 ms)');
    const failure = await call;
    expect(failure).toBeInstanceOf(HeartbeatTimeoutError);
    expect(failure).toBeInstanceOf(ConnectionClosedError);
  });

  it('WebSocket with reconnect: a link declared dead is reconnected, the session goes on', async () => {
    const server = createE2eServer();
    // The first connection's server stops answering pings (a stalled link); the next one answers.
    let sessions = 0;
    server.use({
      incomingRequest: (request, ctx, next) => {
        if (request.method === 'initialize') sessions++;
        if (request.method !== 'ping' || sessions > 1) return next(request);
        return new Promise((_, reject) =>
          ctx.signal.addEventListener('abort', () => reject(ctx.signal.reason)),
        );
      },
    });
    const url = await hostWs(server);
    const client = resources.track(
      new Client({ name: 'c', version: '1' }, { protocolVersion: 'legacy', heartbeat: FAST }),
    );
    const errors: Error[] = [];
    client.onerror = (error) => errors.push(error);
    let closed = false;
    client.onclose = () => {
      closed = true;
    };
    const transport = new WebSocketClientTransport(url.href, {
      keepAliveMs: 0,
      reconnect: { initialDelayMs: 10, maxDelayMs: 100 },
    });
    await client.connect(transport);
    await waitFor(() => errors.some((error) => error instanceof HeartbeatTimeoutError), {
      timeoutMs: 10_000,
    });
    await waitFor(() => sessions === 2, { what: 'the reconnect and new handshake' });
    const answer = await client.callTool({ name: 'echo', arguments: { text: 'still here' } });
    expect(answer).toMatchObject({ content: [{ text: 'still here' }] });
    expect(closed).toBe(false);
  });

  it('WebSocket, 2026-07-28: the probe is server/discover (the era has no ping)', async () => {
    const server = createE2eServer();
    const counts = countRequests(server);
    const url = await hostWs(server);
    const client = resources.track(
      new Client({ name: 'c', version: '1' }, { protocolVersion: 'modern', heartbeat: FAST }),
    );
    await client.connect(new WebSocketClientTransport(url, { keepAliveMs: 0 }));
    const before = counts.get('server/discover') ?? 0;
    await waitFor(() => (counts.get('server/discover') ?? 0) >= before + 3);
    expect(counts.get('ping')).toBeUndefined();
    expect(client.era).toBe('modern');
  });

  it('stdio: a server process that hangs with its pipes open is declared dead and stopped', async () => {
    const client = resources.track(
      new Client({ name: 'c', version: '1' }, { protocolVersion: 'legacy', heartbeat: FAST }),
    );
    const errors: Error[] = [];
    client.onerror = (error) => errors.push(error);
    const transport = new StdioClientTransport({
      command: process.execPath,
      args: [FREEZING],
      stderr: 'pipe',
    });
    await client.connect(transport);
    await client.ping();
    const call = client.callTool({ name: 'freeze', arguments: {} }).catch((error: unknown) => error);
    expect(await call).toBeInstanceOf(HeartbeatTimeoutError);
    expect(errors.some((error) => error instanceof HeartbeatTimeoutError)).toBe(true);
    expect(client.transport).toBeUndefined();
  });

  it('stdio with restart: a hung server is killed and restarted, the client re-initialized, not closed', async () => {
    const client = resources.track(
      new Client({ name: 'c', version: '1' }, { protocolVersion: 'legacy', heartbeat: FAST }),
    );
    const errors: Error[] = [];
    client.onerror = (error) => errors.push(error);
    const transport = new StdioClientTransport({
      command: process.execPath,
      args: [FREEZING],
      stderr: 'pipe',
      restart: { initialDelayMs: 10, maxDelayMs: 100, maxAttempts: 3 },
    });
    transport.stderr?.resume();
    await client.connect(transport);
    await client.ping();
    const hungPid = transport.pid;
    const call = client.callTool({ name: 'freeze', arguments: {} }).catch((error: unknown) => error);
    // The in-flight call is lost with the hung process: the request may have run (TransportLostError).
    const lost = await call;
    expect(lost).toBeInstanceOf(TransportLostError);
    expect((lost as TransportLostError).transport).toBe('stdio');
    expect((lost as TransportLostError).cause).toBeInstanceOf(HeartbeatTimeoutError);
    // A fresh process answers; the client stayed connected on the same transport.
    await waitFor(() => transport.restarts === 1, { what: 'the hung server restarted' });
    await client.ping();
    expect(transport.pid).not.toBe(hungPid);
    expect(client.transport).toBe(transport);
    expect(errors.some((error) => error instanceof HeartbeatTimeoutError)).toBe(true);
  });

  it('which transports declare a network (heartbeat on by default; see heartbeat-defaults.test.ts)', () => {
    const stdio: Transport = new StdioClientTransport({ command: process.execPath, args: [FREEZING] });
    expect(stdio.network).toBeUndefined();
    expect(new WebSocketClientTransport('ws://127.0.0.1:1').network).toBe(true);
    expect(new StreamableHttpClientTransport('http://127.0.0.1:1/mcp').network).toBe(true);
    expect(new SseClientTransport('http://127.0.0.1:1/sse').network).toBe(true);
  });

  it('server side: a legacy session whose client stops answering pings is closed', async () => {
    const server = new McpServer({ name: 's', version: '1' }, { heartbeat: FAST });
    const errors: Error[] = [];
    server.server.onerror = (error) => errors.push(error);
    const url = await hostWs(server);
    const socket = new WebSocket(url, 'mcp');
    const closed = new Promise<number>((resolve) => socket.on('close', (code) => resolve(code)));
    const pings: unknown[] = [];
    socket.on('message', (data) => {
      const message = JSON.parse(String(data));
      if (message.method === 'ping') pings.push(message); // and never answered
    });
    await new Promise((resolve) => socket.once('open', resolve));
    socket.send(
      JSON.stringify({
        jsonrpc: '2.0',
        id: 1,
        method: 'initialize',
        params: {
          protocolVersion: '2025-11-25',
          capabilities: {},
          clientInfo: { name: 'raw', version: '1' },
        },
      }),
    );
    socket.send(JSON.stringify({ jsonrpc: '2.0', method: 'notifications/initialized' }));
    await closed;
    expect(pings).toHaveLength(2);
    await waitFor(() => errors.some((error) => error instanceof HeartbeatTimeoutError));
    expect(server.sessions.size).toBe(0);
  });

  // The server heartbeat pings legacy sessions that ran `initialize` on a connection that lasts. A
  // stateless Streamable HTTP request has no session to keep alive (it lives as long as its POST), and
  // 2026-07-28 lets a server send no request at all (there is no ping in that revision: changelog 5).
  // The clock: a stateful WebSocket session on the same server whose client never answers pings. Once
  // it is declared dead, a heartbeat on the long-running HTTP request would have declared that dead too.
  for (const era of ['legacy', 'modern'] as const) {
    it(`server side: no heartbeat on a ${era === 'legacy' ? 'stateless legacy' : '2026-07-28'} Streamable HTTP request`, async () => {
      const server = new McpServer({ name: 's', version: '1' }, { heartbeat: FAST });
      const errors: Error[] = [];
      server.server.onerror = (error) => errors.push(error);
      let pingsSent = 0;
      server.use({
        outgoingRequest: (call, next) => {
          if (call.request.method === 'ping') pingsSent++;
          return next(call);
        },
      });
      let release: () => void = () => {};
      const gate = new Promise<void>((resolve) => {
        release = resolve;
      });
      let running = false;
      server.registerTool('hold', { inputSchema: z.object({}) }, async () => {
        running = true;
        await gate;
        return { content: [{ type: 'text', text: 'released' }] };
      });
      const http = resources.track(await hostHttp(server, { sessions: false }));
      const url = await hostWs(server);

      const client = resources.track(
        new Client({ name: 'c', version: '1' }, { protocolVersion: era, heartbeat: false }),
      );
      const transport = new StreamableHttpClientTransport(http.url);
      await client.connect(transport);
      const received = tapReceived(transport);
      const call = client.callTool({ name: 'hold', arguments: {} });
      await waitFor(() => running, { what: 'the call running' });

      const clock = new WebSocket(url, 'mcp');
      const clockClosed = new Promise<void>((resolve) => clock.on('close', () => resolve()));
      let clockPings = 0;
      clock.on('message', (data) => {
        if ((JSON.parse(String(data)) as { method?: string }).method === 'ping') clockPings++; // never answered
      });
      await new Promise((resolve) => clock.once('open', resolve));
      clock.send(
        JSON.stringify({
          jsonrpc: '2.0',
          id: 1,
          method: 'initialize',
          params: {
            protocolVersion: '2025-11-25',
            capabilities: {},
            clientInfo: { name: 'clock', version: '1' },
          },
        }),
      );
      clock.send(JSON.stringify({ jsonrpc: '2.0', method: 'notifications/initialized' }));
      await clockClosed; // declared dead: maxMisses probes went unanswered
      await waitFor(() => errors.some((error) => error instanceof HeartbeatTimeoutError));

      release();
      await expect(call).resolves.toMatchObject({ content: [{ text: 'released' }] });
      expect(methodsOf(received)).not.toContain('ping');
      // Every ping the server sent went to the clock session: none to the HTTP request.
      expect(clockPings).toBe(FAST.maxMisses);
      expect(pingsSent).toBe(clockPings);
      expect(errors.filter((error) => error instanceof HeartbeatTimeoutError)).toHaveLength(1);
      expect(client.era).toBe(era);
    });
  }
});
