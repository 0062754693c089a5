import { describe, expect, it } from 'vitest';
import type { JSONRPCMessage, Transport } from '../src/index.js';
import { deliverMessage } from '../src/transport-kit.js';

const ping: JSONRPCMessage = { jsonrpc: '2.0', id: 1, method: 'ping' };

describe('deliverMessage', () => {
  it('hands the message and its extra info to onmessage', () => {
    const seen: unknown[] = [];
    const transport: Pick<Transport, 'onmessage' | 'onerror'> = {
      onmessage: (message, extra) => seen.push(message, extra),
    };
    deliverMessage(transport, ping, { authInfo: { token: 't', clientId: 'c', scopes: [] } });
    expect(seen).toEqual([ping, { authInfo: { token: 't', clientId: 'c', scopes: [] } }]);
  });

  it('reports a throwing handler to onerror as an Error, or to the given report, and returns normally', () => {
    const errors: Error[] = [];
    const transport: Pick<Transport, 'onmessage' | 'onerror'> = {
      onmessage: () => {
        throw 'not an Error';
      },
      onerror: (error) => errors.push(error),
    };
    expect(() => deliverMessage(transport, ping)).not.toThrow();
    expect(errors.map((e) => [e instanceof Error, e.message])).toEqual([[true, 'not an Error']]);
    const reported: unknown[] = [];
    deliverMessage(transport, ping, undefined, (error) => reported.push(error));
    expect(reported).toEqual(['not an Error']);
    expect(errors).toHaveLength(1);
  });
});
