import { request as httpRequest } from 'node:http';
import type { IncomingMessage, ServerResponse } from 'node:http';
import type { JSONRPCMessage, MessageExtraInfo } from '@x/protocol';
import { describe, expect, it } from 'vitest';
import { createSseHandler, SseClientTransport } from '../src/index.js';
import type { SseHandlerOptions, SseServerTransport, SseSessionContext } from '../src/index.js';
import { toNodeHandler } from '../src/node/index.js';
import { openRawStream, rawRequest, useCleanup } from './helpers.js';
import { afterTurn, startHttpServer, waitFor } from '@x/test-kit';

const addCleanup = useCleanup();
const ping = JSON.stringify({ jsonrpc: '2.0', id: 1, method: 'ping' });

/**
 * An `SseServer` on node:http through `toNodeHandler`, i.e. its own node entry; `route` may hand
 * the adapter a body a framework already parsed, as Express does with `req.body`.
 */
async function serve(
  options: Partial<SseHandlerOptions> = {},
  route: (handle: (parsedBody?: unknown) => Promise<void>, req: IncomingMessage) => void = (handle) =>
    void handle(),
) {
  const sessions: SseServerTransport[] = [];
  const contexts: SseSessionContext[] = [];
  const received: Array<{ message: JSONRPCMessage; extra: MessageExtraInfo | undefined }> = [];
  const sse = createSseHandler({
    onsession: async (transport, context) => {
      sessions.push(transport);
      contexts.push(context);
      transport.onmessage = (message, extra) => received.push({ message, extra });
      await transport.start();
    },
    ...options,
  });
  const handler = toNodeHandler(sse);
  const http = await startHttpServer((req: IncomingMessage, res: ServerResponse) =>
    route((parsedBody) => {
      // Express-style: a framework's body parser leaves what it read in `req.body`.
      if (parsedBody !== undefined) (req as { body?: unknown }).body = parsedBody;
      return handler(req, res);
    }, req),
  );
  addCleanup(async () => {
    await sse.close();
    await http.close();
  });
  const stream = await openRawStream({ port: http.port, path: '/sse' });
  addCleanup(() => stream.destroy());
  const endpoint = await stream.endpoint();
  return { sse, http, stream, endpoint, sessions, contexts, received };
}

function post(port: number, path: string, body: string, headers: Record<string, string> = {}) {
  return rawRequest({
    port,
    method: 'POST',
    path,
    body,
    headers: { 'content-type': 'application/json', ...headers },
  });
}

