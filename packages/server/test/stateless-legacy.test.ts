import { InMemoryTransport } from '@x/protocol';
import { describe, expect, it } from 'vitest';
import { McpServer } from '../src/index.js';
import { connect, LEGACY_CLIENT_INFO } from './helpers.js';

function server(): McpServer {
  const s = new McpServer({ name: 's', version: '1' });
  s.registerTool('echo', { description: 'echo' }, () => ({ content: [{ type: 'text', text: 'ok' }] }));
  return s;
}

// Stateless legacy transports (one connection per request, no handshake on it) mark the connection with
// `statelessLegacyVersion`; the server serves it as an initialized session of that version.
describe('stateless legacy connections', () => {
  it('serves a request on a connection marked with statelessLegacyVersion without initialize', async () => {
    const s = server();
    const [a, b] = InMemoryTransport.createLinkedPair();
    const marked = Object.assign(b, { statelessLegacyVersion: '2025-06-18' });
    const session = await s.connect(marked);
    expect(session.protocolVersion).toBe('2025-06-18');
    expect(session.legacyAssumed).toBe(true);
    await a.close();
  });

  it('lets initialize replace an assumed session, but not a negotiated one', async () => {
    const wire = await connect(server(), { connect: { legacySession: { protocolVersion: '2025-03-26' } } });
    const first = await wire.call('initialize', {
      protocolVersion: '2025-11-25',
      capabilities: {},
      clientInfo: LEGACY_CLIENT_INFO,
    });
    expect(first['protocolVersion']).toBe('2025-11-25');
    expect(wire.session.legacyAssumed).toBe(false);
    await expect(
      wire.call('initialize', {
        protocolVersion: '2025-11-25',
        capabilities: {},
        clientInfo: LEGACY_CLIENT_INFO,
      }),
    ).rejects.toThrow(/already initialized/);
  });
});
