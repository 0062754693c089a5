import { describe, expect, it } from 'vitest';
import { connect, modernMeta } from './helpers.js';
import {
  createTask,
  ErrorCode,
  errorOf,
  RELATED,
  responseFor,
  send,
  session,
  statuses,
  taskServer,
} from './tasks-fixture.js';
import { afterTimeouts } from '@x/test-kit';

// Spec 2025-11-25 basic/utilities/tasks, server as the receiver of task-augmented tools/call.

const ISO_8601 = /^\d{4}-\d{2}-\d{2}T\d{2}:\d{2}:\d{2}(\.\d+)?Z$/;
const UUID = /^[0-9a-f]{8}-[0-9a-f]{4}-4[0-9a-f]{3}-[89ab][0-9a-f]{3}-[0-9a-f]{12}$/;

describe('tasks capability', () => {
  it('declares tasks (list, cancel, requests.tools.call) on 2025-11-25 only', async () => {
    // "Servers and clients that support task-augmented requests MUST declare a tasks capability during initialization."
    const { server } = taskServer();
    const current = await session(server);
    expect((current.init['capabilities'] as Record<string, unknown>)['tasks']).toEqual({
      list: {},
      cancel: {},
      requests: { tools: { call: {} } },
    });
    for (const protocolVersion of ['2025-06-18', '2025-03-26', '2024-11-05']) {
      const older = await session(server, { protocolVersion });
      expect(older.init['protocolVersion']).toBe(protocolVersion);
      expect(older.init['capabilities']).not.toHaveProperty('tasks');
    }
    const modern = await session(server);
    const discovered = await modern.call('server/discover', { _meta: modernMeta() });
    expect(discovered['capabilities']).not.toHaveProperty('tasks');
  });

  it('leaves out tasks.list when listing is disabled, and tasks/list is then -32601', async () => {
    const wire = await session(taskServer({ list: false }).server);
    expect((wire.init['capabilities'] as Record<string, unknown>)['tasks']).toEqual({
      cancel: {},
      requests: { tools: { call: {} } },
    });
    expect((await errorOf(wire.call('tasks/list'))).code).toBe(ErrorCode.MethodNotFound);
  });

  it('a server without the tasks option declares nothing and ignores the task field', async () => {
    const { server } = taskServer(false);
    const wire = await session(server);
    expect(wire.init['capabilities']).not.toHaveProperty('tasks');
    // "Receivers that do not declare the task capability for a request type MUST process requests of
    // that type normally, ignoring any task-augmentation metadata if present."
    const result = await wire.call('tools/call', { name: 'must', arguments: {}, task: { ttl: 1_000 } });
    expect(result).toEqual({ content: [{ type: 'text', text: 'required ran' }] });
    expect((await errorOf(wire.call('tasks/get', { taskId: 'x' }))).code).toBe(ErrorCode.MethodNotFound);
  });

  it('an older revision ignores the task field even with tasks enabled', async () => {
    const wire = await session(taskServer().server, { protocolVersion: '2025-06-18' });
    const result = await wire.call('tools/call', { name: 'never', arguments: {}, task: {} });
    expect(result).toEqual({ content: [{ type: 'text', text: 'never ran' }] });
    expect((await errorOf(wire.call('tasks/list'))).code).toBe(ErrorCode.MethodNotFound);
  });

  it('2026-07-28 requests ignore the task field (tasks are an extension there) and have no tasks/list', async () => {
    const wire = await connect(taskServer().server);
    // "The task parameter on CallToolRequest is removed; servers MUST ignore it" (SEP-2663).
    const result = await wire.call('tools/call', {
      name: 'broken',
      arguments: {},
      task: {},
      _meta: modernMeta(),
    });
    expect(result).toMatchObject({ resultType: 'complete', isError: true });
    expect(result).not.toHaveProperty('task');
    expect(result).not.toHaveProperty('taskId');
    // A required-task tool without the extension: -32021 naming it (SEP-2663 "Capability Negotiation").
    const required = await errorOf(wire.call('tools/call', { name: 'must', task: {}, _meta: modernMeta() }));
    expect(required.code).toBe(ErrorCode.MissingRequiredClientCapability);
    const error = await errorOf(wire.call('tasks/list', { _meta: modernMeta() }));
    expect(error.code).toBe(ErrorCode.MethodNotFound);
  });

  it('publishes execution.taskSupport in tools/list verbatim', async () => {
    const wire = await session(taskServer().server);
    const { tools } = (await wire.call('tools/list')) as { tools: Array<Record<string, unknown>> };
    const execution = Object.fromEntries(tools.map((t) => [t['name'], t['execution']]));
    expect(execution).toEqual({
      slow: { taskSupport: 'optional' },
      must: { taskSupport: 'required' },
      never: { taskSupport: 'forbidden' },
      plain: undefined,
      broken: { taskSupport: 'optional' },
      quota: { taskSupport: 'optional' },
      ask: { taskSupport: 'optional' },
      askTwice: { taskSupport: 'optional' },
    });
  });
});

