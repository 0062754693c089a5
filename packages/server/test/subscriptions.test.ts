import { MetaKey, ResultSchema } from '@x/protocol';
import { describe, expect, it } from 'vitest';
import { McpServer } from '../src/index.js';
import { connect, modernMeta, responseTo } from './helpers.js';
import { afterTimeouts } from '@x/test-kit';

function build(): McpServer {
  const server = new McpServer({ name: 'subs', version: '1' }, { listChangedDebounceMs: 0 });
  server.registerTool('t', {}, () => ({ content: [] }));
  server.registerResource('r', 'test://watched', {}, (uri) => ({ contents: [{ uri, text: 'w' }] }));
  return server;
}

describe('2026-07-28 subscriptions/listen', () => {
  it('acknowledges first, filters, tags every message with the subscription id, serves several at once', async () => {
    const server = build();
    const wire = await connect(server);
    await afterTimeouts(5); // let the registration's own list_changed pass before anyone listens
    const listen = (notifications: Record<string, unknown>) =>
      wire.client.request(
        { method: 'subscriptions/listen', params: { _meta: modernMeta(), notifications } },
        ResultSchema,
      );
    const tools = listen({ toolsListChanged: true, promptsListChanged: true });
    const resources = listen({ resourceSubscriptions: ['test://watched'] });
    await afterTimeouts(5);
    expect(wire.notifications('notifications/subscriptions/acknowledged')).toEqual([
      { notifications: { toolsListChanged: true }, _meta: { [MetaKey.SubscriptionId]: 1 } },
      {
        notifications: { resourceSubscriptions: ['test://watched'] },
        _meta: { [MetaKey.SubscriptionId]: 2 },
      },
    ]);
    server.registerTool('t2', {}, () => ({ content: [] }));
    server.sendResourceUpdated('test://watched');
    server.sendResourceUpdated('test://other');
    await afterTimeouts(5);
    expect(wire.notifications('notifications/tools/list_changed')).toEqual([
      { _meta: { [MetaKey.SubscriptionId]: 1 } },
    ]);
    expect(wire.notifications('notifications/resources/updated')).toEqual([
      { uri: 'test://watched', _meta: { [MetaKey.SubscriptionId]: 2 } },
    ]);
    expect(wire.notifications('notifications/resources/list_changed')).toEqual([]);
    const index = wire.sent.findIndex(
      (m) => 'method' in m && m.method === 'notifications/tools/list_changed',
    );
    expect(wire.sendOptions[index]).toEqual({ relatedRequestId: 1 });
    expect(wire.session.listenStreams).toBe(2);

    // Client cancels one: no response for it, the other keeps going.
    await wire.client.notification({ method: 'notifications/cancelled', params: { requestId: 1 } });
    tools.catch(() => {});
    await afterTimeouts(5);
    expect(wire.session.listenStreams).toBe(1);
    expect(responseTo(wire, 1)).toBeUndefined();

    // Graceful end by the server: a final result tagged with the subscription id.
    await server.close();
    await expect(resources).resolves.toEqual({
      resultType: 'complete',
      _meta: { [MetaKey.ServerInfo]: { name: 'subs', version: '1' }, [MetaKey.SubscriptionId]: 2 },
    });
  });

  it('rejects a listen request without a filter (-32602) and needs modern _meta', async () => {
    const wire = await connect(build());
    await expect(
      wire.client.request({ method: 'subscriptions/listen', params: { _meta: modernMeta() } }, ResultSchema),
    ).rejects.toMatchObject({ code: -32602 });
    await expect(
      wire.client.request({ method: 'subscriptions/listen', params: { notifications: {} } }, ResultSchema),
    ).rejects.toMatchObject({ code: -32602 });
  });
});
