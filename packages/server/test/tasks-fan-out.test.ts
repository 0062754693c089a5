import { InMemorySubscriptionFanOut, InMemoryTaskStore, TASKS_EXTENSION } from '@x/protocol';
import { waitFor } from '@x/test-kit';
import { describe, expect, it } from 'vitest';
import { connect, modernMeta } from './helpers.js';
import { taskServer } from './tasks-fixture.js';

// Two servers sharing a TaskStore and a SubscriptionFanOut stand for two processes of one endpoint
// (packages/redis/test/cluster.test.ts does the same with real processes on Redis).
const meta = (): Record<string, unknown> =>
  modernMeta({ extensions: { [TASKS_EXTENSION]: {} }, elicitation: {} });

function pair() {
  const store = new InMemoryTaskStore();
  const fanOut = new InMemorySubscriptionFanOut();
  return {
    store,
    a: taskServer({ store }, { fanOut }),
    b: taskServer({ store }, { fanOut }),
    /** One more process of the endpoint, started when the test wants. */
    later: () => taskServer({ store }, { fanOut }),
  };
}

async function inputKeys(wire: Awaited<ReturnType<typeof connect>>, taskId: string): Promise<string[]> {
  const task = await wire.call('tasks/get', { taskId, _meta: meta() });
  return Object.keys((task['inputRequests'] as object | undefined) ?? {}).sort();
}

describe('tasks across servers sharing a store and a fan-out', () => {
  it('2026-07-28: tasks/cancel on b stops the work running on a at once', async () => {
    const { a, b } = pair();
    const onA = await connect(a.server);
    const onB = await connect(b.server);
    const created = await onA.call('tools/call', { name: 'slow', arguments: { text: 'x' }, _meta: meta() });
    const taskId = created['taskId'] as string;
    await waitFor(() => a.signals.length === 1);
    await onB.call('tasks/cancel', { taskId, _meta: meta() });
    // No tasks/get reaches a and the tool writes no status: only the fan-out can tell it.
    await waitFor(() => a.signals[0]?.aborted === true, { timeoutMs: 5_000, what: 'the work on a to stop' });
    expect((await onB.call('tasks/get', { taskId, _meta: meta() }))['status']).toBe('cancelled');
  });

  it('2026-07-28: tasks/get on b shows the input request of a task on a; tasks/update on b answers it', async () => {
    const { a, b } = pair();
    const onA = await connect(a.server);
    const onB = await connect(b.server);
    const created = await onA.call('tools/call', { name: 'ask', arguments: {}, _meta: meta() });
    const taskId = created['taskId'] as string;
    const waiting = await waitFor(async () => {
      const task = await onB.call('tasks/get', { taskId, _meta: meta() });
      return Object.keys((task['inputRequests'] as object | undefined) ?? {}).length > 0 ? task : undefined;
    });
    const [key] = Object.keys(waiting['inputRequests'] as object);
    await onB.call('tasks/update', {
      taskId,
      inputResponses: { [key as string]: { action: 'accept', content: { region: 'eu' } } },
      _meta: meta(),
    });
    const done = await waitFor(async () => {
      const task = await onB.call('tasks/get', { taskId, _meta: meta() });
      return task['status'] === 'completed' ? task : undefined;
    });
    expect(done['result']).toEqual({ content: [{ type: 'text', text: 'region: eu' }] });
  });

  it('2026-07-28: a server started after the task asked for input shows its inputRequests (from the store)', async () => {
    const { a, later } = pair();
    const onA = await connect(a.server);
    const created = await onA.call('tools/call', { name: 'ask', arguments: {}, _meta: meta() });
    const taskId = created['taskId'] as string;
    await waitFor(async () => (await inputKeys(onA, taskId)).length === 1);
    // c heard no status message of the task: only the store can tell it.
    const onC = await connect(later().server);
    const task = await onC.call('tasks/get', { taskId, _meta: meta() });
    expect(task['status']).toBe('input_required');
    // SEP-2663 "Task Polling": an input_required DetailedTask carries its outstanding inputRequests.
    expect(task['inputRequests']).toEqual({
      elicitation_0: {
        method: 'elicitation/create',
        params: expect.objectContaining({ message: 'Which region?' }),
      },
    });
  });

  it('2026-07-28: a second input request added while the task waits shows on b; answers clear them', async () => {
    const { store, a, b } = pair();
    const onA = await connect(a.server);
    const onB = await connect(b.server);
    const created = await onA.call('tools/call', { name: 'askTwice', arguments: {}, _meta: meta() });
    const taskId = created['taskId'] as string;
    await waitFor(async () => (await inputKeys(onB, taskId)).length === 1, {
      what: 'the first request on b',
    });
    // No status change (already input_required), so no status message: b reads the store.
    a.gate.open();
    await waitFor(async () => (await inputKeys(onB, taskId)).length === 2, {
      timeoutMs: 5_000,
      what: 'both requests on b',
    });
    await onB.call('tasks/update', {
      taskId,
      inputResponses: { elicitation_0: { action: 'accept', content: { value: 'eu' } } },
      _meta: meta(),
    });
    await waitFor(async () => (await inputKeys(onB, taskId)).join() === 'elicitation_1', {
      what: 'the answered request gone on b',
    });
    await onB.call('tasks/update', {
      taskId,
      inputResponses: { elicitation_1: { action: 'accept', content: { value: 'large' } } },
      _meta: meta(),
    });
    const done = await waitFor(async () => {
      const task = await onB.call('tasks/get', { taskId, _meta: meta() });
      return task['status'] === 'completed' ? task : undefined;
    });
    expect(done['result']).toEqual({ content: [{ type: 'text', text: 'eu, large' }] });
    expect(await store.getInputRequests(taskId)).toBeUndefined();
  });
});