describe('SseServer under toNodeHandler (its node entry)', () => {
  it('writes the events of one turn to the stream in one write (node:http corks a response per tick)', async () => {
    let streamSocket: import('node:net').Socket | undefined;
    const { stream, sessions } = await serve({}, (handle, req) => {
      if (req.method === 'GET') streamSocket = req.socket;
      void handle();
    });
    type Writer = (...args: unknown[]) => unknown;
    const socket = streamSocket as unknown as { _write: Writer; _writev: Writer };
    let calls = 0;
    const write = socket._write.bind(socket);
    const writev = socket._writev.bind(socket);
    socket._write = (...args: unknown[]) => {
      calls++;
      return write(...args);
    };
    socket._writev = (...args: unknown[]) => {
      calls++;
      return writev(...args);
    };
    const session = sessions[0] as SseServerTransport;
    const notes = [1, 2, 3, 4, 5].map((n) =>
      session.send({ jsonrpc: '2.0', method: 'notifications/message', params: { level: 'info', data: n } }),
    );
    await Promise.all(notes);
    await waitFor(() => (stream.text().match(/event: message/g) ?? []).length === 5);
    expect(calls).toBe(1);
    const data = [...stream.text().matchAll(/event: message\ndata: (.*)\n/g)].map(
      (m) => (JSON.parse(m[1] as string) as { params: { data: number } }).params.data,
    );
    expect(data).toEqual([1, 2, 3, 4, 5]);
  });

  it('answers 202 with a length, and hands the message on with its request info', async () => {
    const { http, endpoint, received } = await serve();
    const reply = await post(http.port, endpoint, ping, { 'x-trace': 'abc' });
    expect(reply).toMatchObject({ status: 202, body: 'Accepted' });
    expect(reply.headers['content-type']).toBe('text/plain');
    expect(reply.headers['content-length']).toBe('8');
    await waitFor(() => received.length === 1);
    const [{ message, extra }] = received as [(typeof received)[0]];
    expect(message).toEqual(JSON.parse(ping));
    expect(extra?.requestInfo?.method).toBe('POST');
    expect(extra?.requestInfo?.url?.pathname).toBe('/sse');
    expect(extra?.requestInfo?.url?.searchParams.get('sessionId')).toMatch(/^[0-9a-f-]{36}$/);
    expect(extra?.requestInfo?.headers['x-trace']).toBe('abc');
  });

  it('gives onsession a Request for the GET only when it reads one, with the right URL and headers', async () => {
    const { http, contexts } = await serve();
    const context = contexts[0] as SseSessionContext;
    const request = context.request;
    expect(request).toBeInstanceOf(Request);
    expect(request.method).toBe('GET');
    expect(request.url).toBe(`${http.url}/sse`);
    expect(request.headers.get('host')).toBe(`127.0.0.1:${http.port}`);
    expect(request.signal.aborted).toBe(false);
    // Read twice, built once.
    expect(context.request).toBe(request);
  });

  it('takes a body a framework already parsed (object, text or bytes), with the same limit', async () => {
    const parsed: unknown[] = [];
    const { http, endpoint, received } = await serve({ maxBodyBytes: 200 }, (handle, req) => {
      // Express-style: the framework read the stream and keeps the result.
      let text = '';
      req.setEncoding('utf8');
      req.on('data', (chunk: string) => {
        text += chunk;
      });
      req.on('end', () => {
        const kind = req.headers['x-kind'];
        if (req.method !== 'POST') void handle();
        else if (kind === 'text') void handle(text);
        else if (kind === 'bytes') void handle(Buffer.from(text));
        else {
          const body: unknown = JSON.parse(text);
          parsed.push(body);
          void handle(body);
        }
      });
    });
    for (const kind of ['object', 'text', 'bytes']) {
      expect((await post(http.port, endpoint, ping, { 'x-kind': kind })).status).toBe(202);
    }
    await waitFor(() => received.length === 3);
    expect(received.map((entry) => entry.message)).toEqual([1, 2, 3].map(() => JSON.parse(ping)));
    expect(parsed).toHaveLength(1);
    const big = JSON.stringify({ jsonrpc: '2.0', method: 'x', params: { pad: 'x'.repeat(300) } });
    expect((await post(http.port, endpoint, big, { 'x-kind': 'text' })).status).toBe(413);
  });

  it('answers 400 when the request line and Host make no URL', async () => {
    const { http } = await serve({ dnsRebindingProtection: false });
    const reply = await rawRequest({ port: http.port, method: 'GET', path: '/sse', headers: { host: '[' } });
    expect(reply.status).toBe(400);
  });

  it('makes send() wait while the client does not read, and resumes when it does', async () => {
    const { http, sessions } = await serve();
    // A second stream whose reader stops reading at once.
    const paused = await new Promise<IncomingMessage>((resolve) => {
      const req = httpRequest({ host: '127.0.0.1', port: http.port, path: '/sse' }, (res) => {
        res.pause();
        resolve(res);
      });
      addCleanup(() => void req.destroy());
      req.end();
    });
    await waitFor(() => sessions.length === 2);
    const session = sessions[1] as SseServerTransport;
    const big = {
      jsonrpc: '2.0',
      method: 'notifications/message',
      params: { pad: 'x'.repeat(1 << 20) },
    } as const;
    let blocked: Promise<void> | undefined;
    for (let i = 0; i < 256 && blocked === undefined; i++) {
      let settled = false;
      const sending = session.send(big).then(() => {
        settled = true;
      });
      // An unblocked send settles within the turn; one that waits for the client does not.
      await afterTurn();
      if (!settled) blocked = sending;
    }
    expect(blocked).toBeDefined();
    paused.resume();
    await blocked;
  });

  it('drops the session when the client goes away, and ends streams on close()', async () => {
    const { sse, http, stream } = await serve();
    expect(sse.sessionCount).toBe(1);
    stream.destroy();
    await waitFor(() => sse.sessionCount === 0);
    const second = await openRawStream({ port: http.port, path: '/sse' });
    addCleanup(() => second.destroy());
    await second.endpoint();
    expect(sse.sessionCount).toBe(1);
    await sse.close();
    expect(sse.sessionCount).toBe(0);
    expect((await rawRequest({ port: http.port, method: 'GET', path: '/sse' })).status).toBe(503);
  });
});

