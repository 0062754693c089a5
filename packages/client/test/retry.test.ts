import { ConnectionClosedError, ErrorCode, type JSONRPCRequest, McpError, type Protocol } from '@x/protocol';
import { waitFor } from '@x/test-kit';
import { HttpStatusError } from '@x/protocol/http';
import { describe, expect, it } from 'vitest';
import { Client, isSafeToRepeat, isTransientError, type RetryEvent } from '../src/index.js';
import { CLIENT_INFO, fakeServer, legacyHandshake, modernDiscover, text } from './helpers.js';

/** A -32000 answer from a server (not a `TransportLostError`): transient all the same. */
const lost = () => new McpError(ErrorCode.ConnectionClosed, 'connection lost; the response never arrived');

const fast = { initialDelayMs: 1, maxDelayMs: 20 };

async function legacyClient(
  setup: (server: Protocol) => void,
  options: ConstructorParameters<typeof Client>[1],
) {
  const peer = await fakeServer((server) => {
    legacyHandshake(server, { capabilities: { tools: {}, resources: {}, prompts: {} } });
    setup(server);
  });
  const client = new Client(CLIENT_INFO, { protocolVersion: 'legacy', ...options });
  await client.connect(peer.transport);
  peer.wire.length = 0;
  return { client, ...peer };
}

/** A handler that fails with `error()` the first `failures` times, then answers `answer`. */
function flaky<T>(failures: number, error: () => Error, answer: () => T): () => T {
  let calls = 0;
  return () => {
    calls++;
    if (calls <= failures) throw error();
    return answer();
  };
}

