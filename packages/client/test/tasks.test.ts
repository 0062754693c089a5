import { ElicitResultSchema, ErrorCode, McpError, type Protocol, type Task } from '@x/protocol';
import { withRelatedTask } from '@x/protocol/internal';
import { describe, expect, it } from 'vitest';
import { Client } from '../src/index.js';
import { CLIENT_INFO, fakeServer, legacyHandshake, text } from './helpers.js';
import { afterTimeouts } from '@x/test-kit';

// Spec 2025-11-25 basic/utilities/tasks, the client as requestor of task-augmented tools/call. The
// server is a scripted engine, so every request the client puts on the wire is checked exactly.

const RELATED = 'io.modelcontextprotocol/related-task';
const TASK_CAPS = { tools: {}, tasks: { list: {}, cancel: {}, requests: { tools: { call: {} } } } };
const TOOLS = [
  { name: 'render', inputSchema: { type: 'object' }, execution: { taskSupport: 'optional' } },
  {
    name: 'measure',
    inputSchema: { type: 'object' },
    outputSchema: { type: 'object', properties: { cm: { type: 'number' } }, required: ['cm'] },
    execution: { taskSupport: 'required' },
  },
  { name: 'quick', inputSchema: { type: 'object' } },
  { name: 'never', inputSchema: { type: 'object' }, execution: { taskSupport: 'forbidden' } },
];

function task(status: Task['status'], extra: Partial<Task> = {}): Task {
  return {
    taskId: 'task-1',
    status,
    createdAt: '2025-11-25T10:30:00Z',
    lastUpdatedAt: '2025-11-25T10:30:00Z',
    ttl: 60_000,
    pollInterval: 10,
    ...extra,
  };
}

async function connected(
  setup: (server: Protocol) => void,
  capabilities: Record<string, unknown> = TASK_CAPS,
) {
  const peer = await fakeServer((server) => {
    legacyHandshake(server, { capabilities });
    server.setRequestHandler('tools/list', () => ({ tools: TOOLS }));
    setup(server);
  });
  const client = new Client(CLIENT_INFO, { protocolVersion: 'legacy' });
  await client.connect(peer.transport);
  peer.wire.length = 0;
  return { client, ...peer };
}

const methods = (wire: ReadonlyArray<{ method?: string }>) => wire.map((m) => m.method ?? 'response');

