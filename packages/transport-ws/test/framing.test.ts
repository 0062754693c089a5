import { describe, expect, it } from 'vitest';
import { WebSocketServer } from 'ws';
import { WebSocketClientTransport } from '../src/index.js';
import { defer, rawClient, startServer } from './helpers.js';
import { waitFor } from '@x/test-kit';

describe('framing rules (SEP-1288)', () => {
  it('closes with 1003 when a client sends a binary frame', async () => {
    const server = await startServer();
    const errors: Error[] = [];
    const { socket, opened, closed } = rawClient(server.url);
    await opened;
    const serverSide = await server.next();
    let serverClosed = false;
    serverSide.onclose = () => {
      serverClosed = true;
    };
    serverSide.onerror = (error) => errors.push(error);
    socket.send(Buffer.from('{"jsonrpc":"2.0","method":"x"}'), { binary: true });
    expect((await closed).code).toBe(1003);
    await waitFor(() => serverClosed);
    expect(server.received[0]).toEqual([]);
  });

  it('closes with 1003 when a server sends our client a binary frame', async () => {
    const wss = new WebSocketServer({ port: 0, host: '127.0.0.1', handleProtocols: () => 'mcp' });
    defer(() => new Promise((resolve) => wss.close(resolve)));
    await new Promise((resolve) => wss.once('listening', resolve));
    const codes: number[] = [];
    wss.on('connection', (socket) => {
      socket.on('close', (code) => codes.push(code));
      socket.send(Buffer.from([1, 2, 3]), { binary: true });
    });
    const address = wss.address();
    if (typeof address !== 'object' || address === null) throw new Error('no address');
    const client = new WebSocketClientTransport(`ws://127.0.0.1:${address.port}`, { keepAliveMs: 0 });
    defer(() => client.close());
    let closes = 0;
    client.onclose = () => closes++;
    await client.start();
    await waitFor(() => codes.length === 1 && closes === 1);
    expect(codes).toEqual([1003]);
  });

  it('closes with 1009 when a message exceeds maxMessageBytes', async () => {
    const server = await startServer({ maxMessageBytes: 64 * 1024 });
    const { socket, opened, closed } = rawClient(server.url);
    await opened;
    socket.send(JSON.stringify({ jsonrpc: '2.0', method: 'x', params: { pad: 'y'.repeat(65 * 1024) } }));
    expect((await closed).code).toBe(1009);
  });

  it('our client closes with 1009 on an oversized server message', async () => {
    const server = await startServer();
    const client = new WebSocketClientTransport(server.url, { keepAliveMs: 0, maxMessageBytes: 1024 });
    defer(() => client.close());
    let closed = false;
    client.onclose = () => {
      closed = true;
    };
    await client.start();
    const serverSide = await server.next();
    let serverClosed = false;
    serverSide.onclose = () => {
      serverClosed = true;
    };
    await serverSide.send({ jsonrpc: '2.0', method: 'x', params: { pad: 'y'.repeat(2048) } });
    await waitFor(() => closed && serverClosed);
  });

  it('answers an invalid JSON text frame with a parse error (id null) and stays open', async () => {
    const server = await startServer();
    const errors: Error[] = [];
    const { socket, opened } = rawClient(server.url);
    const replies: unknown[] = [];
    socket.on('message', (data) => replies.push(JSON.parse(data.toString())));
    await opened;
    const serverSide = await server.next();
    serverSide.onerror = (error) => errors.push(error);

    socket.send('{"jsonrpc": "2.0", "method": ');
    await waitFor(() => replies.length === 1);
    expect(replies[0]).toEqual({
      jsonrpc: '2.0',
      id: null,
      error: { code: -32700, message: 'Parse error: message is not valid JSON' },
    });
    expect(errors[0]).toMatchObject({ code: -32700 });

    // Valid JSON that is not JSON-RPC gets -32600, echoing the id when it could be read.
    socket.send('{"jsonrpc":"1.0","id":7,"method":"x"}');
    socket.send(JSON.stringify({ jsonrpc: '2.0', id: 8, method: 'still/open' }));
    await waitFor(() => replies.length === 3);
    expect(replies[1]).toMatchObject({ jsonrpc: '2.0', id: 7, error: { code: -32600 } });
    expect(replies[2]).toEqual({ jsonrpc: '2.0', id: 8, result: { echo: null } });
    expect(socket.readyState).toBe(socket.OPEN);
  });
});
