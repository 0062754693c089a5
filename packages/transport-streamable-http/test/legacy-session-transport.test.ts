import { ConnectionClosedError, SENT } from '@x/protocol';
import { describe, expect, it } from 'vitest';
import { toPlatformResponse } from '@x/protocol/http';
import { SessionStore } from '../src/server/legacy/session-store.js';
import { LegacySessionTransport } from '../src/server/legacy/session-transport.js';

const settings = {
  json: true,
  eventStore: undefined,
  retryMs: 1000,
  keepAliveMs: 0,
  maxQueued: 100,
  maxBufferedBytes: 1 << 24,
};

function session(onFinished: (session: LegacySessionTransport) => void = () => {}): LegacySessionTransport {
  return new LegacySessionTransport({
    sessionId: 'sid',
    tag: 't',
    settings,
    principal: undefined,
    onFinished,
  });
}

describe('LegacySessionTransport', () => {
  it('answers a JSON POST with the response it sends, and that send settles as the shared SENT', async () => {
    const transport = session();
    const sends: Promise<void>[] = [];
    transport.onmessage = (message) => {
      if ('id' in message && 'method' in message) {
        sends.push(transport.send({ jsonrpc: '2.0', id: message.id, result: { ok: true } }));
      }
    };
    await transport.start();
    const response = await transport.handlePost([{ jsonrpc: '2.0', id: 7, method: 'tools/list' }], {
      extra: {},
      batch: false,
      errors: [],
    });
    expect(sends).toHaveLength(1);
    expect(sends[0]).toBe(SENT);
    expect(await toPlatformResponse(response).json()).toEqual({
      jsonrpc: '2.0',
      id: 7,
      result: { ok: true },
    });
  });

  it('rejects (never throws) a send after close, and reports a response to an unknown request', async () => {
    const errors: Error[] = [];
    const transport = session();
    transport.onerror = (error) => errors.push(error);
    await transport.start();
    const stray = transport.send({ jsonrpc: '2.0', id: 99, result: {} });
    await expect(stray).resolves.toBeUndefined();
    expect(errors.map((error) => error.message)).toEqual(['No open request with id 99 for this response']);
    await transport.close();
    let sent: Promise<void> | undefined;
    expect(() => {
      sent = transport.send({ jsonrpc: '2.0', method: 'notifications/message', params: {} });
    }).not.toThrow();
    await expect(sent).rejects.toBeInstanceOf(ConnectionClosedError);
  });

  it('a GET stream whose client falls more than maxBufferedBytes behind is dropped, and onerror names the option (issue #35)', async () => {
    const transport = new LegacySessionTransport({
      sessionId: 'sid',
      tag: 't',
      settings: { ...settings, maxBufferedBytes: 64 * 1024 },
      principal: undefined,
      onFinished: () => {},
    });
    const errors: Error[] = [];
    transport.onerror = (error) => errors.push(error);
    await transport.start();
    const response = await transport.handleGet(null, {});
    expect(response.status).toBe(200);
    expect(transport.hasOpenStream).toBe(true);
    // The body is never read: the client stopped reading.
    const data = 'x'.repeat(16 * 1024);
    for (let i = 0; i < 16; i++) {
      await transport.send({
        jsonrpc: '2.0',
        method: 'notifications/message',
        params: { level: 'info', data },
      });
    }
    expect(errors).toHaveLength(1);
    expect(errors[0]?.message).toMatch(/maxBufferedBytes \(65536\)/);
    expect(transport.hasOpenStream).toBe(false);
    await transport.close();
  });

  it('hands itself to onFinished once it closes, which a store shares between its sessions', async () => {
    const store = new SessionStore({ idleTimeoutMs: 60_000, maxSessions: 10 });
    expect(store.forget).toBe(store.forget);
    const transport = session(store.forget);
    store.add(transport);
    expect(store.get('sid')).toBe(transport);
    await transport.close();
    expect(store.size).toBe(0);
    expect(store.get('sid')).toBeUndefined();
    await store.closeAll();
  });
});
