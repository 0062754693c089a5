import { describe, expect, it } from 'vitest';
import { z } from 'zod';
import { Protocol } from '../src/engine/index.js';
import type { JSONRPCMessage } from '../src/jsonrpc.js';
import { SENT, type Transport } from '../src/transport.js';

/** A transport whose sends are handed over at once (`SENT`) or return a promise of their own. */
function loopTransport(returns: () => Promise<void>): Transport & { sent: JSONRPCMessage[] } {
  const sent: JSONRPCMessage[] = [];
  return {
    sent,
    start: async () => {},
    close: async () => {},
    send(message) {
      sent.push(message);
      return returns();
    },
  };
}

describe('SENT', () => {
  it('is a settled promise the engine does not watch (no reaction registered on it)', async () => {
    let reactions = 0;
    const then = SENT.then;
    // Shadow `then` on the shared instance only for this test; every other promise is untouched.
    Object.defineProperty(SENT, 'then', {
      configurable: true,
      value(...args: Parameters<typeof then>) {
        reactions += 1;
        return then.apply(SENT, args);
      },
    });
    try {
      const transport = loopTransport(() => SENT);
      const engine = new Protocol();
      await engine.connect(transport);
      const answer = engine.request({ method: 'ping' }, z.object({}), { timeout: 5_000 });
      const request = transport.sent[0] as { id: number };
      transport.onmessage?.({ jsonrpc: '2.0', id: request.id, result: {} });
      await expect(answer).resolves.toEqual({});
      transport.onmessage?.({ jsonrpc: '2.0', id: 'in', method: 'ping' });
      await Promise.resolve();
      expect(transport.sent.at(-1)).toEqual({ jsonrpc: '2.0', id: 'in', result: {} });
      expect(reactions).toBe(0);
      await engine.close();
    } finally {
      Reflect.deleteProperty(SENT, 'then');
    }
    await expect(SENT).resolves.toBeUndefined();
  });

  it('a send promise of its own is still watched: its rejection fails the request', async () => {
    const transport = loopTransport(() => Promise.reject(new Error('wire gone')));
    const engine = new Protocol();
    await engine.connect(transport);
    await expect(engine.request({ method: 'ping' }, z.object({}), { timeout: 5_000 })).rejects.toThrow(
      'wire gone',
    );
    await engine.close();
  });
});
