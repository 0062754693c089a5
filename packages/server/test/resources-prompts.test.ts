import { describe, expect, it } from 'vitest';
import { z } from 'zod';
import { McpServer, ResourceTemplate } from '../src/index.js';
import { connect, initialize } from './helpers.js';
import { afterTimeouts } from '@x/test-kit';

function library(options: { pageSize?: number } = {}): McpServer {
  const server = new McpServer({ name: 'lib', version: '1' }, options);
  server.registerResource(
    'readme',
    'test://readme',
    { mimeType: 'text/plain', description: 'Read me' },
    (uri) => ({
      contents: [{ uri, mimeType: 'text/plain', text: 'hello' }],
    }),
  );
  server.registerResource('logo', 'test://logo', { mimeType: 'image/png' }, (uri) => ({
    contents: [{ uri, mimeType: 'image/png', blob: 'iVBORw0KGgo=' }],
  }));
  const items = new ResourceTemplate('test://items/{id}', {
    list: () => ({ resources: [{ uri: 'test://items/1', name: 'item 1' }] }),
    complete: { id: (value) => ['1', '12', '2'].filter((id) => id.startsWith(value)) },
  });
  server.registerResource('item', items, { mimeType: 'application/json' }, (uri, { id }) => ({
    contents: [{ uri, mimeType: 'application/json', text: JSON.stringify({ id }) }],
  }));
  server.registerPrompt(
    'greet',
    {
      description: 'Greets',
      argsSchema: z.object({ name: z.string().describe('Who'), tone: z.string().optional() }),
      complete: {
        name: (value, context) =>
          ['Ann', 'Bob'].filter((n) => n.startsWith(value) && n !== context.arguments?.['tone']),
      },
    },
    ({ name, tone }) => ({
      messages: [
        { role: 'user', content: { type: 'text', text: `Hello ${name}${tone ? ` (${tone})` : ''}` } },
      ],
    }),
  );
  return server;
}

describe('resources', () => {
  it('lists resources (with template lists) and templates', async () => {
    const wire = await connect(library());
    const init = await initialize(wire);
    expect(init['capabilities']).toEqual({
      logging: {},
      resources: { subscribe: true, listChanged: true },
      prompts: { listChanged: true },
      completions: {},
    });
    await expect(wire.call('resources/list')).resolves.toEqual({
      resources: [
        { uri: 'test://readme', name: 'readme', description: 'Read me', mimeType: 'text/plain' },
        { uri: 'test://logo', name: 'logo', mimeType: 'image/png' },
        { uri: 'test://items/1', name: 'item 1', mimeType: 'application/json' },
      ],
    });
    await expect(wire.call('resources/templates/list')).resolves.toEqual({
      resourceTemplates: [{ uriTemplate: 'test://items/{id}', name: 'item', mimeType: 'application/json' }],
    });
  });

  it('reads text, blob and template resources; unknown URI is -32002 with data.uri on legacy', async () => {
    const wire = await connect(library());
    await initialize(wire);
    await expect(wire.call('resources/read', { uri: 'test://readme' })).resolves.toEqual({
      contents: [{ uri: 'test://readme', mimeType: 'text/plain', text: 'hello' }],
    });
    await expect(wire.call('resources/read', { uri: 'test://logo' })).resolves.toEqual({
      contents: [{ uri: 'test://logo', mimeType: 'image/png', blob: 'iVBORw0KGgo=' }],
    });
    await expect(wire.call('resources/read', { uri: 'test://items/42' })).resolves.toEqual({
      contents: [{ uri: 'test://items/42', mimeType: 'application/json', text: '{"id":"42"}' }],
    });
    await expect(wire.call('resources/read', { uri: 'test://missing' })).rejects.toMatchObject({
      code: -32002,
      data: { uri: 'test://missing' },
    });
  });

  it('sends resources/updated only to subscribed sessions, until they unsubscribe', async () => {
    const server = library();
    const a = await connect(server);
    const b = await connect(server);
    await initialize(a);
    await initialize(b);
    await expect(a.call('resources/subscribe', { uri: 'test://readme' })).resolves.toEqual({});
    server.sendResourceUpdated('test://readme');
    await afterTimeouts(5);
    expect(a.notifications('notifications/resources/updated')).toEqual([{ uri: 'test://readme' }]);
    expect(b.notifications('notifications/resources/updated')).toEqual([]);
    // The session state shows the subscription, as a snapshot its reader cannot change.
    const [stateA, stateB] = [...server.sessions].map((session) => session.legacy);
    if (stateA === undefined || stateB === undefined) throw new Error('both sessions are legacy');
    expect([...stateA.subscriptions]).toEqual(['test://readme']);
    expect([...stateB.subscriptions]).toEqual([]);
    (stateA.subscriptions as Set<string>).clear();
    expect([...stateA.subscriptions]).toEqual(['test://readme']);
    await a.call('resources/unsubscribe', { uri: 'test://readme' });
    expect(stateA.subscriptions.size).toBe(0);
    server.sendResourceUpdated('test://readme');
    await afterTimeouts(5);
    expect(a.notifications('notifications/resources/updated')).toHaveLength(1);
  });

  it('paginates all lists with opaque cursors; an invalid cursor is -32602', async () => {
    const server = library({ pageSize: 1 });
    for (const name of ['t1', 't2', 't3']) server.registerTool(name, {}, () => ({ content: [] }));
    const wire = await connect(server);
    await initialize(wire);
    const names: string[] = [];
    let cursor: unknown;
    do {
      const page = await wire.call('tools/list', cursor === undefined ? {} : { cursor });
      names.push(...(page['tools'] as Array<{ name: string }>).map((t) => t.name));
      cursor = page['nextCursor'];
    } while (cursor !== undefined);
    expect(names).toEqual(['t1', 't2', 't3']);
    const first = await wire.call('prompts/list');
    expect(first['nextCursor']).toBeUndefined();
    const resources = await wire.call('resources/list');
    expect(resources['nextCursor']).toEqual(expect.any(String));
    await expect(wire.call('tools/list', { cursor: 'garbage' })).rejects.toMatchObject({ code: -32602 });
    await expect(wire.call('resources/templates/list', { cursor: btoa('o:99') })).rejects.toMatchObject({
      code: -32602,
    });
  });
});

