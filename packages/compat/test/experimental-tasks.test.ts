// experimental/tasks of @x/compat: a 1.x task tool (`experimental.tasks.registerToolTask`, a 1.x
// `InMemoryTaskStore`) on x-mcp's task receiver, called as a task and directly, by the x-mcp Client
// and by the official 1.32.2 Client.
import { Client as OfficialClient } from '@modelcontextprotocol/sdk/client/index.js';
import { InMemoryTransport as OfficialInMemory } from '@modelcontextprotocol/sdk/inMemory.js';
import { CallToolResultSchema, CreateTaskResultSchema } from '@modelcontextprotocol/sdk/types.js';
import { Client } from '@x/client';
import { InMemoryTransport } from '@x/protocol';
import { describe, expect, it } from 'vitest';
import * as z from 'zod';
import {
  type CreateTaskRequestHandlerExtra,
  InMemoryTaskMessageQueue,
  InMemoryTaskStore,
  isTerminal,
  type TaskRequestHandlerExtra,
} from '../src/experimental/tasks/index.js';
import { McpServer } from '../src/server/mcp.js';

/** A server with one task tool whose work finishes when the test says so. */
function taskServer() {
  const taskStore = new InMemoryTaskStore();
  const server = new McpServer(
    { name: 'tasks', version: '1.0.0' },
    {
      capabilities: { tools: {}, tasks: { list: {}, cancel: {}, requests: { tools: { call: {} } } } },
      taskStore,
      taskMessageQueue: new InMemoryTaskMessageQueue(),
    },
  );
  const release: Array<() => void> = [];
  server.experimental.tasks.registerToolTask(
    'research',
    { inputSchema: { topic: z.string() }, execution: { taskSupport: 'optional' } },
    {
      createTask: async ({ topic }: { topic: string }, extra: CreateTaskRequestHandlerExtra) => {
        const task = await extra.taskStore.createTask({ ttl: 60_000, pollInterval: 10 });
        release.push(() => {
          void extra.taskStore.storeTaskResult(task.taskId, 'completed', {
            content: [{ type: 'text', text: `report on ${topic}` }],
          });
        });
        return { task };
      },
      getTask: (_args: unknown, extra: TaskRequestHandlerExtra) => extra.taskStore.getTask(extra.taskId),
      getTaskResult: async (_args: unknown, extra: TaskRequestHandlerExtra) =>
        (await extra.taskStore.getTaskResult(extra.taskId)) as { content: [] },
    },
  );
  return { server, taskStore, release };
}

describe('compat experimental tasks', () => {
  it('a task-augmented call by the x-mcp Client: working until the 1.x store settles, then the stored result', async () => {
    const { server, taskStore, release } = taskServer();
    const [clientSide, serverSide] = InMemoryTransport.createLinkedPair();
    await server.connect(serverSide);
    const client = new Client({ name: 'x', version: '1.0.0' });
    await client.connect(clientSide);
    try {
      const tool = (await client.listTools()).tools[0];
      expect(tool?.execution).toEqual({ taskSupport: 'optional' });
      const { task } = await client.callToolAsTask({ name: 'research', arguments: { topic: 'owls' } });
      expect(task.status).toBe('working');
      await expect.poll(() => release.length).toBe(1);
      expect((await client.getTask(task.taskId)).status).toBe('working');
      expect(taskStore.getAllTasks().map((t) => t.status)).toEqual(['working']);
      release[0]?.();
      expect((await client.getTaskResult(task.taskId)).content).toEqual([
        { type: 'text', text: 'report on owls' },
      ]);
      await expect.poll(async () => (await client.getTask(task.taskId)).status).toBe('completed');
      expect(isTerminal(taskStore.getAllTasks()[0]!.status)).toBe(true);
    } finally {
      await client.close();
    }
  });

  it('the official Client: a task (tasks/get, tasks/result) and a plain call that waits for the result', async () => {
    const { server, release } = taskServer();
    const [clientSide, serverSide] = OfficialInMemory.createLinkedPair();
    // The official pair's type says an error response's id is never null; x-mcp's says it may be.
    await server.connect(serverSide as unknown as Parameters<McpServer['connect']>[0]);
    const client = new OfficialClient({ name: 'official', version: '1.0.0' });
    await client.connect(clientSide);
    try {
      const created = await client.request(
        {
          method: 'tools/call',
          params: { name: 'research', arguments: { topic: 'bees' }, task: { ttl: 60_000 } },
        },
        CreateTaskResultSchema,
      );
      await expect.poll(() => release.length).toBe(1);
      release[0]?.();
      const result = await client.request(
        { method: 'tasks/result', params: { taskId: created.task.taskId } },
        CallToolResultSchema,
      );
      expect(result.content).toEqual([{ type: 'text', text: 'report on bees' }]);

      const direct = client.callTool({ name: 'research', arguments: { topic: 'ants' } });
      await expect.poll(() => release.length).toBe(2);
      release[1]?.();
      expect((await direct).content).toEqual([{ type: 'text', text: 'report on ants' }]);
    } finally {
      await client.close();
    }
  });

  it('refuses registerToolTask without a taskStore, naming the option', () => {
    const server = new McpServer({ name: 'no-store', version: '1.0.0' });
    expect(() =>
      server.experimental.tasks.registerToolTask(
        't',
        {},
        {
          createTask: async () => ({ task: {} as never }),
          getTask: async () => ({}) as never,
          getTaskResult: async () => ({ content: [] }),
        },
      ),
    ).toThrow(/taskStore/);
  });
});
