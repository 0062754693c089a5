// One real bridge per feature case: an upstream x-mcp server serving one era (Streamable HTTP on
// 127.0.0.1), the translating bridge in front of it (Streamable HTTP on 127.0.0.1), and a downstream
// x-mcp client of the other (or the same) era. Both hops are recorded on the wire, so a case can say
// how a feature crossed (a server→client request, an `input_required` round trip, …), not only that it did.
import type { JSONRPCMessage, Transport } from '@x/protocol/core';
import { Client } from '@x/client';
import { McpServer, ResourceTemplate } from '@x/server';
import { startHttpServer } from '@x/test-kit';
import { createStreamableHttpHandler, StreamableHttpClientTransport } from '@x/transport-streamable-http';
import { toNodeHandler } from '@x/transport-streamable-http/node';
import { z } from 'zod';
import { createBridge } from '../src/index.js';
import type { Direction } from './feature-cases.js';
import type { Cleanup } from './helpers.js';

/** The messages one side of a hop sent (`out`) and received (`in`), in order. */
export interface WireLog {
  readonly out: JSONRPCMessage[];
  readonly in: JSONRPCMessage[];
}

/** What a case gets: the downstream client, the upstream server, both hops' wire, counters. */
export interface Harness {
  readonly direction: Direction;
  readonly client: Client;
  readonly upstream: McpServer;
  /** The downstream client's transport: `out` is client → bridge, `in` bridge → client. */
  readonly down: WireLog;
  /** The bridge's upstream transport: `out` is bridge → upstream server, `in` upstream → bridge. */
  readonly up: WireLog;
  /** How many times each upstream tool handler started. */
  readonly runs: Map<string, number>;
  /** One entry per upstream `wait` call whose signal was aborted. */
  readonly cancelled: boolean[];
  /** HTTP requests open on the upstream server now (a `subscriptions/listen` stream is one). */
  openUpstreamRequests(): number;
}

/** Records what `inner` sends and hands on; the transport otherwise untouched. */
function recorded<T extends Transport>(inner: T, log: WireLog): T {
  return new Proxy(inner, {
    get(target, property) {
      if (property === 'send') {
        return (message: JSONRPCMessage, options?: unknown) => {
          log.out.push(message);
          return (target.send as (m: JSONRPCMessage, o?: unknown) => Promise<void>)(message, options);
        };
      }
      const value: unknown = Reflect.get(target, property, target);
      return typeof value === 'function' ? value.bind(target) : value;
    },
    set(target, property, value: unknown) {
      if (property === 'onmessage' && typeof value === 'function') {
        const deliver = value as (message: JSONRPCMessage, ...rest: unknown[]) => void;
        return Reflect.set(
          target,
          property,
          (message: JSONRPCMessage, ...rest: unknown[]) => {
            log.in.push(message);
            deliver(message, ...rest);
          },
          target,
        );
      }
      return Reflect.set(target, property, value, target);
    },
  });
}

const ASK_SCHEMA = {
  type: 'object' as const,
  properties: { name: { type: 'string' as const } },
  required: ['name'],
};

