import { describe, expect, it } from 'vitest';
import { ErrorCode, McpError, type TaskRequest } from '@x/protocol';
import { TaskReceiver } from '@x/protocol/internal';
import { afterTimeouts } from '@x/test-kit';

// Spec 2025-11-25 basic/utilities/tasks, "Resource Management": receivers SHOULD enforce limits and
// clean up promptly; "Receivers are not required to retain tasks indefinitely."

const request: TaskRequest = { requestId: 1, signal: new AbortController().signal };

async function finished(receiver: TaskReceiver, owner = 'a'): Promise<string> {
  const { task } = await receiver.start({ owner, method: 'tools/call' }, async () => ({ content: [] }));
  await receiver.result(owner, task.taskId, request);
  return task.taskId;
}

function hanging(receiver: TaskReceiver, owner = 'a') {
  return receiver.start({ owner, method: 'tools/call' }, () => new Promise(() => {}));
}

async function codeOf(promise: Promise<unknown>): Promise<number | undefined> {
  const error = await promise.then(
    () => undefined,
    (e: unknown) => e,
  );
  return error instanceof McpError ? error.code : undefined;
}

describe('TaskReceiver: how many tasks it holds', () => {
  it('at maxTasks, a new task evicts the oldest finished one', async () => {
    const receiver = new TaskReceiver({ maxTasks: 2 });
    const first = await finished(receiver);
    const second = await finished(receiver);
    const third = await finished(receiver);
    expect(await codeOf(receiver.get('a', first))).toBe(ErrorCode.InvalidParams); // evicted: not found
    expect((await receiver.get('a', second)).status).toBe('completed');
    expect((await receiver.get('a', third)).status).toBe('completed');
    receiver.close();
  });

  it('refuses a new task with -32600 when every held task is still running', async () => {
    const receiver = new TaskReceiver({ maxTasks: 2, maxTasksPerOwner: 10 });
    await hanging(receiver, 'a');
    await hanging(receiver, 'b');
    const error = await hanging(receiver, 'c').catch((e: unknown) => e);
    expect(error).toBeInstanceOf(McpError);
    expect((error as McpError).code).toBe(ErrorCode.InvalidRequest);
    expect((error as McpError).data).toEqual({ maxTasks: 2 });
    receiver.close();
  });

  it('dropOwner forgets the finished tasks of that owner too, and leaves the others alone', async () => {
    const receiver = new TaskReceiver();
    const done = await finished(receiver, 'session-1');
    const other = await finished(receiver, 'session-2');
    const { task: running } = await hanging(receiver, 'session-1');
    receiver.dropOwner('session-1', new McpError(ErrorCode.ConnectionClosed, 'gone'));
    await afterTimeouts();
    expect(await codeOf(receiver.get('session-1', done))).toBe(ErrorCode.InvalidParams);
    expect(await codeOf(receiver.get('session-1', running.taskId))).toBe(ErrorCode.InvalidParams);
    expect((await receiver.get('session-2', other)).status).toBe('completed');
    receiver.close();
  });
});
