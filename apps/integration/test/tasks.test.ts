import { Client } from '@x/client';
import {
  InMemoryTransport,
  type JSONRPCMessage,
  type RequestId,
  type Task,
  type Transport,
} from '@x/protocol';
import { McpServer } from '@x/server';
import {
  StreamableHttpClientTransport,
  type StreamableHttpHandlerOptions,
  type StreamableHttpServerTransport,
} from '@x/transport-streamable-http';
import { afterEach, describe, expect, it } from 'vitest';
import { z } from 'zod';
import { hostHttp, posts } from './fixtures/e2e-http.js';
import { recordSends, Resources, textOf } from './fixtures/e2e-helpers.js';

// Experimental tasks (spec 2025-11-25 basic/utilities/tasks) end to end: the real x-mcp Client as
// requestor and McpServer as receiver, in memory and over Streamable HTTP on 127.0.0.1.

const RELATED = 'io.modelcontextprotocol/related-task';
const resources = new Resources();
afterEach(() => resources.closeAll());

/** A server whose `book` tool must run as a task and asks the user (elicitation) half way. */
function taskServer(): McpServer {
  const server = new McpServer({ name: 'tasks-e2e', version: '1.0.0' }, { tasks: { pollIntervalMs: 10 } });
  server.registerTool(
    'book',
    { inputSchema: z.object({ trip: z.string() }), execution: { taskSupport: 'required' } },
    async ({ trip }, ctx) => {
      await ctx.sendProgress({ progress: 1, total: 2, message: 'searching' });
      const answer = await ctx.elicit({
        mode: 'form',
        message: `Seat for ${trip}?`,
        requestedSchema: { type: 'object', properties: { seat: { type: 'string' } }, required: ['seat'] },
      });
      await ctx.sendProgress({ progress: 2, total: 2, message: 'booked' });
      return { content: [{ type: 'text', text: `${trip}: seat ${String(answer.content?.['seat'])}` }] };
    },
  );
  return server;
}

function taskClient(): { client: Client; asked: Array<Record<string, unknown>>; statuses: string[] } {
  const client = new Client({ name: 'tasks-client', version: '1.0.0' }, { protocolVersion: 'legacy' });
  const asked: Array<Record<string, unknown>> = [];
  const statuses: string[] = [];
  client.setElicitationHandler(async (params) => {
    asked.push(params as Record<string, unknown>);
    return { action: 'accept', content: { seat: '12A' } };
  });
  client.on('taskStatus', (task) => statuses.push(task.status));
  resources.track(client);
  return { client, asked, statuses };
}

/** Records what the server side of a connection sends, with the request each message was routed to. */
function tapServerSends(
  transport: Transport,
): Array<{ message: JSONRPCMessage; relatedRequestId: RequestId | undefined }> {
  const sent: Array<{ message: JSONRPCMessage; relatedRequestId: RequestId | undefined }> = [];
  const send = transport.send.bind(transport);
  transport.send = (message, options) => {
    sent.push({ message, relatedRequestId: options?.relatedRequestId });
    return send(message, options);
  };
  return sent;
}

async function bookTrip(client: Client, sent: JSONRPCMessage[]) {
  const seen: Task['status'][] = [];
  const progress: number[] = [];
  const result = await client.callToolInTask(
    { name: 'book', arguments: { trip: 'Lisbon' } },
    {
      ttl: 30_000,
      onstatus: (task) => seen.push(task.status),
      onprogress: ({ progress: p }) => progress.push(p),
    },
  );
  const call = sent.findLast((m) => 'method' in m && m.method === 'tools/call') as {
    params: Record<string, unknown>;
  };
  return { result, seen, progress, call };
}