describe('client as task requestor', () => {
  it('callToolAsTask lists unknown tools first, then sends params.task with the ttl', async () => {
    const { client, requests } = await connected((server) => {
      server.setRequestHandler('tools/call', () => ({ task: task('working') }));
    });
    const created = await client.callToolAsTask({ name: 'render', arguments: { scene: 1 } }, { ttl: 5_000 });
    expect(created).toEqual({ task: task('working') });
    expect(requests().map((r) => [r.method, r.params])).toEqual([
      ['tools/list', { _meta: { progressToken: 2 } }],
      // "To create a task, requestors send a request with the task field included in the request params."
      [
        'tools/call',
        { name: 'render', arguments: { scene: 1 }, task: { ttl: 5_000 }, _meta: { progressToken: 3 } },
      ],
    ]);
    // The second call knows the tool already, and without a ttl sends `task: {}`.
    await client.callToolAsTask({ name: 'render' });
    expect(requests('tools/call')[1]?.params).toEqual({
      name: 'render',
      task: {},
      _meta: { progressToken: 4 },
    });
  });

  it('refuses tools whose taskSupport is absent or forbidden, and servers without the capability', async () => {
    const { client, requests } = await connected(() => {});
    for (const name of ['quick', 'never']) {
      // "If execution.taskSupport is not present or "forbidden", clients MUST NOT attempt to invoke the tool as a task."
      await expect(client.callToolAsTask({ name })).rejects.toThrow(/does not support task-augmented calls/);
    }
    await expect(client.callToolAsTask({ name: 'ghost' })).rejects.toThrow(/Unknown tool "ghost"/);
    expect(methods(requests())).toEqual(['tools/list', 'tools/list']);

    const plain = await connected(() => {}, { tools: {} });
    // "If a server's capabilities do not include tasks.requests.tools.call, then clients MUST NOT attempt
    // to use task augmentation on that server's tools"
    const error = await plain.client.callToolAsTask({ name: 'render' }).catch((e: unknown) => e);
    expect(error).toBeInstanceOf(McpError);
    expect((error as McpError).message).toContain('tasks.requests.tools.call');
    expect(plain.wire).toEqual([]);
  });

  it('getTask, listTasks, iterateTasks and cancelTask send exact params', async () => {
    const { client, requests } = await connected((server) => {
      server.setRequestHandler('tasks/get', () => task('working'));
      server.setRequestHandler('tasks/list', (p) =>
        p['cursor'] === undefined
          ? { tasks: [task('working')], nextCursor: 'c1' }
          : { tasks: [task('completed', { taskId: 'task-2' })] },
      );
      server.setRequestHandler('tasks/cancel', () =>
        task('cancelled', { statusMessage: 'The task was cancelled by request.' }),
      );
    });
    expect(await client.getTask('task-1')).toEqual(task('working'));
    expect(await client.listTasks()).toEqual({ tasks: [task('working')], nextCursor: 'c1' });
    const all: string[] = [];
    for await (const t of client.iterateTasks()) all.push(t.taskId);
    expect(all).toEqual(['task-1', 'task-2']);
    expect((await client.cancelTask('task-1')).status).toBe('cancelled');
    expect(requests().map((r) => [r.method, r.params])).toEqual([
      ['tasks/get', { taskId: 'task-1' }],
      ['tasks/list', undefined],
      ['tasks/list', undefined],
      ['tasks/list', { cursor: 'c1' }],
      ['tasks/cancel', { taskId: 'task-1' }],
    ]);
  });

  it('getTaskResult checks structuredContent of the tool that made the task, and passes JSON-RPC errors through', async () => {
    let answer: Record<string, unknown> = {};
    const { client } = await connected((server) => {
      server.setRequestHandler('tools/call', () => ({ task: task('working') }));
      server.setRequestHandler('tasks/result', () => {
        if (answer['fail'] === true) throw new McpError(-31001, 'Quota exhausted', { retryAfter: 30 });
        return answer;
      });
    });
    await client.callToolAsTask({ name: 'measure' });
    answer = {
      content: [text('12 cm')],
      structuredContent: { cm: 12 },
      _meta: { [RELATED]: { taskId: 'task-1' } },
    };
    expect(await client.getTaskResult('task-1')).toEqual(answer);
    answer = { content: [text('12 cm')], structuredContent: { cm: 'twelve' } };
    await expect(client.getTaskResult('task-1')).rejects.toThrow(/does not match its output schema/);
    answer = { fail: true };
    const error = (await client.getTaskResult('task-1').catch((e: unknown) => e)) as McpError;
    // "If the underlying request resulted in a JSON-RPC error, tasks/result MUST return that same JSON-RPC error."
    expect(error.toJSON()).toEqual({ code: -31001, message: 'Quota exhausted', data: { retryAfter: 30 } });
  });

  it('emits taskStatus for notifications/tasks/status', async () => {
    const { client, server } = await connected(() => {});
    const seen: unknown[] = [];
    client.on('taskStatus', (params) => seen.push(params));
    await server.notification({ method: 'notifications/tasks/status', params: task('completed') });
    await afterTimeouts();
    expect(seen).toEqual([task('completed')]);
  });

  it('refuses tasks/* on a revision without tasks', async () => {
    const peer = await fakeServer((server) =>
      legacyHandshake(server, { protocolVersion: '2025-06-18', capabilities: { tools: {} } }),
    );
    const client = new Client(CLIENT_INFO, { protocolVersion: 'legacy' });
    await client.connect(peer.transport);
    await expect(client.getTask('x')).rejects.toMatchObject({ code: ErrorCode.MethodNotFound });
    expect(peer.requests('tasks/get')).toEqual([]);
  });
});

