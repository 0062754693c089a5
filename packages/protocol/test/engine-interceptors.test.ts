import { afterMicrotasks, waitFor } from '@x/test-kit';
import { describe, expect, it } from 'vitest';
import { z } from 'zod';
import { Protocol } from '../src/engine/index.js';
import { ErrorCode, McpError } from '../src/errors.js';
import { InterceptorChain } from '../src/engine/interceptors.js';
import type { JSONRPCMessage } from '../src/jsonrpc.js';
import { InMemoryTransport } from '../src/transports/in-memory-transport.js';

const Echo = z.object({ text: z.string() });
const EchoResult = z.looseObject({ text: z.string() });

async function pair(server = new Protocol(), client = new Protocol()) {
  server.setRequestHandler('echo', Echo, (params) => ({ text: params.text }));
  const [a, b] = InMemoryTransport.createLinkedPair();
  const onWire: JSONRPCMessage[] = [];
  const send = a.send.bind(a);
  a.send = (message, options) => {
    onWire.push(message);
    return send(message, options);
  };
  await server.connect(b);
  await client.connect(a);
  return { server, client, onWire };
}

describe('engine interceptors', () => {
  it('observes a round trip in onion order: first installed is outermost, both directions', async () => {
    const { server, client } = await pair();
    const log: string[] = [];
    client.use(
      {
        async outgoingRequest(call, next) {
          log.push(`a> ${call.request.method}`);
          const result = await next(call);
          log.push(`a< ${JSON.stringify(result)}`);
          return result;
        },
      },
      {
        async outgoingRequest(call, next) {
          log.push('b>');
          const result = await next(call);
          log.push('b<');
          return result;
        },
      },
    );
    server.use({
      async incomingRequest(request, ctx, next) {
        log.push(`s> ${request.method} ${String(ctx.requestId)}`);
        const result = await next(request);
        log.push('s<');
        return result;
      },
    });
    await expect(client.request({ method: 'echo', params: { text: 'hi' } }, EchoResult)).resolves.toEqual({
      text: 'hi',
    });
    expect(log).toEqual(['a> echo', 'b>', 's> echo 1', 's<', 'b<', 'a< {"text":"hi"}']);
  });

  it('changes an outgoing request and the response the peer sees', async () => {
    const { server, client, onWire } = await pair();
    client.use({
      outgoingRequest: (call, next) =>
        next({ ...call, request: { method: 'echo', params: { text: `${call.request.params?.['text']}!` } } }),
    });
    server.use({
      incomingRequest: async (request, _ctx, next) => ({ ...(await next(request)), extra: true }),
    });
    const result = await client.request({ method: 'echo', params: { text: 'hi' } }, EchoResult);
    expect(result).toEqual({ text: 'hi!', extra: true });
    expect(onWire).toMatchObject([{ method: 'echo', params: { text: 'hi!' } }]);
  });

  it('short-circuits: nothing is sent, no handler runs', async () => {
    const { server, client, onWire } = await pair();
    let handled = 0;
    server.use({ incomingRequest: () => ({ text: 'cached' }) });
    server.setRequestHandler('echo', Echo, () => {
      handled++;
      return { text: 'live' };
    });
    await expect(client.request({ method: 'echo', params: { text: 'x' } }, EchoResult)).resolves.toEqual({
      text: 'cached',
    });
    expect(handled).toBe(0);
    const remove = client.use({ outgoingRequest: async () => ({ text: 'local' }) });
    const before = onWire.length;
    await expect(client.request({ method: 'echo', params: { text: 'x' } }, EchoResult)).resolves.toEqual({
      text: 'local',
    });
    expect(onWire.length).toBe(before);
    remove();
    await client.request({ method: 'echo', params: { text: 'x' } }, EchoResult);
    expect(onWire.length).toBe(before + 1);
  });

  it('rejects: a thrown McpError is the error response, with its code; unknown methods pass through', async () => {
    const { server, client } = await pair();
    const seen: string[] = [];
    server.use({
      incomingRequest: (request, _ctx, next) => {
        seen.push(request.method);
        if (request.method === 'echo') throw new McpError(-32029, 'Too many requests', { retryAfterMs: 5 });
        return next(request);
      },
    });
    const refused = await client
      .request({ method: 'echo', params: { text: 'x' } }, EchoResult)
      .catch((e) => e);
    expect(refused).toBeInstanceOf(McpError);
    expect(refused).toMatchObject({ code: -32029, message: 'Too many requests', data: { retryAfterMs: 5 } });
    const unknown = await client.request({ method: 'nope' }, EchoResult).catch((e) => e);
    expect(unknown).toMatchObject({ code: ErrorCode.MethodNotFound });
    expect(seen).toEqual(['echo', 'nope']);
  });

  it('sees error responses as rejections of next()', async () => {
    const { client } = await pair();
    const errors: unknown[] = [];
    client.use({
      outgoingRequest: (call, next) =>
        next(call).catch((error: unknown) => {
          errors.push(error);
          throw error;
        }),
    });
    await expect(client.request({ method: 'echo', params: {} }, EchoResult)).rejects.toMatchObject({
      code: ErrorCode.InvalidParams,
    });
    expect(errors).toHaveLength(1);
  });

  it('intercepts notifications both ways: change, drop', async () => {
    const { server, client } = await pair();
    const received: unknown[] = [];
    server.setNotificationHandler('note', (params) => {
      received.push(params);
    });
    client.use({
      outgoingNotification: (call, next) =>
        call.notification.params?.['drop'] === true
          ? Promise.resolve()
          : next({ ...call, notification: { method: 'note', params: { n: 1, seen: 'client' } } }),
    });
    server.use({
      incomingNotification: (notification, _extra, next) =>
        next({ ...notification, params: { ...notification.params, seen: 'server' } }),
    });
    await client.notification({ method: 'note', params: { drop: true } });
    await client.notification({ method: 'note', params: { n: 0 } });
    await waitFor(() => received.length > 0);
    expect(received).toEqual([{ n: 1, seen: 'server' }]);
  });

  it('is shared: a chain given to several engines reaches them all, even after connect', async () => {
    const chain = new InterceptorChain();
    class Shared extends Protocol {
      constructor() {
        super();
        this.shareInterceptors(chain);
      }
    }
    const one = await pair(new Shared());
    const two = await pair(new Shared());
    const methods: string[] = [];
    chain.use({
      incomingRequest: (request, _ctx, next) => {
        methods.push(request.method);
        return next(request);
      },
    });
    await one.client.request({ method: 'echo', params: { text: 'a' } }, EchoResult);
    await two.client.request({ method: 'echo', params: { text: 'b' } }, EchoResult);
    expect(methods).toEqual(['echo', 'echo']);
  });

  it('an interceptor removed while a request is inside it never makes a later request skip the chain', async () => {
    const { client } = await pair();
    let release: () => void = () => {};
    const gate = new Promise<void>((resolve) => {
      release = resolve;
    });
    const remove = client.use({
      async outgoingRequest(call, next) {
        await gate;
        return next(call);
      },
    });
    const first = client.request({ method: 'echo', params: { text: 'a' } }, EchoResult);
    remove();
    release();
    await first;
    const seen: string[] = [];
    client.use({
      outgoingRequest: (call, next) => {
        seen.push(String(call.request.params?.['text']));
        return next(call);
      },
    });
    await client.request({ method: 'echo', params: { text: 'b' } }, EchoResult);
    expect(seen).toEqual(['b']);
  });

  it('a throwing incoming-notification interceptor goes to onerror, never into the transport', async () => {
    const { server, client } = await pair();
    const errors: Error[] = [];
    server.onerror = (error) => errors.push(error);
    server.use({
      incomingNotification: () => {
        throw new Error('boom');
      },
    });
    await client.notification({ method: 'note' });
    await afterMicrotasks();
    await waitFor(() => errors.length > 0);
    expect(errors.map((e) => e.message)).toEqual(['boom']);
  });
});
