import { Client } from '@x/client';
import { InMemoryTransport, McpError } from '@x/protocol/core';
import { McpServer, type ServedEras } from '@x/server';
import { afterEach, describe, expect, it, vi } from 'vitest';
import { z } from 'zod';
import { type Bridge, createBridge } from '../src/index.js';

/** What the upstream's `wait` tool saw: one entry per call whose signal was aborted. */
const cancelled: boolean[] = [];

/** An upstream x-mcp server serving only `eras`, with a tool that logs, reports progress and elicits. */
function upstreamServer(eras: ServedEras): McpServer {
  const server = new McpServer(
    { name: `upstream-${eras}`, version: '1.0.0' },
    { eras, capabilities: { logging: {} } },
  );
  server.registerTool('echo', { inputSchema: z.object({ text: z.string() }) }, async ({ text }, ctx) => {
    await ctx.log('info', `echo-log:${text}`);
    return { content: [{ type: 'text', text: `echo:${text}` }] };
  });
  server.registerTool('ask', { inputSchema: z.object({}) }, async (_args, ctx) => {
    const answer = await ctx.elicit({
      mode: 'form',
      message: 'Your name?',
      requestedSchema: { type: 'object', properties: { name: { type: 'string' } }, required: ['name'] },
    });
    return {
      content: [{ type: 'text', text: `hello ${String(answer.content?.['name'])} (${answer.action})` }],
    };
  });
  server.registerTool('wait', { inputSchema: z.object({}) }, async (_args, ctx) => {
    await new Promise<void>((resolve) =>
      ctx.signal.addEventListener('abort', () => resolve(), { once: true }),
    );
    cancelled.push(ctx.signal.aborted);
    return { content: [] };
  });
  server.registerTool('fail', { inputSchema: z.object({}) }, () => {
    throw new McpError(-32602, 'bad input from upstream');
  });
  server.registerPrompt('greet', { argsSchema: z.object({ who: z.string() }) }, ({ who }) => ({
    messages: [{ role: 'user', content: { type: 'text', text: `Hi ${who}` } }],
  }));
  server.registerResource('readme', 'file:///readme', { mimeType: 'text/plain' }, () => ({
    contents: [{ uri: 'file:///readme', text: 'read me' }],
  }));
  return server;
}

let bridge: Bridge | undefined;
afterEach(async () => {
  await bridge?.close();
  bridge = undefined;
});

async function bridged(
  upstreamEras: ServedEras,
  downstreamVersion: 'legacy' | 'modern',
  server = upstreamServer(upstreamEras),
) {
  const upstreamClients: Client[] = [];
  bridge = createBridge({
    upstream: () => {
      const [a, b] = InMemoryTransport.createLinkedPair();
      void server.connect(b);
      return a;
    },
    upstreamName: 'in-memory',
  });
  const [down, up] = InMemoryTransport.createLinkedPair();
  const connecting = bridge.connect(up);
  const client = new Client(
    { name: 'downstream', version: '1.0.0' },
    {
      protocolVersion: downstreamVersion,
      ...(downstreamVersion === 'modern' ? { logLevel: 'info' as const } : {}),
    },
  );
  client.setElicitationHandler(async (params) => ({
    action: 'accept',
    content: { name: `Ada via ${params.message}` },
  }));
  await connecting;
  await client.connect(down);
  if (downstreamVersion === 'legacy') await client.setLoggingLevel('info');
  return { client, upstreamClients };
}