describe('retry policy', () => {
  it('repeats a safe request on a transient failure, each attempt with a new JSON-RPC id', async () => {
    const retries: RetryEvent[] = [];
    const { client, requests } = await legacyClient(
      (server) => {
        server.setRequestHandler(
          'resources/read',
          flaky(2, lost, () => ({ contents: [] })),
        );
      },
      { retry: { ...fast, onretry: (event) => retries.push(event) } },
    );
    await expect(client.readResource({ uri: 'file:///a' })).resolves.toEqual({ contents: [] });
    const ids = requests('resources/read').map((r) => r.id);
    expect(ids).toHaveLength(3);
    expect(new Set(ids).size).toBe(3);
    expect(retries.map((r) => [r.method, r.attempt])).toEqual([
      ['resources/read', 1],
      ['resources/read', 2],
    ]);
    expect(retries.every((r) => r.delayMs >= 0 && r.delayMs <= 20)).toBe(true);
    await client.close();
  });

  it('gives up after maxAttempts with the last error, and never repeats a non-transient one', async () => {
    const { client, requests } = await legacyClient(
      (server) => {
        server.setRequestHandler(
          'prompts/get',
          flaky(9, lost, () => ({ messages: [] })),
        );
        server.setRequestHandler('prompts/list', () => {
          throw new McpError(ErrorCode.InvalidParams, 'bad cursor');
        });
      },
      { retry: { ...fast, maxAttempts: 2 } },
    );
    await expect(client.getPrompt({ name: 'p' })).rejects.toMatchObject({ code: ErrorCode.ConnectionClosed });
    expect(requests('prompts/get')).toHaveLength(3);
    await expect(client.listPrompts()).rejects.toMatchObject({ code: ErrorCode.InvalidParams });
    expect(requests('prompts/list')).toHaveLength(1);
    await client.close();
  });

  it('repeats tools/call only for tools listed readOnlyHint or idempotentHint; per-request retry overrides', async () => {
    // Each name in `failing` fails its next call once.
    const failing = new Set<string>();
    const { client, requests } = await legacyClient(
      (server) => {
        server.setRequestHandler('tools/list', () => ({
          tools: [
            { name: 'look', inputSchema: { type: 'object' }, annotations: { readOnlyHint: true } },
            { name: 'put', inputSchema: { type: 'object' }, annotations: { idempotentHint: true } },
            { name: 'charge', inputSchema: { type: 'object' } },
          ],
        }));
        server.setRequestHandler('tools/call', (params) => {
          const name = String(params['name']);
          if (failing.delete(name)) throw lost();
          return { content: [text(name)] };
        });
      },
      { retry: fast },
    );
    // Before any listing nothing is known about the tool: not repeated.
    failing.add('look');
    await expect(client.callTool({ name: 'look' })).rejects.toMatchObject({
      code: ErrorCode.ConnectionClosed,
    });
    await client.listTools();
    for (const name of ['look', 'put', 'charge']) failing.add(name);
    await expect(client.callTool({ name: 'look' })).resolves.toMatchObject({ content: [text('look')] });
    await expect(client.callTool({ name: 'put' })).resolves.toMatchObject({ content: [text('put')] });
    await expect(client.callTool({ name: 'charge' })).rejects.toMatchObject({
      code: ErrorCode.ConnectionClosed,
    });
    // The caller vouches for this one.
    failing.add('charge');
    await expect(client.callTool({ name: 'charge' }, { retry: true })).resolves.toMatchObject({
      content: [text('charge')],
    });
    const names = requests('tools/call').map((r) => r.params?.['name']);
    expect(names).toEqual(['look', 'look', 'look', 'put', 'put', 'charge', 'charge', 'charge']);
    await client.close();
  });

  it('is off by default; a request opts in on its own; retry: false opts out', async () => {
    let fail = true;
    const once =
      <T>(answer: T) =>
      () => {
        if (fail) {
          fail = false;
          throw lost();
        }
        return answer;
      };
    const { client, requests } = await legacyClient((server) => {
      server.setRequestHandler('resources/read', once({ contents: [] }));
    }, {});
    await expect(client.readResource({ uri: 'a:1' })).rejects.toMatchObject({
      code: ErrorCode.ConnectionClosed,
    });
    fail = true;
    await expect(client.readResource({ uri: 'a:1' }, { retry: fast })).resolves.toEqual({ contents: [] });
    expect(requests('resources/read')).toHaveLength(3);
    fail = true;
    const off = await legacyClient((server) => server.setRequestHandler('ping', once({})), { retry: fast });
    await expect(off.client.ping({ retry: false })).rejects.toMatchObject({
      code: ErrorCode.ConnectionClosed,
    });
    await client.close();
    await off.client.close();
  });

  it('honours Retry-After of an HTTP 503 and gives up when it exceeds maxDelayMs', async () => {
    const peer = await fakeServer((server) => {
      legacyHandshake(server);
      server.setRequestHandler('ping', () => ({}));
    });
    let refusals = 0;
    let retryAfterMs = 40;
    const send = peer.transport.send.bind(peer.transport);
    peer.transport.send = (message, options) => {
      if ('method' in message && message.method === 'ping' && refusals < 1) {
        refusals++;
        return Promise.reject(
          new HttpStatusError({ status: 503, message: 'POST failed with HTTP 503', retryAfterMs }),
        );
      }
      return send(message, options);
    };
    const retries: RetryEvent[] = [];
    const client = new Client(CLIENT_INFO, {
      protocolVersion: 'legacy',
      retry: { initialDelayMs: 1, maxDelayMs: 1_000, onretry: (e) => retries.push(e) },
    });
    await client.connect(peer.transport);
    const started = performance.now();
    await client.ping();
    expect(performance.now() - started).toBeGreaterThanOrEqual(35);
    expect(retries[0]?.delayMs).toBeGreaterThanOrEqual(40);
    refusals = 0;
    retryAfterMs = 5_000;
    await expect(client.ping()).rejects.toBeInstanceOf(HttpStatusError);
    expect(retries).toHaveLength(1);
    await client.close();
  });

  it('a retried 2026-07-28 round keeps its requestState and inputResponses byte for byte, with a new id', async () => {
    const STATE = 'opaque+/==\u00e9 ';
    let lostOnce = false;
    const peer = await fakeServer((server) => {
      modernDiscover(server);
      server.setRequestHandler('tools/call', (params) => {
        if (params['requestState'] === undefined) {
          return {
            resultType: 'input_required',
            inputRequests: { roots: { method: 'roots/list' } },
            requestState: STATE,
          };
        }
        if (!lostOnce) {
          lostOnce = true;
          throw lost();
        }
        return { resultType: 'complete', content: [text('done')] };
      });
    });
    const client = new Client(CLIENT_INFO, { retry: fast });
    client.setRootsHandler(() => ({ roots: [{ uri: 'file:///src' }] }));
    await client.connect(peer.transport);
    await expect(client.callTool({ name: 'deploy' }, { retry: true })).resolves.toMatchObject({
      content: [text('done')],
    });
    const calls = peer.requests('tools/call') as JSONRPCRequest[];
    expect(calls).toHaveLength(3);
    expect(calls[2]!.id).not.toBe(calls[1]!.id);
    // Byte for byte but the progress token, which is each attempt's own id.
    const withToken = (call: JSONRPCRequest, id: unknown) => ({
      ...call.params,
      _meta: { ...(call.params?.['_meta'] as object), progressToken: id },
    });
    expect(calls[2]!.params).toEqual(withToken(calls[1]!, calls[2]!.id));
    const meta = calls[2]!.params?.['_meta'] as Record<string, unknown> | undefined;
    expect(meta?.['progressToken']).toBe(calls[2]!.id);
    expect(calls[2]!.params?.['requestState']).toBe(STATE);
    await client.close();
  });

  it('a retry waiting out its backoff ends at once on client.close() and on its signal', async () => {
    // maxDelayMs 60 s with a 30 s first delay: without the early end each wait would outlast the test.
    const slow = { initialDelayMs: 30_000, maxDelayMs: 60_000, jitter: 0 };
    const retries: RetryEvent[] = [];
    const { client, requests } = await legacyClient(
      (server) =>
        server.setRequestHandler(
          'resources/read',
          flaky(99, lost, () => ({ contents: [] })),
        ),
      { retry: { ...slow, onretry: (event) => retries.push(event) } },
    );
    const controller = new AbortController();
    const aborted = client.readResource({ uri: 'a:1' }, { signal: controller.signal });
    await waitFor(() => retries.length === 1);
    const started = performance.now();
    controller.abort(new Error('caller gave up'));
    await expect(aborted).rejects.toThrow('caller gave up');
    const closing = client.readResource({ uri: 'a:2' });
    await waitFor(() => retries.length === 2);
    await client.close();
    const error = await closing.then(
      () => undefined,
      (e: unknown) => e,
    );
    expect(error).toBeInstanceOf(ConnectionClosedError);
    expect((error as Error).message).toContain('backoff');
    expect((error as Error).cause).toMatchObject({ code: ErrorCode.ConnectionClosed });
    expect(performance.now() - started).toBeLessThan(10_000);
    expect(requests('resources/read')).toHaveLength(2);
  });

  it('classifies failures and requests', () => {
    expect(isTransientError(lost())).toBe(true);
    expect(isTransientError(new McpError(ErrorCode.RequestTimeout, 'slow'))).toBe(true);
    expect(isTransientError(new McpError(ErrorCode.InvalidParams, 'no'))).toBe(false);
    for (const status of [429, 502, 503, 504]) {
      expect(isTransientError(new HttpStatusError({ status, message: '' }))).toBe(true);
    }
    expect(isTransientError(new HttpStatusError({ status: 400, message: '' }))).toBe(false);
    expect(
      isTransientError(new Error('x', { cause: new HttpStatusError({ status: 503, message: '' }) })),
    ).toBe(true);
    expect(isSafeToRepeat({ method: 'tasks/list' }, false)).toBe(true);
    expect(isSafeToRepeat({ method: 'resources/subscribe' }, false)).toBe(false);
    expect(isSafeToRepeat({ method: 'tools/call' }, true)).toBe(true);
    expect(() => new Client(CLIENT_INFO, { retry: { jitter: 2 } })).toThrow(/reconnect\.jitter/);
  });
});
