// Regression: a 2026-07-28 host's `subscriptions/listen` with `resourceSubscriptions` was acknowledged by
// the bridge but never got an update (nothing followed the URI upstream). The upstream now follows it
// (`resources/subscribe` on a legacy upstream, a `subscriptions/listen` stream on a 2026-07-28 one)
// until the host's stream ends.
import { describe, expect, it, vi } from 'vitest';
import { DIRECTIONS, type DirectionId } from './feature-cases.js';
import { type Harness, methods, startHarness } from './feature-harness.js';
import { cleanupAfterEach } from './helpers.js';

const cleanup = cleanupAfterEach();
const uri = 'file:///readme';

async function start(id: DirectionId): Promise<Harness> {
  const direction = DIRECTIONS.find((d) => d.id === id);
  if (direction === undefined) throw new Error(`no ${id} direction`);
  return startHarness(direction, cleanup);
}

/** Opens the host's stream for `uri`; `updates` fills as the bridge relays them. */
async function listenFor(h: Harness): Promise<{ updates: string[]; stop: () => void }> {
  const stop = new AbortController();
  const subscription = h.client.listen({ resourceSubscriptions: [uri] }, { signal: stop.signal });
  await subscription.acknowledged;
  const updates: string[] = [];
  void (async () => {
    for await (const notification of subscription) {
      if (notification.method === 'notifications/resources/updated') updates.push(notification.params.uri);
    }
  })().catch(() => undefined);
  return { updates, stop: () => stop.abort() };
}

describe('a 2026-07-28 host listening for a resource', { timeout: 60_000 }, () => {
  it('of a 2024-11-05 upstream: resources/subscribe, updates relayed, resources/unsubscribe when the stream ends', async () => {
    const h = await start('modern-to-2024');
    const { updates, stop } = await listenFor(h);
    expect(methods(h.up.out)).toContain('resources/subscribe');
    h.upstream.sendResourceUpdated(uri);
    await vi.waitFor(() => expect(updates).toEqual([uri]), { timeout: 20_000 });
    stop();
    await vi.waitFor(() => expect(methods(h.up.out)).toContain('resources/unsubscribe'), { timeout: 20_000 });
  });

  it('of a 2026-07-28 upstream: an upstream stream for the URI, updates relayed, closed when the host stream ends', async () => {
    const h = await start('same-modern');
    // Over Streamable HTTP a 2026-07-28 host's every request is a bridge session of its own (and an
    // upstream of its own): nothing is open upstream between requests.
    await vi.waitFor(() => expect(h.openUpstreamRequests()).toBe(0), { timeout: 20_000 });
    const { updates, stop } = await listenFor(h);
    expect(h.openUpstreamRequests()).toBe(1);
    h.upstream.sendResourceUpdated(uri);
    await vi.waitFor(() => expect(updates).toEqual([uri]), { timeout: 20_000 });
    stop();
    await vi.waitFor(() => expect(h.openUpstreamRequests()).toBe(0), { timeout: 20_000 });
  });
});
