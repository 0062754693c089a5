import { CreateMessageRequestParamsSchema, McpError, type Task, TaskIdParamsSchema } from '@x/protocol';
import { describe, expect, it } from 'vitest';
import { McpServer } from '../src/index.js';
import { session } from './tasks-fixture.js';

// Spec 2025-11-25 basic/utilities/tasks, "Task-Augmented Sampling Request": the server as requestor of a
// task the client runs. The client is a scripted engine, so the server's wire traffic is checked exactly.

const RELATED = 'io.modelcontextprotocol/related-task';
const CLIENT_TASKS = {
  sampling: {},
  tasks: { list: {}, cancel: {}, requests: { sampling: { createMessage: {} } } },
};

function task(status: Task['status']): Task {
  return {
    taskId: 'client-task-1',
    status,
    createdAt: '2025-11-25T10:30:00Z',
    lastUpdatedAt: '2025-11-25T10:30:00Z',
    ttl: 5_000,
    pollInterval: 5,
  };
}

function summarizer(): McpServer {
  const server = new McpServer({ name: 'requestor', version: '1.0.0' });
  server.registerTool('summarize', {}, async (_args, ctx) => {
    const reply = await ctx.sample(
      { messages: [{ role: 'user', content: { type: 'text', text: 'Summarize' } }], maxTokens: 50 },
      { task: { ttl: 5_000 } },
    );
    const block = Array.isArray(reply.content) ? reply.content[0] : reply.content;
    return { content: [{ type: 'text', text: block?.type === 'text' ? block.text : '?' }] };
  });
  return server;
}

describe('server as task requestor (ctx.sample with a task)', () => {
  it('sends params.task, polls tasks/get, and returns what tasks/result answers', async () => {
    const wire = await session(summarizer(), { capabilities: CLIENT_TASKS });
    const states = [task('working'), task('completed')];
    const received: Array<[string, Record<string, unknown>]> = [];
    wire.client.setRequestHandler('sampling/createMessage', CreateMessageRequestParamsSchema, (params) => {
      received.push(['sampling/createMessage', params as Record<string, unknown>]);
      return { task: task('working') };
    });
    wire.client.setRequestHandler('tasks/get', TaskIdParamsSchema, (params) => {
      received.push(['tasks/get', params]);
      return states.shift()!;
    });
    wire.client.setRequestHandler('tasks/result', TaskIdParamsSchema, (params) => {
      received.push(['tasks/result', params]);
      return {
        role: 'assistant',
        content: { type: 'text', text: 'A short summary' },
        model: 'm1',
        _meta: { [RELATED]: { taskId: 'client-task-1' } },
      };
    });
    const result = await wire.call('tools/call', { name: 'summarize', arguments: {} });
    expect(result).toEqual({ content: [{ type: 'text', text: 'A short summary' }] });
    expect(received).toEqual([
      [
        'sampling/createMessage',
        {
          messages: [{ role: 'user', content: { type: 'text', text: 'Summarize' } }],
          maxTokens: 50,
          // "To create a task, requestors send a request with the task field included in the request params."
          task: { ttl: 5_000 },
          _meta: { progressToken: 1 },
        },
      ],
      ['tasks/get', { taskId: 'client-task-1' }],
      ['tasks/get', { taskId: 'client-task-1' }],
      ['tasks/result', { taskId: 'client-task-1' }],
    ]);
  });

  it('sends the request plainly to a client that did not declare task-augmented sampling', async () => {
    // "Requestors SHOULD only augment requests with a task if the corresponding capability has been declared by the receiver."
    const wire = await session(summarizer(), { capabilities: { sampling: {} } });
    const received: Array<Record<string, unknown>> = [];
    wire.client.setRequestHandler('sampling/createMessage', CreateMessageRequestParamsSchema, (params) => {
      received.push(params as Record<string, unknown>);
      return { role: 'assistant', content: { type: 'text', text: 'plain' }, model: 'm1' };
    });
    expect(await wire.call('tools/call', { name: 'summarize', arguments: {} })).toEqual({
      content: [{ type: 'text', text: 'plain' }],
    });
    expect(received[0]).not.toHaveProperty('task');
  });

  it("the client task's JSON-RPC error reaches the handler as that error", async () => {
    const wire = await session(summarizer(), { capabilities: CLIENT_TASKS });
    wire.client.setRequestHandler('sampling/createMessage', () => ({ task: task('failed') }));
    wire.client.setRequestHandler('tasks/result', () => {
      throw new McpError(-32603, 'model unavailable');
    });
    // A protocol error of ctx.sample propagates as the tools/call error, as it does without a task.
    const error = await wire
      .call('tools/call', { name: 'summarize', arguments: {} })
      .catch((e: McpError) => e);
    expect(error).toBeInstanceOf(McpError);
    expect((error as McpError).toJSON()).toEqual({ code: -32603, message: 'model unavailable' });
    // Terminal at once: no tasks/get needed ("Requestors SHOULD continue polling until the task reaches a terminal status").
    // Requests only: the debounced tools/list_changed of the registration may land in between on a busy machine.
    expect(
      wire.sent.filter((m) => 'method' in m && 'id' in m).map((m) => (m as { method: string }).method),
    ).toEqual(['sampling/createMessage', 'tasks/result']);
  });
});
