// "Child processes leaked when a session never times out" (issue #38): a bridged Streamable HTTP session
// that goes quiet is reaped after `sessionIdleTimeoutMs`, and its upstream process with it.
import { startHttpServer } from '@x/test-kit';
import type { StdioClientTransport } from '@x/transport-stdio';
import { createStreamableHttpHandler } from '@x/transport-streamable-http';
import { toNodeHandler } from '@x/transport-streamable-http/node';
import { describe, expect, it, vi } from 'vitest';
import { createBridge } from '../src/index.js';
import { alive, cleanupAfterEach, everythingUpstream } from './helpers.js';

const cleanup = cleanupAfterEach();

describe('an idle bridged session', { timeout: 90_000 }, () => {
  it('is reaped after sessionIdleTimeoutMs with its upstream process, and then answers 404', async () => {
    const upstreams: StdioClientTransport[] = [];
    const bridge = createBridge({
      upstream: everythingUpstream(upstreams),
      upstreamName: 'server-everything',
      upstreamConnectTimeoutMs: 20_000,
    });
    const handler = createStreamableHttpHandler({
      sessionIdleTimeoutMs: 1_000,
      onsession: (transport) => bridge.connect(transport).catch(() => undefined),
    });
    const http = await startHttpServer(toNodeHandler(handler));
    cleanup.push(
      () => http.close(),
      () => handler.close(),
      () => bridge.close(),
      async () => {
        for (const upstream of upstreams) await upstream.close();
      },
    );
    const post = (body: unknown, sessionId?: string) =>
      fetch(`${http.url}/mcp`, {
        method: 'POST',
        headers: {
          'content-type': 'application/json',
          accept: 'application/json, text/event-stream',
          'mcp-protocol-version': '2025-11-25',
          ...(sessionId === undefined ? {} : { 'mcp-session-id': sessionId }),
        },
        body: JSON.stringify(body),
      });
    // A raw client: initialize and initialized, and no GET stream (an open stream is never idle).
    const initialized = await post({
      jsonrpc: '2.0',
      id: 1,
      method: 'initialize',
      params: { protocolVersion: '2025-11-25', capabilities: {}, clientInfo: { name: 'raw', version: '1' } },
    });
    expect(initialized.status).toBe(200);
    const sessionId = initialized.headers.get('mcp-session-id') ?? '';
    expect(sessionId).not.toBe('');
    await initialized.text();
    const notified = await post({ jsonrpc: '2.0', method: 'notifications/initialized' }, sessionId);
    expect(notified.status).toBe(202);
    const pid = upstreams[0]?.pid as number;
    expect(alive(pid)).toBe(true);
    // Nothing more is sent: the session idles out, and the bridge stops its process.
    await vi.waitFor(() => expect(alive(pid)).toBe(false), { timeout: 45_000, interval: 100 });
    await vi.waitFor(() => expect(bridge.sessions.size).toBe(0), { timeout: 10_000, interval: 50 });
    const late = await post({ jsonrpc: '2.0', id: 2, method: 'tools/list' }, sessionId);
    expect(late.status).toBe(404);
  });
});
