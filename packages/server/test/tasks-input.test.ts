import { ElicitRequestParamsSchema, type RequestId } from '@x/protocol';
import { describe, expect, it } from 'vitest';
import { createTask, RELATED, send, session, statuses, taskServer } from './tasks-fixture.js';
import { afterTimeouts } from '@x/test-kit';

// Spec 2025-11-25 basic/utilities/tasks, "Input Required Status" and the "Task-Augmented Tool Call With
// Elicitation" flow: the server's elicitation travels with the requestor's open tasks/result.

describe('elicitation inside a task', () => {
  it('moves to input_required, waits for tasks/result, sends the request with related-task meta on it, then works again', async () => {
    const { server } = taskServer();
    const wire = await session(server, { capabilities: { elicitation: {} } });
    const seen: Array<Record<string, unknown>> = [];
    wire.client.setRequestHandler('elicitation/create', ElicitRequestParamsSchema, (params) => {
      seen.push(params as Record<string, unknown>);
      return { action: 'accept', content: { region: 'eu-west' } };
    });
    const { taskId } = await createTask(wire, 'ask');

    // "When the task receiver has messages for the requestor that are necessary to complete the task,
    // the receiver SHOULD move the task to the input_required status."
    await expect
      .poll(async () => (await wire.call('tasks/get', { taskId }))['status'])
      .toBe('input_required');
    await afterTimeouts(5);
    // Nothing is sent before the requestor opens tasks/result.
    expect(wire.sent.filter((m) => 'method' in m && m.method === 'elicitation/create')).toEqual([]);

    // "When the requestor encounters the input_required status, it SHOULD preemptively call tasks/result."
    const result = send(wire, 'tasks/result', { taskId });
    const resultId: RequestId = result.id();
    expect(await result.result).toEqual({
      content: [{ type: 'text', text: 'region: eu-west' }],
      _meta: { [RELATED]: { taskId } },
    });

    const index = wire.sent.findIndex((m) => 'method' in m && m.method === 'elicitation/create');
    const elicitation = wire.sent[index] as { params: Record<string, unknown> };
    // "The receiver MUST include the io.modelcontextprotocol/related-task metadata in the request"
    expect(elicitation.params).toEqual({
      mode: 'form',
      message: 'Which region?',
      requestedSchema: { type: 'object', properties: { region: { type: 'string' } } },
      // The server asks for progress too (resetTimeoutOnProgress is on): a slow client stays alive.
      _meta: { [RELATED]: { taskId }, progressToken: expect.any(Number) },
    });
    expect(seen).toHaveLength(1);
    // Routed with the tasks/result request (its stream, on Streamable HTTP).
    expect(wire.sendOptions[index]).toEqual(expect.objectContaining({ relatedRequestId: resultId }));
    // "When the receiver receives all required input, the task SHOULD transition out of input_required status (typically back to working)."
    await afterTimeouts(5);
    expect(statuses(wire, taskId)).toEqual(['input_required', 'working', 'completed']);
  });

  it('sends at once through an already open tasks/result', async () => {
    const { server } = taskServer();
    const wire = await session(server, { capabilities: { elicitation: {} } });
    wire.client.setRequestHandler('elicitation/create', ElicitRequestParamsSchema, () => ({
      action: 'decline',
    }));
    const { taskId } = await createTask(wire, 'ask');
    const result = send(wire, 'tasks/result', { taskId });
    expect((await result.result)['content']).toEqual([{ type: 'text', text: 'region: undefined' }]);
    const index = wire.sent.findIndex((m) => 'method' in m && m.method === 'elicitation/create');
    expect(wire.sendOptions[index]).toEqual(expect.objectContaining({ relatedRequestId: result.id() }));
  });

  it('a cancelled task drops its queued elicitation', async () => {
    const { server } = taskServer();
    const wire = await session(server, { capabilities: { elicitation: {} } });
    const { taskId } = await createTask(wire, 'ask');
    await expect
      .poll(async () => (await wire.call('tasks/get', { taskId }))['status'])
      .toBe('input_required');
    expect(await wire.call('tasks/cancel', { taskId })).toMatchObject({ status: 'cancelled' });
    await afterTimeouts(5);
    expect(wire.sent.filter((m) => 'method' in m && m.method === 'elicitation/create')).toEqual([]);
    expect(statuses(wire, taskId)).toEqual(['input_required', 'cancelled']);
  });
});
