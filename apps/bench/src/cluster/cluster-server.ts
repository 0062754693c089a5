// One x-mcp server process of `dist/cluster.js` and `dist/cluster-load.js`: legacy Streamable HTTP on a
// random loopback port, with in-memory state (argv: memory <name>), every store on Redis Cluster
// (argv: cluster <name> <url,url,…>: `connectRedisCluster`, sharded pub/sub) or every store on one Redis
// (argv: redis <name> <url> [two-step]:
// with `two-step`, the event store hides `storeEventAndPublish`, so the transport stores, then publishes,
// as it does with a store that lacks it: the before/after of issue #27's one round trip). Prints
// `{"port":N}` once listening; answers each `round-trips` line on stdin with `{"roundTrips":N}` and each
// `memory` line with `{"rss":N,"heapUsed":N}`; exits
// on SIGTERM or when its parent's stdin closes.
import { subscribe } from 'node:diagnostics_channel';
import { createServer } from 'node:http';
import { createInterface } from 'node:readline';
import { setTimeout as sleep } from 'node:timers/promises';
import type { AddressInfo } from 'node:net';
import {
  connectRedisCluster,
  type RedisClient,
  RedisEventStore,
  RedisMessageBus,
  RedisSessionStore,
  RedisSubscriptionFanOut,
} from '@x/redis';
import { McpServer } from '@x/server';
import { createStreamableHttpHandler, type StreamableHttpHandlerOptions } from '@x/transport-streamable-http';
import { toNodeHandler } from '@x/transport-streamable-http/node';
import { createClient } from 'redis';
import { z } from 'zod';

const [mode, name, url = '', steps] = process.argv.slice(2) as [string, string, string?, string?];
// Redis round trips this process waited for, counted by node-redis's own tracing channels: one per
// command sent on its own, one per MULTI … EXEC or pipeline (its commands are traced with `batchMode`).
let roundTrips = 0;
subscribe('tracing:node-redis:command:start', (context) => {
  if (typeof context !== 'object' || context === null || !('batchMode' in context)) roundTrips++;
});
subscribe('tracing:node-redis:batch:start', () => {
  roundTrips++;
});
const redis: RedisClient | undefined =
  mode === 'redis'
    ? await createClient({ url }).connect()
    : mode === 'cluster'
      ? await connectRedisCluster({ rootNodes: url.split(',') })
      : undefined;
const sessionStore = redis === undefined ? undefined : new RedisSessionStore({ client: redis });
const server = new McpServer(
  { name: 'bench-cluster', version: '1.0.0' },
  redis === undefined ? {} : { sessionStore, fanOut: new RedisSubscriptionFanOut({ client: redis }) },
);
server.registerTool('echo', { inputSchema: z.object({ text: z.string() }) }, ({ text }) => ({
  content: [{ type: 'text', text }],
}));
server.registerTool('emit', { inputSchema: z.object({ count: z.number() }) }, async ({ count }, ctx) => {
  // Outside any request: each message travels on the session's GET stream, on whichever process holds
  // it. `sentAt` is wall-clock time in ms with sub-ms precision (same host, so comparable).
  // One at a time, 1 ms apart: the figure is one message's latency, not a queue's.
  for (let n = 0; n < count; n++) {
    if (n > 0) await sleep(1);
    await ctx.session.notification({
      method: 'notifications/message',
      params: { level: 'info', data: { sentAt: performance.timeOrigin + performance.now(), from: name } },
    });
  }
  return { content: [{ type: 'text', text: name }] };
});
server.registerTool('ask', { inputSchema: z.object({}) }, async (_args, ctx) => {
  // A server→client request: its answer is POSTed wherever the balancer sends it, and must reach here.
  const answer = await ctx.elicit({
    mode: 'form',
    message: 'ok?',
    requestedSchema: { type: 'object', properties: { ok: { type: 'boolean' } } },
  });
  return { content: [{ type: 'text', text: `${name}:${answer.action}` }] };
});
const options: StreamableHttpHandlerOptions = {
  onsession: (transport) => server.connect(transport),
  instanceId: name,
  path: '/mcp',
  // W5 opens hundreds of sessions from one address in a burst, past the default per-caller rate limit.
  sessionRateLimit: false,
};
if (redis !== undefined) {
  options.sessionStore = sessionStore;
  const eventStore = new RedisEventStore({ client: redis });
  options.eventStore =
    steps === 'two-step'
      ? {
          storeEvent: (streamId, message) => eventStore.storeEvent(streamId, message),
          getStreamIdForEventId: (eventId) => eventStore.getStreamIdForEventId(eventId),
          replayEventsAfter: (lastEventId, sink) => eventStore.replayEventsAfter(lastEventId, sink),
        }
      : eventStore;
  options.messageBus = new RedisMessageBus({ client: redis });
}
const handler = createStreamableHttpHandler(options);
// Idle keep-alive connections outlive the clients' own idle timeout (undici: 4 s), as behind a production
// balancer: a server closing first races a request on the same socket ("fetch failed" under load).
const KEEP_ALIVE_TIMEOUT_MS = 65_000;
const http = createServer({ keepAliveTimeout: KEEP_ALIVE_TIMEOUT_MS }, toNodeHandler(handler)).listen(
  0,
  '127.0.0.1',
  () => {
    process.stdout.write(`${JSON.stringify({ port: (http.address() as AddressInfo).port })}\n`);
  },
);
const stop = (): void => {
  http.closeAllConnections();
  http.close();
  redis?.destroy();
  process.exit(0);
};
process.on('SIGTERM', stop);
process.stdin.on('end', stop);
createInterface({ input: process.stdin }).on('line', (line) => {
  if (line === 'round-trips') process.stdout.write(`${JSON.stringify({ roundTrips })}\n`);
  if (line === 'memory') {
    const { rss, heapUsed } = process.memoryUsage();
    process.stdout.write(`${JSON.stringify({ rss, heapUsed })}\n`);
  }
});
