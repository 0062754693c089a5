import { describe, expect, it } from 'vitest';
import { z } from 'zod';
import { ErrorCode, McpError } from '../src/errors.js';
import { Protocol } from '../src/engine/index.js';
import type { RequestContext } from '../src/engine/index.js';
import { engineWithRawPeer } from './engine-helpers.js';
import { afterMicrotasks } from '@x/test-kit';

const Empty = z.object({});

/** A subclass enforcing capabilities the way Client and Server will. */
class Guarded extends Protocol {
  readonly #allowed: Set<string>;

  constructor(allowed: string[]) {
    super();
    this.#allowed = new Set(allowed);
  }

  protected override assertCapabilityForMethod(method: string): void {
    if (!this.#allowed.has(method)) {
      throw new McpError(ErrorCode.MissingRequiredClientCapability, `Peer does not support ${method}`);
    }
  }

  protected override assertNotificationCapability(method: string): void {
    if (!this.#allowed.has(method)) throw new McpError(ErrorCode.InvalidRequest, `Cannot send ${method}`);
  }

  protected override assertRequestHandlerCapability(method: string): void {
    if (!this.#allowed.has(method))
      throw new McpError(ErrorCode.InvalidRequest, `No capability to handle ${method}`);
  }
}

describe('engine: capability assertions', () => {
  it('rejects a request before anything is sent', async () => {
    const { engine, wire } = await engineWithRawPeer(new Guarded(['tools/list']));
    await expect(engine.request({ method: 'sampling/createMessage' }, Empty)).rejects.toMatchObject({
      code: ErrorCode.MissingRequiredClientCapability,
      message: 'Peer does not support sampling/createMessage',
    });
    await afterMicrotasks(20);
    expect(wire).toEqual([]);
    expect(engine.pendingRequestCount).toBe(0);
    void engine.request({ method: 'tools/list' }, Empty).catch(() => {});
    await afterMicrotasks(20);
    expect(wire).toEqual([
      { jsonrpc: '2.0', id: 1, method: 'tools/list', params: { _meta: { progressToken: 1 } } },
    ]);
    await engine.close();
  });

  it('rejects a notification before anything is sent, also from a handler context', async () => {
    const { engine, wire, inject } = await engineWithRawPeer(new Guarded(['work']));
    await expect(engine.notification({ method: 'notifications/resources/updated' })).rejects.toMatchObject({
      message: 'Cannot send notifications/resources/updated',
    });
    engine.setRequestHandler('work', async (_p, ctx) => {
      await ctx.sendNotification({ method: 'notifications/message' });
      return {};
    });
    await inject({ jsonrpc: '2.0', id: 1, method: 'work' });
    expect(wire).toEqual([
      {
        jsonrpc: '2.0',
        id: 1,
        error: { code: ErrorCode.InvalidRequest, message: 'Cannot send notifications/message' },
      },
    ]);
  });

  it('refuses to register a handler for an unsupported method', () => {
    const engine = new Guarded(['tools/call']);
    expect(() => engine.setRequestHandler('sampling/createMessage', () => ({}))).toThrow(
      'No capability to handle sampling/createMessage',
    );
    expect(engine.hasRequestHandler('sampling/createMessage')).toBe(false);
    engine.setRequestHandler('tools/call', () => ({}));
    expect(engine.hasRequestHandler('tools/call')).toBe(true);
    // The built-in ping bypasses the hook (it is registered before subclass state exists).
    expect(engine.hasRequestHandler('ping')).toBe(true);
  });
});

describe('engine: request context', () => {
  it('exposes request id, method, _meta, progress token, session id, auth and request info', async () => {
    const { engine, transport, inject } = await engineWithRawPeer();
    transport.sessionId = 'session-1';
    const headers = { 'x-test': '1' };
    transport.extra = {
      authInfo: { token: 't', clientId: 'c', scopes: ['read'] },
      requestInfo: { headers },
    };
    let seen: RequestContext | undefined;
    engine.setRequestHandler('look', (_p, ctx) => {
      seen = ctx;
      return {};
    });
    await inject({
      jsonrpc: '2.0',
      id: 'q',
      method: 'look',
      params: { _meta: { progressToken: 9, 'a.b/c': true } },
    });
    expect(seen).toMatchObject({
      requestId: 'q',
      method: 'look',
      _meta: { progressToken: 9, 'a.b/c': true },
      progressToken: 9,
      sessionId: 'session-1',
      authInfo: { token: 't', clientId: 'c', scopes: ['read'] },
      requestInfo: { headers },
    });
    expect(seen?.signal.aborted).toBe(false);
  });

  it('passes relatedRequestId to the transport for notifications and requests sent from a handler', async () => {
    const { engine, sent, inject } = await engineWithRawPeer();
    engine.setRequestHandler('tools/call', async (_p, ctx) => {
      await ctx.sendNotification({ method: 'notifications/message', params: { level: 'info', data: 'hi' } });
      void ctx
        .sendRequest({ method: 'elicitation/create', params: { message: 'ok?' } }, Empty, { timeout: 5 })
        .catch(() => {});
      return {};
    });
    await inject({ jsonrpc: '2.0', id: 42, method: 'tools/call' });
    expect(sent.slice(0, 2)).toEqual([
      {
        message: { jsonrpc: '2.0', method: 'notifications/message', params: { level: 'info', data: 'hi' } },
        options: { relatedRequestId: 42 },
      },
      {
        message: {
          jsonrpc: '2.0',
          id: 1,
          method: 'elicitation/create',
          params: { message: 'ok?', _meta: { progressToken: 1 } },
        },
        options: expect.objectContaining({ relatedRequestId: 42 }),
      },
    ]);
    // Engine-only options (timeouts, callbacks) are not the transport's business.
    expect(sent[1]?.options).not.toHaveProperty('timeout');
    await engine.close();
  });

  it('passes request options meant for the transport through to send()', async () => {
    const { engine, sent } = await engineWithRawPeer();
    const onresumptiontoken = (): void => {};
    void engine
      .request({ method: 'x' }, Empty, { resumptionToken: 'r', onresumptiontoken, headers: { a: 'b' } })
      .catch(() => {});
    expect(sent[0]?.options).toMatchObject({ resumptionToken: 'r', onresumptiontoken, headers: { a: 'b' } });
    await engine.close();
  });

  it('gives a per-request-stream transport a requestSignal that a timeout or an abort closes', async () => {
    const { InMemoryTransport, Protocol } = await import('../src/index.js');
    const [a, b] = InMemoryTransport.createLinkedPair();
    const signals: Array<AbortSignal | undefined> = [];
    const perRequest = Object.assign(a, { hasPerRequestStream: true });
    const send = a.send.bind(a);
    perRequest.send = (message, options) => {
      if ('method' in message && 'id' in message) signals.push(options?.requestSignal);
      return send(message, options);
    };
    await b.start();
    const engine = new Protocol();
    await engine.connect(perRequest);
    const controller = new AbortController();
    const aborted = engine.request({ method: 'x/slow' }, Empty, { signal: controller.signal });
    const timedOut = engine.request({ method: 'x/slow' }, Empty, { timeout: 10 });
    controller.abort(new Error('stop'));
    await expect(aborted).rejects.toThrow('stop');
    await expect(timedOut).rejects.toThrow(/timed out/);
    expect(signals).toHaveLength(2);
    expect(signals.every((s) => s?.aborted === true)).toBe(true);
    await engine.close();
  });

  it('offers onRequestCancel instead: no AbortSignal is made unless requestSignal is read', async () => {
    const { InMemoryTransport, Protocol } = await import('../src/index.js');
    const [a, b] = InMemoryTransport.createLinkedPair();
    const reasons: unknown[] = [];
    const perRequest = Object.assign(a, { hasPerRequestStream: true });
    const send = a.send.bind(a);
    perRequest.send = (message, options) => {
      if ('method' in message && 'id' in message) {
        // Detached on purpose: the callback must not depend on `this`.
        const onRequestCancel = options?.onRequestCancel;
        onRequestCancel?.((reason) => reasons.push(reason));
      }
      return send(message, options);
    };
    await b.start();
    const engine = new Protocol();
    await engine.connect(perRequest);
    const controller = new AbortController();
    const Original = globalThis.AbortController;
    let made = 0;
    globalThis.AbortController = class extends Original {
      constructor() {
        super();
        made++;
      }
    };
    try {
      const aborted = engine.request({ method: 'x/slow' }, Empty, { signal: controller.signal });
      const timedOut = engine.request({ method: 'x/slow' }, Empty, { timeout: 10 });
      controller.abort(new Error('stop'));
      await expect(aborted).rejects.toThrow('stop');
      await expect(timedOut).rejects.toThrow(/timed out/);
    } finally {
      globalThis.AbortController = Original;
    }
    expect(reasons).toEqual(['stop', expect.stringMatching(/timed out/)]);
    expect(made).toBe(0);
    await engine.close();
  });
});
