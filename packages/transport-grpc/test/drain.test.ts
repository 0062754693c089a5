import { status } from '@grpc/grpc-js';
import { TransportLostError } from '@x/protocol/transport';
import { McpServer } from '@x/server';
import { waitFor } from '@x/test-kit';
import { describe, expect, it } from 'vitest';
import { GrpcClientTransport, GrpcStatusError, listenGrpc } from '../src/index.js';
import { connectClient, textOf } from './helpers.js';

describe('graceful drain', () => {
  it('answers the requests in flight, refuses new streams, then ends the sessions', async () => {
    let release: (() => void) | undefined;
    let running = 0;
    const mcp = new McpServer({ name: 'slow', version: '1.0.0' });
    mcp.registerTool('slow', {}, async () => {
      running++;
      await new Promise<void>((resolve) => {
        release = resolve;
      });
      return { content: [{ type: 'text', text: 'done' }] };
    });
    const listener = await listenGrpc({
      port: 0,
      keepAliveMs: 0,
      onsession: (transport) => mcp.connect(transport),
    });
    const { client, transport } = await connectClient(listener.target);
    try {
      const call = client.callTool({ name: 'slow', arguments: {} });
      await waitFor(() => running === 1);
      const drained = listener.drain({ timeoutMs: 20_000 });
      // New streams are refused while the old session finishes its work.
      const late = new GrpcClientTransport(listener.target, { keepAliveMs: 0 });
      const refused = (await late.start().catch((error: unknown) => error)) as GrpcStatusError;
      expect(refused).toBeInstanceOf(GrpcStatusError);
      expect(refused.status).toBe(status.UNAVAILABLE);
      release?.();
      expect(textOf(await call)).toBe('done');
      await drained;
      await waitFor(() => transport.closeReason !== undefined, { what: 'the session to end' });
      expect(transport.closeReason).toBeInstanceOf(TransportLostError);
      expect(String(transport.closeReason)).toMatch(/shutting down/);
    } finally {
      await client.close();
      await listener.close();
    }
  }, 60_000);
});