describe('SseClientTransport with the default (undici) requests', () => {
  it('keeps a multi-byte character whole when it is split across chunks', async () => {
    const text = 'héllo 😀 wörld';
    const frame = Buffer.from(
      `event: message\ndata: ${JSON.stringify({ jsonrpc: '2.0', id: 1, result: { text } })}\n\n`,
    );
    const split = frame.indexOf(Buffer.from('😀')) + 2;
    const http = await startHttpServer((req, res) => {
      if (req.method === 'POST') {
        req.resume();
        res.writeHead(202).end();
        return;
      }
      res.writeHead(200, { 'content-type': 'text/event-stream' });
      res.write('event: endpoint\ndata: /messages\n\n');
      res.write(frame.subarray(0, split));
      // The rest in a later turn, so it travels in a separate chunk where the network allows.
      setImmediate(() => res.write(frame.subarray(split)));
    });
    addCleanup(http.close);
    const client = new SseClientTransport(`${http.url}/sse`);
    addCleanup(() => client.close());
    const messages: JSONRPCMessage[] = [];
    client.onmessage = (message) => messages.push(message);
    await client.start();
    await waitFor(() => messages.length === 1);
    expect(messages[0]).toEqual({ jsonrpc: '2.0', id: 1, result: { text } });
  });

  it('calls onUnauthorized when the GET gets 401, with the answer as a Response, and opens on the retry', async () => {
    let gets = 0;
    const http = await startHttpServer((_req, res) => {
      gets++;
      if (gets === 1) {
        res
          .writeHead(401, { 'www-authenticate': 'Bearer realm="mcp"', 'content-type': 'text/plain' })
          .end('no');
        return;
      }
      res.writeHead(200, { 'content-type': 'text/event-stream' });
      res.write('event: endpoint\ndata: /messages\n\n');
    });
    addCleanup(http.close);
    const seen: Array<{ status: number; challenge: string | null }> = [];
    const client = new SseClientTransport(`${http.url}/sse`, {
      onUnauthorized: async (response) => {
        seen.push({ status: response.status, challenge: response.headers.get('www-authenticate') });
        return true;
      },
    });
    addCleanup(() => client.close());
    await client.start();
    expect(seen).toEqual([{ status: 401, challenge: 'Bearer realm="mcp"' }]);
    expect(client.endpoint?.pathname).toBe('/messages');
  });

  it('sends many POSTs at once without a listener-leak warning', async () => {
    const warnings: Error[] = [];
    const onWarning = (warning: Error): void => void warnings.push(warning);
    process.on('warning', onWarning);
    addCleanup(() => void process.off('warning', onWarning));
    const { http } = await serve();
    const client = new SseClientTransport(`${http.url}/sse`, { maxConcurrentSends: 32 });
    addCleanup(() => client.close());
    await client.start();
    const sends = Array.from({ length: 200 }, (_, id) => client.send({ jsonrpc: '2.0', id, method: 'ping' }));
    await Promise.all(sends);
    // Warnings are emitted on the next tick.
    await afterTurn();
    expect(warnings.filter((warning) => warning.name === 'MaxListenersExceededWarning')).toEqual([]);
  });
});
