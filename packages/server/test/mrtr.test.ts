import { describe, expect, it } from 'vitest';
import { z } from 'zod';
import { McpServer } from '../src/index.js';
import { connect, modernMeta } from './helpers.js';

const ALL_CAPS = { elicitation: { form: {} }, sampling: {}, roots: {} };
const NAME_SCHEMA = {
  type: 'object' as const,
  properties: { name: { type: 'string' as const } },
  required: ['name'],
};

function build(options: ConstructorParameters<typeof McpServer>[1] = {}): McpServer {
  const server = new McpServer({ name: 'mrtr', version: '1' }, options);
  server.registerTool(
    'greet',
    { inputSchema: z.object({ greeting: z.string() }) },
    async ({ greeting }, ctx) => {
      const answer = await ctx.elicit(
        { mode: 'form', message: 'Name?', requestedSchema: NAME_SCHEMA },
        { key: 'user_name' },
      );
      return { content: [{ type: 'text', text: `${greeting}, ${String(answer.content?.['name'])}!` }] };
    },
  );
  server.registerTool('everything', {}, async (_args, ctx) => {
    const [who, llm, roots] = await Promise.all([
      ctx.elicit({ mode: 'form', message: 'Name?', requestedSchema: NAME_SCHEMA }),
      ctx.sample({ messages: [{ role: 'user', content: { type: 'text', text: 'hi' } }], maxTokens: 5 }),
      ctx.listRoots(),
    ]);
    return {
      content: [
        { type: 'text', text: `${String(who.content?.['name'])} ${llm.model} ${roots.roots.length}` },
      ],
    };
  });
  server.registerTool('steps', {}, async (_args, ctx) => {
    const one = await ctx.elicit(
      { mode: 'form', message: 'Step 1', requestedSchema: NAME_SCHEMA },
      { key: 'step1' },
    );
    const two = await ctx.elicit(
      { mode: 'form', message: 'Step 2', requestedSchema: NAME_SCHEMA },
      { key: 'step2' },
    );
    return {
      content: [{ type: 'text', text: `${String(one.content?.['name'])}+${String(two.content?.['name'])}` }],
    };
  });
  server.registerPrompt('ctx_prompt', {}, async (_args, ctx) => {
    const answer = await ctx.elicit({ mode: 'form', message: 'Context?', requestedSchema: NAME_SCHEMA });
    return {
      messages: [{ role: 'user', content: { type: 'text', text: String(answer.content?.['name']) } }],
    };
  });
  server.registerResource('secret', 'test://secret', {}, async (uri, ctx) => {
    const roots = await ctx.listRoots();
    return { contents: [{ uri, text: roots.roots.map((r) => r.uri).join(',') }] };
  });
  server.registerPrompt('p', { complete: { a: async (_v, _c) => [] } }, () => ({ messages: [] }));
  return server;
}

const accept = (content: Record<string, unknown>) => ({ action: 'accept', content });
const params = (extra: Record<string, unknown>, caps: Record<string, unknown> = ALL_CAPS) => ({
  _meta: modernMeta(caps),
  ...extra,
});

