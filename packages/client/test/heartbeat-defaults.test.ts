import { DEFAULT_HEARTBEAT } from '@x/protocol';
import { afterEach, describe, expect, it, vi } from 'vitest';
import { Client, FailoverTransport } from '../src/index.js';
import { CLIENT_INFO, fakeServer, legacyHandshake } from './helpers.js';

// The heartbeat's default (issue 28 §3): on, with a long interval, for transports that declare they
// cross a network (`Transport.network`); off for local ones (stdio, in-memory).
describe('client heartbeat defaults', () => {
  afterEach(() => {
    vi.useRealTimers();
  });

  async function connected(network: boolean, heartbeat?: boolean) {
    vi.useFakeTimers({ toFake: ['setTimeout', 'clearTimeout'] });
    const peer = await fakeServer(legacyHandshake);
    if (network) Object.defineProperty(peer.transport, 'network', { value: true });
    const client = new Client(
      CLIENT_INFO,
      heartbeat === undefined ? { protocolVersion: 'legacy' } : { protocolVersion: 'legacy', heartbeat },
    );
    await client.connect(peer.transport);
    return { peer, client };
  }

  it('pings every DEFAULT_HEARTBEAT.intervalMs on a network transport', async () => {
    const { peer, client } = await connected(true);
    await vi.advanceTimersByTimeAsync(DEFAULT_HEARTBEAT.intervalMs - 1);
    expect(peer.requests('ping')).toHaveLength(0);
    await vi.advanceTimersByTimeAsync(1);
    expect(peer.requests('ping')).toHaveLength(1);
    await vi.advanceTimersByTimeAsync(DEFAULT_HEARTBEAT.intervalMs);
    expect(peer.requests('ping')).toHaveLength(2);
    await client.close();
  });

  it('sends nothing on a local transport, or when turned off', async () => {
    for (const [network, heartbeat] of [
      [false, undefined],
      [true, false],
    ] as const) {
      const { peer, client } = await connected(network, heartbeat);
      await vi.advanceTimersByTimeAsync(DEFAULT_HEARTBEAT.intervalMs * 3);
      expect(peer.requests('ping')).toHaveLength(0);
      await client.close();
      vi.useRealTimers();
    }
  });

  it('turns on for a local transport when asked', async () => {
    const { peer, client } = await connected(false, true);
    await vi.advanceTimersByTimeAsync(DEFAULT_HEARTBEAT.intervalMs);
    expect(peer.requests('ping')).toHaveLength(1);
    await client.close();
  });

  it('pings by default through a FailoverTransport whose active transport is a network one', async () => {
    vi.useFakeTimers({ toFake: ['setTimeout', 'clearTimeout'] });
    const peer = await fakeServer(legacyHandshake);
    Object.defineProperty(peer.transport, 'network', { value: true });
    const transport = new FailoverTransport({ transports: [{ name: 'net', create: () => peer.transport }] });
    const client = new Client(CLIENT_INFO, { protocolVersion: 'legacy' });
    await client.connect(transport);
    expect(transport.network).toBe(true);
    await vi.advanceTimersByTimeAsync(DEFAULT_HEARTBEAT.intervalMs);
    expect(peer.requests('ping')).toHaveLength(1);
    await client.close();
  });
});
