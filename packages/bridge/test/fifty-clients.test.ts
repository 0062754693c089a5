// 50 downstream clients on one bridge at once, each with its own server-everything process: each sees
// only its own elicitation and its own logs, and once they disconnect no upstream process is left.
import type { Client } from '@x/client';
import { describe, expect, it, vi } from 'vitest';
import {
  alive,
  cleanupAfterEach,
  connectXClient,
  elicitedBy,
  namesOnlyClient,
  startBridgedEverything,
} from './helpers.js';

const cleanup = cleanupAfterEach();

const CLIENTS = 50;
const WAVE = 10;
/** 50 node processes starting at once on a busy 2-core machine: generous, and waited on, never slept. */
const SLOW_MS = 180_000;

describe('50 downstream clients at once', { timeout: 3 * SLOW_MS }, () => {
  it('no crosstalk of elicitations or logs, and no process left once they disconnect', async () => {
    const { http, bridge, upstreams } = await startBridgedEverything(cleanup, { connectTimeoutMs: SLOW_MS });
    // With 50 processes starting the event loop lags: a keep-alive socket the server closes after its
    // default 5 s idle can cross a client's next POST on it (ECONNRESET, an HTTP/1.1 race, not the bridge's).
    http.server.keepAliveTimeout = SLOW_MS;
    // Connected ten at a time (50 node processes booting at once starve a 2-core machine for minutes),
    // then all 50 sessions are open together and every call below runs at once.
    const clients: Array<{ client: Client; logs: string[] }> = [];
    for (let wave = 0; wave < CLIENTS / WAVE; wave++) {
      const connected = await Promise.all(
        Array.from({ length: WAVE }, async (_, k) => {
          const i = wave * WAVE + k;
          const client = await connectXClient(cleanup, http.url, {
            elicited: elicitedBy(i),
            timeoutMs: SLOW_MS,
          });
          const logs: string[] = [];
          client.on('log', ({ data }) => logs.push(String(data)));
          await client.setLoggingLevel('info');
          return { client, logs };
        }),
      );
      clients.push(...connected);
    }
    expect(upstreams).toHaveLength(CLIENTS);
    expect(new Set(upstreams.map((upstream) => upstream.pid)).size).toBe(CLIENTS);

    await Promise.all(
      clients.map(async ({ client }, i) => {
        // server-everything logs each subscribe request with its URI: a URI of this client's own.
        await client.subscribeResource({ uri: `demo://bridge-test/client-${i}` });
        const result = await client.callTool({ name: 'trigger-elicitation-request', arguments: {} });
        expect(namesOnlyClient(JSON.stringify(result.content), i)).toBe(true);
      }),
    );
    for (const [i, { logs }] of clients.entries()) {
      await vi.waitFor(() => expect(logs.join('\n')).toContain(`demo://bridge-test/client-${i} `), {
        timeout: SLOW_MS,
        interval: 50,
      });
      expect(logs.join('\n')).not.toMatch(new RegExp(`client-(?!${i}\\b)\\d`));
    }

    const pids = upstreams.map((upstream) => upstream.pid as number);
    expect(pids.every(alive)).toBe(true);
    await Promise.all(clients.map(({ client }) => client.close()));
    await vi.waitFor(() => expect(pids.filter(alive)).toEqual([]), { timeout: SLOW_MS, interval: 100 });
    await vi.waitFor(() => expect(bridge.sessions.size).toBe(0), { timeout: SLOW_MS, interval: 100 });
  });
});
