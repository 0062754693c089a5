// Per-request `_meta` crosses a translating bridge both ways, in every pairing of eras: the downstream
// request's own keys (trace context, application keys) reach the upstream handler, the engine's keys
// (progress token, 2026-07-28 envelope) are each hop's own, and a result's `_meta` comes back.
import { Client } from '@x/client';
import { InMemoryTransport, type ProgressUpdate } from '@x/protocol/core';
import { McpServer, type ServedEras } from '@x/server';
import { afterEach, describe, expect, it } from 'vitest';
import { z } from 'zod';
import { type Bridge, createBridge } from '../src/index.js';

let bridge: Bridge | undefined;
afterEach(async () => {
  await bridge?.close();
  bridge = undefined;
});

/** What the upstream tool saw as its request's `_meta`, per call. */
function upstreamServer(eras: ServedEras, seen: Array<Record<string, unknown> | undefined>): McpServer {
  const server = new McpServer({ name: 'meta-upstream', version: '1.0.0' }, { eras });
  server.registerTool('meta', { inputSchema: z.object({}) }, async (_args, ctx) => {
    seen.push(ctx._meta as Record<string, unknown> | undefined);
    await ctx.sendProgress({ progress: 1, total: 2, message: 'half' });
    return { content: [{ type: 'text', text: 'ok' }], _meta: { 'example.com/served-by': 'upstream' } };
  });
  return server;
}

const TRACEPARENT = '00-4bf92f3577b34da6a3ce929d0e0e4736-00f067aa0ba902b7-01';

describe('createBridge: _meta both ways', () => {
  for (const [upstreamEras, downstream] of [
    ['legacy', 'legacy'],
    ['legacy', 'modern'],
    ['modern', 'legacy'],
    ['modern', 'modern'],
  ] as const) {
    it(`${downstream} client → bridge → ${upstreamEras}-only server`, async () => {
      const seen: Array<Record<string, unknown> | undefined> = [];
      const server = upstreamServer(upstreamEras, seen);
      bridge = createBridge({
        upstream: () => {
          const [a, b] = InMemoryTransport.createLinkedPair();
          void server.connect(b);
          return a;
        },
      });
      const [down, up] = InMemoryTransport.createLinkedPair();
      const connecting = bridge.connect(up);
      const client = new Client({ name: 'downstream', version: '1.0.0' }, { protocolVersion: downstream });
      await connecting;
      await client.connect(down);

      const progress: ProgressUpdate[] = [];
      const result = await client.callTool(
        {
          name: 'meta',
          arguments: {},
          _meta: { traceparent: TRACEPARENT, 'example.com/tenant': 'acme' },
        },
        { onprogress: (update) => progress.push(update) },
      );

      expect(seen).toHaveLength(1);
      expect(seen[0]).toMatchObject({ traceparent: TRACEPARENT, 'example.com/tenant': 'acme' });
      // The upstream's progress token is the bridge's own; its progress reached the downstream's.
      expect(seen[0]?.['progressToken']).toBeDefined();
      expect(progress).toEqual([expect.objectContaining({ progress: 1, total: 2, message: 'half' })]);
      expect(result._meta).toMatchObject({ 'example.com/served-by': 'upstream' });
      await client.close();
    });
  }
});
