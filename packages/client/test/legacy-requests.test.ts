import { McpError, type Protocol, RequestTimeoutError } from '@x/protocol';
import { describe, expect, it, vi } from 'vitest';
import { Client } from '../src/index.js';
import { CLIENT_INFO, fakeServer, legacyHandshake, text } from './helpers.js';
import { afterTimeouts } from '@x/test-kit';

async function connected(
  setup: (server: Protocol) => void,
  options: ConstructorParameters<typeof Client>[1] = {},
) {
  const peer = await fakeServer((server) => {
    legacyHandshake(server);
    setup(server);
  });
  const client = new Client(CLIENT_INFO, { protocolVersion: 'legacy', ...options });
  await client.connect(peer.transport);
  peer.wire.length = 0;
  return { client, ...peer };
}

describe('legacy requests', () => {
  it('has a typed method for every client request, with exact wire params', async () => {
    const { client, wire } = await connected((server) => {
      server.setRequestHandler('completion/complete', () => ({ completion: { values: ['a'] } }));
      server.setRequestHandler('logging/setLevel', () => ({}));
      server.setRequestHandler('prompts/list', () => ({ prompts: [{ name: 'p' }] }));
      server.setRequestHandler('prompts/get', () => ({ messages: [{ role: 'user', content: text('hi') }] }));
      server.setRequestHandler('resources/list', () => ({ resources: [{ uri: 'a:1', name: 'a' }] }));
      server.setRequestHandler('resources/templates/list', () => ({ resourceTemplates: [] }));
      server.setRequestHandler('resources/read', (p) => ({ contents: [{ uri: p['uri'], text: 'x' }] }));
      server.setRequestHandler('resources/subscribe', () => ({}));
      server.setRequestHandler('resources/unsubscribe', () => ({}));
      server.setRequestHandler('tools/list', () => ({
        tools: [{ name: 'echo', inputSchema: { type: 'object' } }],
      }));
      server.setRequestHandler('tools/call', (p) => ({ content: [text(String(p['name']))] }));
    });
    expect(await client.ping()).toEqual({});
    expect(
      (await client.complete({ ref: { type: 'ref/prompt', name: 'p' }, argument: { name: 'a', value: '' } }))
        .completion.values,
    ).toEqual(['a']);
    await client.setLoggingLevel('warning');
    expect((await client.listPrompts()).prompts).toHaveLength(1);
    expect((await client.getPrompt({ name: 'p', arguments: { a: '1' } })).messages).toHaveLength(1);
    expect((await client.listResources()).resources).toHaveLength(1);
    expect((await client.listResourceTemplates()).resourceTemplates).toEqual([]);
    expect((await client.readResource({ uri: 'a:1' })).contents[0]).toMatchObject({ uri: 'a:1' });
    await client.subscribeResource({ uri: 'a:1' });
    await client.unsubscribeResource({ uri: 'a:1' });
    expect((await client.listTools()).tools[0]?.name).toBe('echo');
    expect((await client.callTool({ name: 'echo', arguments: { x: 1 } })).content).toEqual([text('echo')]);
    const generic = await client.request({ method: 'tools/call', params: { name: 'gen' } });
    expect(generic.content).toEqual([text('gen')]);

    // Every request but ping and logging/setLevel asks for progress (its id as the token), so a server
    // that reports keeps a long request alive although no onprogress was given.
    const token = (id: number) => ({ _meta: { progressToken: id } });
    expect(wire.map((m) => ('method' in m ? [m.method, 'params' in m ? m.params : undefined] : m))).toEqual([
      ['ping', undefined],
      [
        'completion/complete',
        { ref: { type: 'ref/prompt', name: 'p' }, argument: { name: 'a', value: '' }, ...token(3) },
      ],
      ['logging/setLevel', { level: 'warning' }],
      ['prompts/list', token(5)],
      ['prompts/get', { name: 'p', arguments: { a: '1' }, ...token(6) }],
      ['resources/list', token(7)],
      ['resources/templates/list', token(8)],
      ['resources/read', { uri: 'a:1', ...token(9) }],
      ['resources/subscribe', { uri: 'a:1', ...token(10) }],
      ['resources/unsubscribe', { uri: 'a:1', ...token(11) }],
      ['tools/list', token(12)],
      ['tools/call', { name: 'echo', arguments: { x: 1 }, ...token(13) }],
      ['tools/call', { name: 'gen', ...token(14) }],
    ]);
    expect(wire.flatMap((m) => ('id' in m && 'method' in m && m.method === 'ping' ? [m.id] : []))).toEqual([
      2,
    ]);
    // Ids are fresh and no legacy request carries the modern envelope.
    expect(new Set(wire.map((m) => ('id' in m ? m.id : undefined))).size).toBe(wire.length);
    expect(JSON.stringify(wire)).not.toContain('io.modelcontextprotocol/protocolVersion');
  });

  it('walks every page and stops at the page cap', async () => {
    const pages: Record<
      string,
      { tools: { name: string; inputSchema: { type: 'object' } }[]; nextCursor?: string }
    > = {
      '': { tools: [{ name: 'a', inputSchema: { type: 'object' } }], nextCursor: 'c1' },
      c1: { tools: [{ name: 'b', inputSchema: { type: 'object' } }], nextCursor: 'c2' },
      c2: { tools: [{ name: 'c', inputSchema: { type: 'object' } }] },
    };
    const { client, requests } = await connected((server) => {
      server.setRequestHandler('tools/list', (p) => pages[String(p['cursor'] ?? '')]!);
    });
    const names: string[] = [];
    for await (const tool of client.iterateTools()) names.push(tool.name);
    expect(names).toEqual(['a', 'b', 'c']);
    expect(requests('tools/list').map((r) => r.params?.['cursor'])).toEqual([undefined, 'c1', 'c2']);

    const capped = new Client(CLIENT_INFO, { protocolVersion: 'legacy', maxPages: 2 });
    const peer = await fakeServer((server) => {
      legacyHandshake(server);
      server.setRequestHandler('tools/list', (p) => pages[String(p['cursor'] ?? '')]!);
    });
    await capped.connect(peer.transport);
    const seen: string[] = [];
    await expect(async () => {
      for await (const tool of capped.iterateTools()) seen.push(tool.name);
    }).rejects.toThrow(/after 2 pages/);
    expect(seen).toEqual(['a', 'b']);
  });

  it('honours per-request timeout, progress and abort', async () => {
    const { client, server, notifications } = await connected((s) => {
      s.setRequestHandler('tools/call', async (p, ctx) => {
        if (p['name'] === 'slow')
          await new Promise((resolve) => ctx.signal.addEventListener('abort', resolve));
        await ctx.sendProgress({ progress: 1, total: 2 });
        return { content: [] };
      });
    });
    void server;
    const progress = vi.fn();
    const events = vi.fn();
    client.on('progress', events);
    await client.callTool({ name: 'fast' }, { onprogress: progress });
    expect(progress).toHaveBeenCalledWith(expect.objectContaining({ progress: 1, total: 2 }));
    expect(events).toHaveBeenCalledTimes(1);

    await expect(client.callTool({ name: 'slow' }, { timeout: 20 })).rejects.toBeInstanceOf(
      RequestTimeoutError,
    );
    const controller = new AbortController();
    const aborted = client.callTool({ name: 'slow' }, { signal: controller.signal });
    controller.abort(new Error('user gave up'));
    await expect(aborted).rejects.toThrow('user gave up');
    await afterTimeouts();
    expect(notifications('notifications/cancelled').map((n) => n.params?.['requestId'])).toHaveLength(2);
    await expect(
      client.callTool(
        { name: 'slow' },
        { timeout: 1_000, maxTotalTimeout: 30, resetTimeoutOnProgress: true },
      ),
    ).rejects.toBeInstanceOf(RequestTimeoutError);
  });

  it('validates structuredContent against the cached outputSchema', async () => {
    const outputs: Record<string, unknown> = {
      good: { content: [], structuredContent: { n: 1 } },
      bad: { content: [], structuredContent: { n: 'one' } },
      missing: { content: [] },
      failed: { content: [text('boom')], isError: true },
    };
    const { client } = await connected((server) => {
      server.setRequestHandler('tools/list', () => ({
        tools: Object.keys(outputs).map((name) => ({
          name,
          inputSchema: { type: 'object' },
          outputSchema: { type: 'object', properties: { n: { type: 'number' } }, required: ['n'] },
        })),
      }));
      server.setRequestHandler('tools/call', (p) => outputs[String(p['name'])] as object);
    });
    // Before tools/list nothing is known, so nothing is checked.
    expect((await client.callTool({ name: 'bad' })).structuredContent).toEqual({ n: 'one' });
    await client.listTools();
    expect((await client.callTool({ name: 'good' })).structuredContent).toEqual({ n: 1 });
    const bad = client.callTool({ name: 'bad' });
    await expect(bad).rejects.toBeInstanceOf(McpError);
    await expect(bad).rejects.toThrow(/"bad" returned structuredContent that does not match.*\/n/);
    await expect(client.callTool({ name: 'missing' })).rejects.toThrow(/no structuredContent/);
    expect((await client.callTool({ name: 'failed' })).isError).toBe(true);
  });

  it('checks a call against the output schema listed before it was made', async () => {
    const gate: { release?: (() => void) | undefined } = {};
    const release = (): void => gate.release?.();
    const { client } = await connected((server) => {
      server.setRequestHandler('tools/list', () => ({
        tools: [
          { name: 'bad', inputSchema: { type: 'object' }, outputSchema: { type: 'object', required: ['n'] } },
        ],
      }));
      server.setRequestHandler('tools/call', async () => {
        await new Promise<void>((resolve) => {
          gate.release = resolve;
        });
        return { content: [], structuredContent: { m: 1 } };
      });
    });
    // Sent before any listing: the listing that completes while it runs does not apply to it.
    const early = client.callTool({ name: 'bad' });
    await client.listTools();
    await vi.waitFor(() => expect(gate.release).toBeDefined());
    release();
    expect((await early).structuredContent).toEqual({ m: 1 });
    // Sent after the listing: checked.
    gate.release = undefined;
    const late = client.callTool({ name: 'bad' });
    await vi.waitFor(() => expect(gate.release).toBeDefined());
    release();
    await expect(late).rejects.toThrow(/"bad" returned structuredContent that does not match/);
  });

  it('exposes server notifications as events', async () => {
    const { client, server } = await connected(() => {});
    const seen: unknown[] = [];
    client.on('log', (p) => seen.push(['log', p.level, p.data]));
    client.on('resourceUpdated', (p) => seen.push(['updated', p.uri]));
    client.on('toolsListChanged', (list) => seen.push(['tools', list]));
    client.on('promptsListChanged', (list) => seen.push(['prompts', list]));
    client.on('resourcesListChanged', (list) => seen.push(['resources', list]));
    client.on('elicitationComplete', (p) => seen.push(['elicited', p.elicitationId]));
    const off = client.on('progress', (p) => seen.push(['progress', p.progress]));
    off();
    await server.notification({ method: 'notifications/message', params: { level: 'info', data: 'hello' } });
    await server.notification({ method: 'notifications/resources/updated', params: { uri: 'a:1' } });
    await server.notification({ method: 'notifications/tools/list_changed' });
    await server.notification({ method: 'notifications/prompts/list_changed' });
    await server.notification({ method: 'notifications/resources/list_changed' });
    await server.notification({
      method: 'notifications/elicitation/complete',
      params: { elicitationId: 'e1' },
    });
    await server.notification({
      method: 'notifications/progress',
      params: { progressToken: 99, progress: 1 },
    });
    await afterTimeouts();
    expect(seen).toEqual([
      ['log', 'info', 'hello'],
      ['updated', 'a:1'],
      ['tools', undefined],
      ['prompts', undefined],
      ['resources', undefined],
      ['elicited', 'e1'],
    ]);
  });

  it('re-fetches whole lists on list_changed when autoRefresh is on', async () => {
    let version = 1;
    const { client, server, requests } = await connected(
      (s) => {
        s.setRequestHandler('tools/list', (p) =>
          p['cursor'] === undefined
            ? { tools: [{ name: `t${version}`, inputSchema: { type: 'object' } }], nextCursor: 'more' }
            : { tools: [{ name: `u${version}`, inputSchema: { type: 'object' } }] },
        );
      },
      { autoRefresh: { tools: true } },
    );
    const lists: unknown[] = [];
    client.on('toolsListChanged', (tools) => lists.push(tools?.map((t) => t.name)));
    version = 2;
    await server.notification({ method: 'notifications/tools/list_changed' });
    await vi.waitFor(() => expect(lists).toEqual([['t2', 'u2']]));
    expect(client.cachedTools?.map((t) => t.name)).toEqual(['t2', 'u2']);
    expect(requests('tools/list')).toHaveLength(2);
  });
});

describe('requests for a method outside the client method map', () => {
  // `client.request` is typed by the method map, but JavaScript callers (and the 1.x facade in
  // @x/compat, whose `request(req, schema)` takes any method) send custom methods: the answer must
  // settle the request (it used to leave it pending forever, past its own timeout).
  it('resolves with the answer, checked as a plain result, and still times out when unanswered', async () => {
    const { client } = await connected((server) => {
      server.setRequestHandler('custom/echo', (params) => ({ echoed: params['text'] }));
    });
    const request = client.request as (
      req: { method: string; params?: object },
      options?: object,
    ) => Promise<unknown>;
    await expect(
      request.call(client, { method: 'custom/echo', params: { text: 'hi' } }, { timeout: 5_000 }),
    ).resolves.toEqual({
      echoed: 'hi',
    });
    await expect(
      request.call(client, { method: 'custom/unanswered' }, { timeout: 5_000 }),
    ).rejects.toMatchObject({
      code: -32601,
    });
  });
});