/** The upstream server of every case: a tool per feature, a prompt, a resource and a template. */
function upstreamServer(
  direction: Direction,
  h: { runs: Map<string, number>; cancelled: boolean[] },
): McpServer {
  const server = new McpServer(
    { name: `upstream-${direction.upstream}`, version: '1.0.0' },
    {
      eras: direction.upstream === '2026-07-28' ? 'modern' : 'legacy',
      ...(direction.upstream === '2026-07-28' ? {} : { legacyVersions: [direction.upstream] }),
      capabilities: { logging: {} },
      tasks: {},
    },
  );
  const ran = (name: string): void => void h.runs.set(name, (h.runs.get(name) ?? 0) + 1);
  server.registerTool('echo', { inputSchema: z.object({ text: z.string() }) }, ({ text }) => {
    ran('echo');
    return { content: [{ type: 'text', text: `echo:${text}` }] };
  });
  server.registerTool('log', { inputSchema: z.object({}) }, async (_args, ctx) => {
    await ctx.log('info', 'upstream-log');
    return { content: [] };
  });
  server.registerTool('progress', { inputSchema: z.object({}) }, async (_args, ctx) => {
    await ctx.sendProgress({ progress: 1, total: 2 });
    await ctx.sendProgress({ progress: 2, total: 2 });
    return { content: [{ type: 'text', text: 'done' }] };
  });
  server.registerTool('ask', { inputSchema: z.object({}) }, async (_args, ctx) => {
    ran('ask');
    const answer = await ctx.elicit({ mode: 'form', message: 'Your name?', requestedSchema: ASK_SCHEMA });
    return { content: [{ type: 'text', text: `hello ${String(answer.content?.['name'])}` }] };
  });
  server.registerTool('sample', { inputSchema: z.object({}) }, async (_args, ctx) => {
    const reply = await ctx.sample({
      messages: [{ role: 'user', content: { type: 'text', text: 'ping?' } }],
      maxTokens: 10,
    });
    return { content: [{ type: 'text', text: `model said ${JSON.stringify(reply.content)}` }] };
  });
  server.registerTool('roots', { inputSchema: z.object({}) }, async (_args, ctx) => {
    const { roots } = await ctx.listRoots();
    return { content: [{ type: 'text', text: roots.map((root) => root.uri).join(',') }] };
  });
  server.registerTool('wait', { inputSchema: z.object({}) }, async (_args, ctx) => {
    await new Promise<void>((resolve) =>
      ctx.signal.addEventListener('abort', () => resolve(), { once: true }),
    );
    h.cancelled.push(ctx.signal.aborted);
    return { content: [] };
  });
  // A task that runs until cancelled (tasks-same-era.test.ts cancels it in flight).
  server.registerTool(
    'wait-task',
    { inputSchema: z.object({}), execution: { taskSupport: 'required' } },
    async (_args, ctx) => {
      await new Promise<void>((resolve) =>
        ctx.signal.addEventListener('abort', () => resolve(), { once: true }),
      );
      h.cancelled.push(ctx.signal.aborted);
      return { content: [] };
    },
  );
  server.registerTool('slow', { inputSchema: z.object({}), execution: { taskSupport: 'optional' } }, () => ({
    content: [{ type: 'text', text: 'slow done' }],
  }));
  server.registerPrompt(
    'greet',
    {
      argsSchema: z.object({ who: z.string() }),
      complete: { who: (prefix) => ['Ada', 'Alan', 'Bo'].filter((who) => who.startsWith(prefix)) },
    },
    ({ who }) => ({ messages: [{ role: 'user', content: { type: 'text', text: `Hi ${who}` } }] }),
  );
  server.registerResource('readme', 'file:///readme', { mimeType: 'text/plain' }, () => ({
    contents: [{ uri: 'file:///readme', text: 'read me' }],
  }));
  server.registerResource('user', new ResourceTemplate('users://{id}'), {}, (uri, { id }) => ({
    contents: [{ uri: String(uri), text: `user ${String(id)}` }],
  }));
  return server;
}

/** Starts upstream, bridge and downstream client for `direction`; `cleanup` stops them. */
export async function startHarness(direction: Direction, cleanup: Cleanup): Promise<Harness> {
  const counters = { runs: new Map<string, number>(), cancelled: [] as boolean[] };
  const upstream = upstreamServer(direction, counters);
  const serveUpstream = toNodeHandler(
    createStreamableHttpHandler({ onsession: (transport) => upstream.connect(transport) }),
  );
  let openUpstream = 0;
  const upstreamHttp = await startHttpServer((request, response) => {
    openUpstream++;
    response.once('close', () => openUpstream--);
    return serveUpstream(request, response);
  });
  cleanup.push(() => upstreamHttp.close());
  const up: WireLog = { out: [], in: [] };
  const bridge = createBridge({
    upstream: () => recorded(new StreamableHttpClientTransport(`${upstreamHttp.url}/mcp`), up),
    upstreamName: `upstream ${direction.upstream}`,
  });
  const bridgeHttp = await startHttpServer(
    toNodeHandler(
      createStreamableHttpHandler({
        onsession: (transport) => bridge.connect(transport).catch(() => undefined),
      }),
    ),
  );
  cleanup.push(
    () => bridgeHttp.close(),
    () => bridge.close(),
  );
  const modern = direction.downstream === '2026-07-28';
  const client = new Client(
    { name: 'downstream', version: '1.0.0' },
    { protocolVersion: modern ? 'modern' : 'legacy', ...(modern ? { logLevel: 'info' as const } : {}) },
  );
  client.setElicitationHandler(() => ({ action: 'accept', content: { name: 'Ada' } }));
  client.setSamplingHandler(() => ({
    role: 'assistant',
    content: { type: 'text', text: 'pong' },
    model: 'test-model',
  }));
  client.setRootsHandler(() => ({ roots: [{ uri: 'file:///home/ada' }] }));
  const down: WireLog = { out: [], in: [] };
  await client.connect(recorded(new StreamableHttpClientTransport(`${bridgeHttp.url}/mcp`), down));
  cleanup.push(() => client.close());
  return { direction, client, upstream, down, up, ...counters, openUpstreamRequests: () => openUpstream };
}

/** The methods of the requests and notifications in `messages`, in order. */
export function methods(messages: readonly JSONRPCMessage[]): string[] {
  return messages.flatMap((message) => ('method' in message ? [message.method] : []));
}

/**
 * How an input request (`elicitation/create`, `sampling/createMessage`, `roots/list`) crossed one hop, as
 * seen from the side that received it: a server→client request, or an `input_required` result the
 * client answered by re-sending its request.
 */
export function inputPath(log: WireLog, method: string): string {
  if (methods(log.in).includes(method)) return `${method} request`;
  const deferred = log.in.some(
    (message) =>
      'result' in message && (message.result as { resultType?: unknown }).resultType === 'input_required',
  );
  return deferred ? 'input_required' : 'none';
}
