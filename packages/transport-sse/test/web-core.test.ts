import { SENT } from '@x/protocol';
import { describe, expect, it } from 'vitest';
import { createSseHandler } from '../src/index.js';
import type { SseServerTransport } from '../src/index.js';
import { afterTurn, waitFor } from '@x/test-kit';

// The Web-standard core without any socket: what Bun, Deno and Workers run.
const base = 'http://localhost:8080';

async function open(options: { keepAliveMs?: number } = {}) {
  const sessions: SseServerTransport[] = [];
  const sse = createSseHandler({
    onsession: async (transport) => {
      sessions.push(transport);
      await transport.start();
    },
    keepAliveMs: 0,
    ...options,
  });
  const aborter = new AbortController();
  const response = await sse(new Request(`${base}/mcp/sse`, { signal: aborter.signal }));
  const reader = response.body!.getReader();
  const first = new TextDecoder().decode((await reader.read()).value);
  return { sse, sessions, response, reader, first, aborter, session: sessions[0]! };
}

describe('SseServer Web-standard core', () => {
  it('streams the endpoint event and takes POSTs as plain Request/Response', async () => {
    const { sse, first, session, response } = await open();
    expect(response.headers.get('content-type')).toBe('text/event-stream');
    expect(first).toBe(`event: endpoint\ndata: /mcp/sse?sessionId=${session.sessionId}\n\n`);
    const received: unknown[] = [];
    session.onmessage = (message) => received.push(message);
    const post = await sse(
      new Request(`${base}/mcp/sse?sessionId=${session.sessionId}`, {
        method: 'POST',
        headers: { 'content-type': 'application/json' },
        body: '{"jsonrpc":"2.0","method":"hi"}',
      }),
    );
    expect(post.status).toBe(202);
    expect(received).toEqual([{ jsonrpc: '2.0', method: 'hi' }]);
    await sse.close();
  });

  it('settles an event the stream takes at once as the shared SENT; unserializable input is a rejection', async () => {
    const { sse, session, reader } = await open();
    expect(session.send({ jsonrpc: '2.0', method: 'note' })).toBe(SENT);
    expect(new TextDecoder().decode((await reader.read()).value)).toBe(
      'event: message\ndata: {"jsonrpc":"2.0","method":"note"}\n\n',
    );
    let sent: Promise<void> | undefined;
    expect(() => {
      sent = session.send({ jsonrpc: '2.0', method: 'n', params: { big: 1n } as never });
    }).not.toThrow();
    await expect(sent).rejects.toThrow(/BigInt/);
    await sse.close();
  });

  it('makes send() wait while the client does not read (backpressure), and resumes when it does', async () => {
    const { sse, session, reader } = await open();
    const chunk = { jsonrpc: '2.0', method: 'big', params: { pad: 'x'.repeat(48 * 1024) } } as const;
    await session.send(chunk);
    let resolved = false;
    const pending = session.send(chunk).then(() => {
      resolved = true;
    });
    await afterTurn();
    expect(resolved).toBe(false);
    await reader.read();
    await pending;
    await sse.close();
  });

  it('drops the session when the runtime cancels the body or aborts the request', async () => {
    const a = await open();
    await a.reader.cancel();
    expect(a.sse.sessionCount).toBe(0);
    const b = await open();
    b.aborter.abort();
    await waitFor(() => b.sse.sessionCount === 0);
  });

  it('refuses a second start() and sends after close()', async () => {
    const { sse, session } = await open();
    await expect(session.start()).rejects.toThrow(/already started/);
    await session.close();
    await expect(session.send({ jsonrpc: '2.0', method: 'late' })).rejects.toThrow(/closed/);
    expect(sse.sessionCount).toBe(0);
  });

  it('answers a generic 500 when onsession fails, reports the cause to onerror, and keeps no session', async () => {
    const errors: Error[] = [];
    const sse = createSseHandler({
      onsession: () => {
        throw new Error('boom');
      },
      onerror: (error) => errors.push(error),
    });
    const response = await sse(new Request(`${base}/sse`));
    expect(response.status).toBe(500);
    expect(await response.text()).not.toContain('boom');
    expect(sse.sessionCount).toBe(0);
    expect(errors[0]?.cause).toEqual(new Error('boom'));
  });
});
