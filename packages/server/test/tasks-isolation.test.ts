import { InMemoryTaskStore, type StoredTask, type Task, type TaskStore } from '@x/protocol';
import type { TaskOutcome } from '@x/protocol/internal';
import { describe, expect, it } from 'vitest';
import { createTask, ErrorCode, errorOf, session, taskServer } from './tasks-fixture.js';

// Spec 2025-11-25 basic/utilities/tasks, "Security Considerations" and "TTL and Resource Management".

const auth = (sub: string) => ({
  authInfo: { token: `token-of-${sub}`, clientId: 'app', scopes: [], extra: { sub } },
});

describe('task isolation', () => {
  it('another session can neither see, list, fetch nor cancel my task', async () => {
    const { server, gate } = taskServer();
    const mine = await session(server);
    const other = await session(server);
    const { taskId } = await createTask(mine, 'slow', { arguments: { text: 'secret' } });
    // "receivers MUST reject tasks/get, tasks/result, and tasks/cancel requests for tasks that do not
    // belong to the same authorization context as the requestor" — indistinguishable from a missing task.
    for (const method of ['tasks/get', 'tasks/result', 'tasks/cancel']) {
      expect(await errorOf(other.call(method, { taskId }))).toEqual({
        code: ErrorCode.InvalidParams,
        message: 'Failed to retrieve task: Task not found',
      });
    }
    // "For tasks/list requests, receivers MUST ensure the returned task list includes only tasks associated with the requestor"
    expect(await other.call('tasks/list')).toEqual({ tasks: [] });
    expect(await mine.call('tasks/get', { taskId })).toMatchObject({ status: 'working' });
    expect(other.sent.filter((m) => 'method' in m && m.method === 'notifications/tasks/status')).toEqual([]);
    gate.open();
  });

  it('binds tasks to the authenticated principal, across that principal’s sessions', async () => {
    const { server, gate } = taskServer();
    const first = await session(server, { extra: auth('ada') });
    const second = await session(server, { extra: auth('ada') });
    const stranger = await session(server, { extra: auth('bob') });
    const { taskId } = await createTask(first, 'slow', { arguments: { text: 'x' } });
    // "When an authorization context is provided, receivers MUST bind tasks to said context."
    expect(await second.call('tasks/get', { taskId })).toMatchObject({ taskId, status: 'working' });
    expect(((await second.call('tasks/list')) as { tasks: unknown[] }).tasks).toHaveLength(1);
    expect((await errorOf(stranger.call('tasks/get', { taskId }))).code).toBe(ErrorCode.InvalidParams);
    expect(await stranger.call('tasks/list')).toEqual({ tasks: [] });
    gate.open();
    expect((await second.call('tasks/result', { taskId }))['content']).toEqual([
      { type: 'text', text: 'done: x' },
    ]);
  });

  it('a session-bound task stops when its session ends', async () => {
    const { server, signals } = taskServer();
    const wire = await session(server);
    await createTask(wire, 'slow', { arguments: { text: 'x' } });
    await expect.poll(() => signals.length).toBe(1);
    await wire.client.close();
    await expect.poll(() => signals[0]!.aborted).toBe(true);
  });
});

describe('resource limits', () => {
  it('deletes a task and aborts its work once its ttl has elapsed', async () => {
    const store = new InMemoryTaskStore();
    const { server, signals } = taskServer({ store });
    const wire = await session(server);
    const { taskId, task } = await createTask(wire, 'slow', { arguments: { text: 'x' }, task: { ttl: 40 } });
    expect(task['ttl']).toBe(40);
    // "After a task's ttl lifetime has elapsed, receivers MAY delete the task and its results, regardless of the task status."
    await expect
      .poll(
        () =>
          wire.call('tasks/get', { taskId }).then(
            () => 'still there',
            (e: Error) => e.message,
          ),
        {
          interval: 20,
        },
      )
      .toBe('Failed to retrieve task: Task not found');
    expect(await errorOf(wire.call('tasks/get', { taskId }))).toEqual({
      code: ErrorCode.InvalidParams,
      message: 'Failed to retrieve task: Task not found',
    });
    expect(signals[0]!.aborted).toBe(true);
    expect(await wire.call('tasks/list')).toEqual({ tasks: [] });
    // "Clean up expired tasks promptly to free resources": nothing is left behind in the store.
    expect(store.size).toBe(0);
  });

  it('keeps tasks in a pluggable TaskStore', async () => {
    const calls: string[] = [];
    // Any TaskStore plugs in; this one records what the receiver asks of it.
    class RecordingStore extends InMemoryTaskStore implements TaskStore {
      override create(record: StoredTask): Promise<void> {
        calls.push(`create ${record.task.status}`);
        return super.create(record);
      }
      override update(taskId: string, task: Task): Promise<boolean> {
        calls.push(`update ${task.status}`);
        return super.update(taskId, task);
      }
      override setOutcome(taskId: string, outcome: TaskOutcome): Promise<void> {
        calls.push(`outcome ${'result' in outcome ? 'result' : 'error'}`);
        return super.setOutcome(taskId, outcome);
      }
    }
    const store = new RecordingStore();
    const { server, gate } = taskServer({ store });
    const wire = await session(server);
    const { taskId } = await createTask(wire, 'slow', { arguments: { text: 'x' } });
    gate.open();
    await wire.call('tasks/result', { taskId });
    expect(calls).toEqual(['create working', 'outcome result', 'update completed']);
    const stored = await store.get(taskId);
    expect(stored).toMatchObject({ owner: expect.stringMatching(/^session:/), method: 'tools/call' });
  });

  it('caps concurrent tasks per requestor with a clear error, and frees the slot on completion', async () => {
    const { server, gate } = taskServer({ maxTasksPerOwner: 2 });
    const wire = await session(server);
    const other = await session(server);
    await createTask(wire, 'slow', { arguments: { text: '1' } });
    await createTask(wire, 'slow', { arguments: { text: '2' } });
    // "Receivers SHOULD: Enforce limits on concurrent tasks per requestor"
    const refused = await errorOf(
      wire.call('tools/call', { name: 'slow', arguments: { text: '3' }, task: {} }),
    );
    expect(refused).toEqual({
      code: ErrorCode.InvalidRequest,
      message: 'Too many concurrent tasks: at most 2 may run at once per requestor',
      data: { maxTasksPerOwner: 2 },
    });
    // The cap is per requestor: another session still may.
    await createTask(other, 'slow', { arguments: { text: 'other' } });
    gate.open();
    const { tasks } = (await wire.call('tasks/list')) as { tasks: Array<{ taskId: string }> };
    for (const { taskId } of tasks) await wire.call('tasks/result', { taskId });
    await createTask(wire, 'slow', { arguments: { text: 'again' } });
  });
});
