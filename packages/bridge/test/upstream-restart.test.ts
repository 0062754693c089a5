// The official reference server (stdio, `restart: true`) behind a bridge, killed with SIGKILL mid-call:
// the call in flight fails with a typed -32000 naming the upstream, the process is restarted, the
// upstream session re-initialized and re-subscribed, the restart reported, and the downstream session
// goes on with no new handshake of its own.
import { Client } from '@x/client';
import { McpError } from '@x/protocol/core';
import { startHttpServer } from '@x/test-kit';
import type { StdioClientTransport } from '@x/transport-stdio';
import { createStreamableHttpHandler, StreamableHttpClientTransport } from '@x/transport-streamable-http';
import { toNodeHandler } from '@x/transport-streamable-http/node';
import { describe, expect, it, vi } from 'vitest';
import { createBridge, type UpstreamReconnect } from '../src/index.js';
import { alive, cleanupAfterEach, everythingUpstream, longCallInFlight } from './helpers.js';

const cleanup = cleanupAfterEach();

describe('a stdio upstream that crashes mid-call', { timeout: 90_000 }, () => {
  it('fails the call with -32000 naming the upstream, restarts it, re-subscribes and reports it', async () => {
    const upstreams: StdioClientTransport[] = [];
    const reconnects: UpstreamReconnect[] = [];
    const faults: Error[] = [];
    const bridge = createBridge({
      upstream: everythingUpstream(upstreams, { initialDelayMs: 50 }),
      upstreamName: 'server-everything',
      upstreamConnectTimeoutMs: 30_000,
      onupstreamreconnect: (event) => reconnects.push(event),
      onerror: (error) => faults.push(error),
    });
    const handler = createStreamableHttpHandler({
      onsession: (transport) => bridge.connect(transport).catch(() => undefined),
    });
    const http = await startHttpServer(toNodeHandler(handler));
    cleanup.push(
      () => http.close(),
      () => bridge.close(),
    );

    const client = new Client({ name: 'downstream', version: '1.0.0' }, { protocolVersion: 'legacy' });
    await client.connect(new StreamableHttpClientTransport(`${http.url}/mcp`));
    cleanup.push(() => client.close());
    const { resources } = await client.listResources();
    const uri = resources[0]?.uri as string;
    expect(uri).toBeTypeOf('string');
    await client.subscribeResource({ uri });

    const { call } = await longCallInFlight(client);
    const upstream = upstreams[0] as StdioClientTransport;
    const firstPid = upstream.pid as number;
    process.kill(firstPid, 'SIGKILL');

    const error = await call.then(
      () => undefined,
      (e: unknown) => e,
    );
    expect(error).toBeInstanceOf(McpError);
    expect(error).toMatchObject({
      code: -32000,
      message: expect.stringMatching(/server-everything.*SIGKILL/s),
      data: { bridge: true, side: 'upstream', name: 'server-everything' },
    });

    await vi.waitFor(() => expect(reconnects).toHaveLength(1), { timeout: 30_000, interval: 50 });
    expect(reconnects[0]?.upstreamName).toBe('server-everything');
    expect([...bridge.sessions]).toEqual([reconnects[0]?.session]);
    expect(faults.some((fault) => /SIGKILL/.test(fault.message))).toBe(true);
    expect(upstream.restarts).toBe(1);
    expect(upstream.pid).not.toBe(firstPid);
    expect(alive(upstream.pid as number)).toBe(true);
    expect(upstreams).toHaveLength(1);

    // Same downstream session, a new upstream process: it answers, and it knows the subscription
    // (the bridge's upstream client re-subscribed): its simulated updates reach the downstream client.
    const updated = new Promise<string>((resolve) => client.on('resourceUpdated', (p) => resolve(p.uri)));
    const toggled = await client.callTool({ name: 'toggle-subscriber-updates', arguments: {} });
    expect(JSON.stringify(toggled.content)).toMatch(/Started simulated resource updated/);
    expect(await updated).toBe(uri);
  });
});
