import { ErrorCode, McpError, ResultSchema } from '@x/protocol';
import { describe, expect, it } from 'vitest';
import { DEFAULT_MAX_SUBSCRIPTIONS, McpServer } from '../src/index.js';
import { connect, initialize, modernMeta } from './helpers.js';
import { afterTimeouts } from '@x/test-kit';

function build(options: { maxSubscriptions?: number } = {}): McpServer {
  const server = new McpServer({ name: 'subs', version: '1' }, { listChangedDebounceMs: 0, ...options });
  server.registerResource('r', 'test://watched', {}, (uri) => ({ contents: [{ uri, text: 'w' }] }));
  return server;
}

async function failure(promise: Promise<unknown>): Promise<McpError> {
  const error = await promise.then(
    () => undefined,
    (e: unknown) => e,
  );
  expect(error).toBeInstanceOf(McpError);
  return error as McpError;
}

describe('maxSubscriptions (issue #24 item 7)', () => {
  it('defaults to 1000 legacy subscriptions per session, then -32600 naming the option; re-subscribing and unsubscribing still work', async () => {
    expect(DEFAULT_MAX_SUBSCRIPTIONS).toBe(1000);
    const wire = await connect(build());
    await initialize(wire);
    for (let i = 0; i < DEFAULT_MAX_SUBSCRIPTIONS; i++) {
      await wire.call('resources/subscribe', { uri: `test://unknown/${i}` });
    }
    const error = await failure(wire.call('resources/subscribe', { uri: 'test://one-too-many' }));
    expect(error.code).toBe(ErrorCode.InvalidRequest);
    expect(error.message).toBe(
      'Subscribing to test://one-too-many exceeds maxSubscriptions (1000) for this session; unsubscribe first',
    );
    // Already held: not a new subscription.
    await expect(wire.call('resources/subscribe', { uri: 'test://unknown/0' })).resolves.toEqual({});
    await wire.call('resources/unsubscribe', { uri: 'test://unknown/0' });
    await expect(wire.call('resources/subscribe', { uri: 'test://one-too-many' })).resolves.toEqual({});
    expect(wire.session.legacy?.subscriptions.size).toBe(DEFAULT_MAX_SUBSCRIPTIONS);
    // Another session has its own budget.
    const other = await connect(build({ maxSubscriptions: 1 }));
    await initialize(other);
    await other.call('resources/subscribe', { uri: 'test://a' });
    const second = await failure(other.call('resources/subscribe', { uri: 'test://b' }));
    expect(second.message).toContain('maxSubscriptions (1)');
  });

  it('counts 2026-07-28 listen streams and their URIs per connection, and frees them when a stream ends', async () => {
    const wire = await connect(build({ maxSubscriptions: 5 }));
    const listen = (uris: string[]) =>
      wire.client.request(
        {
          method: 'subscriptions/listen',
          params: { _meta: modernMeta(), notifications: { resourceSubscriptions: uris } },
        },
        ResultSchema,
      );
    const first = listen(['test://a', 'test://b']); // 3
    first.catch(() => {});
    await afterTimeouts(5);
    const tooMany = await failure(listen(['test://c', 'test://d', 'test://e'])); // 3 more: 6 > 5
    expect(tooMany.code).toBe(ErrorCode.InvalidRequest);
    expect(tooMany.message).toContain('exceeds maxSubscriptions (5)');
    const fits = listen(['test://c']); // 2 more: 5
    fits.catch(() => {});
    await afterTimeouts(5);
    expect(wire.session.listenStreams).toBe(2);
    await expect(failure(listen([]))).resolves.toMatchObject({ code: ErrorCode.InvalidRequest });
    // The client cancels the first: its share is free again.
    await wire.client.notification({ method: 'notifications/cancelled', params: { requestId: 1 } });
    await afterTimeouts(5);
    const again = listen(['test://x', 'test://y']);
    again.catch(() => {});
    await afterTimeouts(5);
    expect(wire.session.listenStreams).toBe(2);
    await wire.session.close();
  });
});
