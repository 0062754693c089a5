import type { Client } from '@x/client';
import { ConnectionClosedError } from '@x/protocol';
import type { McpServer } from '@x/server';
import { WebSocketClientTransport } from '@x/transport-ws';
import { type WebSocketListenOptions, listenWebSocket } from '@x/transport-ws/node';
import { afterEach, describe, expect, it } from 'vitest';
import { createE2eServer, e2eClient, payload, Resources, textOf } from './fixtures/e2e-helpers.js';

// Issue #35 finding 1: a burst of large results over WebSocket lost about half of its answers (a send
// that found the socket holding maxBufferedBytes was refused, and the engine does not resend answers),
// and the calls hung until the request timeout. Now a burst waits for the socket to drain, and a
// connection that cannot take it ends with 1008, failing every pending request at once.

const resources = new Resources();
afterEach(() => resources.closeAll());

const MiB = 1024 * 1024;
/** Far below the 60 s default: a lost answer fails the test by timing out, not by hanging. */
const CALL_TIMEOUT_MS = 8_000;

async function connected(server: McpServer, options: Partial<WebSocketListenOptions> = {}): Promise<Client> {
  const listener = await listenWebSocket({
    port: 0,
    ...options,
    onsession: (transport) => server.connect(transport),
  });
  resources.track(listener);
  // Legacy: `ping` is a legacy-era request.
  const client = resources.track(e2eClient({ protocolVersion: 'legacy' }));
  await client.connect(new WebSocketClientTransport(listener.url!));
  return client;
}

/** The error `promise` rejects with, or undefined when it resolves. */
function failureOf(promise: Promise<unknown>): Promise<unknown> {
  return promise.then(
    () => undefined,
    (error: unknown) => error,
  );
}

describe('WebSocket burst of large messages (issue #35)', () => {
  it('answers 24 concurrent 1 MiB results and a ping sent behind them, with the default limits', async () => {
    const client = await connected(createE2eServer());
    const calls = Array.from({ length: 24 }, () =>
      client.callTool({ name: 'blob', arguments: { length: MiB } }, { timeout: CALL_TIMEOUT_MS }),
    );
    const [results] = await Promise.all([Promise.all(calls), client.ping({ timeout: CALL_TIMEOUT_MS })]);
    const expected = payload(MiB);
    expect(results.map((result) => textOf(result) === expected)).toEqual(results.map(() => true));
  }, 30_000);

  it('sends 24 concurrent 1 MiB requests from the client (its own send queue) and gets every echo back', async () => {
    const client = await connected(createE2eServer());
    const texts = Array.from({ length: 24 }, (_, i) => `${i}:${payload(MiB)}`);
    const [results] = await Promise.all([
      Promise.all(
        texts.map((text) =>
          client.callTool({ name: 'echo', arguments: { text } }, { timeout: CALL_TIMEOUT_MS }),
        ),
      ),
      client.ping({ timeout: CALL_TIMEOUT_MS }),
    ]);
    expect(results.map((result, i) => textOf(result) === texts[i])).toEqual(texts.map(() => true));
  }, 30_000);

  it('a burst over maxQueuedBytes ends the connection with 1008: every pending call fails at once, naming the option', async () => {
    const client = await connected(createE2eServer(), {
      maxBufferedBytes: 64 * 1024,
      maxQueuedBytes: 1.5 * MiB,
    });
    const started = Date.now();
    const calls = Array.from({ length: 24 }, () =>
      failureOf(client.callTool({ name: 'blob', arguments: { length: MiB } }, { timeout: 60_000 })),
    );
    const ping = failureOf(client.ping({ timeout: 60_000 }));
    const errors = await Promise.all([...calls, ping]);
    // Some answers may have left before the queue overflowed; the rest failed with the close.
    const failures = errors.filter((error) => error !== undefined);
    expect(failures.length).toBeGreaterThan(0);
    expect(await ping).toBeDefined();
    for (const error of failures) {
      expect(error).toBeInstanceOf(ConnectionClosedError);
      expect((error as Error).message).toMatch(/1008.*maxQueuedBytes \(1572864\)/);
    }
    // Far below the request timeout: nothing waited for it.
    expect(Date.now() - started).toBeLessThan(20_000);
  }, 30_000);
});
