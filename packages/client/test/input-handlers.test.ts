import { CreateMessageResultSchema, ElicitResultSchema, ErrorCode, ListRootsResultSchema } from '@x/protocol';
import { describe, expect, it } from 'vitest';
import { Client } from '../src/index.js';
import { CLIENT_INFO, fakeServer, legacyHandshake } from './helpers.js';
import { afterTimeouts } from '@x/test-kit';

const FORM = {
  message: 'Who are you?',
  requestedSchema: {
    type: 'object',
    properties: {
      name: { type: 'string', default: 'John Doe' },
      age: { type: 'integer', default: 30 },
      score: { type: 'number', default: 95.5 },
      status: { type: 'string', enum: ['active', 'inactive'], default: 'active' },
      verified: { type: 'boolean', default: true },
      nickname: { type: 'string' },
    },
    required: ['name'],
  },
} as const;

async function legacyClient(configure: (client: Client) => void = () => {}) {
  const peer = await fakeServer((server) => legacyHandshake(server));
  const client = new Client(CLIENT_INFO, { protocolVersion: 'legacy' });
  configure(client);
  await client.connect(peer.transport);
  return { client, ...peer };
}

describe('server → client requests (legacy)', () => {
  it('answers sampling, elicitation and roots through the registered handlers', async () => {
    const { server } = await legacyClient((client) => {
      client.setSamplingHandler((params) => ({
        role: 'assistant',
        content: { type: 'text', text: `echo ${params.maxTokens}` },
        model: 'test-model',
      }));
      client.setElicitationHandler((params) => ({ action: 'accept', content: { name: params.message } }));
      client.setRootsHandler(() => ({ roots: [{ uri: 'file:///work', name: 'work' }] }));
    });
    const sampled = await server.request(
      { method: 'sampling/createMessage', params: { messages: [], maxTokens: 100 } },
      CreateMessageResultSchema,
    );
    expect(sampled).toMatchObject({ model: 'test-model', content: { text: 'echo 100' } });
    const elicited = await server.request(
      {
        method: 'elicitation/create',
        params: { message: 'Ada', requestedSchema: { type: 'object', properties: {} } },
      },
      ElicitResultSchema,
    );
    expect(elicited).toEqual({ action: 'accept', content: { name: 'Ada' } });
    const roots = await server.request({ method: 'roots/list' }, ListRootsResultSchema);
    expect(roots.roots).toEqual([{ uri: 'file:///work', name: 'work' }]);
  });

  it('fills schema defaults for omitted fields of an accepted form (SEP-1034)', async () => {
    const { server } = await legacyClient((client) =>
      client.setElicitationHandler(() => ({ action: 'accept', content: { name: 'Ada' } })),
    );
    const result = await server.request({ method: 'elicitation/create', params: FORM }, ElicitResultSchema);
    expect(result.content).toEqual({ name: 'Ada', age: 30, score: 95.5, status: 'active', verified: true });
  });

  it('leaves declined answers alone', async () => {
    const { server } = await legacyClient((client) =>
      client.setElicitationHandler(() => ({ action: 'decline' })),
    );
    const result = await server.request({ method: 'elicitation/create', params: FORM }, ElicitResultSchema);
    expect(result).toEqual({ action: 'decline' });
  });

  it('answers -32601 without a handler and -32602 for an undeclared elicitation mode', async () => {
    const { server } = await legacyClient((client) =>
      client.setElicitationHandler(() => ({ action: 'cancel' })),
    );
    await expect(
      server.request(
        { method: 'sampling/createMessage', params: { messages: [], maxTokens: 1 } },
        CreateMessageResultSchema,
      ),
    ).rejects.toMatchObject({ code: ErrorCode.MethodNotFound });
    await expect(server.request({ method: 'roots/list' }, ListRootsResultSchema)).rejects.toMatchObject({
      code: ErrorCode.MethodNotFound,
    });
    await expect(
      server.request(
        {
          method: 'elicitation/create',
          params: { mode: 'url', message: 'go', url: 'https://x.test', elicitationId: 'e' },
        },
        ElicitResultSchema,
      ),
    ).rejects.toMatchObject({ code: ErrorCode.InvalidParams });
  });

  it('hands URL-mode elicitations to a handler that declared them', async () => {
    const { server, requests } = await legacyClient((client) =>
      client.setElicitationHandler((params) => ({ action: params.mode === 'url' ? 'accept' : 'decline' }), {
        url: true,
        form: false,
      }),
    );
    expect(requests('initialize')[0]?.params?.['capabilities']).toEqual({ elicitation: { url: {} } });
    const result = await server.request(
      {
        method: 'elicitation/create',
        params: { mode: 'url', message: 'go', url: 'https://x.test', elicitationId: 'e' },
      },
      ElicitResultSchema,
    );
    expect(result.action).toBe('accept');
  });

  it('sends notifications/roots/list_changed', async () => {
    const { client, notifications } = await legacyClient((c) => c.setRootsHandler(() => ({ roots: [] })));
    await client.sendRootsListChanged();
    await afterTimeouts();
    expect(notifications('notifications/roots/list_changed')).toEqual([
      { jsonrpc: '2.0', method: 'notifications/roots/list_changed' },
    ]);
  });
});
