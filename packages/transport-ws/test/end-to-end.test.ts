import type { JSONRPCMessage } from '@x/protocol';
import { describe, expect, it } from 'vitest';
import { WebSocket } from 'ws';
import { request, startClient, startServer } from './helpers.js';
import { afterTurn, waitFor } from '@x/test-kit';

describe('WebSocket transports end to end', () => {
  it('exchanges requests, responses and notifications in both directions', async () => {
    const server = await startServer();
    const { transport: client, received } = await startClient(server.url);
    const serverSide = await server.next();

    await client.send(request(1, { hello: 'world' }));
    await client.send({ jsonrpc: '2.0', method: 'notifications/initialized' });
    await serverSide.send({ jsonrpc: '2.0', id: 's1', method: 'roots/list' });
    await serverSide.send({ jsonrpc: '2.0', method: 'notifications/tools/list_changed' });
    await waitFor(() => received.length === 3 && server.received[0]?.length === 2);

    // The echo reply races the server's own sends; each direction keeps its own order.
    expect(received).toHaveLength(3);
    expect(received).toContainEqual({ jsonrpc: '2.0', id: 1, result: { echo: { hello: 'world' } } });
    expect(received.filter((message) => 'method' in message)).toEqual([
      { jsonrpc: '2.0', id: 's1', method: 'roots/list' },
      { jsonrpc: '2.0', method: 'notifications/tools/list_changed' },
    ]);
    expect(server.received[0]).toEqual([
      request(1, { hello: 'world' }),
      { jsonrpc: '2.0', method: 'notifications/initialized' },
    ]);
  });

  it('carries messages of both protocol eras unchanged (it only moves messages)', async () => {
    const server = await startServer();
    const { transport: client, received } = await startClient(server.url);
    client.setProtocolVersion('2025-11-25');
    const modern: JSONRPCMessage = {
      jsonrpc: '2.0',
      id: 'm',
      method: 'tools/list',
      params: { _meta: { 'io.modelcontextprotocol/protocolVersion': '2026-07-28' } },
    };
    await client.send({
      jsonrpc: '2.0',
      id: 'l',
      method: 'initialize',
      params: { protocolVersion: '2025-11-25' },
    });
    await client.send(modern);
    await waitFor(() => received.length === 2);
    expect(server.received[0]?.[1]).toEqual(modern);
  });

  it('hands the upgrade request (URL, custom headers) to handlers as extra.requestInfo', async () => {
    const server = await startServer({ path: '/mcp' });
    const extras: unknown[] = [];
    const { transport: client } = await startClient(server.url, { headers: { authorization: 'Bearer t0k' } });
    const serverSide = await server.next();
    serverSide.onmessage = (_message, extra) => extras.push(extra);
    await client.send(request(1));
    await waitFor(() => extras.length === 1);
    expect(extras[0]).toMatchObject({
      requestInfo: { method: 'GET', headers: { authorization: 'Bearer t0k' } },
    });
    const info = (extras[0] as { requestInfo: { url: URL } }).requestInfo;
    expect(info.url.pathname).toBe('/mcp');
    // Parsed once, on the first read, and kept.
    expect(info.url).toBe(info.url);
    expect(serverSide.sessionId).toMatch(/^[0-9a-f-]{36}$/);
  });

  it('keeps the query of the upgrade URL, and gives handlers no URL (but the connection) for a malformed Host', async () => {
    // Host checking (on by default on loopback) would refuse the malformed Host before any handler.
    const server = await startServer({ path: '/mcp', dnsRebindingProtection: false });
    const extras: unknown[] = [];
    const target = new URL(server.url);
    target.search = '?tenant=a%20b';
    const { transport: client } = await startClient(target);
    const serverSide = await server.next();
    serverSide.onmessage = (_message, extra) => extras.push(extra);
    await client.send(request(1));
    await waitFor(() => extras.length === 1);
    const info = (extras[0] as { requestInfo: { url: URL } }).requestInfo;
    expect(info.url.searchParams.get('tenant')).toBe('a b');

    const bad = new WebSocket(server.url, ['mcp'], { headers: { host: 'not a host' } });
    bad.on('error', () => {});
    await new Promise<void>((resolve, reject) => {
      bad.once('open', () => resolve());
      bad.once('unexpected-response', () => reject(new Error('refused')));
    });
    const badSide = await server.next();
    const badExtras: unknown[] = [];
    badSide.onmessage = (_message, extra) => badExtras.push(extra);
    bad.send(JSON.stringify(request(2)));
    await waitFor(() => badExtras.length === 1);
    const badInfo = (badExtras[0] as { requestInfo: { url?: URL; headers: Record<string, string> } })
      .requestInfo;
    expect(badInfo.headers.host).toBe('not a host');
    expect(badInfo.url).toBeUndefined();
    expect(badInfo.url).toBeUndefined();
    bad.terminate();
  });

  it('moves 1 MiB messages both ways under the default maxMessageBytes', async () => {
    const server = await startServer();
    const { transport: client, received } = await startClient(server.url);
    const big = 'x'.repeat(1024 * 1024);
    await client.send(request(1, { big }));
    await waitFor(() => received.length === 1);
    expect(received[0]).toEqual({ jsonrpc: '2.0', id: 1, result: { echo: { big } } });
  });

  it('completes 1,000 concurrent round trips with none lost', async () => {
    const server = await startServer();
    const { transport: client, received } = await startClient(server.url);
    await Promise.all(Array.from({ length: 1000 }, (_, i) => client.send(request(i, { i }))));
    await waitFor(() => received.length === 1000, { timeoutMs: 10_000, what: '1000 responses' });
    const ids = new Set(received.map((message) => ('id' in message ? message.id : undefined)));
    expect(ids.size).toBe(1000);
    // One socket keeps order, so responses arrive in request order.
    expect(received.map((message) => ('id' in message ? message.id : -1))).toEqual([...Array(1000).keys()]);
  });

  it('keeps frames that arrive before start() and delivers them in order on start', async () => {
    const server = await startServer({ autoStart: false });
    const { transport: client } = await startClient(server.url);
    const serverSide = await server.next();
    for (let i = 0; i < 5; i++) await client.send(request(i));
    // Give the frames a chance to reach the paused socket before it is started.
    await afterTurn();
    await serverSide.start();
    await waitFor(() => server.received[0]?.length === 5);
    expect(server.received[0]?.map((message) => ('id' in message ? message.id : -1))).toEqual([
      0, 1, 2, 3, 4,
    ]);
  });

  it('closes from either side: onclose fires once on both, later sends reject', async () => {
    const server = await startServer();
    const { transport: client } = await startClient(server.url);
    const serverSide = await server.next();
    let clientCloses = 0;
    let serverCloses = 0;
    client.onclose = () => clientCloses++;
    serverSide.onclose = () => serverCloses++;
    expect(server.listener.sessions.size).toBe(1);

    await client.close();
    await client.close();
    await waitFor(() => serverCloses === 1);
    expect(clientCloses).toBe(1);
    // The listener forgets a connection the peer closed by the time its onclose runs.
    expect(server.listener.sessions.size).toBe(0);
    await expect(client.send(request(1))).rejects.toMatchObject({ name: 'ConnectionClosedError' });
    await expect(serverSide.send(request(1))).rejects.toMatchObject({ name: 'ConnectionClosedError' });

    const second = await startClient(server.url);
    const serverSide2 = await server.next();
    let secondCloses = 0;
    second.transport.onclose = () => secondCloses++;
    await serverSide2.close();
    await waitFor(() => secondCloses === 1);
    expect(second.transport.connected).toBe(false);
    expect(server.listener.sessions.size).toBe(0);
  });

  it('rejects (never throws) a message JSON cannot hold, and the connection stays usable', async () => {
    const server = await startServer();
    const { transport: client, received } = await startClient(server.url);
    let sent: Promise<void> | undefined;
    expect(() => {
      sent = client.send(request(1, { n: 1n }));
    }).not.toThrow();
    await expect(sent).rejects.toThrow(/BigInt/);
    await client.send(request(2));
    await waitFor(() => received.length === 1);
  });

  it('reports a throwing onmessage handler through onerror and keeps delivering', async () => {
    const server = await startServer();
    const { transport: client } = await startClient(server.url);
    const serverSide = await server.next();
    const errors: Error[] = [];
    const seen: JSONRPCMessage[] = [];
    serverSide.onerror = (error) => errors.push(error);
    serverSide.onmessage = (message) => {
      seen.push(message);
      if (seen.length === 1) throw new Error('handler bug');
    };
    await client.send(request(1));
    await client.send(request(2));
    await waitFor(() => seen.length === 2);
    expect(errors.map((error) => error.message)).toEqual(['handler bug']);
  });

  it('refuses a second start()', async () => {
    const server = await startServer();
    const { transport: client } = await startClient(server.url);
    await expect(client.start()).rejects.toThrow(/already started/);
    const serverSide = await server.next();
    await expect(serverSide.start()).rejects.toThrow(/already started/);
  });
});
