import type { RequestContext, RequestId } from '@x/protocol';
import { describe, expect, it } from 'vitest';
import { Client, type ListenNotification } from '../src/index.js';
import { CLIENT_INFO, fakeServer, modernDiscover } from './helpers.js';
import { afterTimeouts } from '@x/test-kit';

type Ending = 'respond' | 'wait' | 'cancel';

async function listening(ending: Ending) {
  const state: { ctx?: RequestContext; aborted: boolean } = { aborted: false };
  const peer = await fakeServer((server) => {
    modernDiscover(server);
    server.setRequestHandler('subscriptions/listen', async (params, ctx) => {
      state.ctx = ctx;
      const tag = { 'io.modelcontextprotocol/subscriptionId': ctx.requestId };
      const filter = (params['notifications'] as Record<string, unknown>) ?? {};
      await ctx.sendNotification({
        method: 'notifications/subscriptions/acknowledged',
        params: { notifications: { toolsListChanged: filter['toolsListChanged'] === true }, _meta: tag },
      });
      // Another subscription's traffic must not leak into this one.
      await ctx.sendNotification({
        method: 'notifications/prompts/list_changed',
        params: { _meta: { 'io.modelcontextprotocol/subscriptionId': 'someone-else' } },
      });
      await ctx.sendNotification({ method: 'notifications/tools/list_changed', params: { _meta: tag } });
      await ctx.sendNotification({
        method: 'notifications/resources/updated',
        params: { uri: 'file:///a', _meta: tag },
      });
      if (ending === 'respond') return { resultType: 'complete', _meta: tag };
      if (ending === 'cancel') {
        await server.notification({
          method: 'notifications/cancelled',
          params: { requestId: ctx.requestId },
        });
      }
      await new Promise((resolve) => ctx.signal.addEventListener('abort', resolve));
      state.aborted = true;
      return {};
    });
  });
  const client = new Client(CLIENT_INFO);
  await client.connect(peer.transport);
  return { client, state, ...peer };
}

const tagOf = (n: ListenNotification): RequestId | undefined =>
  (n.params._meta as Record<string, unknown> | undefined)?.['io.modelcontextprotocol/subscriptionId'] as
    | RequestId
    | undefined;

describe('subscriptions/listen', () => {
  it('yields the tagged notifications and ends when the server answers the request', async () => {
    const { client, requests } = await listening('respond');
    const changed: unknown[] = [];
    client.on('toolsListChanged', (list) => changed.push(list));
    const subscription = client.listen({ toolsListChanged: true, resourceSubscriptions: ['file:///a'] });
    const seen: ListenNotification[] = [];
    for await (const notification of subscription) seen.push(notification);

    const listen = requests('subscriptions/listen')[0]!;
    expect(listen.params).toMatchObject({
      notifications: { toolsListChanged: true, resourceSubscriptions: ['file:///a'] },
      _meta: { 'io.modelcontextprotocol/protocolVersion': '2026-07-28' },
    });
    expect(subscription.id).toBe(listen.id);
    await expect(subscription.acknowledged).resolves.toEqual({ toolsListChanged: true });
    expect(seen.map((n) => [n.method, tagOf(n)])).toEqual([
      ['notifications/tools/list_changed', listen.id],
      ['notifications/resources/updated', listen.id],
    ]);
    expect(changed).toEqual([undefined]);
  });

  it('cancels the request when the consumer stops iterating', async () => {
    const { client, state, notifications } = await listening('wait');
    const subscription = client.listen({ toolsListChanged: true });
    for await (const notification of subscription) {
      expect(notification.method).toBe('notifications/tools/list_changed');
      break;
    }
    await afterTimeouts();
    expect(notifications('notifications/cancelled')).toEqual([
      expect.objectContaining({ params: expect.objectContaining({ requestId: subscription.id }) }),
    ]);
    expect(state.aborted).toBe(true);
    await expect(subscription.next()).resolves.toEqual({ done: true, value: undefined });
  });

  it('ends on an aborted signal, and gracefully when the server cancels it', async () => {
    const { client } = await listening('wait');
    const controller = new AbortController();
    const subscription = client.listen({}, { signal: controller.signal });
    await subscription.acknowledged;
    controller.abort();
    const rest: unknown[] = [];
    for await (const n of subscription) rest.push(n.method);
    expect(rest.length).toBeLessThanOrEqual(2);

    const other = await listening('cancel');
    const seen: string[] = [];
    for await (const n of other.client.listen({ toolsListChanged: true })) seen.push(n.method);
    expect(seen).toEqual(['notifications/tools/list_changed', 'notifications/resources/updated']);
  });

  it('fails the iteration when the connection drops', async () => {
    const { client } = await listening('wait');
    const subscription = client.listen({ toolsListChanged: true });
    await subscription.acknowledged;
    await client.close();
    const drained: string[] = [];
    await expect(async () => {
      for await (const n of subscription) drained.push(n.method);
    }).rejects.toThrow(/closed/i);
  });
});