describe('tool-level negotiation', () => {
  it('forbidden and absent taskSupport refuse a task with -32601; required refuses a plain call with -32601', async () => {
    const wire = await session(taskServer().server);
    // "If execution.taskSupport is not present or "forbidden" … Servers SHOULD return a -32601 (Method not found) error"
    for (const name of ['never', 'plain']) {
      const error = await errorOf(wire.call('tools/call', { name, arguments: {}, task: {} }));
      expect(error.code).toBe(ErrorCode.MethodNotFound);
      expect(error.message).toContain(name);
    }
    // "If execution.taskSupport is "required" … Servers MUST return a -32601 (Method not found) error if a client does not attempt to do so."
    const required = send(wire, 'tools/call', { name: 'must', arguments: {} });
    const error = await errorOf(required.result);
    expect(error.code).toBe(ErrorCode.MethodNotFound);
    expect(responseFor(wire, required.id())).toMatchObject({ error: { code: -32601 } });
    expect(await wire.call('tools/call', { name: 'plain', arguments: {} })).toEqual({
      content: [{ type: 'text', text: 'plain ran' }],
    });
  });

  it('an optional tool also runs as a plain call; an unknown tool with a task is -32602', async () => {
    const fixture = taskServer();
    fixture.gate.open();
    const wire = await session(fixture.server);
    expect(await wire.call('tools/call', { name: 'slow', arguments: { text: 'now' } })).toEqual({
      content: [{ type: 'text', text: 'done: now' }],
    });
    const error = await errorOf(wire.call('tools/call', { name: 'nope', arguments: {}, task: {} }));
    expect(error.code).toBe(ErrorCode.InvalidParams);
  });
});

