import { describe, expect, it } from 'vitest';
import { z } from 'zod';
import { McpError } from '../src/errors.js';
import { Protocol } from '../src/engine/index.js';
import type { PriorityContext } from '../src/engine/index.js';
import type { JSONRPCMessage } from '../src/jsonrpc.js';
import { defaultMessagePriority, PRIORITY_META_KEY } from '../src/message-priority.js';
import { enginePair, engineWithRawPeer } from './engine-helpers.js';

// Issue #42: the engine tells the transport each message's class (`TransportSendOptions.priority`).

const Empty = z.object({});

describe('engine: message classes on the way out', () => {
  it('sends an answer in its request class: ping and errors urgent, a bulk request bulk', async () => {
    const engine = new Protocol();
    engine.setRequestHandler('work', () => ({}));
    engine.setRequestHandler('fail', () => {
      throw new McpError(-32602, 'no');
    });
    const { sent, inject } = await engineWithRawPeer(engine);
    await inject({ jsonrpc: '2.0', id: 1, method: 'ping' });
    await inject({ jsonrpc: '2.0', id: 2, method: 'work' });
    await inject({
      jsonrpc: '2.0',
      id: 3,
      method: 'work',
      params: { _meta: { [PRIORITY_META_KEY]: 'bulk' } },
    });
    await inject({
      jsonrpc: '2.0',
      id: 4,
      method: 'fail',
      params: { _meta: { [PRIORITY_META_KEY]: 'bulk' } },
    });
    expect(sent.map(({ message, options }) => [(message as { id: unknown }).id, options?.priority])).toEqual([
      [1, 'urgent'],
      [2, 'normal'],
      [3, 'bulk'],
      [4, 'urgent'],
    ]);
  });

  it('leaves the class to the transport when nothing chose one (no options object is made)', async () => {
    const { engine, sent } = await engineWithRawPeer(new Protocol({ timeout: Number.POSITIVE_INFINITY }));
    void engine.request({ method: 'work' }, Empty).catch(() => undefined);
    await engine.notification({ method: 'notifications/message', params: { level: 'info', data: 1 } });
    expect(sent.map(({ options }) => options)).toEqual([undefined, undefined]);
    expect(sent.map(({ message }) => defaultMessagePriority(message))).toEqual(['normal', 'bulk']);
  });

  it('a request option priority sets the send class and tells the peer in _meta', async () => {
    const { engine, sent } = await engineWithRawPeer();
    void engine
      .request({ method: 'work', params: { a: 1 } }, Empty, { priority: 'bulk' })
      .catch(() => undefined);
    expect(sent[0]?.options?.priority).toBe('bulk');
    expect(sent[0]?.message).toMatchObject({
      params: { a: 1, _meta: { [PRIORITY_META_KEY]: 'bulk', progressToken: 1 } },
    });
  });

  it('the peer queues and answers such a request in the class its _meta names', async () => {
    const { client, server, serverSent } = await enginePair();
    server.setRequestHandler('work', () => ({}));
    await client.request({ method: 'work' }, Empty, { priority: 'bulk' });
    expect(serverSent.at(-1)?.options?.priority).toBe('bulk');
  });

  it('asks the priority option for each request and notification sent, and for each one received', async () => {
    const calls: [string, PriorityContext['direction']][] = [];
    const priority = (
      message: { method: string; params?: Record<string, unknown> | undefined },
      context: PriorityContext,
    ) => {
      calls.push([message.method, context.direction]);
      if (message.method === 'tools/call' && message.params?.['name'] === 'slow') return 'bulk' as const;
      if (message.method === 'notifications/progress') return 'normal' as const;
      return undefined;
    };
    const { client, server, clientSent, serverSent } = await enginePair({
      client: { priority },
      server: { priority },
    });
    server.setRequestHandler('tools/call', async (_params, ctx) => {
      await ctx.sendProgress({ progress: 1 });
      return {};
    });
    await client.request({ method: 'tools/call', params: { name: 'slow' } }, Empty);
    await client.request({ method: 'tools/call', params: { name: 'fast' } }, Empty);
    await client.notification({ method: 'notifications/roots/list_changed' });
    expect(clientSent.map(({ options }) => options?.priority)).toEqual(['bulk', undefined, undefined]);
    // Progress, then the answer: progress moved to normal by the option, answers in their request's class.
    expect(
      serverSent.map(({ message, options }) => [
        'method' in message ? message.method : 'answer',
        options?.priority,
      ]),
    ).toEqual([
      ['notifications/progress', 'normal'],
      ['answer', 'bulk'],
      ['notifications/progress', 'normal'],
      ['answer', 'normal'],
    ]);
    expect(calls).toEqual([
      ['tools/call', 'outbound'],
      ['tools/call', 'inbound'],
      ['notifications/progress', 'outbound'],
      ['tools/call', 'outbound'],
      ['tools/call', 'inbound'],
      ['notifications/progress', 'outbound'],
      ['notifications/roots/list_changed', 'outbound'],
    ]);
  });

  it('a notification option priority goes to the transport as is', async () => {
    const { engine, sent } = await engineWithRawPeer(new Protocol({ priority: () => 'bulk' }));
    await engine.notification({ method: 'x/note' }, { priority: 'urgent' });
    expect(sent[0]?.options?.priority).toBe('urgent');
    const wire: JSONRPCMessage[] = sent.map(({ message }) => message);
    expect(wire).toEqual([{ jsonrpc: '2.0', method: 'x/note' }]);
  });
});
