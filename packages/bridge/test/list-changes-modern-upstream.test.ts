// Regression: list changes of a 2026-07-28-only upstream never reached the host (that era sends them
// only on a `subscriptions/listen` stream, and the bridge opened none). The bridge now opens one for the
// lists the upstream declares `listChanged` for, and it ends with the session.
import { describe, expect, it, vi } from 'vitest';
import { DIRECTIONS } from './feature-cases.js';
import { methods, startHarness } from './feature-harness.js';
import { cleanupAfterEach } from './helpers.js';

const cleanup = cleanupAfterEach();
const LEGACY_TO_MODERN = DIRECTIONS.find((d) => d.id === 'legacy-to-modern');

describe('list changes of a 2026-07-28-only upstream', { timeout: 60_000 }, () => {
  it('are followed with one upstream subscriptions/listen stream, closed with the session', async () => {
    if (LEGACY_TO_MODERN === undefined) throw new Error('no legacy-to-modern direction');
    const h = await startHarness(LEGACY_TO_MODERN, cleanup);
    const listen = h.up.out.find((m) => 'method' in m && m.method === 'subscriptions/listen');
    expect(listen && 'params' in listen ? listen.params : undefined).toMatchObject({
      notifications: { toolsListChanged: true, promptsListChanged: true, resourcesListChanged: true },
    });
    let tools = 0;
    let prompts = 0;
    h.client.on('toolsListChanged', () => tools++);
    h.client.on('promptsListChanged', () => prompts++);
    h.upstream.registerTool('late', {}, () => ({ content: [] }));
    h.upstream.registerPrompt('late', {}, () => ({ messages: [] }));
    await vi.waitFor(() => expect([tools, prompts]).toEqual([1, 1]), { timeout: 20_000 });
    expect(methods(h.up.out).filter((m) => m === 'subscriptions/listen')).toHaveLength(1);
    expect(h.openUpstreamRequests()).toBe(1);
    await h.client.close();
    // The downstream session ends, and with it the upstream stream's HTTP request.
    await vi.waitFor(() => expect(h.openUpstreamRequests()).toBe(0), { timeout: 20_000 });
  });
});