describe('task lifecycle', () => {
  it('creates, polls, lists and completes a task; tasks/result carries related-task meta', async () => {
    const { server, gate } = taskServer({ pollIntervalMs: 250 });
    const wire = await session(server);
    const { taskId, task, id } = await createTask(wire, 'slow', { arguments: { text: 'a' } });
    // "When a receiver accepts a task-augmented request, it returns a CreateTaskResult containing task data."
    expect(responseFor(wire, id)).toEqual({ jsonrpc: '2.0', id, result: { task } });
    expect(task).toEqual({
      taskId: expect.stringMatching(UUID),
      status: 'working',
      createdAt: expect.stringMatching(ISO_8601),
      lastUpdatedAt: expect.stringMatching(ISO_8601),
      ttl: 60_000,
      pollInterval: 250,
    });
    expect(await wire.call('tasks/get', { taskId })).toEqual(task);
    expect(await wire.call('tasks/list')).toEqual({ tasks: [task] });

    gate.open();
    const result = await wire.call('tasks/result', { taskId });
    // "The tasks/result operation MUST include this metadata in its response"
    expect(result).toEqual({
      content: [{ type: 'text', text: 'done: a' }],
      _meta: { [RELATED]: { taskId } },
    });
    const done = await wire.call('tasks/get', { taskId });
    expect(done).toMatchObject({ taskId, status: 'completed', createdAt: task['createdAt'], ttl: 60_000 });
    // "For the tasks/get, tasks/list, and tasks/cancel operations, receivers SHOULD NOT include related-task metadata"
    expect(done).not.toHaveProperty('_meta');
    await afterTimeouts(5);
    expect(statuses(wire, taskId)).toEqual(['completed']);
    const notification = wire.notifications('notifications/tasks/status')[0]!;
    // "the notifications/tasks/status notification SHOULD NOT include the related-task metadata"
    expect(notification).toEqual(done);
    // tasks/result may be asked again: the same result.
    expect(await wire.call('tasks/result', { taskId })).toEqual(result);
  });

  it('tasks/result blocks until the task is terminal', async () => {
    const { server, gate } = taskServer();
    const wire = await session(server);
    const { taskId } = await createTask(wire, 'slow', { arguments: { text: 'b' } });
    let settled = false;
    const pending = send(wire, 'tasks/result', { taskId });
    void pending.result.then(() => {
      settled = true;
    });
    await afterTimeouts(5);
    // "it MUST block the response until the task reaches a terminal status"
    expect(settled).toBe(false);
    expect(responseFor(wire, pending.id())).toBeUndefined();
    gate.open();
    expect((await pending.result)['content']).toEqual([{ type: 'text', text: 'done: b' }]);
  });

  it('caps the requested ttl and applies the default ttl', async () => {
    const fixture = taskServer({ maxTtlMs: 5_000, defaultTtlMs: 2_000 });
    const wire = await session(fixture.server);
    // "Receivers MAY override the requested ttl duration." / "MUST include the actual ttl"
    const capped = await createTask(wire, 'slow', { arguments: { text: 'c' }, task: { ttl: 10_000_000 } });
    expect(capped.task['ttl']).toBe(5_000);
    const defaulted = await createTask(wire, 'slow', { arguments: { text: 'd' }, task: {} });
    expect(defaulted.task['ttl']).toBe(2_000);
    fixture.gate.open();
  });

  it('a result with isError makes the task failed, and tasks/result returns that result', async () => {
    const wire = await session(taskServer().server);
    const { taskId } = await createTask(wire, 'broken');
    const result = await wire.call('tasks/result', { taskId });
    expect(result).toEqual({
      content: [{ type: 'text', text: 'API rate limit exceeded' }],
      isError: true,
      _meta: { [RELATED]: { taskId } },
    });
    // "For tasks that wrap tool call requests, when the tool result has isError set to true, the task should reach failed status."
    expect(await wire.call('tasks/get', { taskId })).toMatchObject({
      status: 'failed',
      statusMessage: 'API rate limit exceeded',
    });
  });

  it('a JSON-RPC error of the handler fails the task and tasks/result returns the same error', async () => {
    const wire = await session(taskServer().server);
    const { taskId } = await createTask(wire, 'quota');
    const call = send(wire, 'tasks/result', { taskId });
    // "If the underlying request resulted in a JSON-RPC error, tasks/result MUST return that same JSON-RPC error."
    expect(await errorOf(call.result)).toEqual({
      code: -31001,
      message: 'Quota exhausted',
      data: { retryAfter: 30 },
    });
    expect(responseFor(wire, call.id())).toEqual({
      jsonrpc: '2.0',
      id: call.id(),
      error: { code: -31001, message: 'Quota exhausted', data: { retryAfter: 30 } },
    });
    expect(await wire.call('tasks/get', { taskId })).toMatchObject({
      status: 'failed',
      statusMessage: 'Quota exhausted',
    });
  });

  it('keeps the original progressToken valid during the task, with related-task meta', async () => {
    const { server, gate } = taskServer();
    const wire = await session(server);
    const { taskId } = await createTask(wire, 'slow', {
      arguments: { text: 'p' },
      _meta: { progressToken: 'tok-1' },
    });
    gate.open();
    await wire.call('tasks/result', { taskId });
    // "The progressToken provided in the initial request remains valid throughout the task lifetime."
    expect(wire.notifications('notifications/progress')).toEqual([
      { progressToken: 'tok-1', progress: 1, total: 2, message: 'started', _meta: { [RELATED]: { taskId } } },
      { progressToken: 'tok-1', progress: 2, total: 2, _meta: { [RELATED]: { taskId } } },
    ]);
  });
});

