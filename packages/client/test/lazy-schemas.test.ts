import * as protocol from '@x/protocol';
import * as internal from '@x/protocol/internal';
import { isSchemaBuilt } from '@x/protocol/testing';
import { afterTimeouts } from '@x/test-kit';
import { describe, expect, it } from 'vitest';
import { Client } from '../src/index.js';
import { CLIENT_INFO, fakeServer, legacyHandshake, text } from './helpers.js';

// Issue 30: the client validates what a server sends with the deferred handles of `@x/protocol/internal`
// (a zod-free exact check; the zod schema is loaded with `import()` only for a value the check refuses),
// so a browser app downloads zod only if a server sends something unusual. Here (Node) the handles show
// whether a schema was ever needed: each stays unloaded until a value fails its check.
const HANDLES = Object.entries(internal).filter(
  ([name, value]) => name.startsWith('Deferred') && name.endsWith('Schema') && typeof value === 'object',
) as Array<[string, object]>;
const loaded = (): string[] =>
  HANDLES.filter(([, handle]) => !internal.isDeferredUnloaded(handle)).map(([name]) => name);

describe('Client: the schemas of what a server sends', () => {
  it('an everyday session loads none of them: handshake, list, call, log, sampling, a progress update', async () => {
    expect(HANDLES.length).toBeGreaterThan(20);
    const client = new Client(CLIENT_INFO, { protocolVersion: 'legacy' });
    client.setSamplingHandler(() => ({ role: 'assistant', content: text('4'), model: 'm' }));
    const peer = await fakeServer((server) => {
      legacyHandshake(server);
      server.setRequestHandler('tools/list', () => ({
        tools: [
          {
            name: 'add',
            title: 'Add',
            description: 'Adds two numbers',
            inputSchema: { type: 'object', properties: { a: { type: 'number' } }, required: ['a'] },
            annotations: { readOnlyHint: true },
          },
        ],
      }));
      server.setRequestHandler('tools/call', async (_request, ctx) => {
        await ctx.sendProgress({ progress: 1, total: 1 });
        return { content: [text('3')], structuredContent: { sum: 3 } };
      });
    });
    await client.connect(peer.transport);
    expect(client.serverCapabilities).toEqual({ tools: { listChanged: true }, logging: {} });

    const { tools } = await client.listTools();
    expect(tools.map((tool) => tool.name)).toEqual(['add']);
    const progress: number[] = [];
    const result = await client.callTool(
      { name: 'add', arguments: { a: 1 } },
      { onprogress: (update) => progress.push(update.progress) },
    );
    expect(result.structuredContent).toEqual({ sum: 3 });
    expect(progress).toEqual([1]);

    const logs: unknown[] = [];
    client.on('log', (params) => logs.push(params));
    await peer.server.notification({
      method: 'notifications/message',
      params: { level: 'info', data: 'hi' },
    });
    await afterTimeouts();
    expect(logs).toEqual([{ level: 'info', data: 'hi' }]);

    const answer = await peer.server.request(
      {
        method: 'sampling/createMessage',
        params: { messages: [{ role: 'user', content: text('2+2?') }], maxTokens: 5 },
      },
      protocol.CreateMessageResultSchema,
    );
    expect(answer.model).toBe('m');

    expect(loaded()).toEqual([]);
    // Nor were the root's schemas built: the client never reads them.
    expect(isSchemaBuilt(protocol.InitializeResultSchema)).toBe(false);
    expect(isSchemaBuilt(protocol.CallToolResultSchema)).toBe(false);
    expect(isSchemaBuilt(protocol.ServerCapabilitiesSchema)).toBe(false);

    // A value a check refuses loads that schema (only that handle), and still gets its verdict: -32602
    // for a server request's params, -32603 naming the issue for a result.
    await expect(
      peer.server.request(
        { method: 'sampling/createMessage', params: { messages: 'none', maxTokens: 1 } },
        protocol.CreateMessageResultSchema,
      ),
    ).rejects.toMatchObject({ code: protocol.ErrorCode.InvalidParams });
    expect(loaded()).toEqual(['DeferredCreateMessageRequestParamsSchema']);

    peer.server.setRequestHandler('prompts/list', () => ({ prompts: [{ name: 7 }] }));
    await expect(client.listPrompts()).rejects.toThrow(/Invalid result for prompts\/list.*name/);
    expect(loaded()).toContain('DeferredListPromptsResultSchema');
    await client.close();
  });
});
