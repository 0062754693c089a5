import type { IncomingMessage } from 'node:http';
import { describe, expect, it } from 'vitest';
import { NodeIncoming } from '../src/server/node-incoming.js';

function incoming(): NodeIncoming {
  const req = { method: 'POST', url: '/mcp', headers: { host: '127.0.0.1:1' }, socket: {} };
  return new NodeIncoming(req as unknown as IncomingMessage);
}

describe('NodeIncoming disconnect', () => {
  it('tells listeners and the signal once, whether the signal was asked for before or after', () => {
    const early = incoming();
    const calls: string[] = [];
    early.onDisconnect(() => calls.push('first'));
    const signal = early.signal;
    early.onDisconnect(() => calls.push('second'));
    expect([early.gone, signal.aborted]).toEqual([false, false]);
    early.disconnected();
    early.disconnected();
    expect(calls).toEqual(['first', 'second']);
    expect([early.gone, signal.aborted]).toEqual([true, true]);

    const late = incoming();
    late.disconnected();
    expect([late.gone, late.signal.aborted]).toEqual([true, true]);
  });
});