describe('tasks end to end', () => {
  it('in memory: callToolInTask runs a required task tool whose elicitation arrives through tasks/result', async () => {
    const server = taskServer();
    const [clientSide, serverSide] = InMemoryTransport.createLinkedPair();
    const serverSent = tapServerSends(serverSide);
    await server.connect(serverSide);
    const { client, asked, statuses } = taskClient();
    const { transport, sent } = recordSends(clientSide);
    await client.connect(transport);

    expect(client.serverCapabilities?.tasks).toEqual({
      list: {},
      cancel: {},
      requests: { tools: { call: {} } },
    });
    // "If execution.taskSupport is "required", clients MUST invoke the tool as a task."
    await expect(client.callTool({ name: 'book', arguments: { trip: 'x' } })).rejects.toMatchObject({
      code: -32601,
    });

    const { result, seen, progress, call } = await bookTrip(client, sent);
    expect(textOf(result)).toBe('Lisbon: seat 12A');
    expect(result._meta?.[RELATED]).toEqual({ taskId: expect.any(String) });
    expect(call.params).toMatchObject({
      name: 'book',
      task: { ttl: 30_000 },
      _meta: { progressToken: expect.anything() },
    });
    expect(seen[0]).toBe('working');
    expect(seen).toContain('input_required');
    expect(progress).toEqual([1, 2]);
    const taskId = (result._meta?.[RELATED] as { taskId: string } | undefined)?.taskId;
    expect(asked[0]?.['_meta']).toEqual({ [RELATED]: { taskId }, progressToken: expect.any(Number) });

    // The elicitation went out with the client's tasks/result request.
    const resultRequest = sent.find((m) => 'method' in m && m.method === 'tasks/result') as { id: RequestId };
    const elicitation = serverSent.find(
      (s) => 'method' in s.message && s.message.method === 'elicitation/create',
    );
    expect(elicitation?.relatedRequestId).toBe(resultRequest.id);
    await expect.poll(() => statuses).toEqual(['input_required', 'working', 'completed']);
    expect(await client.getTask(taskId!)).toMatchObject({ taskId, status: 'completed' });
    expect((await client.listTasks()).tasks.map((t) => t.taskId)).toEqual([taskId]);
  });

  for (const mode of ['sse', 'json'] as const) {
    it(`Streamable HTTP (${mode} responses): elicitation inside a task reaches the client and the task completes`, async () => {
      const server = taskServer();
      const serverSent: Array<{ message: JSONRPCMessage; relatedRequestId: RequestId | undefined }> = [];
      const options: Partial<StreamableHttpHandlerOptions> =
        mode === 'json' ? { enableJsonResponse: true } : {};
      const hosted = resources.track(
        await hostHttp(server, options, (transport: StreamableHttpServerTransport) => {
          const tap = tapServerSends(transport);
          const push = tap.push.bind(tap);
          tap.push = (...items) => {
            serverSent.push(...items);
            return push(...items);
          };
          return server.connect(transport);
        }),
      );
      const { client, asked, statuses } = taskClient();
      const { transport, sent } = recordSends(new StreamableHttpClientTransport(hosted.url));
      await client.connect(transport);

      const { result, seen, progress } = await bookTrip(client, sent);
      expect(textOf(result)).toBe('Lisbon: seat 12A');
      expect(seen).toContain('input_required');
      expect(asked).toHaveLength(1);
      const taskId = (result._meta?.[RELATED] as { taskId: string } | undefined)?.taskId;
      expect(asked[0]?.['_meta']).toEqual({ [RELATED]: { taskId }, progressToken: expect.any(Number) });

      const resultRequest = sent.find((m) => 'method' in m && m.method === 'tasks/result') as {
        id: RequestId;
      };
      const elicitation = serverSent.find(
        (s) => 'method' in s.message && s.message.method === 'elicitation/create',
      );
      expect(elicitation?.relatedRequestId).toBe(resultRequest.id);
      const resultPost = posts(hosted.log, 'tasks/result');
      expect(resultPost).toHaveLength(1);
      if (mode === 'sse') {
        // The elicitation travels on the tasks/result SSE stream ("One possible approach is maintaining
        // an SSE stream on tasks/result"); progress after the tools/call answer reaches the client too.
        expect(resultPost[0]?.contentType).toBe('text/event-stream');
        expect(progress).toEqual([1, 2]);
      } else {
        // A JSON reply carries only the response: the transport sends the elicitation on the GET stream
        // ("clients SHOULD expect messages to be delivered on any SSE stream, including the HTTP GET stream").
        expect(resultPost[0]?.contentType).toContain('application/json');
      }
      // The elicitation's answer came back in its own POST.
      expect(posts(hosted.log, 'response').length).toBeGreaterThanOrEqual(1);
      await expect.poll(() => statuses.at(-1)).toBe('completed');
    });
  }

  it('server as requestor: ctx.elicit with a task runs as a task on our client, polled to its answer', async () => {
    const server = new McpServer({ name: 'requestor', version: '1.0.0' });
    server.registerTool('confirm', {}, async (_args, ctx) => {
      const answer = await ctx.elicit(
        {
          mode: 'form',
          message: 'Proceed?',
          requestedSchema: { type: 'object', properties: { ok: { type: 'boolean' } } },
        },
        { task: { ttl: 20_000 } },
      );
      return { content: [{ type: 'text', text: `${answer.action}:${String(answer.content?.['ok'])}` }] };
    });
    const [clientSide, serverSide] = InMemoryTransport.createLinkedPair();
    const serverSent = tapServerSends(serverSide);
    await server.connect(serverSide);
    const client = new Client(
      { name: 'receiver', version: '1.0.0' },
      { protocolVersion: 'legacy', tasks: { pollIntervalMs: 5 } },
    );
    resources.track(client);
    client.setElicitationHandler(async () => ({ action: 'accept', content: { ok: true } }));
    await client.connect(clientSide);

    expect(textOf(await client.callTool({ name: 'confirm', arguments: {} }))).toBe('accept:true');
    const methods = serverSent.flatMap((s) => ('method' in s.message ? [s.message.method] : []));
    expect(methods[0]).toBe('elicitation/create');
    expect(methods).toContain('tasks/result');
    const elicitation = serverSent.find(
      (s) => 'method' in s.message && s.message.method === 'elicitation/create',
    )!.message as { params: Record<string, unknown> };
    expect(elicitation.params['task']).toEqual({ ttl: 20_000 });
  });
});
