import { createServer } from 'node:http';
import type { AddressInfo } from 'node:net';
import { fileURLToPath } from 'node:url';
import { Client } from '@x/client';
import {
  McpError,
  type RoundTripAlert,
  roundTripMetrics,
  type TrafficLogEntry,
  trafficLog,
} from '@x/protocol';
import { McpServer, RATE_LIMITED, rateLimit } from '@x/server';
import { createSseHandler } from '@x/transport-sse';
import { toNodeHandler as sseToNode } from '@x/transport-sse/node';
import { StdioClientTransport } from '@x/transport-stdio';
import {
  createHealthCheck,
  createStreamableHttpHandler,
  StreamableHttpClientTransport,
} from '@x/transport-streamable-http';
import { toNodeHandler } from '@x/transport-streamable-http/node';
import { WebSocketClientTransport } from '@x/transport-ws';
import { listenWebSocket } from '@x/transport-ws/node';
import { afterEach, describe, expect, it } from 'vitest';
import { z } from 'zod';
import { hostHttp } from './fixtures/e2e-http.js';
import { Resources } from './fixtures/e2e-helpers.js';

// Issue 28 §5: interceptors on Client and Server, and the ready ones, over real transports.

const resources = new Resources();
afterEach(() => resources.closeAll());

const SECRET = 'hunter2-do-not-log';
const E2E_SERVER = fileURLToPath(new URL('./fixtures/e2e-stdio-server.mjs', import.meta.url));

function server(): McpServer {
  const mcp = new McpServer({ name: 'interceptors', version: '1.0.0' });
  mcp.registerTool('sleep', { inputSchema: z.object({ ms: z.number() }) }, async ({ ms }) => {
    await new Promise((resolve) => setTimeout(resolve, ms)); // the tool's own work, not a test wait
    return { content: [{ type: 'text', text: `slept ${ms}` }] };
  });
  mcp.registerTool(
    'login',
    {
      inputSchema: z.object({ user: z.string(), password: z.string().meta({ writeOnly: true }) }),
    },
    ({ user }) => ({ content: [{ type: 'text', text: `welcome ${user}` }] }),
  );
  return mcp;
}

async function overWs(mcp: McpServer, client: Client): Promise<void> {
  const listener = resources.track(await listenWebSocket({ port: 0, onsession: (t) => mcp.connect(t) }));
  resources.track(client);
  await client.connect(new WebSocketClientTransport(listener.url as URL));
}

