// `shared: true`: one server-everything process serves every 2026-07-28 (stateless) client of the
// bridge; each client still gets only its own elicitation, and a legacy client is refused by name.
import { describe, expect, it } from 'vitest';
import { createBridge } from '../src/index.js';
import {
  cleanupAfterEach,
  connectXClient,
  elicitedBy,
  namesOnlyClient,
  startBridgedEverything,
} from './helpers.js';

const cleanup = cleanupAfterEach();

describe('a shared upstream', { timeout: 120_000 }, () => {
  it('serves several modern clients from one process, each seeing only its own elicitation', async () => {
    const { http, upstreams } = await startBridgedEverything(cleanup, { shared: true });
    const clients = await Promise.all(
      Array.from({ length: 4 }, (_, i) =>
        connectXClient(cleanup, http.url, {
          era: 'modern',
          elicited: elicitedBy(i),
        }),
      ),
    );
    const results = await Promise.all(
      clients.map((client) => client.callTool({ name: 'trigger-elicitation-request', arguments: {} })),
    );
    results.forEach((result, i) => {
      expect(namesOnlyClient(JSON.stringify(result.content), i)).toBe(true);
    });
    const echoes = await Promise.all(
      clients.map((client, i) => client.callTool({ name: 'echo', arguments: { message: `m-${i}` } })),
    );
    echoes.forEach((echo, i) => {
      expect(JSON.stringify(echo.content)).toContain(`m-${i}`);
    });
    expect(upstreams).toHaveLength(1);
  });

  it('refuses a legacy (initialize) client with an error naming shared', async () => {
    const { http, upstreams } = await startBridgedEverything(cleanup, { shared: true });
    await expect(connectXClient(cleanup, http.url, { era: 'legacy' })).rejects.toMatchObject({
      message: expect.stringMatching(/shared by every client.*2026-07-28/s),
    });
    // The upstream it was refused for is still there for modern clients.
    const modern = await connectXClient(cleanup, http.url, { era: 'modern' });
    expect(
      JSON.stringify((await modern.callTool({ name: 'get-sum', arguments: { a: 1, b: 2 } })).content),
    ).toContain('3');
    expect(upstreams).toHaveLength(1);
  });

  it('cannot be raw', () => {
    expect(() => createBridge({ upstream: () => ({}) as never, shared: true, mode: 'raw' })).toThrow(
      /shared needs the translate mode/,
    );
  });
});
