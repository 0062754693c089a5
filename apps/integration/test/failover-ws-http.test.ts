import { type Client, type FailoverEvent, FailoverTransport, TransportLostError } from '@x/client';
import { ErrorCode, HeartbeatTimeoutError, type JSONRPCMessage, McpError, Protocol } from '@x/protocol';
import { McpServer } from '@x/server';
import { StreamableHttpClientTransport } from '@x/transport-streamable-http';
import { WebSocketClientTransport } from '@x/transport-ws';
import { listenWebSocket, type WebSocketHandler } from '@x/transport-ws/node';
import { afterTimeouts, waitFor } from '@x/test-kit';
import { afterEach, describe, expect, it } from 'vitest';
import { z } from 'zod';
import {
  e2eClient,
  methodsOf,
  Resources,
  startSilenceableProxy,
  tapReceived,
  textOf,
} from './fixtures/e2e-helpers.js';
import { type Hosted, hostHttp, posts } from './fixtures/e2e-http.js';

// Issue 28 §1 and §2 end to end: a running client on a FailoverTransport (WebSocket, then Streamable
// HTTP) while the real WebSocket server is killed and started again on the same port.

const resources = new Resources();
afterEach(() => resources.closeAll());

/** Every tool execution on any server, by tool and argument `n`; `release()` lets `slow`/`slowWrite` finish. */
class Ledger {
  readonly runs: string[] = [];
  #gates: Array<() => void> = [];

