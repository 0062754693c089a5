import { readFileSync } from 'node:fs';
import { dirname, join, resolve } from 'node:path';
import { fileURLToPath } from 'node:url';
import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest';
import { WebSocket, WebSocketServer } from 'ws';
import type { JSONRPCMessage } from '@x/protocol';
import { SendBufferFullError, SendStalledError, WebSocketClientTransport } from '../src/browser.js';
import { defer, request, startServer } from './helpers.js';
import { waitFor } from '@x/test-kit';

const srcDir = join(dirname(fileURLToPath(import.meta.url)), '../src');

/** Every module specifier reachable from `entry` through relative imports. */
function importGraph(entry: string): { files: string[]; external: string[] } {
  const files = new Set<string>();
  const external = new Set<string>();
  const visit = (file: string): void => {
    if (files.has(file)) return;
    files.add(file);
    const source = readFileSync(file, 'utf8');
    for (const match of source.matchAll(
      /(?:import|export)[^'"]*?from\s*'([^']+)'|import\(\s*'([^']+)'\s*\)/g,
    )) {
      const specifier = match[1] ?? match[2] ?? '';
      if (specifier.startsWith('.')) visit(resolve(dirname(file), specifier.replace(/\.js$/, '.ts')));
      else external.add(specifier);
    }
  };
  visit(join(srcDir, entry));
  return { files: [...files], external: [...external] };
}

describe('browser build', () => {
  it('reaches nothing but @x/protocol (its zod-free ./core and the Web-standard ./http): no ws, no node: modules', () => {
    const { files, external } = importGraph('browser.ts');
    // @x/protocol/transport: the semver-covered transport kit (deliverMessage, InFlightSet, …), zod-free.
    // ./core, not the root: the root holds the zod schemas, which a browser app loads only on demand (issue 30).
    expect(external.sort()).toEqual(['@x/protocol/core', '@x/protocol/http', '@x/protocol/transport']);
    expect(files.map((file) => file.slice(srcDir.length + 1)).sort()).not.toContain('client-transport.ts');
  });

  it('is what the browser export condition resolves to, with @x/source first', () => {
    const manifest = JSON.parse(readFileSync(join(srcDir, '../package.json'), 'utf8'));
    const root = manifest.exports['.'];
    expect(Object.keys(root)[0]).toBe('@x/source');
    expect(root['@x/source'].browser).toBe('./src/browser.ts');
    expect(root.browser).toEqual({ types: './dist/browser.d.ts', default: './dist/browser.js' });
  });

  describe('on a global WebSocket', () => {
    beforeEach(() => {
      // Node 20 has no global WebSocket; `ws` implements the browser API the build relies on.
      vi.stubGlobal('WebSocket', WebSocket);
    });
    afterEach(() => {
      vi.unstubAllGlobals();
    });

    it('exchanges messages with our server', async () => {
      const server = await startServer();
      const client = new WebSocketClientTransport(server.url);
      defer(() => client.close());
      const received: unknown[] = [];
      client.onmessage = (message) => received.push(message);
      await client.start();
      await Promise.all(Array.from({ length: 100 }, (_, i) => client.send(request(i))));
      await waitFor(() => received.length === 100);
      expect(received[99]).toEqual({ jsonrpc: '2.0', id: 99, result: { echo: {} } });
    });

    it('sends a burst of 24 messages of 1 MiB whole: what does not fit maxBufferedBytes waits for the socket to drain (issue #35)', async () => {
      const server = await startServer();
      const client = new WebSocketClientTransport(server.url);
      defer(() => client.close());
      const received: JSONRPCMessage[] = [];
      client.onmessage = (message) => received.push(message);
      await client.start();
      const text = 'b'.repeat(1024 * 1024);
      const outcomes = await Promise.all(
        Array.from({ length: 24 }, (_, i) =>
          client.send(request(i, { text })).then(
            () => 'sent',
            (error: unknown) => error,
          ),
        ),
      );
      expect(outcomes).toEqual(outcomes.map(() => 'sent'));
      await waitFor(() => received.length === 24, { timeoutMs: 8_000, what: 'every echo' });
      expect(
        received
          .map((message) => ('id' in message ? message.id : undefined))
          .sort((a, b) => Number(a) - Number(b)),
      ).toEqual(Array.from({ length: 24 }, (_, i) => i));
    });

    it.each([
      {
        what: 'the queue passes maxQueuedBytes',
        options: { maxBufferedBytes: 64 * 1024, maxQueuedBytes: 2 * 1024 * 1024 },
        error: SendBufferFullError,
        names: /maxQueuedBytes \(2097152\)/,
      },
      {
        what: 'nothing drains for sendStallTimeoutMs',
        options: { sendStallTimeoutMs: 100 },
        error: SendStalledError,
        names: /sendStallTimeoutMs \(100 ms\)/,
      },
    ])(
      'gives up on a server that stops reading when $what: onerror, every waiting send fails, the connection ends (issue #35)',
      async ({ options, error: errorClass, names }) => {
        // Never started: the server's socket stays paused, so it reads nothing.
        const server = await startServer({ autoStart: false });
        const client = new WebSocketClientTransport(server.url, options);
        defer(() => client.close());
        const errors: Error[] = [];
        client.onerror = (error) => errors.push(error);
        let closed = false;
        client.onclose = () => {
          closed = true;
        };
        await client.start();
        const text = 'b'.repeat(1024 * 1024);
        // 32 MiB: far more than the kernel takes from a reader that reads nothing.
        const outcomes = Promise.all(
          Array.from({ length: 32 }, (_, i) =>
            client.send(request(i, { text })).then(
              () => 'sent',
              (error: unknown) => error,
            ),
          ),
        );
        await waitFor(() => errors.length > 0, { timeoutMs: 8_000, what: 'the stall' });
        const error = errors[0] as Error;
        expect(error).toBeInstanceOf(errorClass);
        expect(error.message).toMatch(names);
        const settled = await outcomes;
        expect(settled.filter((outcome) => outcome === error).length).toBeGreaterThan(0);
        expect(settled.every((outcome) => outcome === 'sent' || outcome === error)).toBe(true);
        await waitFor(() => closed, { timeoutMs: 8_000, what: 'the connection to end' });
      },
    );

    it('closes on binary (1003) and oversized (1009) frames', async () => {
      const wss = new WebSocketServer({ port: 0, host: '127.0.0.1', handleProtocols: () => 'mcp' });
      defer(() => new Promise((done) => wss.close(done)));
      await new Promise((done) => wss.once('listening', done));
      const codes: number[] = [];
      let mode: 'binary' | 'big' = 'binary';
      wss.on('connection', (socket) => {
        socket.on('close', (code) => codes.push(code));
        if (mode === 'binary') socket.send(Buffer.from([1]), { binary: true });
        else socket.send(JSON.stringify({ jsonrpc: '2.0', method: 'x', params: { pad: 'é'.repeat(600) } }));
      });
      const address = wss.address();
      if (typeof address !== 'object' || address === null) throw new Error('no address');
      const url = `ws://127.0.0.1:${address.port}`;

      const first = new WebSocketClientTransport(url);
      defer(() => first.close());
      await first.start();
      await waitFor(() => codes.length === 1);

      mode = 'big';
      const second = new WebSocketClientTransport(url, { maxMessageBytes: 1000 });
      defer(() => second.close());
      await second.start();
      await waitFor(() => codes.length === 2);
      expect(codes).toEqual([1003, 1009]);
    });

    it('reconnects after a drop and fires onreconnect', async () => {
      const server = await startServer();
      const client = new WebSocketClientTransport(server.url, { reconnect: { initialDelayMs: 10 } });
      defer(() => client.close());
      let reconnects = 0;
      let closes = 0;
      client.onreconnect = () => {
        reconnects++;
      };
      client.onclose = () => closes++;
      await client.start();
      const serverSide = await server.next();
      await serverSide.closeWith(1001, 'restart');
      await waitFor(() => reconnects === 1);
      expect(closes).toBe(0);
      expect(server.listener.sessions.size).toBe(1);
    });
  });
});
