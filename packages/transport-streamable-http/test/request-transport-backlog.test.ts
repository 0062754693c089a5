import { describe, expect, it } from 'vitest';
import { toPlatformResponse } from '@x/protocol/http';
import { RequestTransport } from '../src/server/request-transport.js';

// Issue #35: an SSE reply whose client falls more than maxBufferedBytes behind is dropped with what it
// had not read; that loss must reach onerror (naming the option), not pass in silence.
describe('RequestTransport SSE reply backlog (issue #35)', () => {
  it('reports a reply stream dropped for falling behind through onerror, naming maxBufferedBytes', async () => {
    const transport = new RequestTransport({
      era: 'legacy',
      json: false,
      keepAliveMs: 0,
      maxBufferedBytes: 64 * 1024,
      onFinished: () => {},
    });
    const errors: Error[] = [];
    transport.onerror = (error) => errors.push(error);
    await transport.start();
    const response = await transport.handle({
      messages: [{ jsonrpc: '2.0', id: 1, method: 'tools/call', params: { name: 'big' } }],
      extra: {},
      batch: false,
      longLived: false,
      client: { gone: false, onDisconnect: () => {} },
    });
    expect(toPlatformResponse(response).headers.get('content-type')).toMatch(/text\/event-stream/);
    // The body is never read: the client stopped reading. Progress notifications pile up.
    const data = 'x'.repeat(16 * 1024);
    for (let i = 0; i < 16; i++) {
      await transport
        .send({ jsonrpc: '2.0', method: 'notifications/message', params: { level: 'info', data } })
        .catch(() => {});
    }
    expect(errors).toHaveLength(1);
    expect(errors[0]?.message).toMatch(/maxBufferedBytes \(65536\)/);
    await transport.close();
  });
});
