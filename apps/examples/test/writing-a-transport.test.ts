import { readFile } from 'node:fs/promises';
import { createServer, connect, type Server, type Socket } from 'node:net';
import type { JSONRPCMessage } from '@x/protocol/core';
import { runTransportContract } from '@x/protocol/testing';
import { describe, expect, it, vi } from 'vitest';
import { SocketTransport, type SocketTransportOptions } from './docs/socket-transport.js';

// docs/writing-a-transport.md walks a contributor through `SocketTransport`, shown verbatim from
// ./docs/socket-transport.ts: `pnpm --filter @x/examples typecheck` checks that file (this folder is in
// its tsconfig), this test that the doc still shows it, that it imports only public entries, and that
// it passes the transport contract.
const DOC = new URL('../../../docs/writing-a-transport.md', import.meta.url);
const FILE = new URL('./docs/socket-transport.ts', import.meta.url);

/** A connected pair over a real loopback TCP connection; the server end is the accepted socket. */
async function socketPair(
  serverOptions: SocketTransportOptions = {},
): Promise<{ client: SocketTransport; server: SocketTransport; listener: Server }> {
  const listener = createServer();
  const accepted = new Promise<Socket>((resolve) => listener.once('connection', resolve));
  await new Promise<void>((resolve) => listener.listen(0, '127.0.0.1', resolve));
  const address = listener.address();
  if (address === null || typeof address === 'string') throw new Error('no TCP address');
  const clientSocket = connect(address.port, '127.0.0.1');
  await new Promise<void>((resolve, reject) => {
    clientSocket.once('connect', resolve);
    clientSocket.once('error', reject);
  });
  return {
    client: new SocketTransport(clientSocket),
    server: new SocketTransport(await accepted, serverOptions),
    listener,
  };
}

describe('docs/writing-a-transport.md', () => {
  it('shows socket-transport.ts verbatim', async () => {
    const [doc, code] = await Promise.all([readFile(DOC, 'utf8'), readFile(FILE, 'utf8')]);
    const start = doc.indexOf('\n## The whole transport\n');
    expect(start, 'the doc has no "## The whole transport" section').toBeGreaterThan(-1);
    // A four-backtick fence: the file's JSDoc holds ``` fences of its own.
    const block = /````ts\n([\s\S]*?)````/.exec(doc.slice(start))?.[1];
    expect(block).toBe(code);
  });

  it('builds the transport on public entries only (never @x/protocol/internal)', async () => {
    const code = await readFile(FILE, 'utf8');
    const specifiers = [...code.matchAll(/^import[^'"]*from '([^']+)';$/gm)].map((match) => match[1]);
    expect(specifiers.sort()).toEqual(['@x/protocol/core', '@x/protocol/transport', 'node:net']);
  });

  it('passes the transport contract over a real loopback TCP connection', async () => {
    const result = await runTransportContract(
      async () => {
        const { client, server, listener } = await socketPair();
        return {
          client,
          server,
          dispose: () => new Promise<void>((resolve) => listener.close(() => resolve())),
        };
      },
      { timeoutMs: 30_000 },
    );
    expect(result.skipped).toEqual([]);
    expect(result.passed.length).toBeGreaterThanOrEqual(10);
  }, 120_000);

  it('reports a line over maxMessageBytes without closing, and ends with a TransportLostError when the peer hangs up', async () => {
    const { client, server, listener } = await socketPair({ maxMessageBytes: 64 });
    const errors: Error[] = [];
    const received: JSONRPCMessage[] = [];
    server.onerror = (error) => errors.push(error);
    server.onmessage = (message) => received.push(message);
    const closed = new Promise<void>((resolve) => {
      client.onclose = resolve;
    });
    try {
      await Promise.all([client.start(), server.start()]);
      await client.send({ jsonrpc: '2.0', method: 'test/big', params: { text: 'x'.repeat(200) } });
      await client.send({ jsonrpc: '2.0', method: 'test/small' });
      await vi.waitFor(() => expect(received).toHaveLength(1), { timeout: 10_000 });
      expect(received[0]).toEqual({ jsonrpc: '2.0', method: 'test/small' });
      expect(errors).toEqual([expect.objectContaining({ name: 'MessageTooLargeError', limit: 64 })]);
      expect(errors[0]?.message).toMatch(/maxMessageBytes/);
      await server.close();
      await closed;
      expect(client.closeReason?.name).toBe('TransportLostError');
      await expect(client.send({ jsonrpc: '2.0', method: 'test/late' })).rejects.toThrow(/closed/i);
    } finally {
      await Promise.all([client.close(), server.close()]);
      await new Promise<void>((resolve) => listener.close(() => resolve()));
    }
  });
});
