import { InMemoryTransport, MetaKey, Protocol, ResultSchema } from '@x/protocol';
import { describe, expect, it } from 'vitest';
import { createEverythingServer, JSON_SCHEMA_2020_12_INPUT_SCHEMA } from '../src/everything-server.js';

async function rawClient(): Promise<{
  call: (method: string, params?: Record<string, unknown>) => Promise<Record<string, unknown>>;
  client: Protocol;
}> {
  const [clientSide, serverSide] = InMemoryTransport.createLinkedPair();
  await createEverythingServer().connect(serverSide);
  const client = new Protocol({ timeout: 5_000 });
  await client.connect(clientSide);
  return {
    client,
    call: (method, params) =>
      client.request(params === undefined ? { method } : { method, params }, ResultSchema) as Promise<
        Record<string, unknown>
      >,
  };
}

const modernMeta = (capabilities: Record<string, unknown> = {}) => ({
  [MetaKey.ProtocolVersion]: '2026-07-28',
  [MetaKey.ClientCapabilities]: capabilities,
});

describe('everything server, legacy era', () => {
  it('initializes and serves the 2025-11-25 fixtures', async () => {
    const { call, client } = await rawClient();
    const init = await call('initialize', {
      protocolVersion: '2025-11-25',
      capabilities: { sampling: {} },
      clientInfo: { name: 'conformance', version: '1' },
    });
    expect(init['protocolVersion']).toBe('2025-11-25');
    expect(init['capabilities']).toMatchObject({
      tools: {},
      resources: { subscribe: true },
      prompts: {},
      completions: {},
      logging: {},
    });
    await client.notification({ method: 'notifications/initialized' });

    const { tools } = (await call('tools/list')) as {
      tools: Array<{ name: string; inputSchema: unknown; description?: string }>;
    };
    expect(tools.every((t) => /^[A-Za-z0-9_.-]{1,64}$/.test(t.name) && t.description !== undefined)).toBe(
      true,
    );
    expect(tools.find((t) => t.name === 'json_schema_2020_12_tool')?.inputSchema).toEqual(
      JSON_SCHEMA_2020_12_INPUT_SCHEMA,
    );
    await expect(call('tools/call', { name: 'test_simple_text' })).resolves.toEqual({
      content: [{ type: 'text', text: 'This is a simple text response for testing.' }],
    });
    await expect(call('tools/call', { name: 'test_error_handling' })).resolves.toMatchObject({
      isError: true,
    });
    client.setRequestHandler('sampling/createMessage', () => ({
      role: 'assistant',
      content: { type: 'text', text: 'Paris' },
      model: 'test',
    }));
    await expect(
      call('tools/call', { name: 'test_sampling', arguments: { prompt: 'Capital?' } }),
    ).resolves.toEqual({
      content: [{ type: 'text', text: 'LLM response: Paris' }],
    });
    await expect(call('resources/read', { uri: 'test://template/123/data' })).resolves.toEqual({
      contents: [
        {
          uri: 'test://template/123/data',
          mimeType: 'application/json',
          text: '{"id":"123","templateTest":true,"data":"Data for ID: 123"}',
        },
      ],
    });
    await expect(call('resources/subscribe', { uri: 'test://watched-resource' })).resolves.toEqual({});
    await expect(
      call('prompts/get', {
        name: 'test_prompt_with_arguments',
        arguments: { arg1: 'hello', arg2: 'world' },
      }),
    ).resolves.toEqual({
      messages: [
        {
          role: 'user',
          content: { type: 'text', text: "Prompt with arguments: arg1='hello', arg2='world'" },
        },
      ],
    });
    await expect(
      call('completion/complete', {
        ref: { type: 'ref/prompt', name: 'test_prompt_with_arguments' },
        argument: { name: 'arg1', value: 'he' },
      }),
    ).resolves.toEqual({ completion: { values: ['hello', 'help'], total: 2, hasMore: false } });
    await expect(call('logging/setLevel', { level: 'info' })).resolves.toEqual({});
  });
});

describe('everything server, 2026-07-28 era', () => {
  it('discovers, caches, enforces capabilities and runs multi round-trip tools', async () => {
    const { call } = await rawClient();
    const discovered = await call('server/discover', { _meta: modernMeta() });
    expect(discovered['supportedVersions']).toContain('2026-07-28');
    await expect(call('tools/list', { _meta: modernMeta() })).resolves.toMatchObject({
      resultType: 'complete',
      ttlMs: expect.any(Number),
      cacheScope: 'public',
    });
    await expect(
      call('tools/call', { _meta: modernMeta(), name: 'test_missing_capability' }),
    ).rejects.toMatchObject({
      code: -32021,
      data: { requiredCapabilities: { sampling: {} } },
    });
    await expect(call('resources/read', { _meta: modernMeta(), uri: 'test://nope' })).rejects.toMatchObject({
      code: -32602,
      data: { uri: 'test://nope' },
    });
    await expect(call('ping', { _meta: modernMeta() })).rejects.toMatchObject({ code: -32601 });

    const caps = { elicitation: {} };
    const first = await call('tools/call', {
      _meta: modernMeta(caps),
      name: 'test_input_required_result_request_state',
      arguments: {},
    });
    expect(first).toMatchObject({
      resultType: 'input_required',
      inputRequests: { confirm: { method: 'elicitation/create' } },
      requestState: expect.any(String),
    });
    const done = await call('tools/call', {
      _meta: modernMeta(caps),
      name: 'test_input_required_result_request_state',
      arguments: {},
      inputResponses: { confirm: { action: 'accept', content: { ok: true } } },
      requestState: first['requestState'],
    });
    expect(done).toMatchObject({
      resultType: 'complete',
      content: [{ type: 'text', text: expect.stringContaining('state-ok') }],
    });
    await expect(
      call('tools/call', {
        _meta: modernMeta(caps),
        name: 'test_input_required_result_tampered_state',
        arguments: {},
        inputResponses: { confirm: { action: 'accept', content: { ok: true } } },
        requestState: `${String(first['requestState'])}x`,
      }),
    ).rejects.toMatchObject({ code: -32602 });
    const prompt = await call('prompts/get', {
      _meta: modernMeta(caps),
      name: 'test_input_required_result_prompt',
    });
    expect(prompt).toMatchObject({ resultType: 'input_required', inputRequests: { user_context: {} } });
  });
});
