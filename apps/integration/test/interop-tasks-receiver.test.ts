import { type ResponseMessage, toArrayAsync } from '@modelcontextprotocol/sdk/experimental/tasks';
import {
  CreateMessageResultSchema,
  ElicitResultSchema,
  McpError as V1McpError,
} from '@modelcontextprotocol/sdk/types.js';
import { McpError } from '@x/protocol';
import { afterEach, describe, expect, it } from 'vitest';
import { Resources } from './fixtures/e2e-helpers.js';
import {
  deferred,
  FORM,
  RELATED,
  requestorSession,
  SAMPLE,
  SAMPLED,
  TTL,
} from './fixtures/v1-task-requestor.js';

// Experimental tasks (spec 2025-11-25 basic/utilities/tasks) with the roles of interop-tasks.test.ts
// swapped: the official v1 server is the requestor of task-augmented `sampling/createMessage` and
// `elicitation/create` (its `server.experimental.tasks` streams), our Client the receiver (option `tasks`),
// over real Streamable HTTP.

const resources = new Resources();
afterEach(() => resources.closeAll());

const statuses = (messages: ReadonlyArray<ResponseMessage<never>>) =>
  messages.flatMap((m) => (m.type === 'taskStatus' ? [m.task.status] : []));

describe('official v1 server (requestor) → x-mcp client (receiver)', () => {
  it('sampling: createMessageStream gets CreateTaskResult, polls tasks/get and reads the result with tasks/result', async () => {
    const seen: unknown[] = [];
    const reply = deferred<void>();
    const session = await requestorSession({
      resources,
      configure: (client) =>
        client.setSamplingHandler(async (params) => {
          seen.push(params);
          await reply.promise;
          return SAMPLED;
        }),
      client: { tasks: { pollIntervalMs: 10 } },
    });
    const stream = session.server.experimental.tasks.createMessageStream(SAMPLE, {
      task: { ttl: TTL },
      relatedRequestId: session.relatedRequestId,
    });
    const yielded: Array<ResponseMessage<never>> = [];
    for await (const message of stream) {
      yielded.push(message as ResponseMessage<never>);
      // The handler answers once the requestor has seen the task working.
      if (message.type === 'taskStatus') reply.resolve();
    }

    // "Receivers that accept a task-augmented request MUST return a CreateTaskResult as the response."
    const [created] = session.answers('sampling/createMessage');
    const task = created?.result?.['task'] as Record<string, unknown>;
    // "Tasks MUST begin in the `working` status when created."
    expect(task).toEqual({
      taskId: expect.any(String),
      status: 'working',
      ttl: TTL,
      pollInterval: 10,
      createdAt: expect.any(String),
      lastUpdatedAt: expect.any(String),
    });
    const taskId = task['taskId'] as string;
    // The handler ran the plain request.
    expect(seen).toEqual([SAMPLE]);

    // "Receivers MUST include the actual `ttl` duration ... in `tasks/get` responses", and "receivers SHOULD
    // NOT include `io.modelcontextprotocol/related-task` metadata in the result messages".
    const polled = session.answers('tasks/get').map((m) => m.result);
    expect(polled.length).toBeGreaterThanOrEqual(2);
    for (const state of polled) expect(state).toMatchObject({ taskId, ttl: TTL, pollInterval: 10 });
    for (const state of polled) expect(state).not.toHaveProperty('_meta');
    expect(polled.map((s) => s?.['status']).join(' ')).toMatch(/^(working )+completed$/);

    // "The `tasks/result` operation MUST include this metadata in its response".
    const final = { ...SAMPLED, _meta: { [RELATED]: { taskId } } };
    expect(session.answers('tasks/result').map((m) => m.result)).toEqual([final]);
    // What the official stream yielded: the creation, every polled state, then our handler's result.
    expect(yielded[0]).toEqual({ type: 'taskCreated', task });
    expect(statuses(yielded)).toEqual(polled.map((s) => s?.['status']));
    expect(yielded.at(-1)).toEqual({ type: 'result', result: final });

    // "When sent, the `notifications/tasks/status` notification SHOULD NOT include the related-task metadata".
    const notified = session.sent.filter((m) => m.method === 'notifications/tasks/status');
    expect(notified.map((m) => m['params'])).toEqual([
      expect.objectContaining({ taskId, status: 'completed' }),
    ]);
    expect(notified[0]?.['params']).not.toHaveProperty('_meta');
  });

  it('elicitation: elicitInputStream reaches our handler as a plain form request; the task is listed', async () => {
    const asked: unknown[] = [];
    const session = await requestorSession({
      resources,
      configure: (client) =>
        client.setElicitationHandler(async (params) => {
          asked.push(params);
          return { action: 'accept', content: { seat: '7C' } };
        }),
      client: { tasks: { pollIntervalMs: 10 } },
    });
    const yielded = await toArrayAsync(
      session.server.experimental.tasks.elicitInputStream(FORM, {
        task: { ttl: TTL },
        relatedRequestId: session.relatedRequestId,
      }),
    );
    // v1 fills in the default `mode: 'form'`; the `task` field is not the handler's business.
    expect(asked).toEqual([{ ...FORM, mode: 'form' }]);
    const created = session.answers('elicitation/create')[0]?.result;
    const taskId = (created?.['task'] as { taskId: string } | undefined)?.taskId;
    expect(created).toEqual({
      task: expect.objectContaining({ taskId, status: 'working', ttl: TTL }),
    });
    const final = { action: 'accept', content: { seat: '7C' }, _meta: { [RELATED]: { taskId } } };
    expect(session.answers('tasks/result').map((m) => m.result)).toEqual([final]);
    expect(yielded[0]).toMatchObject({ type: 'taskCreated', task: { taskId } });
    expect(statuses(yielded as Array<ResponseMessage<never>>).at(-1)).toBe('completed');
    expect(yielded.at(-1)).toEqual({ type: 'result', result: final });

    // "If a task is retrievable via `tasks/get` for a requestor, it MUST be retrievable via `tasks/list`".
    const listed = await session.server.experimental.tasks.listTasks(undefined, {
      relatedRequestId: session.relatedRequestId,
    });
    expect(listed.tasks).toEqual([expect.objectContaining({ taskId, status: 'completed' })]);
  });

  it('cancellation: tasks/cancel aborts our handler, the task ends cancelled and stays so', async () => {
    const running = deferred<void>();
    let signal: AbortSignal | undefined;
    const session = await requestorSession({
      resources,
      configure: (client) =>
        client.setSamplingHandler(async (_params, ctx) => {
          signal = ctx.signal;
          running.resolve();
          // Never answers on its own: only the cancellation ends it.
          await new Promise((_resolve, reject) =>
            ctx.signal.addEventListener('abort', reject, { once: true }),
          );
          return SAMPLED;
        }),
      client: { tasks: { pollIntervalMs: 10 } },
    });
    const on = { relatedRequestId: session.relatedRequestId };
    const stream = session.server.experimental.tasks.createMessageStream(SAMPLE, {
      task: { ttl: TTL },
      ...on,
    });
    const created = await stream.next();
    expect(created.value).toMatchObject({ type: 'taskCreated', task: { status: 'working' } });
    const { taskId } = (created.value as { task: { taskId: string } }).task;
    await running.promise;

    // "Upon receiving a valid cancellation request, receivers SHOULD attempt to stop the task execution and
    // MUST transition the task to `cancelled` status before sending the response."
    const cancelled = await session.server.experimental.tasks.cancelTask(taskId, on);
    expect(cancelled).toMatchObject({ taskId, status: 'cancelled', ttl: TTL });
    expect(signal?.aborted).toBe(true);
    expect(session.answers('tasks/cancel').map((m) => m.result)).toEqual([cancelled]);

    // The official stream sees the terminal status on its next poll and ends with an error.
    const rest: unknown[] = [];
    for await (const message of stream) rest.push(message);
    expect(rest).toEqual([
      { type: 'taskStatus', task: expect.objectContaining({ taskId, status: 'cancelled' }) },
      {
        type: 'error',
        error: expect.objectContaining({ message: expect.stringContaining('was cancelled') }),
      },
    ]);
    // "Once a task is cancelled, it MUST remain in `cancelled` status even if execution continues".
    expect(await session.server.experimental.tasks.getTask(taskId, on)).toMatchObject({
      status: 'cancelled',
    });
    // "Receivers MUST reject cancellation requests for tasks already in a terminal status ... with error code
    // `-32602` (Invalid params)."
    const again = await session.server.experimental.tasks.cancelTask(taskId, on).catch((e: unknown) => e);
    expect(again).toBeInstanceOf(V1McpError);
    expect((again as V1McpError).code).toBe(-32602);
    // tasks/result of the cancelled task: the JSON-RPC error the receiver recorded for it.
    const result = await session.server.experimental.tasks
      .getTaskResult(taskId, CreateMessageResultSchema, on)
      .catch((e: unknown) => e);
    expect(result).toMatchObject({ code: -32600, message: expect.stringContaining('was cancelled') });
  });

  it('a failing handler: the task fails with its message, tasks/result returns its JSON-RPC error', async () => {
    const session = await requestorSession({
      resources,
      configure: (client) =>
        client.setSamplingHandler(async () => {
          throw new McpError(-1, 'User rejected sampling request');
        }),
      client: { tasks: { pollIntervalMs: 10 } },
    });
    const on = { relatedRequestId: session.relatedRequestId };
    const yielded = await toArrayAsync(
      session.server.experimental.tasks.createMessageStream(SAMPLE, { task: { ttl: TTL }, ...on }),
    );
    const taskId = (yielded[0] as { task: { taskId: string } }).task.taskId;
    // "The `tasks/get` response SHOULD include a `statusMessage` field with diagnostic information about the failure."
    expect(session.answers('tasks/get').at(-1)?.result).toMatchObject({
      taskId,
      status: 'failed',
      statusMessage: 'User rejected sampling request',
    });
    expect(yielded.at(-1)).toMatchObject({ type: 'error' });
    // "If the underlying request resulted in a JSON-RPC error, `tasks/result` MUST return that same JSON-RPC error."
    const result = await session.server.experimental.tasks
      .getTaskResult(taskId, CreateMessageResultSchema, on)
      .catch((e: unknown) => e);
    expect(result).toBeInstanceOf(V1McpError);
    expect(result).toMatchObject({
      code: -1,
      message: expect.stringContaining('User rejected sampling request'),
    });
  });

  // Official SDK quirk: for a `failed` task `requestStream` yields a made-up `-32603 "Task … failed"` and never
  // calls `tasks/result`, so the stream's consumer cannot learn the receiver's JSON-RPC error (the test above
  // fetches it by hand). Fails while v1 discards it.
  it.fails('v1 quirk: createMessageStream does not surface the JSON-RPC error of a failed task', async () => {
    const session = await requestorSession({
      resources,
      configure: (client) =>
        client.setSamplingHandler(async () => {
          throw new McpError(-1, 'User rejected sampling request');
        }),
      client: { tasks: { pollIntervalMs: 10 } },
    });
    const yielded = await toArrayAsync(
      session.server.experimental.tasks.createMessageStream(SAMPLE, {
        task: { ttl: TTL },
        relatedRequestId: session.relatedRequestId,
      }),
    );
    expect(yielded.at(-1)).toMatchObject({ type: 'error', error: { code: -1 } });
  });

  // Official SDK quirk: `requestStream` hands its own options (with `task`) to `getTask` and `getTaskResult`,
  // so its `tasks/get` and `tasks/result` requests ask for a task of their own: `params.task` = `{ ttl }`
  // ("To create a task, requestors send a request with the `task` field included in the request params").
  // Harmless with us (tasks/* is no task-augmentable type, so the field is ignored: the sampling test above
  // gets its answers); fails while v1 sends it.
  it.fails('v1 quirk: tasks/get and tasks/result carry the task field of the original request', async () => {
    const session = await requestorSession({
      resources,
      configure: (client) => client.setSamplingHandler(async () => SAMPLED),
      client: {
        tasks: { pollIntervalMs: 10 },
      },
    });
    await toArrayAsync(
      session.server.experimental.tasks.createMessageStream(SAMPLE, {
        task: { ttl: TTL },
        relatedRequestId: session.relatedRequestId,
      }),
    );
    const polls = session.received.filter((m) => m.method === 'tasks/get' || m.method === 'tasks/result');
    expect(polls.length).toBeGreaterThanOrEqual(2);
    for (const poll of polls) expect(poll['params']).not.toHaveProperty('task');
  });

  it('a task-augmented elicitation in a mode we did not declare is refused with -32602, no task created', async () => {
    const session = await requestorSession({
      resources,
      configure: (client) => client.setElicitationHandler(async () => ({ action: 'decline' })),
      client: { tasks: {} },
    });
    const on = { relatedRequestId: session.relatedRequestId };
    // `elicitInputStream` checks the mode itself; the raw `requestStream` shows what our client does.
    const yielded = await toArrayAsync(
      session.server.experimental.tasks.requestStream(
        {
          method: 'elicitation/create',
          params: { mode: 'url', message: 'Sign in', url: 'https://example.com/login', elicitationId: 'e1' },
        },
        ElicitResultSchema,
        { task: { ttl: TTL }, ...on },
      ),
    );
    // "Servers MUST NOT send elicitation requests with modes that are not supported by the client" (client/
    // elicitation): a protocol error, answered on the request, not a failed task.
    expect(yielded).toEqual([
      {
        type: 'error',
        error: expect.objectContaining({ code: -32602, message: expect.stringContaining('"url"') }),
      },
    ]);
    expect((await session.server.experimental.tasks.listTasks(undefined, on)).tasks).toEqual([]);
  });
});
