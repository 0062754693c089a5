import { Client as V1Client } from '@modelcontextprotocol/sdk/client/index.js';
import { StreamableHTTPClientTransport as V1StreamableHTTPClientTransport } from '@modelcontextprotocol/sdk/client/streamableHttp.js';
import { InMemoryTaskMessageQueue, InMemoryTaskStore } from '@modelcontextprotocol/sdk/experimental/tasks';
import { InMemoryTransport as V1InMemoryTransport } from '@modelcontextprotocol/sdk/inMemory.js';
import { McpServer as V1McpServer } from '@modelcontextprotocol/sdk/server/mcp.js';
import {
  CallToolResultSchema,
  CreateTaskResultSchema,
  ElicitRequestSchema,
  McpError as V1McpError,
} from '@modelcontextprotocol/sdk/types.js';
import { Client } from '@x/client';
import type { Transport } from '@x/protocol';
import { McpServer } from '@x/server';
import { afterEach, describe, expect, it } from 'vitest';
import { z } from 'zod';
import { Resources, textOf } from './fixtures/e2e-helpers.js';
import { hostOurStreamableHttp } from './fixtures/interop-hosts.js';

// Experimental tasks (spec 2025-11-25 basic/utilities/tasks) across SDKs: the official v1 client (its
// `experimental.tasks` API) against our McpServer over Streamable HTTP, and our Client against an official
// v1 McpServer with a `registerToolTask` tool.

const RELATED = 'io.modelcontextprotocol/related-task';
const resources = new Resources();
afterEach(() => resources.closeAll());

function ourTaskServer(): McpServer {
  const server = new McpServer({ name: 'x-mcp-tasks', version: '1.0.0' }, { tasks: { pollIntervalMs: 10 } });
  server.registerTool(
    'book',
    { inputSchema: z.object({ trip: z.string() }), execution: { taskSupport: 'required' } },
    async ({ trip }, ctx) => {
      const answer = await ctx.elicit({
        mode: 'form',
        message: `Seat for ${trip}?`,
        requestedSchema: { type: 'object', properties: { seat: { type: 'string' } }, required: ['seat'] },
      });
      return { content: [{ type: 'text', text: `${trip}: seat ${String(answer.content?.['seat'])}` }] };
    },
  );
  server.registerTool(
    'add',
    { inputSchema: z.object({ a: z.number(), b: z.number() }), execution: { taskSupport: 'optional' } },
    ({ a, b }) => ({
      content: [{ type: 'text', text: String(a + b) }],
    }),
  );
  return server;
}

describe('official v1 client → x-mcp server (tasks)', () => {
  it('runs a task tool with elicitation through callToolStream, then reads, lists and refuses to cancel it', async () => {
    const host = resources.track(await hostOurStreamableHttp(ourTaskServer()));
    const client = new V1Client(
      { name: 'v1-client', version: '1.0.0' },
      { capabilities: { elicitation: {} } },
    );
    const asked: unknown[] = [];
    client.setRequestHandler(ElicitRequestSchema, async (request) => {
      asked.push(request.params);
      return { action: 'accept', content: { seat: '7C' } };
    });
    await client.connect(new V1StreamableHTTPClientTransport(host.url));
    resources.track(client);

    expect(client.getServerCapabilities()?.tasks).toEqual({
      list: {},
      cancel: {},
      requests: { tools: { call: {} } },
    });
    const { tools } = await client.listTools();
    expect(tools.find((t) => t.name === 'book')?.execution).toEqual({ taskSupport: 'required' });

    const messages: Array<{ type: string; [key: string]: unknown }> = [];
    const stream = client.experimental.tasks.callToolStream(
      { name: 'book', arguments: { trip: 'Porto' } },
      CallToolResultSchema,
      {
        task: { ttl: 30_000 },
      },
    );
    for await (const message of stream) messages.push(message as never);
    const types = messages.map((m) => m.type);
    expect(types[0]).toBe('taskCreated');
    expect(types.at(-1)).toBe('result');
    const result = messages.at(-1)!['result'] as {
      content: Array<{ type: string; text: string }>;
      _meta: Record<string, unknown>;
    };
    expect(textOf(result)).toBe('Porto: seat 7C');
    const taskId = (messages[0]!['task'] as { taskId: string }).taskId;
    expect(result._meta[RELATED]).toEqual({ taskId });
    expect(asked).toEqual([
      // The server's elicitation asks for progress too (resetTimeoutOnProgress is on).
      expect.objectContaining({
        message: 'Seat for Porto?',
        _meta: { [RELATED]: { taskId }, progressToken: expect.any(Number) },
      }),
    ]);

    expect(await client.experimental.tasks.getTask(taskId)).toMatchObject({ taskId, status: 'completed' });
    expect((await client.experimental.tasks.listTasks()).tasks.map((t) => t.taskId)).toEqual([taskId]);
    const refused = await client.experimental.tasks.cancelTask(taskId).catch((e: unknown) => e);
    expect(refused).toBeInstanceOf(V1McpError);
    expect((refused as V1McpError).code).toBe(-32602);
  });

  it("ctx.reportTaskStatus shows as the task's statusMessage to the official client; its tasks/cancel stops the handler", async () => {
    const server = new McpServer(
      { name: 'x-mcp-status', version: '1.0.0' },
      { tasks: { pollIntervalMs: 10 } },
    );
    let stopped: unknown;
    server.registerTool('index', { execution: { taskSupport: 'required' } }, async (_args, ctx) => {
      await ctx.reportTaskStatus('indexing 1/3');
      await new Promise((_resolve, reject) =>
        ctx.signal.addEventListener('abort', () => {
          stopped = ctx.signal.reason;
          reject(ctx.signal.reason);
        }),
      );
      return { content: [] };
    });
    const host = resources.track(await hostOurStreamableHttp(server));
    const client = new V1Client({ name: 'v1-client', version: '1.0.0' });
    await client.connect(new V1StreamableHTTPClientTransport(host.url));
    resources.track(client);
    const created = await client.request(
      { method: 'tools/call', params: { name: 'index', arguments: {}, task: { ttl: 30_000 } } },
      CreateTaskResultSchema,
    );
    const taskId = created.task.taskId;
    await expect
      .poll(async () => (await client.experimental.tasks.getTask(taskId)).statusMessage)
      .toBe('indexing 1/3');
    expect(await client.experimental.tasks.cancelTask(taskId)).toMatchObject({ taskId, status: 'cancelled' });
    await expect.poll(() => stopped).toBeDefined();
  });

  it('a plain tools/call of a required task tool is -32601 for the official client too', async () => {
    const host = resources.track(await hostOurStreamableHttp(ourTaskServer()));
    const client = new V1Client({ name: 'v1-client', version: '1.0.0' });
    await client.connect(new V1StreamableHTTPClientTransport(host.url));
    resources.track(client);
    await expect(client.callTool({ name: 'book', arguments: { trip: 'x' } })).rejects.toMatchObject({
      code: -32601,
    });
    // An optional tool answers normally.
    const sum = (await client.callTool({ name: 'add', arguments: { a: 2, b: 3 } })) as { content?: unknown };
    expect(textOf(sum)).toBe('5');
  });
});

