// Raw mode against a real process: the official everything-server over stdio, messages unchanged.
import { Client } from '@x/client';
import { InMemoryTransport } from '@x/protocol/core';
import type { StdioClientTransport } from '@x/transport-stdio';
import { afterEach, describe, expect, it, vi } from 'vitest';
import { type Bridge, createBridge } from '../src/index.js';
import { alive, everythingUpstream, longCallInFlight } from './helpers.js';

let bridge: Bridge | undefined;
afterEach(async () => {
  await bridge?.close();
});

async function rawSession() {
  const upstreams: StdioClientTransport[] = [];
  bridge = createBridge({
    mode: 'raw',
    upstream: everythingUpstream(upstreams),
    upstreamName: 'everything (raw)',
  });
  const [down, up] = InMemoryTransport.createLinkedPair();
  await bridge.connect(up);
  const client = new Client({ name: 'raw-downstream', version: '1.0.0' }, { protocolVersion: 'legacy' });
  await client.connect(down);
  return { client, upstreams };
}

describe('createBridge({ mode: "raw" }) with a real stdio server', { timeout: 60_000 }, () => {
  it('forwards a legacy session unchanged, and stops the process when the downstream closes', async () => {
    const { client, upstreams } = await rawSession();
    expect(client.serverInfo?.name).toMatch(/everything/i);
    expect(await client.callTool({ name: 'echo', arguments: { message: 'raw' } })).toMatchObject({
      content: [{ type: 'text', text: expect.stringContaining('raw') }],
    });
    const pid = upstreams[0]?.pid as number;
    expect(alive(pid)).toBe(true);
    await client.close();
    await vi.waitFor(() => expect(alive(pid)).toBe(false), { timeout: 15_000, interval: 50 });
    await vi.waitFor(() => expect(bridge?.sessions.size).toBe(0));
  });

  it('answers the call in flight with -32000 naming the upstream when the process is killed', async () => {
    const { client, upstreams } = await rawSession();
    const { call } = await longCallInFlight(client);
    process.kill(upstreams[0]?.pid as number, 'SIGKILL');
    await expect(call).rejects.toMatchObject({
      code: -32000,
      data: { bridge: true, side: 'upstream', name: 'everything (raw)' },
    });
  });
});