describe('callToolInTask', () => {
  it('polls tasks/get honouring pollInterval until terminal, then returns tasks/result', async () => {
    const states = [
      task('working', { pollInterval: 40 }),
      task('working', { pollInterval: 40 }),
      task('completed'),
    ];
    const times: number[] = [];
    const { client, requests } = await connected((server) => {
      server.setRequestHandler('tools/call', () => ({ task: task('working', { pollInterval: 40 }) }));
      server.setRequestHandler('tasks/get', () => {
        times.push(performance.now());
        return states.shift()!;
      });
      server.setRequestHandler('tasks/result', () => ({
        content: [text('rendered')],
        _meta: { [RELATED]: { taskId: 'task-1' } },
      }));
    });
    const seen: string[] = [];
    const result = await client.callToolInTask({ name: 'render' }, { onstatus: (t) => seen.push(t.status) });
    expect(result.content).toEqual([text('rendered')]);
    expect(seen).toEqual(['working', 'working', 'working', 'completed']);
    expect(methods(requests())).toEqual([
      'tools/list',
      'tools/call',
      'tasks/get',
      'tasks/get',
      'tasks/get',
      'tasks/result',
    ]);
    // "Requestors SHOULD respect the pollInterval provided in responses when determining polling frequency."
    for (let i = 1; i < times.length; i++) expect(times[i]! - times[i - 1]!).toBeGreaterThanOrEqual(35);
  });

  it('on input_required opens tasks/result, answers the elicitation that arrives on it, and resolves', async () => {
    let asked: Record<string, unknown> | undefined;
    const { client, requests } = await connected((server) => {
      server.setRequestHandler('tools/call', () => ({ task: task('working') }));
      server.setRequestHandler('tasks/get', () => task('input_required'));
      server.setRequestHandler('tasks/result', async (_p, ctx) => {
        const answer = await ctx.sendRequest(
          {
            method: 'elicitation/create',
            params: withRelatedTask(
              { mode: 'form', message: 'Size?', requestedSchema: { type: 'object', properties: {} } },
              'task-1',
            ),
          },
          ElicitResultSchema,
        );
        return { content: [text(`answer: ${answer.action}`)], _meta: { [RELATED]: { taskId: 'task-1' } } };
      });
    });
    client.setElicitationHandler(async (params) => {
      asked = params as Record<string, unknown>;
      return { action: 'accept', content: {} };
    });
    const result = await client.callToolInTask({ name: 'render' });
    expect(result.content).toEqual([text('answer: accept')]);
    // "When the requestor encounters the input_required status, it SHOULD preemptively call tasks/result."
    expect(methods(requests())).toEqual(['tools/list', 'tools/call', 'tasks/get', 'tasks/result']);
    expect(asked?.['_meta']).toEqual({ [RELATED]: { taskId: 'task-1' }, progressToken: 1 });
  });

  it('aborting the signal stops polling and cancels the task', async () => {
    const controller = new AbortController();
    const { client, requests } = await connected((server) => {
      server.setRequestHandler('tools/call', () => ({ task: task('working', { pollInterval: 60_000 }) }));
      server.setRequestHandler('tasks/cancel', () => task('cancelled'));
    });
    const pending = client.callToolInTask(
      { name: 'render' },
      { signal: controller.signal, onstatus: () => controller.abort(new Error('user gave up')) },
    );
    await expect(pending).rejects.toThrow('user gave up');
    await expect.poll(() => methods(requests())).toEqual(['tools/list', 'tools/call', 'tasks/cancel']);
    expect(requests('tasks/cancel')[0]?.params).toEqual({ taskId: 'task-1' });
  });
});

describe('progress of a task-augmented call', () => {
  it('reaches onprogress after the CreateTaskResult, is not an unknown token, while a stray token still is', async () => {
    let token: string | number | undefined;
    const { client, server } = await connected((s) => {
      s.setRequestHandler('tools/call', (params) => {
        token = (params['_meta'] as { progressToken?: string | number } | undefined)?.progressToken;
        return { task: task('working') };
      });
    });
    const errors: string[] = [];
    client.onerror = (error) => errors.push(error.message);
    const seen: number[] = [];
    await client.callToolAsTask({ name: 'render' }, { onprogress: ({ progress }) => seen.push(progress) });
    expect(typeof token).toBe('string');
    // "The progressToken provided in the initial request remains valid throughout the task lifetime."
    await server.notification({
      method: 'notifications/progress',
      params: { progressToken: token!, progress: 1 },
    });
    await server.notification({
      method: 'notifications/progress',
      params: { progressToken: 'stray', progress: 1 },
    });
    await afterTimeouts();
    expect(seen).toEqual([1]);
    expect(errors).toEqual(['Received progress for an unknown token: stray']);
  });
});