describe('x-mcp client → official v1 server (tasks)', () => {
  async function v1TaskServer(): Promise<{ client: Client; close: () => Promise<void> }> {
    const server = new V1McpServer(
      { name: 'v1-tasks', version: '1.0.0' },
      {
        capabilities: { tasks: { list: {}, cancel: {}, requests: { tools: { call: {} } } } },
        taskStore: new InMemoryTaskStore(),
        taskMessageQueue: new InMemoryTaskMessageQueue(),
      },
    );
    server.experimental.tasks.registerToolTask(
      'slow-add',
      { inputSchema: { a: z.number(), b: z.number() }, execution: { taskSupport: 'required' } },
      {
        createTask: async ({ a, b }, extra) => {
          const task = await extra.taskStore.createTask({ ttl: 60_000, pollInterval: 10 });
          // Finishes after the CreateTaskResult went out: the client has to poll for it.
          setTimeout(() => {
            void extra.taskStore.storeTaskResult(task.taskId, 'completed', {
              content: [{ type: 'text', text: String(a + b) }],
            });
          }, 20);
          return { task };
        },
        getTask: async (_args, extra) => extra.taskStore.getTask(extra.taskId),
        getTaskResult: async (_args, extra) => extra.taskStore.getTaskResult(extra.taskId) as never,
      },
    );
    const [clientSide, serverSide] = V1InMemoryTransport.createLinkedPair();
    await server.connect(serverSide);
    const client = new Client({ name: 'x-mcp-client', version: '1.0.0' }, { protocolVersion: 'legacy' });
    await client.connect(clientSide as unknown as Transport);
    return { client, close: () => server.close() };
  }

  it('callToolInTask creates the task, polls it to completion and returns its result', async () => {
    const { client, close } = resources.track(await v1TaskServer());
    resources.track(client);
    expect(client.serverCapabilities?.tasks?.requests?.tools?.call).toEqual({});
    const seen: string[] = [];
    const result = await client.callToolInTask(
      { name: 'slow-add', arguments: { a: 2, b: 40 } },
      { ttl: 60_000, onstatus: (task) => seen.push(task.status) },
    );
    expect(textOf(result)).toBe('42');
    expect(seen[0]).toBe('working');
    expect(seen.at(-1)).toBe('completed');
    const taskId = (result._meta?.[RELATED] as { taskId: string } | undefined)?.taskId;
    expect(taskId).toEqual(expect.any(String));
    expect(await client.getTask(taskId!)).toMatchObject({ status: 'completed' });
    expect((await client.listTasks()).tasks.map((t) => t.taskId)).toContain(taskId);
    await close();
  });
});