  started(name: string, n: number): Promise<void> {
    this.runs.push(`${name}:${n}`);
    return new Promise((resolve) => this.#gates.push(resolve));
  }

  release(): void {
    for (const open of this.#gates.splice(0)) open();
  }

  count(run: string): number {
    return this.runs.filter((r) => r === run).length;
  }
}

/** One McpServer definition served on both transports (a definition serves many connections). */
function createServer(ledger: Ledger): McpServer {
  const server = new McpServer({ name: 'failover-server', version: '1.0.0' });
  const args = { inputSchema: z.object({ n: z.number().int() }) };
  const text = (value: string) => ({ content: [{ type: 'text' as const, text: value }] });
  server.registerTool('look', { ...args, annotations: { readOnlyHint: true } }, ({ n }) => {
    ledger.runs.push(`look:${n}`);
    return text(`look:${n}`);
  });
  server.registerTool('slow', { ...args, annotations: { readOnlyHint: true } }, async ({ n }, ctx) => {
    const gate = ledger.started('slow', n);
    await Promise.race([gate, new Promise((resolve) => ctx.signal.addEventListener('abort', resolve))]);
    return text(`slow:${n}`);
  });
  server.registerTool('slowWrite', args, async ({ n }, ctx) => {
    const gate = ledger.started('slowWrite', n);
    await Promise.race([gate, new Promise((resolve) => ctx.signal.addEventListener('abort', resolve))]);
    return text(`slowWrite:${n}`);
  });
  server.registerResource('doc', 'doc://a', {}, (uri) => ({ contents: [{ uri: String(uri), text: 'a' }] }));
  return server;
}

interface WsHost {
  listener: WebSocketHandler;
  /** Every message the WebSocket server received, across its connections. */
  received: JSONRPCMessage[];
}

async function hostWs(server: McpServer, port = 0, received: JSONRPCMessage[] = []): Promise<WsHost> {
  const listener = await listenWebSocket({
    port,
    onsession: async (transport) => {
      await server.connect(transport);
      const tap = tapReceived(transport);
      // tapReceived returns its own array; mirror it into the shared one.
      const push = tap.push.bind(tap);
      tap.push = (...messages) => {
        received.push(...messages);
        return push(...messages);
      };
    },
  });
  resources.track(listener);
  return { listener, received };
}

async function setup(era: 'legacy' | 'modern') {
  const ledger = new Ledger();
  const server = createServer(ledger);
  const ws = await hostWs(server);
  const http: Hosted = resources.track(await hostHttp(server));
  const port = Number(ws.listener.url!.port);
  const events: FailoverEvent[] = [];
  const transport = new FailoverTransport({
    transports: [
      { name: 'websocket', create: () => new WebSocketClientTransport(`ws://127.0.0.1:${port}/mcp`) },
      { name: 'streamable-http', create: () => new StreamableHttpClientTransport(http.url) },
    ],
    probe: { initialDelayMs: 20, maxDelayMs: 200 },
    onevent: (event) => events.push(event),
  });
  const client: Client = resources.track(
    e2eClient({ protocolVersion: era, retry: { initialDelayMs: 5, maxDelayMs: 100 } }),
  );
  await client.connect(transport);
  const delivered = tapReceived(transport);
  return { ledger, server, ws, http, port, events, transport, client, delivered };
}

/** Ids of responses the client received more than once (must stay empty). */
function answeredTwice(delivered: readonly JSONRPCMessage[]): unknown[] {
  const seen = new Set<unknown>();
  const twice: unknown[] = [];
  for (const message of delivered) {
    if ('method' in message || !('id' in message)) continue;
    if (seen.has(message.id)) twice.push(message.id);
    seen.add(message.id);
  }
  return twice;
}

describe('FailoverTransport over a real WebSocket server that dies and comes back', () => {
  it('legacy: re-sends safe calls on HTTP, fails the unsafe one typed, re-initializes and re-subscribes, then switches back', async () => {
    const { ledger, server, ws, http, port, events, transport, client, delivered } = await setup('legacy');
    await client.listTools(); // learns the readOnlyHint annotations
    await client.subscribeResource({ uri: 'doc://a' });
    expect(transport.activeName).toBe('websocket');

    const slow1 = client.callTool({ name: 'slow', arguments: { n: 1 } });
    const slow2 = client.callTool({ name: 'slow', arguments: { n: 2 } });
    const write = client.callTool({ name: 'slowWrite', arguments: { n: 3 } });
    const writeFailure = write.catch((error: unknown) => error);
    await waitFor(() => ledger.runs.length === 3, { what: 'three calls running' });

    // Kill the WebSocket server with three calls in flight.
    await ws.listener.close();
    await waitFor(() => events.some((e) => e.type === 'switched'), { what: 'the switch' });
    expect(events[0]).toMatchObject({ type: 'switched', from: 'websocket', to: 'streamable-http' });
    expect(events[0]?.reason?.message).toMatch(/WebSocket connection to ws:\/\/127\.0\.0\.1/);

    // The unsafe call is not repeated: a typed error saying the transport was lost.
    const failure = await writeFailure;
    expect(failure).toBeInstanceOf(TransportLostError);
    expect((failure as TransportLostError).transport).toBe('websocket');
    expect((failure as Error).message).toMatch(/may have run/);

    // The read-only calls are re-sent on HTTP (after the new handshake) and answered there.
    await waitFor(() => ledger.count('slow:1') + ledger.count('slow:2') === 4, { what: 're-sent calls' });
    ledger.release();
    expect(textOf(await slow1)).toBe('slow:1');
    expect(textOf(await slow2)).toBe('slow:2');
    expect(ledger.count('slowWrite:3')).toBe(1);
    expect(transport.activeName).toBe('streamable-http');
    // The session was re-established on HTTP: initialize, then the subscription again.
    expect(posts(http.log, 'initialize')).toHaveLength(1);
    await waitFor(() => posts(http.log, 'resources/subscribe').length === 1, { what: 're-subscribe' });
    expect(posts(http.log, 'resources/subscribe')[0]?.body).toMatchObject({ params: { uri: 'doc://a' } });

    // Calls keep flowing while the WebSocket server comes back on the same port.
    const restarted = await hostWs(server, port);
    let n = 100;
    const during: Promise<unknown>[] = [];
    while (!events.some((e) => e.type === 'restored')) {
      during.push(client.callTool({ name: 'look', arguments: { n: n++ } }));
      await during[during.length - 1];
    }
    for (let i = 0; i < 3; i++) during.push(client.callTool({ name: 'look', arguments: { n: n++ } }));
    const answers = await Promise.all(during);
    expect(answers.map((a) => textOf(a as { content: unknown }))).toEqual(
      Array.from({ length: n - 100 }, (_, i) => `look:${100 + i}`),
    );
    expect(events.some((e) => e.type === 'probing' && e.to === 'websocket')).toBe(true);
    expect(events.find((e) => e.type === 'restored')).toMatchObject({
      from: 'streamable-http',
      to: 'websocket',
    });
    expect(transport.activeName).toBe('websocket');
    // Each look ran exactly once: none was dropped or repeated by the switch back.
    for (let i = 100; i < n; i++) expect(ledger.count(`look:${i}`)).toBe(1);
    // The new WebSocket session was initialized and re-subscribed before anything else.
    await waitFor(() => methodsOf(restarted.received).includes('resources/subscribe'), {
      what: 're-subscribe',
    });
    expect(methodsOf(restarted.received).slice(0, 2)).toEqual(['initialize', 'notifications/initialized']);
    expect(answeredTwice(delivered)).toEqual([]);
  });

  it('modern: re-opens an open subscriptions/listen stream on the new transport and keeps receiving', async () => {
    const { ledger, server, ws, events, transport, client } = await setup('modern');
    expect(client.era).toBe('modern');
    const subscription = client.listen({ resourceSubscriptions: ['doc://a'] });
    await subscription.acknowledged;
    const firstId = subscription.id;
    await ws.listener.close();
    await waitFor(() => transport.activeName === 'streamable-http', { what: 'the switch' });
    // Re-opened on HTTP as a new request; notifications reach the same iterator.
    await waitFor(() => subscription.id !== firstId, { what: 'the listen stream re-opened' });
    const next = subscription.next();
    let arrived = false;
    void next.then(() => {
      arrived = true;
    });
    await waitFor(
      () => {
        server.sendResourceUpdated('doc://a');
        return arrived;
      },
      { intervalMs: 20, what: 'a notification on the re-opened stream' },
    );
    expect((await next).value).toMatchObject({
      method: 'notifications/resources/updated',
      params: { uri: 'doc://a' },
    });
    expect(events[0]).toMatchObject({ type: 'switched', to: 'streamable-http' });
    expect(ledger.runs).toEqual([]);
    subscription.close();
  });

  it('closes with the last cause when no transport is left', async () => {
    const { ws, http, transport, client } = await setup('legacy');
    let closed = 0;
    client.onclose = () => closed++;
    await http.close();
    await ws.listener.close();
    await waitFor(() => closed === 1, { what: 'onclose' });
    expect(transport.closeReason?.message).toMatch(/every transport failed|FailoverTransport/);
    await expect(client.ping()).rejects.toThrow();
  });
});

describe('FailoverTransport and the client heartbeat', () => {
  // Spec 2025-11-25 basic/utilities/ping: "After several failed pings, the implementation MAY reset the
  // connection." Through a FailoverTransport the reset is a failover: the silent link is dropped and the
  // session moves on to the next transport; the client stays open.
  it('a WebSocket link that stops answering is declared dead by the heartbeat and failed over, not closed', async () => {
    const ledger = new Ledger();
    const server = createServer(ledger);
    const ws = await hostWs(server);
    const http: Hosted = resources.track(await hostHttp(server));
    const proxy = resources.track(
      await startSilenceableProxy({ host: '127.0.0.1', port: Number(ws.listener.url!.port) }),
    );
    const events: FailoverEvent[] = [];
    const transport = new FailoverTransport({
      transports: [
        {
          name: 'websocket',
          // keepAliveMs 0: the WebSocket's own ping/pong is off, so only the MCP heartbeat can notice.
          create: () => new WebSocketClientTransport(`ws://127.0.0.1:${proxy.port}/mcp`, { keepAliveMs: 0 }),
        },
        { name: 'streamable-http', create: () => new StreamableHttpClientTransport(http.url) },
      ],
      probe: false,
      onevent: (event) => events.push(event),
    });
    const client: Client = resources.track(
      e2eClient({ protocolVersion: 'legacy', heartbeat: { intervalMs: 40, timeoutMs: 300, maxMisses: 2 } }),
    );
    const errors: Error[] = [];
    client.onerror = (error) => errors.push(error);
    let closed = false;
    client.onclose = () => {
      closed = true;
    };
    await client.connect(transport);
    await waitFor(() => methodsOf(ws.received).filter((m) => m === 'ping').length >= 2, {
      what: 'heartbeat pings over the WebSocket',
    });

    const write = client
      .callTool({ name: 'slowWrite', arguments: { n: 1 } })
      .catch((error: unknown) => error);
    await waitFor(() => ledger.runs.length === 1, { what: 'the call running' });
    proxy.silence(); // the TCP connection stays open, nothing gets through any more

    await waitFor(() => events.some((e) => e.type === 'switched'), { what: 'the switch', timeoutMs: 10_000 });
    expect(events[0]).toMatchObject({ type: 'switched', from: 'websocket', to: 'streamable-http' });
    expect(events[0]?.reason).toBeInstanceOf(HeartbeatTimeoutError);
    expect(errors.some((error) => error instanceof HeartbeatTimeoutError)).toBe(true);
    // The call in flight on the silent link is lost, typed, with the heartbeat's verdict as the cause.
    const failure = await write;
    expect(failure).toBeInstanceOf(TransportLostError);
    expect((failure as Error).cause).toBeInstanceOf(HeartbeatTimeoutError);
    ledger.release();

    // The session goes on over HTTP, and the heartbeat keeps watching the new link.
    expect(textOf(await client.callTool({ name: 'look', arguments: { n: 2 } }))).toBe('look:2');
    await waitFor(() => posts(http.log, 'ping').length >= 2, { what: 'heartbeat pings over HTTP' });
    expect(posts(http.log, 'initialize')).toHaveLength(1);
    expect(closed).toBe(false);
    expect(transport.activeName).toBe('streamable-http');
  });
});

describe('a WebSocket client with reconnect (no failover) under the same restart', () => {
  it('re-initializes, re-subscribes and repeats the read-only call lost with the connection', async () => {
    const ledger = new Ledger();
    const server = createServer(ledger);
    const ws = await hostWs(server);
    const port = Number(ws.listener.url!.port);
    const transport = new WebSocketClientTransport(`ws://127.0.0.1:${port}/mcp`, {
      reconnect: { initialDelayMs: 20, maxDelayMs: 200, maxAttempts: 50 },
    });
    const client: Client = resources.track(
      e2eClient({
        protocolVersion: 'legacy',
        retry: { initialDelayMs: 50, maxDelayMs: 400, maxAttempts: 10 },
      }),
    );
    await client.connect(transport);
    await client.listTools();
    await client.subscribeResource({ uri: 'doc://a' });
    const slow = client.callTool({ name: 'slow', arguments: { n: 1 } });
    await waitFor(() => ledger.runs.length === 1, { what: 'the call running' });
    await ws.listener.close();
    const restarted = await hostWs(server, port);
    await waitFor(() => ledger.count('slow:1') === 2, { what: 'the call re-sent after the reconnect' });
    ledger.release();
    expect(textOf(await slow)).toBe('slow:1');
    const methods = methodsOf(restarted.received);
    expect(methods.slice(0, 2)).toEqual(['initialize', 'notifications/initialized']);
    expect(methods).toContain('resources/subscribe');
  });

  it('reports a handshake refused after the reconnect once, not twice', async () => {
    const server = createServer(new Ledger());
    const ws = await hostWs(server);
    const port = Number(ws.listener.url!.port);
    const transport = new WebSocketClientTransport(`ws://127.0.0.1:${port}/mcp`, {
      reconnect: { initialDelayMs: 20, maxDelayMs: 200, maxAttempts: 50 },
    });
    const client: Client = resources.track(e2eClient({ protocolVersion: 'legacy', heartbeat: false }));
    const errors: Error[] = [];
    client.onerror = (error) => errors.push(error);
    await client.connect(transport);
    await ws.listener.close();
    // The server that comes back on the port refuses every new session.
    resources.track(
      await listenWebSocket({
        port,
        onsession: (session) => {
          const refusing = new Protocol({});
          refusing.setRequestHandler('initialize', () => {
            throw new McpError(ErrorCode.InternalError, 'no sessions today');
          });
          return refusing.connect(session);
        },
      }),
    );
    const refused = () => errors.filter((error) => error.message.includes('no sessions today'));
    await waitFor(() => refused().length > 0, { what: 'the refused handshake reported' });
    // The transport settles the hook's promise within a few turns; a second report would land by then.
    await afterTimeouts(3);
    expect(refused()).toHaveLength(1);
  });
});
