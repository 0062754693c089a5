// Example: liveness and interceptors. One McpServer behind Streamable HTTP (with a /healthz endpoint
// and a per-client rate limit) and WebSocket; clients that measure round-trip times with a p95 alert,
// log their traffic with secrets redacted, and run an MCP heartbeat that declares a hung server dead.
import assert from 'node:assert/strict';
import { createServer } from 'node:http';
import type { AddressInfo } from 'node:net';
import { Client } from '@x/client';
import {
  HeartbeatTimeoutError,
  McpError,
  type RoundTripAlert,
  roundTripMetrics,
  type TrafficLogEntry,
  trafficLog,
} from '@x/protocol';
import { McpServer, RATE_LIMITED, rateLimit } from '@x/server';
import {
  createHealthCheck,
  createStreamableHttpHandler,
  StreamableHttpClientTransport,
} from '@x/transport-streamable-http';
import { toNodeHandler } from '@x/transport-streamable-http/node';
import { WebSocketClientTransport } from '@x/transport-ws';
import { listenWebSocket } from '@x/transport-ws/node';
import { z } from 'zod';

const server = new McpServer({ name: 'resilient', version: '1.0.0' });
server.registerTool('work', { inputSchema: z.object({ ms: z.number() }) }, async ({ ms }) => {
  await new Promise((resolve) => setTimeout(resolve, ms));
  return { content: [{ type: 'text', text: `worked ${ms} ms` }] };
});
server.registerTool(
  'login',
  { inputSchema: z.object({ user: z.string(), password: z.string().meta({ writeOnly: true }) }) },
  ({ user }) => ({ content: [{ type: 'text', text: `hello ${user}` }] }),
);
// Server-side interceptors: the first installed is the outermost.
let frozen = false;
server.use(
  // Simulates a hung server: pings are swallowed, never answered.
  {
    incomingRequest: (request, _ctx, next) =>
      frozen && request.method === 'ping' ? new Promise(() => {}) : next(request),
  },
  // Nine requests per caller (initialize, server/discover and ping are exempt), then one per 10 s.
  rateLimit({ perSecond: 0.1, burst: 9 }),
);

// Streamable HTTP with /healthz in front (answered before MCP's Origin and auth checks).
const health = createHealthCheck({
  check: () => ({ ok: true, details: { sessions: server.sessions.size } }),
});
const mcp = createStreamableHttpHandler({ onsession: (transport) => server.connect(transport) });
const http = createServer(toNodeHandler(async (request) => (await health(request)) ?? mcp(request)));
await new Promise<void>((resolve) => http.listen(0, '127.0.0.1', resolve));
const base = `http://127.0.0.1:${(http.address() as AddressInfo).port}`;
const ws = await listenWebSocket({ port: 0, onsession: (transport) => server.connect(transport) });

const healthz = await fetch(`${base}/healthz`);
console.log(`GET /healthz → ${healthz.status} ${await healthz.text()}`);

const alerts: RoundTripAlert[] = [];
const log: TrafficLogEntry[] = [];
const metrics = roundTripMetrics({ thresholdMs: 100, minSamples: 5, onAlert: (alert) => alerts.push(alert) });
const client = new Client({ name: 'observed', version: '1.0.0' });
client.use(metrics, trafficLog({ log: (entry) => log.push(entry) }));
const heartbeat = new Client(
  { name: 'watched', version: '1.0.0' },
  { protocolVersion: 'legacy', heartbeat: { intervalMs: 100, timeoutMs: 200, maxMisses: 2 } },
);
try {
  await client.connect(new StreamableHttpClientTransport(`${base}/mcp`));
  await client.listTools();
  await client.callTool({ name: 'login', arguments: { user: 'ada', password: 'correct horse' } });
  const login = log.find((entry) => entry.method === 'tools/call');
  assert.ok(!JSON.stringify(log).includes('correct horse'));
  const logged = (login?.params as { arguments?: unknown } | undefined)?.arguments;
  console.log(`login arguments as logged: ${JSON.stringify(logged)}`);

  for (let i = 0; i < 5; i++) await client.callTool({ name: 'work', arguments: { ms: 0 } });
  for (let i = 0; i < 2; i++) await client.callTool({ name: 'work', arguments: { ms: 150 } });
  assert.equal(alerts[0]?.state, 'above');
  console.log(`alert: ${alerts[0]?.method} p95 over ${alerts[0]?.thresholdMs} ms`);

  const refused = await client
    .callTool({ name: 'work', arguments: { ms: 0 } })
    .catch((error: unknown) => error);
  assert.ok(refused instanceof McpError && refused.code === RATE_LIMITED);
  console.log(
    `rate limited: error ${refused.code}, retry after ${(refused.data as { retryAfterMs: number }).retryAfterMs} ms`,
  );

  const errors: Error[] = [];
  heartbeat.onerror = (error) => errors.push(error);
  const closed = new Promise<void>((resolve) => {
    heartbeat.onclose = resolve;
  });
  await heartbeat.connect(new WebSocketClientTransport(ws.url as URL, { keepAliveMs: 0 }));
  frozen = true;
  await closed;
  assert.ok(errors.some((error) => error instanceof HeartbeatTimeoutError));
  console.log('heartbeat: the hung server was declared dead and the connection closed');
} finally {
  await Promise.all([client.close(), heartbeat.close()]);
  await mcp.close();
  await ws.close();
  http.closeAllConnections();
  await new Promise((resolve) => http.close(resolve));
}
