import { ErrorCode, type McpError, ResultSchema } from '@x/protocol';
import { describe, expect, it } from 'vitest';
import { Client } from '../src/index.js';
import { CLIENT_INFO, fakeServer, legacyHandshake } from './helpers.js';

// Spec 2025-11-25 basic/utilities/tasks, the client as receiver of task-augmented sampling and
// elicitation ("Client Capabilities"; "Task-Augmented Sampling Request" flow).

const RELATED = 'io.modelcontextprotocol/related-task';
const SAMPLE = { messages: [{ role: 'user', content: { type: 'text', text: 'Hi' } }], maxTokens: 10 };

async function receiver(protocolVersion = '2025-11-25') {
  const peer = await fakeServer((server) => legacyHandshake(server, { protocolVersion }));
  const client = new Client(CLIENT_INFO, { protocolVersion: 'legacy', tasks: { pollIntervalMs: 5 } });
  let release!: () => void;
  const gate = new Promise<void>((resolve) => {
    release = resolve;
  });
  const seen: Array<{ params: Record<string, unknown>; signal: AbortSignal }> = [];
  client.setSamplingHandler(async (params, { signal }) => {
    seen.push({ params: params as Record<string, unknown>, signal });
    await gate;
    return { role: 'assistant', content: { type: 'text', text: 'Hello' }, model: 'm1' };
  });
  await client.connect(peer.transport);
  const ask = (method: string, params: Record<string, unknown>) =>
    peer.server.request({ method, params }, ResultSchema) as Promise<Record<string, unknown>>;
  return { client, ...peer, release, seen, ask };
}

describe('client as task receiver', () => {
  it('declares tasks for the handlers it has, in initialize', async () => {
    const { requests } = await receiver();
    // "Clients declare if they support tasks, and if so, which client-side requests can be augmented with tasks."
    const capabilities = requests('initialize')[0]?.params?.['capabilities'] as
      | Record<string, unknown>
      | undefined;
    expect(capabilities?.['tasks']).toEqual({
      list: {},
      cancel: {},
      requests: { sampling: { createMessage: {} } },
    });
  });

  it('answers a task-augmented sampling request with CreateTaskResult and serves tasks/get, tasks/list and tasks/result', async () => {
    const { ask, seen, release, notifications } = await receiver();
    const created = await ask('sampling/createMessage', { ...SAMPLE, task: { ttl: 10_000 } });
    const task = created['task'] as Record<string, unknown>;
    expect(task).toMatchObject({ status: 'working', ttl: 10_000, pollInterval: 5 });
    const taskId = task['taskId'] as string;
    // The handler sees the plain request.
    await expect.poll(() => seen.length).toBe(1);
    expect(seen[0]?.params).toEqual({ ...SAMPLE, _meta: { progressToken: 1 } });
    expect(await ask('tasks/get', { taskId })).toEqual(task);
    expect(await ask('tasks/list', {})).toEqual({ tasks: [task] });
    release();
    expect(await ask('tasks/result', { taskId })).toEqual({
      role: 'assistant',
      content: { type: 'text', text: 'Hello' },
      model: 'm1',
      _meta: { [RELATED]: { taskId } },
    });
    await expect
      .poll(() => notifications('notifications/tasks/status').map((n) => n.params?.['status']))
      .toEqual(['completed']);
  });

  it('cancels a working task: the handler signal aborts and the task stays cancelled', async () => {
    const { ask, seen, release } = await receiver();
    const created = await ask('sampling/createMessage', { ...SAMPLE, task: {} });
    const taskId = (created['task'] as { taskId: string }).taskId;
    await expect.poll(() => seen.length).toBe(1);
    expect(await ask('tasks/cancel', { taskId })).toMatchObject({ taskId, status: 'cancelled' });
    expect(seen[0]?.signal.aborted).toBe(true);
    release();
    expect(await ask('tasks/get', { taskId })).toMatchObject({ status: 'cancelled' });
    const refused = await ask('tasks/cancel', { taskId }).catch((e: McpError) => e);
    expect((refused as McpError).code).toBe(ErrorCode.InvalidParams);
  });

  it('refuses a task-augmented elicitation in an undeclared mode at once, without creating a task', async () => {
    const peer = await fakeServer((server) => legacyHandshake(server, { protocolVersion: '2025-11-25' }));
    const client = new Client(CLIENT_INFO, { protocolVersion: 'legacy', tasks: {} });
    const asked: unknown[] = [];
    client.setElicitationHandler(async (params) => {
      asked.push(params);
      return { action: 'decline' };
    });
    await client.connect(peer.transport);
    const ask = (method: string, params: Record<string, unknown>) =>
      peer.server.request({ method, params }, ResultSchema) as Promise<Record<string, unknown>>;
    // A mode the client did not declare is the server's protocol error ("Servers MUST NOT send elicitation
    // requests with modes that are not supported by the client"), answered as such, not a failed task
    // (tasks "Error Handling": protocol errors vs task execution errors).
    const url = { mode: 'url', message: 'Sign in', url: 'https://example.com/login', elicitationId: 'e1' };
    const refused = await ask('elicitation/create', { ...url, task: {} }).catch((e: McpError) => e);
    expect((refused as McpError).code).toBe(ErrorCode.InvalidParams);
    expect(await ask('tasks/list', {})).toEqual({ tasks: [] });
    expect(asked).toEqual([]);
  });

  it('answers a plain request normally, and ignores the task field on an older revision', async () => {
    const current = await receiver();
    current.release();
    expect(await current.ask('sampling/createMessage', SAMPLE)).toMatchObject({ model: 'm1' });
    const older = await receiver('2025-06-18');
    older.release();
    // "Receivers that do not declare the task capability for a request type MUST process requests of that type normally"
    expect(await older.ask('sampling/createMessage', { ...SAMPLE, task: {} })).toMatchObject({ model: 'm1' });
    const missing = await older.ask('tasks/get', { taskId: 'x' }).catch((e: McpError) => e);
    expect((missing as McpError).code).toBe(ErrorCode.MethodNotFound);
  });
});