describe('createBridge: era translation', () => {
  for (const [upstreamEras, downstream] of [
    ['legacy', 'modern'],
    ['modern', 'legacy'],
    ['legacy', 'legacy'],
    ['modern', 'modern'],
  ] as const) {
    it(`a ${downstream} client uses a ${upstreamEras}-only server`, async () => {
      const { client } = await bridged(upstreamEras, downstream);
      expect(client.era).toBe(downstream);
      const logs: unknown[] = [];
      client.on('log', ({ data }) => logs.push(data));
      const tools = await client.listTools();
      expect(tools.tools.map((t) => t.name).sort()).toEqual(['ask', 'echo', 'fail', 'wait']);
      expect(await client.callTool({ name: 'echo', arguments: { text: 'x' } })).toMatchObject({
        content: [{ type: 'text', text: 'echo:x' }],
      });
      // The upstream's log, in the downstream's era, at the level the downstream asked for.
      await vi.waitFor(() => expect(logs).toContain('echo-log:x'));
      // input: a server→client request upstream (legacy) or an input_required round trip (modern),
      // translated to the downstream's own era.
      expect(await client.callTool({ name: 'ask', arguments: {} })).toMatchObject({
        content: [{ type: 'text', text: 'hello Ada via Your name? (accept)' }],
      });
      // An upstream JSON-RPC error reaches the downstream with its code and message.
      await expect(client.callTool({ name: 'fail', arguments: {} })).rejects.toMatchObject({
        code: -32602,
        message: expect.stringMatching(/bad input from upstream/),
      });
      const prompt = await client.getPrompt({ name: 'greet', arguments: { who: 'Bo' } });
      expect(prompt.messages[0]).toMatchObject({ content: { text: 'Hi Bo' } });
      const read = await client.readResource({ uri: 'file:///readme' });
      expect(read.contents[0]).toMatchObject({ text: 'read me' });
      await client.close();
    });
  }

  for (const [upstreamEras, downstream] of [
    ['legacy', 'modern'],
    ['modern', 'legacy'],
  ] as const) {
    it(`cancelling on a ${downstream} client cancels the call on a ${upstreamEras} upstream`, async () => {
      cancelled.length = 0;
      const { client } = await bridged(upstreamEras, downstream);
      const abort = new AbortController();
      const call = client.callTool({ name: 'wait', arguments: {} }, { signal: abort.signal });
      call.catch(() => undefined);
      // The call has reached the upstream once it is listed as in flight there; give it a round trip.
      await client.listTools();
      abort.abort();
      await expect(call).rejects.toThrow();
      await vi.waitFor(() => expect(cancelled).toEqual([true]));
      await client.close();
    });
  }

  it('relays list changes and updates of a subscribed resource (legacy on both sides)', async () => {
    const server = upstreamServer('legacy');
    const { client } = await bridged('legacy', 'legacy', server);
    const changed: string[] = [];
    const updated: string[] = [];
    client.on('toolsListChanged', () => changed.push('tools'));
    client.on('resourceUpdated', ({ uri }) => updated.push(uri));
    await client.subscribeResource({ uri: 'file:///readme' });
    server.registerTool('late', { inputSchema: z.object({}) }, () => ({ content: [] }));
    server.server.sendResourceUpdated('file:///readme');
    server.server.sendResourceUpdated('file:///other');
    await vi.waitFor(() => expect(changed).toContain('tools'));
    await vi.waitFor(() => expect(updated).toEqual(['file:///readme']));
    await client.close();
  });

  it('refuses a session whose upstream does not connect within upstreamConnectTimeoutMs', async () => {
    const closed: string[] = [];
    bridge = createBridge({
      // A transport that never answers: `initialize` and `server/discover` go unanswered.
      upstream: () => ({
        start: async () => {},
        send: async () => {},
        close: async () => {
          closed.push('upstream');
        },
      }),
      upstreamName: 'silent',
      upstreamConnectTimeoutMs: 200,
    });
    const [down, up] = InMemoryTransport.createLinkedPair();
    const received: unknown[] = [];
    down.onmessage = (message) => received.push(message);
    await down.start();
    const connecting = bridge.connect(up);
    await down.send({ jsonrpc: '2.0', id: 1, method: 'tools/list' });
    await expect(connecting).rejects.toMatchObject({
      code: -32000,
      data: { name: 'silent', option: 'upstreamConnectTimeoutMs' },
    });
    expect(received).toEqual([
      expect.objectContaining({
        id: 1,
        error: expect.objectContaining({
          code: -32000,
          message: expect.stringMatching(/upstreamConnectTimeoutMs/),
        }),
      }),
    ]);
    expect(closed).toContain('upstream');
  });
});