describe('tasks/cancel', () => {
  it('aborts the handler, is cancelled before the response, and stays cancelled', async () => {
    const { server, gate, signals } = taskServer();
    const wire = await session(server);
    const { taskId } = await createTask(wire, 'slow', { arguments: { text: 'x' } });
    await expect.poll(() => signals.length).toBe(1);
    const cancel = send(wire, 'tasks/cancel', { taskId });
    const cancelled = await cancel.result;
    // "receivers … MUST transition the task to cancelled status before sending the response"
    expect(cancelled).toMatchObject({
      taskId,
      status: 'cancelled',
      statusMessage: 'The task was cancelled by request.',
    });
    expect(signals[0]!.aborted).toBe(true);
    // The handler ignores its signal and finishes anyway:
    // "Once a task is cancelled, it MUST remain in cancelled status even if execution continues to completion"
    gate.open();
    await afterTimeouts(5);
    expect(await wire.call('tasks/get', { taskId })).toMatchObject({ status: 'cancelled' });
    expect(statuses(wire, taskId)).toEqual(['cancelled']);
    const result = await errorOf(wire.call('tasks/result', { taskId }));
    expect(result.message).toContain('cancelled');
  });

  it('refuses to cancel a terminal task with -32602', async () => {
    const { server, gate } = taskServer();
    gate.open();
    const wire = await session(server);
    const { taskId } = await createTask(wire, 'slow', { arguments: { text: 'y' } });
    await wire.call('tasks/result', { taskId });
    // "Receivers MUST reject cancellation requests for tasks already in a terminal status … with error code -32602"
    expect(await errorOf(wire.call('tasks/cancel', { taskId }))).toEqual({
      code: ErrorCode.InvalidParams,
      message: "Cannot cancel task: already in terminal status 'completed'",
    });
  });
});

describe('protocol errors', () => {
  it('an unknown taskId is -32602 for get, result and cancel; a bad cursor is -32602', async () => {
    const wire = await session(taskServer().server);
    for (const method of ['tasks/get', 'tasks/result', 'tasks/cancel']) {
      // "Invalid or nonexistent taskId in tasks/get, tasks/result, or tasks/cancel: -32602 (Invalid params)"
      expect(await errorOf(wire.call(method, { taskId: 'no-such-task' }))).toEqual({
        code: ErrorCode.InvalidParams,
        message: 'Failed to retrieve task: Task not found',
      });
    }
    // "Invalid or nonexistent cursor in tasks/list: -32602 (Invalid params)"
    expect((await errorOf(wire.call('tasks/list', { cursor: 'forged' }))).code).toBe(ErrorCode.InvalidParams);
  });

  it('paginates tasks/list with opaque cursors', async () => {
    const fixture = taskServer({ pageSize: 2 });
    const wire = await session(fixture.server);
    const ids: string[] = [];
    for (let i = 0; i < 3; i++)
      ids.push((await createTask(wire, 'slow', { arguments: { text: `${i}` } })).taskId);
    const first = (await wire.call('tasks/list')) as {
      tasks: Array<{ taskId: string }>;
      nextCursor?: string;
    };
    expect(first.tasks.map((t) => t.taskId)).toEqual(ids.slice(0, 2));
    // "Receivers MUST include a nextCursor in the response if more tasks are available."
    expect(first.nextCursor).toEqual(expect.any(String));
    const second = (await wire.call('tasks/list', { cursor: first.nextCursor })) as typeof first;
    expect(second.tasks.map((t) => t.taskId)).toEqual(ids.slice(2));
    expect(second).not.toHaveProperty('nextCursor');
    fixture.gate.open();
  });
});
