// Regression: a 2025 host's `resources/subscribe` through the bridge to a 2026-07-28-only server failed
// with -32601 (the bridge subscribed upstream with a method that era lacks). It now follows the URI with
// a `subscriptions/listen` stream, closed again on `resources/unsubscribe`.
import { describe, expect, it, vi } from 'vitest';
import { DIRECTIONS } from './feature-cases.js';
import { methods, startHarness } from './feature-harness.js';
import { cleanupAfterEach } from './helpers.js';

const cleanup = cleanupAfterEach();
const LEGACY_TO_MODERN = DIRECTIONS.find((d) => d.id === 'legacy-to-modern');

describe('resources/subscribe to a 2026-07-28-only upstream', { timeout: 60_000 }, () => {
  it('relays updates over an upstream subscriptions/listen stream, closed on unsubscribe', async () => {
    if (LEGACY_TO_MODERN === undefined) throw new Error('no legacy-to-modern direction');
    const h = await startHarness(LEGACY_TO_MODERN, cleanup);
    const uri = 'file:///readme';
    const updated: string[] = [];
    h.client.on('resourceUpdated', (params) => updated.push(params.uri));
    // A 2026-07-28 upstream holds no request open between calls (no session, no GET stream) but the
    // bridge's one `subscriptions/listen` stream for list changes.
    await vi.waitFor(() => expect(h.openUpstreamRequests()).toBe(1), { timeout: 20_000 });
    await h.client.subscribeResource({ uri });
    expect(methods(h.up.out)).toContain('subscriptions/listen');
    expect(methods(h.up.out)).not.toContain('resources/subscribe');
    expect(h.openUpstreamRequests()).toBe(2);
    h.upstream.sendResourceUpdated(uri);
    await vi.waitFor(() => expect(updated).toEqual([uri]), { timeout: 20_000 });
    await h.client.unsubscribeResource({ uri });
    // The URI's listen stream upstream ends; the list-change stream stays.
    await vi.waitFor(() => expect(h.openUpstreamRequests()).toBe(1), { timeout: 20_000 });
  });
});
