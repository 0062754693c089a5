import { ConnectionClosedError } from '@x/protocol';
import { describe, expect, it } from 'vitest';
import { HttpStatusError, SseClientTransport, SseEndpointError } from '../src/index.js';
import { type FetchLike, MAX_AUTH_RETRIES } from '@x/protocol/http';
import { startSseServer, useCleanup } from './helpers.js';
import { startHttpServer, waitFor } from '@x/test-kit';

const addCleanup = useCleanup();
const note = { jsonrpc: '2.0', method: 'notifications/initialized' } as const;

/** A server that answers the GET with a fixed event stream and leaves it open. */
async function fakeSseServer(events: string) {
  const http = await startHttpServer((_req, res) => {
    res.writeHead(200, { 'content-type': 'text/event-stream' });
    res.write(events);
  });
  addCleanup(http.close);
  return http;
}

function track(client: SseClientTransport) {
  const seen = { closes: 0, errors: [] as Error[] };
  client.onclose = () => seen.closes++;
  client.onerror = (error) => seen.errors.push(error);
  addCleanup(() => client.close());
  return seen;
}

describe('SseClientTransport', () => {
  it('refuses an endpoint on another origin with a clear error from start()', async () => {
    const http = await fakeSseServer('event: endpoint\ndata: http://evil.example/messages?sessionId=1\n\n');
    const client = new SseClientTransport(`${http.url}/sse`);
    const seen = track(client);
    const error = await client.start().catch((e: unknown) => e);
    expect(error).toBeInstanceOf(SseEndpointError);
    expect((error as Error).message).toMatch(/origin http:\/\/evil\.example does not match/);
    expect(seen.closes).toBe(1);
  });

  it('fails start() when the stream ends before the endpoint event, or is not an event stream', async () => {
    const ended = await startHttpServer((_req, res) => {
      res.writeHead(200, { 'content-type': 'text/event-stream' }).end('event: message\ndata: {}\n\n');
    });
    addCleanup(ended.close);
    await expect(new SseClientTransport(ended.url).start()).rejects.toBeInstanceOf(SseEndpointError);

    const html = await startHttpServer(
      (_req, res) => void res.writeHead(200, { 'content-type': 'text/html' }).end('<p>'),
    );
    addCleanup(html.close);
    await expect(new SseClientTransport(html.url).start()).rejects.toThrow(/Expected an event stream/);
  });

  it('fails start() with the HTTP status when the GET is refused (what a fallback decides on)', async () => {
    const harness = await startSseServer(addCleanup);
    const error = await new SseClientTransport(`${harness.url}`, {
      headers: { origin: 'http://evil.example' },
    })
      .start()
      .catch((e: unknown) => e);
    expect(error).toBeInstanceOf(HttpStatusError);
    expect((error as HttpStatusError).status).toBe(403);
  });

  it('send never throws: before start, with an unserializable message, and after close it rejects', async () => {
    const harness = await startSseServer(addCleanup);
    const client = new SseClientTransport(harness.url);
    const attempt = (message: unknown): Promise<unknown> => {
      let sent: Promise<unknown> | undefined;
      expect(() => {
        sent = client.send(message as typeof note);
      }).not.toThrow();
      return sent as Promise<unknown>;
    };
    await expect(attempt(note)).rejects.toThrow('Transport not started');
    await client.start();
    await expect(
      attempt({ jsonrpc: '2.0', id: 1, method: 'tools/call', params: { n: 1n } }),
    ).rejects.toBeInstanceOf(TypeError);
    await expect(attempt(note)).resolves.toBeUndefined();
    await client.close();
    await expect(attempt(note)).rejects.toThrow('Transport closed');
  });

  it('surfaces stream loss through onerror (with the cause) and onclose, then rejects sends', async () => {
    const harness = await startSseServer(addCleanup);
    const client = new SseClientTransport(harness.url);
    const seen = track(client);
    await client.start();
    harness.server.closeAllConnections();
    await waitFor(() => seen.closes === 1);
    expect(seen.errors[0]).toBeInstanceOf(ConnectionClosedError);
    await expect(client.send(note)).rejects.toBeInstanceOf(ConnectionClosedError);
    await client.close();
    expect(seen.closes).toBe(1);
  });

  it('rejects send() on a non-2xx answer with HttpStatusError carrying the status', async () => {
    const harness = await startSseServer(addCleanup, {
      authenticate: (request) =>
        request.method === 'POST' ? new Response('quota', { status: 429 }) : undefined,
    });
    const client = new SseClientTransport(harness.url);
    track(client);
    await client.start();
    const error = await client.send(note).catch((e: unknown) => e);
    expect(error).toBeInstanceOf(HttpStatusError);
    expect(error).toMatchObject({ status: 429, body: 'quota' });
  });

  it('calls onUnauthorized on 401 and retries once (when it returns true) with fresh headers from getHeaders', async () => {
    let token = 'stale';
    const unauthorized: string[] = [];
    const harness = await startSseServer(addCleanup, {
      authenticate: (request) =>
        request.headers.get('authorization') === 'Bearer fresh'
          ? undefined
          : new Response(null, { status: 401, headers: { 'www-authenticate': 'Bearer realm="mcp"' } }),
    });
    const client = new SseClientTransport(harness.url, {
      getHeaders: async () => ({ authorization: `Bearer ${token}` }),
      onUnauthorized: (response) => {
        unauthorized.push(response.headers.get('www-authenticate') ?? '');
        token = 'fresh';
        return true;
      },
    });
    track(client);
    await client.start();
    token = 'stale';
    await client.send(note);
    expect(unauthorized).toEqual(['Bearer realm="mcp"', 'Bearer realm="mcp"']);

    // Without a way to recover, the 401 itself is the answer.
    const plain = new SseClientTransport(harness.url);
    expect(await plain.start().catch((e: unknown) => e)).toMatchObject({ status: 401 });
    // A hook that has no new credentials (false) is not retried: the 401 and its body are the answer.
    let asked = 0;
    const declined = new SseClientTransport(harness.url, {
      onUnauthorized: () => {
        asked++;
        return false;
      },
    });
    expect(await declined.start().catch((e: unknown) => e)).toMatchObject({ status: 401 });
    expect(asked).toBe(1);
    // One that always says yes is asked MAX_AUTH_RETRIES times, then the 401 is the answer.
    let hoped = 0;
    const hopeful = new SseClientTransport(harness.url, {
      onUnauthorized: () => {
        hoped++;
        return true;
      },
    });
    expect(await hopeful.start().catch((e: unknown) => e)).toMatchObject({ status: 401 });
    expect(hoped).toBe(MAX_AUTH_RETRIES);
  });

  it('a 403 insufficient_scope goes to onForbidden and the POST is sent once more when it returns true', async () => {
    let scope = 'read';
    const harness = await startSseServer(addCleanup, {
      authenticate: (request) =>
        request.method === 'POST' && scope !== 'write'
          ? new Response('need write', {
              status: 403,
              headers: { 'www-authenticate': 'Bearer error="insufficient_scope", scope="write"' },
            })
          : undefined,
    });
    const challenges: string[] = [];
    const client = new SseClientTransport(harness.url, {
      onForbidden: async (response) => {
        challenges.push(`${response.headers.get('www-authenticate')} ${await response.text()}`);
        scope = 'write';
        return true;
      },
    });
    track(client);
    await client.start();
    await client.send(note);
    expect(challenges).toEqual(['Bearer error="insufficient_scope", scope="write" need write']);
  });

  it('getHeaders learns the method and URL of each request; onResponse sees every answer', async () => {
    const harness = await startSseServer(addCleanup);
    const requests: string[] = [];
    const statuses: number[] = [];
    const client = new SseClientTransport(harness.url, {
      getHeaders: ({ method, url }) => {
        requests.push(`${method} ${url.pathname}`);
        return {};
      },
      onResponse: (response) => {
        expect(response.body).toBeNull();
        statuses.push(response.status);
      },
    });
    track(client);
    await client.start();
    await client.send(note);
    const endpoint = client.endpoint?.pathname;
    expect(requests).toEqual([`GET ${new URL(harness.url).pathname}`, `POST ${endpoint}`]);
    expect(statuses).toEqual([200, 202]);
  });

  it('uses an injected fetch for every request', async () => {
    const harness = await startSseServer(addCleanup);
    const calls: string[] = [];
    const fetch: FetchLike = (input, init) => {
      calls.push(init?.method ?? 'GET');
      return globalThis.fetch(input, init);
    };
    const client = new SseClientTransport(harness.url, { fetch });
    track(client);
    await client.start();
    await client.send(note);
    expect(calls).toEqual(['GET', 'POST']);
  });

  it('closes idempotently: onclose once, server session gone, sends rejected', async () => {
    const harness = await startSseServer(addCleanup);
    const client = new SseClientTransport(harness.url);
    const seen = track(client);
    await client.start();
    await Promise.all([client.close(), client.close()]);
    expect(seen.closes).toBe(1);
    await expect(client.send(note)).rejects.toBeInstanceOf(ConnectionClosedError);
    await expect(client.start()).rejects.toThrow(/already started/);
    await waitFor(() => harness.sse.sessionCount === 0);
  });
});
