// The official reference server (`@modelcontextprotocol/server-everything`, stdio) bridged to Streamable
// HTTP on 127.0.0.1: one spawned upstream process per downstream session, driven by the x-mcp client and
// by the official SDK client.
import { Client as SdkClient } from '@modelcontextprotocol/sdk/client/index.js';
import { StreamableHTTPClientTransport as SdkHttpTransport } from '@modelcontextprotocol/sdk/client/streamableHttp.js';
import { Client } from '@x/client';
import { McpError } from '@x/protocol/core';
import { describe, expect, it, vi } from 'vitest';
import {
  alive,
  cleanupAfterEach,
  connectXClient,
  type Elicited,
  elicitedBy,
  longCallInFlight,
  namesOnlyClient,
  startBridgedEverything,
} from './helpers.js';

const cleanup = cleanupAfterEach();

const bridgeEverything = () => startBridgedEverything(cleanup);
const xClient = (url: string, elicited?: Elicited) => connectXClient(cleanup, url, { elicited });

describe('server-everything (stdio) bridged to Streamable HTTP', { timeout: 60_000 }, () => {
  it('serves the x-mcp client: tools, prompts, resources, progress', async () => {
    const { http, upstreams } = await bridgeEverything();
    const client = await xClient(http.url);
    expect(client.serverInfo?.name).toMatch(/everything/i);
    const tools = await client.listTools();
    expect(tools.tools.map((t) => t.name)).toEqual(
      expect.arrayContaining(['echo', 'get-sum', 'trigger-long-running-operation']),
    );
    expect(await client.callTool({ name: 'echo', arguments: { message: 'via the bridge' } })).toMatchObject({
      content: [{ type: 'text', text: expect.stringContaining('via the bridge') }],
    });
    expect(await client.callTool({ name: 'get-sum', arguments: { a: 2, b: 40 } })).toMatchObject({
      content: [{ type: 'text', text: expect.stringContaining('42') }],
    });
    const progress: number[] = [];
    await client.callTool(
      { name: 'trigger-long-running-operation', arguments: { duration: 0.3, steps: 3 } },
      { onprogress: ({ progress: p }) => progress.push(p) },
    );
    expect(progress.length).toBeGreaterThanOrEqual(1);
    expect((await client.listPrompts()).prompts.length).toBeGreaterThan(0);
    expect((await client.listResources()).resources.length).toBeGreaterThan(0);
    expect(upstreams).toHaveLength(1);
  });

  it('serves the official SDK client', async () => {
    const { http } = await bridgeEverything();
    const client = new SdkClient({ name: 'sdk-downstream', version: '1.0.0' });
    await client.connect(new SdkHttpTransport(new URL(`${http.url}/mcp`)));
    cleanup.push(() => client.close());
    const tools = await client.listTools();
    expect(tools.tools.map((t) => t.name)).toContain('echo');
    const result = await client.callTool({ name: 'echo', arguments: { message: 'from the official SDK' } });
    expect(result).toMatchObject({
      content: [{ type: 'text', text: expect.stringContaining('from the official SDK') }],
    });
  });

  it('gives 10 concurrent clients one upstream process each, with no crosstalk', async () => {
    const { http, upstreams } = await bridgeEverything();
    const clients = await Promise.all(Array.from({ length: 10 }, () => xClient(http.url)));
    const answers = await Promise.all(
      clients.map(async (client, i) => {
        const texts: string[] = [];
        for (let round = 0; round < 3; round++) {
          const result = await client.callTool({
            name: 'echo',
            arguments: { message: `client-${i}-round-${round}` },
          });
          texts.push(JSON.stringify(result.content));
        }
        return texts;
      }),
    );
    answers.forEach((texts, i) => {
      texts.forEach((text, round) => {
        expect(text).toContain(`client-${i}-round-${round}`);
        expect(text).not.toMatch(new RegExp(`client-(?!${i}-)\\d+-`));
      });
    });
    const pids = new Set(upstreams.map((u) => u.pid));
    expect(upstreams).toHaveLength(10);
    expect(pids.size).toBe(10);
  });

  it('asks each downstream client its own elicitation (the upstream asks during the call)', async () => {
    const { http } = await bridgeEverything();
    const clients = await Promise.all(Array.from({ length: 3 }, (_, i) => xClient(http.url, elicitedBy(i))));
    const results = await Promise.all(
      clients.map((client) => client.callTool({ name: 'trigger-elicitation-request', arguments: {} })),
    );
    results.forEach((result, i) => {
      expect(namesOnlyClient(JSON.stringify(result.content), i)).toBe(true);
    });
  });

  it('fails the call in flight with a typed -32000 naming the upstream when the upstream is killed', async () => {
    const { http, upstreams } = await bridgeEverything();
    const client = await xClient(http.url);
    const { call } = await longCallInFlight(client);
    const pid = upstreams[0]?.pid;
    expect(pid).toBeTypeOf('number');
    process.kill(pid as number, 'SIGKILL');
    const error = await call.then(
      () => undefined,
      (e: unknown) => e,
    );
    expect(error).toBeInstanceOf(McpError);
    expect(error).toMatchObject({
      code: -32000,
      data: { bridge: true, side: 'upstream', name: 'server-everything' },
    });
  });

  it('ends the session when its upstream dies between calls, so the client re-initializes on a fresh one', async () => {
    const { http, upstreams, bridge } = await bridgeEverything();
    const client = await xClient(http.url);
    await client.callTool({ name: 'echo', arguments: { message: 'first' } });
    process.kill(upstreams[0]?.pid as number, 'SIGKILL');
    await vi.waitFor(() => expect(bridge.sessions.size).toBe(0), { timeout: 15_000, interval: 50 });
    // The session is gone (404): the client opens a new one, and the bridge a new upstream for it.
    expect(await client.callTool({ name: 'echo', arguments: { message: 'second' } })).toMatchObject({
      content: [{ type: 'text', text: expect.stringContaining('second') }],
    });
    expect(upstreams).toHaveLength(2);
  });

  it('leaves no upstream process behind when the downstream session ends', async () => {
    const { http, upstreams, bridge } = await bridgeEverything();
    const client = await xClient(http.url);
    await client.callTool({ name: 'echo', arguments: { message: 'hi' } });
    const pid = upstreams[0]?.pid as number;
    expect(alive(pid)).toBe(true);
    // A legacy client's close sends DELETE: the session ends, and so does its upstream.
    await client.close();
    await vi.waitFor(() => expect(alive(pid)).toBe(false), { timeout: 15_000, interval: 50 });
    await vi.waitFor(() => expect(bridge.sessions.size).toBe(0));
  });

  it('answers 404 to a request with an unknown session id', async () => {
    const { http } = await bridgeEverything();
    const response = await fetch(`${http.url}/mcp`, {
      method: 'POST',
      headers: {
        'content-type': 'application/json',
        accept: 'application/json, text/event-stream',
        'mcp-session-id': 'no-such-session',
        'mcp-protocol-version': '2025-11-25',
      },
      body: JSON.stringify({ jsonrpc: '2.0', id: 1, method: 'tools/list' }),
    });
    expect(response.status).toBe(404);
  });

  it('serves a 2026-07-28 (stateless) client in front of the initialize-era server', async () => {
    const { http, upstreams } = await bridgeEverything();
    const { StreamableHttpClientTransport } = await import('@x/transport-streamable-http');
    const client = new Client({ name: 'modern-downstream', version: '1.0.0' }, { protocolVersion: 'modern' });
    await client.connect(new StreamableHttpClientTransport(`${http.url}/mcp`));
    cleanup.push(() => client.close());
    expect(client.era).toBe('modern');
    expect(
      await client.callTool({ name: 'echo', arguments: { message: 'modern over legacy' } }),
    ).toMatchObject({
      content: [{ type: 'text', text: expect.stringContaining('modern over legacy') }],
    });
    // Each stateless request is a downstream session of its own: its upstream is gone once answered.
    await vi.waitFor(() => expect(upstreams.every((u) => u.pid === undefined || !alive(u.pid))).toBe(true), {
      timeout: 15_000,
      interval: 50,
    });
  });
});
