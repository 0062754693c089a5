import { ErrorCode, MetaKey, ResultSchema, TASKS_EXTENSION } from '@x/protocol';
import { waitFor } from '@x/test-kit';
import { describe, expect, it } from 'vitest';
import { z } from 'zod';
import { connect, modernMeta, type Wire } from './helpers.js';
import { Gate, taskServer } from './tasks-fixture.js';

/** SEP-2663: the client declares the extension in its per-request capabilities. */
const WITH_TASKS = { extensions: { [TASKS_EXTENSION]: {} }, elicitation: {} };
const meta = (): Record<string, unknown> => modernMeta(WITH_TASKS);

async function errorOf(promise: Promise<unknown>): Promise<{ code: number; data?: unknown }> {
  try {
    await promise;
  } catch (error) {
    return error as { code: number; data?: unknown };
  }
  throw new Error('expected a rejection');
}

function get(wire: Wire, taskId: string): Promise<Record<string, unknown>> {
  return wire.call('tasks/get', { taskId, _meta: meta() });
}

describe('tasks extension (SEP-2663) on 2026-07-28', () => {
  it('advertises io.modelcontextprotocol/tasks in server/discover, not a 2025-11-25 tasks slot', async () => {
    const wire = await connect(taskServer().server);
    const result = await wire.call('server/discover', { _meta: modernMeta() });
    const capabilities = result['capabilities'] as Record<string, unknown>;
    expect(capabilities['extensions']).toEqual({ [TASKS_EXTENSION]: {} });
    expect(capabilities).not.toHaveProperty('tasks');
  });

  it('returns a flat CreateTaskResult, polls it to completed with the result inlined', async () => {
    const fixture = taskServer({ pollIntervalMs: 250, defaultTtlMs: 30_000 });
    const wire = await connect(fixture.server);
    const created = await wire.call('tools/call', { name: 'slow', arguments: { text: 'hi' }, _meta: meta() });
    // "Servers MUST set resultType to "task" when returning a CreateTaskResult."
    expect(created).toMatchObject({
      resultType: 'task',
      status: 'working',
      ttlMs: 30_000,
      pollIntervalMs: 250,
    });
    expect(created).not.toHaveProperty('task');
    expect(created).not.toHaveProperty('ttl');
    const taskId = created['taskId'] as string;
    // "A server MUST NOT return CreateTaskResult until the task is durably created."
    const working = await get(wire, taskId);
    expect(working).toMatchObject({ resultType: 'complete', taskId, status: 'working' });
    fixture.gate.open();
    const done = await waitFor(async () => {
      const task = await get(wire, taskId);
      return task['status'] === 'completed' ? task : undefined;
    });
    expect(done['result']).toEqual({ content: [{ type: 'text', text: 'done: hi' }] });
    // tasks/result and tasks/list do not exist in the extension: -32601.
    expect((await errorOf(wire.call('tasks/result', { taskId, _meta: meta() }))).code).toBe(
      ErrorCode.MethodNotFound,
    );
  });

  it('keeps isError results completed and reports JSON-RPC errors as failed', async () => {
    const wire = await connect(taskServer().server);
    const broken = await wire.call('tools/call', { name: 'broken', _meta: meta() });
    const quota = await wire.call('tools/call', { name: 'quota', _meta: meta() });
    const settle = (taskId: unknown) =>
      waitFor(async () => {
        const task = await get(wire, String(taskId));
        return ['completed', 'failed'].includes(String(task['status'])) ? task : undefined;
      });
    // "This includes tool calls that returned results with isError: true."
    expect(await settle(broken['taskId'])).toMatchObject({ status: 'completed', result: { isError: true } });
    const failed = await settle(quota['taskId']);
    expect(failed).toMatchObject({ status: 'failed', error: { code: -31001, message: 'Quota exhausted' } });
    expect(failed).not.toHaveProperty('result');
  });

  it('gates tasks/* and task-required tools on the extension with -32021 naming it', async () => {
    const wire = await connect(taskServer().server);
    const required = { requiredCapabilities: { extensions: { [TASKS_EXTENSION]: {} } } };
    for (const method of ['tasks/get', 'tasks/update', 'tasks/cancel']) {
      const error = await errorOf(
        wire.call(method, { taskId: 'x', inputResponses: {}, _meta: modernMeta() }),
      );
      expect(error).toMatchObject({ code: ErrorCode.MissingRequiredClientCapability, data: required });
    }
    const must = await errorOf(wire.call('tools/call', { name: 'must', _meta: modernMeta() }));
    expect(must).toMatchObject({ code: ErrorCode.MissingRequiredClientCapability, data: required });
    // Unknown task ids are -32602 ("Servers MUST return this error for tasks/get").
    expect((await errorOf(get(wire, 'nope'))).code).toBe(ErrorCode.InvalidParams);
    // A sync-only tool is never promoted, whatever the client declared.
    expect(await wire.call('tools/call', { name: 'never', _meta: meta() })).toMatchObject({
      resultType: 'complete',
      content: [{ type: 'text', text: 'never ran' }],
    });
  });

  it('surfaces elicitation as inputRequests, takes partial tasks/update answers, ignores unknown keys', async () => {
    const fixture = taskServer();
    const Pair = { type: 'object' as const, properties: { name: { type: 'string' as const } } };
    fixture.server.registerTool('pair', { execution: { taskSupport: 'optional' } }, async (_args, ctx) => {
      const [a, b] = await Promise.all([
        ctx.elicit({ mode: 'form', message: 'a?', requestedSchema: Pair }),
        ctx.elicit({ mode: 'form', message: 'b?', requestedSchema: Pair }),
      ]);
      return {
        content: [{ type: 'text', text: `${String(a.content?.['name'])}+${String(b.content?.['name'])}` }],
      };
    });
    const wire = await connect(fixture.server);
    const { taskId } = (await wire.call('tools/call', { name: 'pair', _meta: meta() })) as { taskId: string };
    const waiting = await waitFor(async () => {
      const task = await get(wire, taskId);
      return task['status'] === 'input_required' ? task : undefined;
    });
    const keys = Object.keys(waiting['inputRequests'] as object);
    expect(keys).toHaveLength(2);
    expect((waiting['inputRequests'] as Record<string, { method: string }>)[keys[0]!]!.method).toBe(
      'elicitation/create',
    );
    const ack = await wire.call('tasks/update', {
      taskId,
      inputResponses: {
        [keys[0]!]: { action: 'accept', content: { name: 'x' } },
        unknown: { ignored: true },
      },
      _meta: meta(),
    });
    expect(ack).toMatchObject({ resultType: 'complete' });
    expect(ack).not.toHaveProperty('status');
    const partial = await get(wire, taskId);
    expect(partial['status']).toBe('input_required');
    expect(Object.keys(partial['inputRequests'] as object)).toEqual([keys[1]]);
    // An answer that does not parse is -32602 and answers nothing.
    const bad = await errorOf(
      wire.call('tasks/update', {
        taskId,
        inputResponses: { [keys[1]!]: { action: 'maybe' } },
        _meta: meta(),
      }),
    );
    expect(bad.code).toBe(ErrorCode.InvalidParams);
    await wire.call('tasks/update', {
      taskId,
      inputResponses: { [keys[1]!]: { action: 'accept', content: { name: 'y' } } },
      _meta: meta(),
    });
    const done = await waitFor(async () => {
      const task = await get(wire, taskId);
      return task['status'] === 'completed' ? task : undefined;
    });
    expect(done['result']).toEqual({ content: [{ type: 'text', text: 'x+y' }] });
  });

  it('acks tasks/cancel (also on a terminal task), stops the work, settles cancelled', async () => {
    const fixture = taskServer();
    const wire = await connect(fixture.server);
    const { taskId } = (await wire.call('tools/call', {
      name: 'slow',
      arguments: { text: 'x' },
      _meta: meta(),
    })) as {
      taskId: string;
    };
    await waitFor(() => fixture.signals.length === 1);
    const ack = await wire.call('tasks/cancel', { taskId, _meta: meta() });
    // "The server MUST acknowledge the request with an empty result" (no task envelope).
    expect(ack).toMatchObject({ resultType: 'complete' });
    expect(ack).not.toHaveProperty('status');
    expect(fixture.signals[0]!.aborted).toBe(true);
    expect(await get(wire, taskId)).toMatchObject({ status: 'cancelled' });
    expect(await wire.call('tasks/cancel', { taskId, _meta: meta() })).toMatchObject({
      resultType: 'complete',
    });
  });

  it('reportTaskStatus and sendProgress become the statusMessage', async () => {
    const fixture = taskServer();
    const gate = new Gate();
    fixture.server.registerTool('report', { execution: { taskSupport: 'optional' } }, async (_args, ctx) => {
      await ctx.reportTaskStatus('step 1 of 2');
      await gate.promise;
      await ctx.sendProgress({ progress: 2, total: 2 });
      await new Gate().promise; // stays working
      return { content: [] };
    });
    const wire = await connect(fixture.server);
    const { taskId } = (await wire.call('tools/call', { name: 'report', _meta: meta() })) as {
      taskId: string;
    };
    await waitFor(async () => (await get(wire, taskId))['statusMessage'] === 'step 1 of 2');
    gate.open();
    await waitFor(async () => (await get(wire, taskId))['statusMessage'] === '2/2');
    await wire.call('tasks/cancel', { taskId, _meta: meta() });
  });

  it('composes with MRTR: input_required rounds first, then a task that sees the answers', async () => {
    const fixture = taskServer();
    fixture.server.registerTool(
      'compose',
      { execution: { taskSupport: 'required' }, startsTask: 'handler' },
      async (_args, ctx) => {
        const answer = await ctx.elicit(
          {
            mode: 'form',
            message: 'name?',
            requestedSchema: { type: 'object', properties: { name: { type: 'string' } } },
          },
          { key: 'user_name' },
        );
        return ctx.runAsTask(() => ({
          content: [{ type: 'text', text: `hi ${String(answer.content?.['name'])}` }],
        }));
      },
    );
    const wire = await connect(fixture.server);
    const round = await wire.call('tools/call', { name: 'compose', _meta: meta() });
    expect(round).toMatchObject({ resultType: 'input_required' });
    expect(round).not.toHaveProperty('taskId');
    const created = await wire.call('tools/call', {
      name: 'compose',
      inputResponses: { user_name: { action: 'accept', content: { name: 'Alice' } } },
      requestState: round['requestState'],
      _meta: meta(),
    });
    expect(created).toMatchObject({ resultType: 'task' });
    expect(created).not.toHaveProperty('requestState');
    const done = await waitFor(async () => {
      const task = await get(wire, String(created['taskId']));
      return task['status'] === 'completed' ? task : undefined;
    });
    expect(done['result']).toEqual({ content: [{ type: 'text', text: 'hi Alice' }] });
  });

  it('sends notifications/tasks on subscriptions/listen for the task ids asked for', async () => {
    const fixture = taskServer();
    const wire = await connect(fixture.server);
    const { taskId } = (await wire.call('tools/call', {
      name: 'slow',
      arguments: { text: 'n' },
      _meta: meta(),
    })) as {
      taskId: string;
    };
    // Without the extension, asking for task notifications is -32021 (SEP-2663 "Task Status Notifications").
    const refused = await errorOf(
      wire.client.request(
        {
          method: 'subscriptions/listen',
          params: { _meta: modernMeta(), notifications: { taskIds: [taskId] } },
        },
        ResultSchema,
      ),
    );
    expect(refused.code).toBe(ErrorCode.MissingRequiredClientCapability);
    const controller = new AbortController();
    const listening = wire.client
      .request(
        {
          method: 'subscriptions/listen',
          params: { _meta: meta(), notifications: { taskIds: [taskId, 'other'] } },
        },
        ResultSchema,
        { signal: controller.signal },
      )
      .catch(() => undefined);
    await waitFor(() => wire.notifications('notifications/subscriptions/acknowledged').length === 1);
    expect(wire.notifications('notifications/subscriptions/acknowledged')[0]).toMatchObject({
      notifications: { taskIds: [taskId, 'other'] },
    });
    fixture.gate.open();
    const completed = await waitFor(() =>
      wire.notifications('notifications/tasks').find((params) => params['status'] === 'completed'),
    );
    // "Each notification carries a complete DetailedTask", tagged with the subscription.
    expect(completed).toMatchObject({
      taskId,
      result: { content: [{ type: 'text', text: 'done: n' }] },
      _meta: { [MetaKey.SubscriptionId]: expect.anything() },
    });
    controller.abort();
    await listening;
  });

  it('counts task ids against maxSubscriptions and sends a task only to its owner', async () => {
    const fixture = taskServer({}, { maxSubscriptions: 3 });
    const wire = await connect(fixture.server);
    const tooMany = await errorOf(
      wire.client.request(
        {
          method: 'subscriptions/listen',
          params: { _meta: meta(), notifications: { taskIds: ['a', 'b', 'c'] } },
        },
        ResultSchema,
      ),
    );
    expect(tooMany.code).not.toBe(0);
    expect(String((tooMany as { message?: string }).message)).toContain('maxSubscriptions');
    const bob = await connect(fixture.server, {
      extra: { authInfo: { token: 't', clientId: 'bob', scopes: [], extra: { sub: 'bob' } } },
    });
    const { taskId } = (await wire.call('tools/call', { name: 'broken', _meta: meta() })) as {
      taskId: string;
    };
    const controller = new AbortController();
    const listening = bob.client
      .request(
        { method: 'subscriptions/listen', params: { _meta: meta(), notifications: { taskIds: [taskId] } } },
        ResultSchema,
        { signal: controller.signal },
      )
      .catch(() => undefined);
    await waitFor(() => bob.notifications('notifications/subscriptions/acknowledged').length === 1);
    // Someone else's task: tasks/get says not found, and no notification reaches the other principal.
    expect((await errorOf(bob.call('tasks/get', { taskId, _meta: meta() }))).code).toBe(
      ErrorCode.InvalidParams,
    );
    await waitFor(async () => (await get(wire, taskId))['status'] === 'completed');
    expect(bob.notifications('notifications/tasks')).toEqual([]);
    controller.abort();
    await listening;
  });

  it('accepts zod-typed task tools whose handler returns a task handle', () => {
    const fixture = taskServer();
    fixture.server.registerTool(
      'typed',
      {
        inputSchema: z.object({ n: z.number() }),
        execution: { taskSupport: 'optional' },
        startsTask: 'handler',
      },
      ({ n }, ctx) => ctx.runAsTask(() => ({ content: [{ type: 'text', text: String(n) }] })),
    );
    expect(fixture.server).toBeDefined();
  });
});
