import { Client } from '@x/client';
import {
  InMemoryTransport,
  type JSONRPCMessage,
  PRIORITY_META_KEY,
  type TransportSendOptions,
} from '@x/protocol';
import { McpServer } from '@x/server';
import { waitFor } from '@x/test-kit';
import { afterEach, describe, expect, it } from 'vitest';
import { Resources, textOf } from './fixtures/e2e-helpers.js';

// Issue #42: the `priority`, `maxConcurrentRequests` and `maxQueuedRequests` options reach the engine
// through `Client` and `McpServer`, and a per-call `priority` reaches the server's queue and answer.

const resources = new Resources();
afterEach(() => resources.closeAll());

const text = (value: string) => ({ content: [{ type: 'text' as const, text: value }] });

/** Records what `transport` is asked to send, with its options. */
function recordSends(
  transport: InMemoryTransport,
): Array<{ message: JSONRPCMessage; options?: TransportSendOptions }> {
  const sent: Array<{ message: JSONRPCMessage; options?: TransportSendOptions }> = [];
  const send = transport.send.bind(transport);
  transport.send = (message, options) => {
    sent.push(options === undefined ? { message } : { message, options });
    return send(message, options);
  };
  return sent;
}

async function pair(server: McpServer, client: Client) {
  const [clientSide, serverSide] = InMemoryTransport.createLinkedPair();
  const serverSent = recordSends(serverSide);
  const clientSent = recordSends(clientSide);
  await server.connect(serverSide);
  await client.connect(clientSide);
  resources.track(client);
  return { serverSent, clientSent };
}

describe('message classes through Client and McpServer', { timeout: 30_000 }, () => {
  it('McpServer: maxConcurrentRequests queues calls, the priority option lets a tool pass', async () => {
    const started: string[] = [];
    let release: (() => void) | undefined;
    const server = new McpServer(
      { name: 'classes', version: '1.0.0' },
      {
        maxConcurrentRequests: 1,
        priority: (m) => (m.method === 'tools/call' && m.params?.['name'] === 'peek' ? 'urgent' : undefined),
      },
    );
    server.registerTool('hold', {}, () => {
      started.push('hold');
      return new Promise((resolve) => {
        release = () => resolve(text('held'));
      });
    });
    server.registerTool('next', {}, () => {
      started.push('next');
      return text('next');
    });
    server.registerTool('peek', {}, () => {
      started.push('peek');
      release?.();
      return text(started.join(','));
    });
    const client = new Client({ name: 'c', version: '1.0.0' }, { protocolVersion: 'legacy' });
    await pair(server, client);
    const hold = client.callTool({ name: 'hold', arguments: {} });
    await waitFor(() => release, { what: 'hold to start' });
    const next = client.callTool({ name: 'next', arguments: {} });
    // `peek` runs past the full slot (urgent) and sees that `next` has not started.
    expect(textOf(await client.callTool({ name: 'peek', arguments: {} }))).toBe('hold,peek');
    expect(textOf(await hold)).toBe('held');
    expect(textOf(await next)).toBe('next');
    expect(started).toEqual(['hold', 'peek', 'next']);
  });

  it('a call with priority bulk carries the _meta key, and the server answers it in bulk', async () => {
    const server = new McpServer({ name: 'classes', version: '1.0.0' });
    server.registerTool('report', {}, () => text('done'));
    const client = new Client({ name: 'c', version: '1.0.0' }, { protocolVersion: 'legacy' });
    const { serverSent, clientSent } = await pair(server, client);
    await client.callTool({ name: 'report', arguments: {} }, { priority: 'bulk' });
    const call = clientSent.find(({ message }) => 'method' in message && message.method === 'tools/call');
    expect(call?.options?.priority).toBe('bulk');
    expect(call?.message).toMatchObject({ params: { _meta: { [PRIORITY_META_KEY]: 'bulk' } } });
    const id = (call?.message as { id?: unknown } | undefined)?.id;
    const answer = serverSent.find(({ message }) => 'id' in message && message.id === id);
    expect(answer?.options?.priority).toBe('bulk');
  });

  it('the Client priority option classes what the client sends', async () => {
    const server = new McpServer({ name: 'classes', version: '1.0.0' });
    server.registerTool('report', {}, () => text('done'));
    const client = new Client(
      { name: 'c', version: '1.0.0' },
      {
        protocolVersion: 'legacy',
        priority: (m, { direction }) =>
          direction === 'outbound' && m.method === 'tools/call' ? 'bulk' : undefined,
      },
    );
    const { clientSent } = await pair(server, client);
    await client.callTool({ name: 'report', arguments: {} });
    const call = clientSent.find(({ message }) => 'method' in message && message.method === 'tools/call');
    expect(call?.options?.priority).toBe('bulk');
  });

  it('refuses a bad limit when the server or client is built, naming the option', () => {
    expect(() => new McpServer({ name: 's', version: '1' }, { maxConcurrentRequests: 0 })).toThrow(
      /maxConcurrentRequests/,
    );
    expect(() => new McpServer({ name: 's', version: '1' }, { protocol: { maxQueuedRequests: -1 } })).toThrow(
      /maxQueuedRequests/,
    );
    expect(() => new Client({ name: 'c', version: '1' }, { maxConcurrentRequests: 2.5 })).toThrow(
      /maxConcurrentRequests/,
    );
  });
});