describe('2026-07-28 multi round-trip requests', () => {
  it('turns ctx.elicit into input_required, and the retry with inputResponses completes', async () => {
    const wire = await connect(build());
    const first = await wire.call('tools/call', params({ name: 'greet', arguments: { greeting: 'Hi' } }));
    expect(first).toEqual({
      resultType: 'input_required',
      inputRequests: {
        user_name: {
          method: 'elicitation/create',
          params: { mode: 'form', message: 'Name?', requestedSchema: NAME_SCHEMA },
        },
      },
      requestState: expect.stringMatching(/^v1\.[\w-]+\.[\w-]+$/),
      _meta: { 'io.modelcontextprotocol/serverInfo': { name: 'mrtr', version: '1' } },
    });
    const second = await wire.call(
      'tools/call',
      params({
        name: 'greet',
        arguments: { greeting: 'Hi' },
        inputResponses: { user_name: accept({ name: 'Ann' }) },
        requestState: first['requestState'],
      }),
    );
    expect(second).toMatchObject({ resultType: 'complete', content: [{ type: 'text', text: 'Hi, Ann!' }] });
    // Missing or wrong keys: the server asks again instead of failing (spec mrtr "Error Handling").
    const again = await wire.call(
      'tools/call',
      params({ name: 'greet', arguments: { greeting: 'Hi' }, inputResponses: { wrong: accept({}) } }),
    );
    expect(again['resultType']).toBe('input_required');
  });

  it('collects parallel input requests into one result', async () => {
    const wire = await connect(build());
    const first = await wire.call('tools/call', params({ name: 'everything' }));
    const requests = first['inputRequests'] as Record<string, { method: string }>;
    expect(Object.fromEntries(Object.entries(requests).map(([k, v]) => [k, v.method]))).toEqual({
      elicitation_0: 'elicitation/create',
      sampling_1: 'sampling/createMessage',
      roots_2: 'roots/list',
    });
    const done = await wire.call(
      'tools/call',
      params({
        name: 'everything',
        requestState: first['requestState'],
        inputResponses: {
          elicitation_0: accept({ name: 'Bo' }),
          sampling_1: { role: 'assistant', content: { type: 'text', text: 'x' }, model: 'gpt' },
          roots_2: { roots: [{ uri: 'file:///a' }] },
          extra_key: { ignored: true },
        },
      }),
    );
    expect(done['content']).toEqual([{ type: 'text', text: 'Bo gpt 1' }]);
  });

  it('carries earlier answers in requestState across rounds', async () => {
    const wire = await connect(build());
    const r1 = await wire.call('tools/call', params({ name: 'steps' }));
    expect(Object.keys(r1['inputRequests'] as object)).toEqual(['step1']);
    const r2 = await wire.call(
      'tools/call',
      params({
        name: 'steps',
        requestState: r1['requestState'],
        inputResponses: { step1: accept({ name: 'A' }) },
      }),
    );
    expect(Object.keys(r2['inputRequests'] as object)).toEqual(['step2']);
    expect(r2['requestState']).not.toBe(r1['requestState']);
    const r3 = await wire.call(
      'tools/call',
      params({
        name: 'steps',
        requestState: r2['requestState'],
        inputResponses: { step2: accept({ name: 'B' }) },
      }),
    );
    expect(r3['content']).toEqual([{ type: 'text', text: 'A+B' }]);
  });

  it('works on prompts/get and resources/read', async () => {
    const wire = await connect(build());
    const prompt = await wire.call('prompts/get', params({ name: 'ctx_prompt' }));
    expect(prompt['resultType']).toBe('input_required');
    const promptDone = await wire.call(
      'prompts/get',
      params({
        name: 'ctx_prompt',
        requestState: prompt['requestState'],
        inputResponses: { elicitation_0: accept({ name: 'ctx' }) },
      }),
    );
    expect(promptDone['messages']).toEqual([{ role: 'user', content: { type: 'text', text: 'ctx' } }]);
    const read = await wire.call('resources/read', params({ uri: 'test://secret' }));
    expect(read).toMatchObject({
      resultType: 'input_required',
      inputRequests: { roots_0: { method: 'roots/list', params: {} } },
    });
    expect(read).not.toHaveProperty('ttlMs');
    const readDone = await wire.call(
      'resources/read',
      params({
        uri: 'test://secret',
        requestState: read['requestState'],
        inputResponses: { roots_0: { roots: [{ uri: 'file:///x' }] } },
      }),
    );
    expect(readDone['contents']).toEqual([{ uri: 'test://secret', text: 'file:///x' }]);
  });

  it('rejects tampered, foreign, expired and oversized requestState with -32602', async () => {
    let now = 1_000;
    const server = build({
      requestState: { key: 'k'.repeat(32), ttlMs: 100, now: () => now, maxBytes: 2048 },
    });
    const wire = await connect(server);
    const first = await wire.call('tools/call', params({ name: 'greet', arguments: { greeting: 'Hi' } }));
    const state = first['requestState'] as string;
    const [v, body, mac] = state.split('.') as [string, string, string];
    const tampered = `${v}.${body.slice(0, -2)}${body.endsWith('A') ? 'B' : 'A'}${body.slice(-1)}.${mac}`;
    const retry = (extra: Record<string, unknown>) =>
      wire.call(
        'tools/call',
        params({ name: 'greet', arguments: { greeting: 'Hi' }, inputResponses: {}, ...extra }),
      );
    await expect(retry({ requestState: tampered })).rejects.toMatchObject({ code: -32602 });
    await expect(retry({ requestState: 'garbage' })).rejects.toMatchObject({ code: -32602 });
    await expect(retry({ requestState: 'x'.repeat(5000) })).rejects.toMatchObject({ code: -32602 });
    await expect(
      wire.call('tools/call', params({ name: 'greet', arguments: { greeting: 'Yo' }, requestState: state })),
    ).rejects.toMatchObject({ code: -32602, message: expect.stringMatching(/other arguments/) });
    await expect(
      wire.call('tools/call', params({ name: 'everything', requestState: state })),
    ).rejects.toMatchObject({
      code: -32602,
      message: expect.stringMatching(/another request/),
    });
    now += 101;
    await expect(retry({ requestState: state })).rejects.toMatchObject({
      code: -32602,
      message: expect.stringMatching(/expired/),
    });
  });

  it('binds requestState to the authenticated principal', async () => {
    const server = build();
    const alice = await connect(server, {
      extra: { authInfo: { token: 't', clientId: 'c', scopes: [], extra: { sub: 'alice' } } },
    });
    const mallory = await connect(server, {
      extra: { authInfo: { token: 't2', clientId: 'c', scopes: [], extra: { sub: 'mallory' } } },
    });
    const first = await alice.call('tools/call', params({ name: 'greet', arguments: { greeting: 'Hi' } }));
    await expect(
      mallory.call(
        'tools/call',
        params({
          name: 'greet',
          arguments: { greeting: 'Hi' },
          requestState: first['requestState'],
          inputResponses: {},
        }),
      ),
    ).rejects.toMatchObject({ code: -32602, message: expect.stringMatching(/principal/) });
  });

  it('binds requestState to the client and the user together (issue #35, finding 14)', async () => {
    const server = build();
    const replay = async (
      from: { clientId: string; sub?: string },
      to: { clientId: string; sub?: string },
    ) => {
      const as = (who: { clientId: string; sub?: string }) =>
        connect(server, {
          extra: {
            authInfo: {
              token: 't',
              clientId: who.clientId,
              scopes: [],
              extra: who.sub === undefined ? {} : { sub: who.sub },
            },
          },
        });
      const first = await (await as(from)).call(
        'tools/call',
        params({ name: 'greet', arguments: { greeting: 'Hi' } }),
      );
      return (await as(to)).call(
        'tools/call',
        params({
          name: 'greet',
          arguments: { greeting: 'Hi' },
          requestState: first['requestState'],
          inputResponses: {},
        }),
      );
    };
    // The same user name at another OAuth client, and a client named like a user, are other principals.
    await expect(
      replay({ clientId: 'a', sub: 'alice' }, { clientId: 'b', sub: 'alice' }),
    ).rejects.toMatchObject({
      code: -32602,
      message: expect.stringMatching(/principal/),
    });
    await expect(replay({ clientId: 'a', sub: 'alice' }, { clientId: 'alice' })).rejects.toMatchObject({
      code: -32602,
      message: expect.stringMatching(/principal/),
    });
  });

  it('asks only for declared capabilities (-32021) and validates input responses (-32602)', async () => {
    const wire = await connect(build());
    await expect(
      wire.call('tools/call', params({ name: 'greet', arguments: { greeting: 'Hi' } }, { sampling: {} })),
    ).rejects.toMatchObject({ code: -32021, data: { requiredCapabilities: { elicitation: {} } } });
    await expect(
      wire.call(
        'tools/call',
        params({
          name: 'greet',
          arguments: { greeting: 'Hi' },
          inputResponses: { user_name: { action: 'maybe' } },
        }),
      ),
    ).rejects.toMatchObject({ code: -32602 });
  });

  it('refuses input requests outside tools/call, prompts/get and resources/read', async () => {
    const server = build();
    server.server.setRequestHandler('x/ask', async (_params, ctx) => {
      await ctx.elicit({ mode: 'form', message: 'no', requestedSchema: NAME_SCHEMA });
      return {};
    });
    const wire = await connect(server);
    await expect(wire.call('x/ask', params({}))).rejects.toMatchObject({
      code: -32603,
      message: expect.stringMatching(/only tools\/call, prompts\/get and resources\/read/),
    });
  });
});
