import { describe, expect, it } from 'vitest';
import {
  afterMicrotasks,
  afterNextTick,
  afterTimeouts,
  afterTurn,
  startHttpServer,
  waitFor,
} from '../src/index.js';

describe('waitFor', () => {
  it('resolves with the first truthy value of the condition', async () => {
    let polls = 0;
    const value = await waitFor(() => (++polls >= 3 ? 'ready' : undefined), { intervalMs: 1 });
    expect(value).toBe('ready');
    expect(polls).toBe(3);
  });

  it('fails naming what it waited for and the timeout', async () => {
    await expect(waitFor(() => false, { timeoutMs: 20, what: 'the moon' })).rejects.toThrow(
      'Timed out after 20 ms waiting for the moon',
    );
  });

  it('fails at once when the condition throws', async () => {
    await expect(
      waitFor(
        () => {
          throw new Error('broken check');
        },
        { timeoutMs: 60_000 },
      ),
    ).rejects.toThrow('broken check');
  });
});

describe('scheduler waits', () => {
  it('each drains exactly its queue, in event-loop order', async () => {
    const log: string[] = [];
    setImmediate(() => log.push('immediate'));
    setTimeout(() => log.push('timeout'), 0);
    process.nextTick(() => log.push('nextTick'));
    void Promise.resolve().then(() => log.push('microtask'));

    await afterMicrotasks();
    expect(log).toEqual(['microtask']);
    await afterNextTick();
    expect(log).toEqual(['microtask', 'nextTick']);
    await afterTimeouts();
    expect(log).toContain('timeout');
    await afterTurn();
    expect(log).toContain('immediate');
  });
});

describe('startHttpServer', () => {
  it('serves on 127.0.0.1 and `await using` closes it with its open connections', async () => {
    let url = '';
    let server: import('node:http').Server | undefined;
    {
      await using http = await startHttpServer((_req, res) => {
        res.writeHead(200, { 'content-type': 'text/plain' });
        res.write('open'); // never ended: the connection stays open until disposal closes it
      });
      ({ url, server } = http);
      expect(url).toBe(`http://127.0.0.1:${http.port}`);
      const response = await fetch(url);
      expect(response.status).toBe(200);
      void response.body?.cancel().catch(() => {});
    }
    expect(server?.listening).toBe(false);
    await expect(fetch(url)).rejects.toThrow();
  });
});
