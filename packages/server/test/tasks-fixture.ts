import {
  ErrorCode,
  type JSONRPCMessage,
  McpError,
  type MessageExtraInfo,
  type RequestId,
  ResultSchema,
} from '@x/protocol';
import { z } from 'zod';
import { McpServer, type McpServerOptions, type ServerTaskOptions } from '../src/index.js';
import { connect, initialize, type Wire } from './helpers.js';

/** A promise the test settles by hand: lets a tool run exactly as long as a test wants. */
export class Gate {
  readonly promise: Promise<void>;
  open!: () => void;
  constructor() {
    this.promise = new Promise((resolve) => {
      this.open = resolve;
    });
  }
}

export interface TaskFixture {
  server: McpServer;
  /** `slow` waits for this gate; a new gate per test. */
  gate: Gate;
  /** The `signal` each `slow` run saw, in call order. */
  signals: AbortSignal[];
}

export const RELATED = 'io.modelcontextprotocol/related-task';

/** An McpServer with tasks enabled and one tool per `execution.taskSupport` case. */
export function taskServer(
  tasks: ServerTaskOptions | false = {},
  options: McpServerOptions = {},
): TaskFixture {
  const server = new McpServer(
    { name: 'tasks', version: '1.0.0' },
    { ...options, tasks: tasks === false ? undefined : tasks },
  );
  const gate = new Gate();
  const signals: AbortSignal[] = [];
  server.registerTool(
    'slow',
    { inputSchema: z.object({ text: z.string() }), execution: { taskSupport: 'optional' } },
    async ({ text }, ctx) => {
      signals.push(ctx.signal);
      await ctx.sendProgress({ progress: 1, total: 2, message: 'started' });
      await gate.promise;
      await ctx.sendProgress({ progress: 2, total: 2 });
      return { content: [{ type: 'text', text: `done: ${text}` }] };
    },
  );
  server.registerTool('must', { execution: { taskSupport: 'required' } }, () => ({
    content: [{ type: 'text', text: 'required ran' }],
  }));
  server.registerTool('never', { execution: { taskSupport: 'forbidden' } }, () => ({
    content: [{ type: 'text', text: 'never ran' }],
  }));
  server.registerTool('plain', {}, () => ({ content: [{ type: 'text', text: 'plain ran' }] }));
  server.registerTool('broken', { execution: { taskSupport: 'optional' } }, () => ({
    content: [{ type: 'text', text: 'API rate limit exceeded' }],
    isError: true,
  }));
  server.registerTool('quota', { execution: { taskSupport: 'optional' } }, () => {
    throw new McpError(-31001, 'Quota exhausted', { retryAfter: 30 });
  });
  server.registerTool('ask', { execution: { taskSupport: 'optional' } }, async (_args, ctx) => {
    const answer = await ctx.elicit({
      mode: 'form',
      message: 'Which region?',
      requestedSchema: { type: 'object', properties: { region: { type: 'string' } } },
    });
    return { content: [{ type: 'text', text: `region: ${String(answer.content?.['region'])}` }] };
  });
  // Asks for a region, then (once the gate opens) for a size while the first request still waits.
  server.registerTool('askTwice', { execution: { taskSupport: 'optional' } }, async (_args, ctx) => {
    const schema = { type: 'object', properties: { value: { type: 'string' } } } as const;
    const region = ctx.elicit({ mode: 'form', message: 'Which region?', requestedSchema: schema });
    await gate.promise;
    const size = ctx.elicit({ mode: 'form', message: 'Which size?', requestedSchema: schema });
    const answers = await Promise.all([region, size]);
    const text = answers.map((answer) => String(answer.content?.['value'])).join(', ');
    return { content: [{ type: 'text', text }] };
  });
  return { server, gate, signals };
}

/** A raw engine connected and initialized on 2025-11-25 (or `protocolVersion`). */
export async function session(
  server: McpServer,
  options: {
    protocolVersion?: string;
    capabilities?: Record<string, unknown>;
    extra?: MessageExtraInfo;
  } = {},
): Promise<Wire & { init: Record<string, unknown> }> {
  const wire = await connect(server, options.extra === undefined ? {} : { extra: options.extra });
  const init = await initialize(wire, {
    protocolVersion: options.protocolVersion ?? '2025-11-25',
    capabilities: options.capabilities ?? {},
  });
  return Object.assign(wire, { init });
}

/** Sends a request and hands back its id with the pending result. */
export function send(
  wire: Wire,
  method: string,
  params: Record<string, unknown> = {},
): { id: () => RequestId; result: Promise<Record<string, unknown>> } {
  let id: RequestId | undefined;
  const result = wire.client.request({ method, params }, ResultSchema, {
    onrequestid: (value) => {
      id = value;
    },
  }) as Promise<Record<string, unknown>>;
  return { id: () => id!, result };
}

export async function createTask(
  wire: Wire,
  name: string,
  extra: Record<string, unknown> = {},
): Promise<{ taskId: string; task: Record<string, unknown>; id: RequestId }> {
  const call = send(wire, 'tools/call', { name, arguments: {}, task: { ttl: 60_000 }, ...extra });
  const result = await call.result;
  const task = result['task'] as Record<string, unknown>;
  return { taskId: task['taskId'] as string, task, id: call.id() };
}

/** The code, message and data of a rejected request. */
export async function errorOf(
  promise: Promise<unknown>,
): Promise<{ code: number; message: string; data?: unknown }> {
  try {
    await promise;
  } catch (error) {
    if (error instanceof McpError) return error.toJSON();
    throw error;
  }
  throw new Error('expected the request to fail');
}

/** The wire response (result or error) the server sent for request `id`. */
export function responseFor(wire: Wire, id: RequestId): JSONRPCMessage | undefined {
  return wire.sent.find((m) => 'id' in m && m.id === id && !('method' in m));
}

export const statuses = (wire: Wire, taskId: string): string[] =>
  wire
    .notifications('notifications/tasks/status')
    .filter((p) => p['taskId'] === taskId)
    .map((p) => p['status'] as string);

export { ErrorCode };
