// Regression: a 2025-11-25 host could not use a 2025-11-25 server's tasks through the bridge (it declared
// no `tasks`, so the host's own client refused with -32600). Between hops of that revision the bridge
// now declares the upstream's `tasks` and forwards the task-augmented `tools/call` and every `tasks/*`
// request unchanged: the task lives upstream.
import { describe, expect, it, vi } from 'vitest';
import { DIRECTIONS } from './feature-cases.js';
import { methods, startHarness } from './feature-harness.js';
import { cleanupAfterEach } from './helpers.js';

const cleanup = cleanupAfterEach();
const SAME_LEGACY = DIRECTIONS.find((d) => d.id === 'same-legacy');
const LEGACY_TO_MODERN = DIRECTIONS.find((d) => d.id === 'legacy-to-modern');

describe('tasks between 2025-11-25 hops', { timeout: 60_000 }, () => {
  it('declares the upstream tasks capability, forwards tools/call (task), tasks/list, tasks/get and tasks/cancel (tasks/result: the feature table) and relays task status', async () => {
    if (SAME_LEGACY === undefined) throw new Error('no same-legacy direction');
    const h = await startHarness(SAME_LEGACY, cleanup);
    const handshake = h.up.in.find((m) => 'result' in m && 'capabilities' in (m.result as object)) as
      | { result: { capabilities: { tasks?: unknown } } }
      | undefined;
    expect(handshake?.result.capabilities.tasks).toBeDefined();
    expect(h.client.serverCapabilities?.tasks).toEqual(handshake?.result.capabilities.tasks);
    const statuses: Array<{ taskId: string; status: string }> = [];
    h.client.on('taskStatus', ({ taskId, status }) => statuses.push({ taskId, status }));
    const { task } = await h.client.callToolAsTask({ name: 'wait-task', arguments: {} }, { ttl: 60_000 });
    // The upstream's task id, unchanged: the bridge keeps no task of its own.
    const upstreamCreated = h.up.in.find(
      (m) => 'result' in m && (m.result as { task?: { taskId?: string } }).task?.taskId === task.taskId,
    );
    expect(upstreamCreated).toBeDefined();
    const { tasks } = await h.client.listTasks();
    expect(tasks.map((t) => t.taskId)).toContain(task.taskId);
    expect((await h.client.getTask(task.taskId)).status).toBe('working');
    expect((await h.client.cancelTask(task.taskId)).status).toBe('cancelled');
    await vi.waitFor(() => expect(h.cancelled).toEqual([true]), { timeout: 20_000 });
    // The upstream's notifications/tasks/status reaches the host too (it may poll less often).
    expect(methods(h.up.in)).toContain('notifications/tasks/status');
    await vi.waitFor(() => expect(statuses).toContainEqual({ taskId: task.taskId, status: 'cancelled' }), {
      timeout: 20_000,
    });
    const up = methods(h.up.out);
    for (const method of ['tools/call', 'tasks/list', 'tasks/get', 'tasks/cancel'])
      expect(up).toContain(method);
    const call = h.up.out.find((m) => 'method' in m && m.method === 'tools/call');
    expect(call && 'params' in call ? call.params : undefined).toMatchObject({ task: { ttl: 60_000 } });
  });

  it('between eras: no tasks declared, and tasks/get is answered -32601 (nothing goes upstream)', async () => {
    if (LEGACY_TO_MODERN === undefined) throw new Error('no legacy-to-modern direction');
    const h = await startHarness(LEGACY_TO_MODERN, cleanup);
    expect(h.client.serverCapabilities?.tasks).toBeUndefined();
    await expect(h.client.request({ method: 'tasks/get', params: { taskId: 'nope' } })).rejects.toMatchObject(
      {
        code: -32601,
      },
    );
    expect(methods(h.up.out)).not.toContain('tasks/get');
  });
});
