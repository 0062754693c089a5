import { createHook } from 'node:async_hooks';
import { Client } from '@x/client';
import { InMemoryTransport } from '@x/protocol';
import { McpServer } from '@x/server';
import { describe, expect, it } from 'vitest';
import { z } from 'zod';

// Promises are what a round trip costs beyond its own work (each is an allocation and a microtask,
// and in cold code a good part of a call's time). These budgets hold the per-call count of the
// everyday path, so an `async` wrapper or an extra `await` slipped into it shows up here, not only as
// a few percent in apps/bench. Counted with async_hooks: deterministic, no timing involved.

async function promisesPerCall(era: 'legacy' | 'modern'): Promise<number> {
  const server = new McpServer({ name: 'budget', version: '1.0.0' });
  server.registerTool('echo', { inputSchema: z.object({ text: z.string() }) }, ({ text }) => ({
    content: [{ type: 'text', text }],
  }));
  const [clientSide, serverSide] = InMemoryTransport.createLinkedPair();
  await server.connect(serverSide);
  const client = new Client({ name: 'budget-client', version: '1.0.0' }, { protocolVersion: era });
  await client.connect(clientSide);
  const call = () => client.callTool({ name: 'echo', arguments: { text: 'hi' } });
  for (let i = 0; i < 20; i++) await call(); // lazy schemas and first-use paths out of the way
  let promises = 0;
  const hook = createHook({
    init(_id, type) {
      if (type === 'PROMISE') promises++;
    },
  });
  const calls = 50;
  hook.enable();
  try {
    for (let i = 0; i < calls; i++) await call();
  } finally {
    hook.disable();
  }
  await client.close();
  return promises / calls;
}

describe('promise budget of an in-memory tools/call (client + server, including the caller await)', () => {
  it('legacy era: at most 6', async () => {
    expect(await promisesPerCall('legacy')).toBeLessThanOrEqual(6);
  });

  it('2026-07-28: at most 8 (per-request _meta, input rounds)', async () => {
    expect(await promisesPerCall('modern')).toBeLessThanOrEqual(8);
  });
});