describe('interceptors over real transports', () => {
  it('round-trip metrics over WebSocket: p95 crossing the bound alerts, and recovering does too', async () => {
    const alerts: RoundTripAlert[] = [];
    const metrics = roundTripMetrics({
      thresholdMs: 60,
      minSamples: 4,
      onAlert: (alert) => alerts.push(alert),
    });
    const client = new Client({ name: 'c', version: '1' });
    client.use(metrics);
    await overWs(server(), client);
    for (let i = 0; i < 4; i++) await client.callTool({ name: 'sleep', arguments: { ms: 0 } });
    expect(alerts).toEqual([]);
    for (let i = 0; i < 2; i++) await client.callTool({ name: 'sleep', arguments: { ms: 120 } });
    expect(alerts).toMatchObject([{ method: 'tools/call', state: 'above', thresholdMs: 60 }]);
    expect(alerts[0]?.p95Ms).toBeGreaterThanOrEqual(100);
    for (let i = 0; i < 40; i++) await client.callTool({ name: 'sleep', arguments: { ms: 0 } });
    expect(alerts.map((alert) => alert.state)).toEqual(['above', 'recovered']);
    const stats = metrics.snapshot()['tools/call'];
    expect(stats).toMatchObject({ count: 46, errors: 0 });
    expect(stats?.maxMs).toBeGreaterThanOrEqual(100);
  });

  it('traffic logging over Streamable HTTP, both sides: tokens and writeOnly arguments are redacted', async () => {
    const mcp = server();
    const serverLog: TrafficLogEntry[] = [];
    mcp.use(trafficLog({ log: (entry) => serverLog.push(entry), results: true }));
    const hosted = resources.track(await hostHttp(mcp));
    const clientLog: TrafficLogEntry[] = [];
    const client = resources.track(new Client({ name: 'c', version: '1' }));
    client.use(trafficLog({ log: (entry) => clientLog.push(entry) }));
    await client.connect(new StreamableHttpClientTransport(hosted.url));
    await client.listTools(); // the tools' inputSchemas mark `password` writeOnly: both sides learn it
    await client.callTool({ name: 'login', arguments: { user: 'ada', password: SECRET } });
    await client.callTool({ name: 'sleep', arguments: { ms: 0, api_key: SECRET } }).catch(() => {});
    for (const log of [clientLog, serverLog]) {
      const text = JSON.stringify(log);
      expect(text).not.toContain(SECRET);
      const login = log.find(
        (entry) => entry.method === 'tools/call' && JSON.stringify(entry.params).includes('login'),
      );
      expect(login).toMatchObject({
        kind: 'request',
        outcome: 'ok',
        params: { name: 'login', arguments: { user: 'ada', password: '[REDACTED]' } },
      });
      expect(typeof login?.durationMs).toBe('number');
    }
    expect(clientLog[0]).toMatchObject({ direction: 'out' });
    expect(serverLog.find((entry) => entry.method === 'tools/call')).toMatchObject({ direction: 'in' });
  });

  it('a stdio child process: client-side metrics and logging see every round trip', async () => {
    const log: TrafficLogEntry[] = [];
    const metrics = roundTripMetrics();
    const client = resources.track(new Client({ name: 'c', version: '1' }));
    client.use(metrics, trafficLog({ log: (entry) => log.push(entry) }));
    await client.connect(new StdioClientTransport({ command: process.execPath, args: [E2E_SERVER] }));
    await client.callTool({ name: 'echo', arguments: { text: 'hi', token: SECRET } }).catch(() => {});
    await client.callTool({ name: 'echo', arguments: { text: 'again' } });
    expect(metrics.snapshot()['tools/call']?.count).toBe(2);
    expect(JSON.stringify(log)).not.toContain(SECRET);
    expect(log.filter((entry) => entry.method === 'tools/call').map((entry) => entry.outcome)).toEqual([
      'ok',
      'ok',
    ]);
  });

  it('rate limiting per client over Streamable HTTP: past the burst, -32029 with retryAfterMs, nothing runs', async () => {
    const mcp = server();
    let runs = 0;
    mcp.use(rateLimit({ perSecond: 0.5, burst: 3 }));
    // Installed second, so inside the limiter: it sees only what the limiter let through.
    mcp.use({
      incomingRequest: (request, _ctx, next) => {
        if (request.method === 'tools/call') runs++;
        return next(request);
      },
    });
    const hosted = resources.track(await hostHttp(mcp));
    const connect = async () => {
      const client = resources.track(new Client({ name: 'c', version: '1' }, { protocolVersion: 'legacy' }));
      await client.connect(new StreamableHttpClientTransport(hosted.url));
      return client;
    };
    const first = await connect();
    for (let i = 0; i < 3; i++) await first.callTool({ name: 'sleep', arguments: { ms: 0 } });
    const refused = await first
      .callTool({ name: 'sleep', arguments: { ms: 0 } })
      .catch((error: unknown) => error);
    expect(refused).toBeInstanceOf(McpError);
    expect(refused).toMatchObject({ code: RATE_LIMITED, data: { retryAfterMs: expect.any(Number) } });
    expect((refused as McpError).message).toContain('rateLimit.perSecond (0.5)');
    expect(await first.ping()).toEqual({}); // exempt
    // Another session is another caller: its own bucket.
    const second = await connect();
    await expect(second.callTool({ name: 'sleep', arguments: { ms: 0 } })).resolves.toBeDefined();
    expect(runs).toBe(4);
  });

  it('rateLimit keys anonymous stateless callers by client address, read through trustedProxies (issue #35)', async () => {
    const mcp = server();
    mcp.use(rateLimit({ perSecond: 0.001, burst: 1 }));
    // The loopback client is "the proxy"; each client says who it is behind it.
    const hosted = resources.track(await hostHttp(mcp, { trustedProxies: ['127.0.0.1'] }));
    const connect = async (forwardedFor: string) => {
      const client = resources.track(new Client({ name: 'c', version: '1' }, { protocolVersion: 'modern' }));
      await client.connect(
        new StreamableHttpClientTransport(hosted.url, { headers: { 'x-forwarded-for': forwardedFor } }),
      );
      return client;
    };
    const alice = await connect('203.0.113.1');
    const bob = await connect('203.0.113.2');
    const aliceAgain = await connect('203.0.113.1');
    expect(hosted.log.some((exchange) => exchange.responseSessionId !== null)).toBe(false); // no sessions
    await expect(alice.callTool({ name: 'sleep', arguments: { ms: 0 } })).resolves.toBeDefined();
    // Before, every anonymous stateless caller drew from one 'anonymous' bucket.
    await expect(bob.callTool({ name: 'sleep', arguments: { ms: 0 } })).resolves.toBeDefined();
    await expect(aliceAgain.callTool({ name: 'sleep', arguments: { ms: 0 } })).rejects.toMatchObject({
      code: RATE_LIMITED,
    });
  });

  it('a /healthz endpoint in front of both HTTP transports; everything else reaches MCP', async () => {
    let healthy = true;
    const health = createHealthCheck({
      check: () => ({ ok: healthy, details: { store: healthy ? 'up' : 'down' } }),
    });
    const mcp = server();
    const streamable = createStreamableHttpHandler({ onsession: (t) => mcp.connect(t) });
    const sse = createSseHandler({ onsession: (t) => mcp.connect(t) });
    for (const [mcpHandler, adapter] of [
      [streamable, toNodeHandler],
      [sse, sseToNode],
    ] as const) {
      const handler = async (request: Request) => (await health(request)) ?? mcpHandler(request);
      const http = createServer(adapter(handler as never));
      await new Promise<void>((resolve) => http.listen(0, '127.0.0.1', resolve));
      resources.track({
        close: async () => {
          await mcpHandler.close();
          http.closeAllConnections();
          await new Promise((resolve) => http.close(resolve));
        },
      });
      const base = `http://127.0.0.1:${(http.address() as AddressInfo).port}`;
      healthy = true;
      const ok = await fetch(`${base}/healthz`);
      expect(ok.status).toBe(200);
      expect(await ok.json()).toEqual({ status: 'ok', details: { store: 'up' } });
      healthy = false;
      const down = await fetch(`${base}/healthz`);
      expect(down.status).toBe(503);
      expect(await down.json()).toEqual({ status: 'unhealthy', details: { store: 'down' } });
      expect((await fetch(`${base}/healthz`, { method: 'POST' })).status).not.toBe(503);
      const other = await fetch(`${base}/elsewhere`, { method: 'POST', body: '{}' });
      // The MCP handler's answer (no MCP request, no session), not the health check's.
      expect(other.status).toBeGreaterThanOrEqual(400);
      expect(other.status).not.toBe(503);
      await other.body?.cancel();
    }
  });
});