describe('prompts and completion', () => {
  it('lists and gets prompts; bad arguments are -32602', async () => {
    const wire = await connect(library());
    await initialize(wire);
    await expect(wire.call('prompts/list')).resolves.toEqual({
      prompts: [
        {
          name: 'greet',
          description: 'Greets',
          arguments: [{ name: 'name', description: 'Who', required: true }, { name: 'tone' }],
        },
      ],
    });
    await expect(wire.call('prompts/get', { name: 'greet', arguments: { name: 'Ann' } })).resolves.toEqual({
      messages: [{ role: 'user', content: { type: 'text', text: 'Hello Ann' } }],
    });
    await expect(wire.call('prompts/get', { name: 'greet', arguments: {} })).rejects.toMatchObject({
      code: -32602,
    });
    await expect(wire.call('prompts/get', { name: 'nope' })).rejects.toMatchObject({ code: -32602 });
  });

  it('completes prompt arguments (with context) and template variables', async () => {
    const wire = await connect(library());
    await initialize(wire);
    await expect(
      wire.call('completion/complete', {
        ref: { type: 'ref/prompt', name: 'greet' },
        argument: { name: 'name', value: '' },
        context: { arguments: { tone: 'Bob' } },
      }),
    ).resolves.toEqual({ completion: { values: ['Ann'], total: 1, hasMore: false } });
    await expect(
      wire.call('completion/complete', {
        ref: { type: 'ref/resource', uri: 'test://items/{id}' },
        argument: { name: 'id', value: '1' },
      }),
    ).resolves.toEqual({ completion: { values: ['1', '12'], total: 2, hasMore: false } });
    await expect(
      wire.call('completion/complete', {
        ref: { type: 'ref/prompt', name: 'greet' },
        argument: { name: 'tone', value: '' },
      }),
    ).resolves.toEqual({ completion: { values: [], hasMore: false } });
    await expect(
      wire.call('completion/complete', {
        ref: { type: 'ref/prompt', name: 'x' },
        argument: { name: 'a', value: '' },
      }),
    ).rejects.toMatchObject({ code: -32602 });
  });
});
