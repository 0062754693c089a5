import { TransportLostError } from '@x/protocol/transport';
import { waitFor } from '@x/test-kit';
import { describe, expect, it } from 'vitest';
import { GrpcClientTransport } from '../src/index.js';
import { startRelay } from './raw-peer.js';
import { startSessions } from './helpers.js';

describe('HTTP/2 keepalive', () => {
  it('a client whose server stops answering PINGs ends with TransportLostError within keepAliveMs + keepAliveTimeoutMs', async () => {
    await using sessions = await startSessions();
    await using relay = await startRelay(sessions.listener.port);
    const transport = new GrpcClientTransport(relay.target, {
      keepAliveMs: 1_000,
      keepAliveTimeoutMs: 1_000,
    });
    let closed = false;
    transport.onclose = () => {
      closed = true;
    };
    transport.onerror = () => {};
    await transport.start();
    await sessions.next();
    // The server's side goes silent (a dead peer, a black-holing network): no PING ack comes back.
    relay.freeze();
    const frozenAt = Date.now();
    await waitFor(() => closed, { timeoutMs: 20_000, what: 'the keepalive to notice' });
    expect(transport.closeReason).toBeInstanceOf(TransportLostError);
    expect(Date.now() - frozenAt).toBeLessThan(15_000);
  }, 60_000);
});
