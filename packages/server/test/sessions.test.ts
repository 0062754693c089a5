import { InMemoryTransport, Protocol } from '@x/protocol';
import { describe, expect, it } from 'vitest';
import { McpServer } from '../src/index.js';
import { connect, initialize } from './helpers.js';
import { afterTimeouts } from '@x/test-kit';

describe('one server, many connections', () => {
  it('serves connections side by side; list_changed reaches every initialized session; closing one leaves the rest', async () => {
    const server = new McpServer({ name: 's', version: '1' }, { listChangedDebounceMs: 0 });
    server.registerTool('a', {}, () => ({ content: [{ type: 'text', text: 'a' }] }));
    const one = await connect(server);
    const two = await connect(server);
    const fresh = await connect(server); // never initializes: hears nothing
    await initialize(one);
    await initialize(two, { protocolVersion: '2024-11-05' });
    expect(server.sessions.size).toBe(3);
    await afterTimeouts(5);
    one.sent.length = 0;
    two.sent.length = 0;

    server.registerTool('b', {}, () => ({ content: [{ type: 'text', text: 'b' }] }));
    await afterTimeouts(5);
    expect(one.notifications('notifications/tools/list_changed')).toHaveLength(1);
    expect(two.notifications('notifications/tools/list_changed')).toHaveLength(1);
    expect(fresh.notifications()).toEqual([]);
    // Tools registered after connect are visible to existing sessions: the tables are shared.
    await expect(two.call('tools/call', { name: 'b' })).resolves.toEqual({
      content: [{ type: 'text', text: 'b' }],
    });

    await one.clientTransport.close();
    await afterTimeouts(5);
    expect(server.sessions.size).toBe(2);
    expect(server.sessions.has(one.session)).toBe(false);
    await expect(two.call('tools/call', { name: 'a' })).resolves.toEqual({
      content: [{ type: 'text', text: 'a' }],
    });
    server.registerTool('c', {}, () => ({ content: [] }));
    await afterTimeouts(5);
    expect(two.notifications('notifications/tools/list_changed')).toHaveLength(2);
    await server.close();
    expect(server.sessions.size).toBe(0);
  });

  it('connect() is cheap: a thousand sessions without re-registering handlers', async () => {
    const server = new McpServer({ name: 's', version: '1' });
    for (let i = 0; i < 50; i++) server.registerTool(`t${i}`, {}, () => ({ content: [] }));
    const { InMemoryTransport } = await import('@x/protocol');
    const started = performance.now();
    for (let i = 0; i < 1000; i++) {
      const [, serverSide] = InMemoryTransport.createLinkedPair();
      await server.connect(serverSide);
    }
    expect(server.sessions.size).toBe(1000);
    expect(performance.now() - started).toBeLessThan(1000);
    await server.close();
  });

  it('a session has an engine, it is not one: no way to install a handler that skips the initialize and era checks', async () => {
    const server = new McpServer({ name: 's', version: '1' });
    const [, serverSide] = InMemoryTransport.createLinkedPair();
    const session = await server.connect(serverSide);
    expect(session).not.toBeInstanceOf(Protocol);
    for (const member of [
      'setRequestHandler',
      'setNotificationHandler',
      'fallbackRequestHandler',
      'connect',
    ]) {
      expect(member in session, member).toBe(false);
    }
    expect(typeof session.request).toBe('function');
    expect(typeof session.notification).toBe('function');
    await session.close();
    expect(server.sessions.size).toBe(0);
  });
});
