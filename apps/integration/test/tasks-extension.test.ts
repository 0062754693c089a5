import { Client } from '@x/client';
import type { Task } from '@x/protocol';
import { McpServer } from '@x/server';
import { StreamableHttpClientTransport } from '@x/transport-streamable-http';
import { waitFor } from '@x/test-kit';
import { afterEach, describe, expect, it } from 'vitest';
import { z } from 'zod';
import { hostHttp, posts } from './fixtures/e2e-http.js';
import { Resources, textOf } from './fixtures/e2e-helpers.js';

// The tasks extension of 2026-07-28 (SEP-2663) end to end: the real x-mcp Client and McpServer over
// Streamable HTTP on 127.0.0.1, the client following task handles with the API it uses for 2025-11-25.

const resources = new Resources();
afterEach(() => resources.closeAll());

const POLL_MS = 150;

/** `book` runs as a task, reports status, asks the user half way, and waits for `release`. */
function bookingServer(release: Promise<void>): McpServer {
  const server = new McpServer(
    { name: 'tasks-ext', version: '1.0.0' },
    { tasks: { pollIntervalMs: POLL_MS } },
  );
  server.registerTool(
    'book',
    { inputSchema: z.object({ trip: z.string() }), execution: { taskSupport: 'required' } },
    async ({ trip }, ctx) => {
      await ctx.reportTaskStatus('searching');
      const answer = await ctx.elicit({
        mode: 'form',
        message: `Seat for ${trip}?`,
        requestedSchema: { type: 'object', properties: { seat: { type: 'string' } }, required: ['seat'] },
      });
      await ctx.reportTaskStatus('booking');
      await release;
      return { content: [{ type: 'text', text: `${trip}: seat ${String(answer.content?.['seat'])}` }] };
    },
  );
  server.registerTool('hang', { execution: { taskSupport: 'optional' } }, async (_args, ctx) => {
    await new Promise((_resolve, reject) =>
      ctx.signal.addEventListener('abort', () => reject(ctx.signal.reason)),
    );
    return { content: [] };
  });
  return server;
}

function modernClient(): { client: Client; asked: Array<Record<string, unknown>> } {
  const client = new Client({ name: 'tasks-ext-client', version: '1.0.0' }, { protocolVersion: 'modern' });
  const asked: Array<Record<string, unknown>> = [];
  client.setElicitationHandler(async (params) => {
    asked.push(params as Record<string, unknown>);
    return { action: 'accept', content: { seat: '12A' } };
  });
  resources.track(client);
  return { client, asked };
}

describe('tasks extension (SEP-2663) over Streamable HTTP', () => {
  it('callToolInTask follows the task: polls at pollIntervalMs, answers inputRequests once via tasks/update', async () => {
    let release!: () => void;
    const released = new Promise<void>((resolve) => {
      release = resolve;
    });
    const hosted = resources.track(await hostHttp(bookingServer(released)));
    const { client, asked } = modernClient();
    await client.connect(new StreamableHttpClientTransport(hosted.url));
    const seen: Task[] = [];
    const running = client.callToolInTask(
      { name: 'book', arguments: { trip: 'Lisbon' } },
      { onstatus: (task) => seen.push(task) },
    );
    await waitFor(() => seen.some((task) => task.statusMessage === 'booking'), { timeoutMs: 10_000 });
    const pollsBefore = posts(hosted.log, 'tasks/get').length;
    const started = Date.now();
    await waitFor(() => posts(hosted.log, 'tasks/get').length >= pollsBefore + 2, { timeoutMs: 10_000 });
    // "Clients SHOULD respect the pollIntervalMs": two more polls take at least one interval.
    expect(Date.now() - started).toBeGreaterThanOrEqual(POLL_MS - 20);
    release();
    const result = await running;
    expect(textOf(result)).toBe('Lisbon: seat 12A');
    // The handle came first, the status messages the handler set were seen, input was asked once.
    expect(seen[0]).toMatchObject({ status: 'working', pollInterval: POLL_MS });
    expect(seen.map((task) => task.status)).toContain('input_required');
    expect(asked).toHaveLength(1);
    const updates = posts(hosted.log, 'tasks/update');
    expect(updates).toHaveLength(1);
    const taskId = seen[0]!.taskId;
    // SEP-2663 "Streamable HTTP: Routing Headers": Mcp-Name carries the task id.
    for (const exchange of [...posts(hosted.log, 'tasks/get'), ...updates]) {
      expect(exchange.headers['mcp-name']).toBe(taskId);
      expect(exchange.status).toBe(200);
    }
    const call = posts(hosted.log, 'tools/call')[0]!.body as unknown as {
      params: { _meta: Record<string, unknown> };
    };
    expect(call.params._meta['io.modelcontextprotocol/clientCapabilities']).toMatchObject({
      extensions: { 'io.modelcontextprotocol/tasks': {} },
    });
    expect(await client.getTask(taskId)).toMatchObject({
      taskId,
      status: 'completed',
      ttl: expect.any(Number),
    });
  });

  it('plain callTool follows a task handle too; aborting cancels the task on the server', async () => {
    const hosted = resources.track(await hostHttp(bookingServer(Promise.resolve())));
    const { client } = modernClient();
    await client.connect(new StreamableHttpClientTransport(hosted.url));
    expect(textOf(await client.callTool({ name: 'book', arguments: { trip: 'Porto' } }))).toBe(
      'Porto: seat 12A',
    );

    const controller = new AbortController();
    let taskId: string | undefined;
    const hanging = client.callToolInTask(
      { name: 'hang' },
      {
        signal: controller.signal,
        onstatus: (task) => {
          taskId = task.taskId;
        },
      },
    );
    await waitFor(() => taskId);
    controller.abort(new Error('user pressed Ctrl-C'));
    await expect(hanging).rejects.toThrow();
    await waitFor(() => posts(hosted.log, 'tasks/cancel').length === 1);
    await waitFor(async () => (await client.getTask(taskId!)).status === 'cancelled');
    // cancelTask has one shape in both eras: the task's state after the cancel.
    expect(await client.cancelTask(taskId!)).toMatchObject({ taskId, status: 'cancelled' });
  });

  it('client.listen({ taskIds }) streams notifications/tasks to the terminal state', async () => {
    let release!: () => void;
    const released = new Promise<void>((resolve) => {
      release = resolve;
    });
    const server = new McpServer({ name: 'notify', version: '1.0.0' }, { tasks: {} });
    server.registerTool('job', { execution: { taskSupport: 'optional' } }, async (_args, ctx) => {
      await released;
      await ctx.reportTaskStatus('almost');
      return { content: [{ type: 'text', text: 'job done' }] };
    });
    const hosted = resources.track(await hostHttp(server));
    const { client } = modernClient();
    await client.connect(new StreamableHttpClientTransport(hosted.url));
    const { task } = await client.callToolAsTask({ name: 'job' });
    const subscription = client.listen({ taskIds: [task.taskId] } as Parameters<Client['listen']>[0]);
    expect(await subscription.acknowledged).toMatchObject({ taskIds: [task.taskId] });
    const statuses: string[] = [];
    release();
    for await (const notification of subscription) {
      if (notification.method !== 'notifications/tasks') continue;
      statuses.push(notification.params.status);
      if (notification.params.status === 'completed') {
        expect(notification.params.result).toEqual({ content: [{ type: 'text', text: 'job done' }] });
        break;
      }
    }
    expect(statuses.at(-1)).toBe('completed');
    subscription.close();
  });
});
