import { context, type Span, trace } from '@opentelemetry/api';
import { AsyncLocalStorageContextManager } from '@opentelemetry/context-async-hooks';
import { W3CTraceContextPropagator } from '@opentelemetry/core';
import {
  BasicTracerProvider,
  InMemorySpanExporter,
  type ReadableSpan,
  SimpleSpanProcessor,
} from '@opentelemetry/sdk-trace-base';
import { Client } from '@x/client';
import type { JSONRPCMessage } from '@x/protocol';
import { McpServer } from '@x/server';
import { createStreamableHttpHandler, StreamableHttpClientTransport } from '@x/transport-streamable-http';
import { toNodeHandler } from '@x/transport-streamable-http/node';
import { WebSocketClientTransport } from '@x/transport-ws';
import { listenWebSocket } from '@x/transport-ws/node';
import { startHttpServer } from '@x/test-kit';
import { afterAll, afterEach, beforeAll, describe, expect, it } from 'vitest';
import { z } from 'zod';
import { mcpTracing } from '../src/index.js';

// Issue 28 §5: trace context in `_meta` (2026-07-28 basic/index "Reserved keys": `traceparent`,
// `tracestate`, `baggage` "reserved for OpenTelemetry trace context propagation … MUST follow W3C
// Trace Context") and a span per request on both sides, asserted across real transports.

const exporter = new InMemorySpanExporter();
const provider = new BasicTracerProvider({ spanProcessors: [new SimpleSpanProcessor(exporter)] });
const propagator = new W3CTraceContextPropagator();
const manager = new AsyncLocalStorageContextManager();
const tracing = () => mcpTracing({ tracerProvider: provider, propagator });
const app = provider.getTracer('app');

beforeAll(() => {
  context.setGlobalContextManager(manager.enable());
});
afterAll(() => {
  context.disable();
});

const cleanup: Array<() => unknown> = [];
afterEach(async () => {
  for (const close of cleanup.splice(0).reverse()) await close();
  exporter.reset();
});

function server(): McpServer {
  const mcp = new McpServer({ name: 'traced', version: '1.0.0' });
  mcp.registerTool('echo', { inputSchema: z.object({ text: z.string() }) }, async ({ text }) => {
    // A span the handler starts nests under the server's request span.
    const inner = app.startSpan('lookup');
    await Promise.resolve();
    inner.end();
    return { content: [{ type: 'text', text }] };
  });
  mcp.registerTool('fail', { inputSchema: z.object({}) }, () => {
    throw new Error('nope');
  });
  mcp.use(tracing());
  return mcp;
}

function parentOf(span: ReadableSpan): string | undefined {
  return span.parentSpanContext?.spanId;
}

async function traced(run: () => Promise<unknown>): Promise<Span> {
  return app.startActiveSpan('app', async (span) => {
    try {
      await run();
    } finally {
      span.end();
    }
    return span;
  });
}

function assertChain(appSpan: Span): void {
  const spans = exporter.getFinishedSpans();
  const byName = (name: string, kind?: number) =>
    spans.find((span) => span.name === name && (kind === undefined || span.kind === kind));
  const clientSpan = byName('tools/call echo', 2); // SpanKind.CLIENT
  const serverSpan = byName('tools/call echo', 1); // SpanKind.SERVER
  const inner = byName('lookup');
  const traceId = appSpan.spanContext().traceId;
  expect(clientSpan?.spanContext().traceId).toBe(traceId);
  expect(parentOf(clientSpan as ReadableSpan)).toBe(appSpan.spanContext().spanId);
  expect(serverSpan?.spanContext().traceId).toBe(traceId);
  expect(parentOf(serverSpan as ReadableSpan)).toBe(clientSpan?.spanContext().spanId);
  expect(parentOf(inner as ReadableSpan)).toBe(serverSpan?.spanContext().spanId);
  expect(serverSpan?.attributes).toMatchObject({
    'mcp.method.name': 'tools/call',
    'gen_ai.tool.name': 'echo',
  });
}

describe('mcpTracing over real transports', () => {
  it('WebSocket, legacy: client span → server span → handler span, one trace; traceparent in _meta', async () => {
    const mcp = server();
    const listener = await listenWebSocket({ port: 0, onsession: (t) => mcp.connect(t) });
    cleanup.push(() => listener.close());
    const client = new Client({ name: 'c', version: '1' }, { protocolVersion: 'legacy' });
    client.use(tracing());
    const sent: JSONRPCMessage[] = [];
    const transport = new WebSocketClientTransport(listener.url as URL);
    const send = transport.send.bind(transport);
    transport.send = (message, options) => {
      sent.push(message);
      return send(message, options);
    };
    await client.connect(transport);
    cleanup.push(() => client.close());
    const appSpan = await traced(() => client.callTool({ name: 'echo', arguments: { text: 'hi' } }));
    assertChain(appSpan);
    const call = sent.find((message) => 'method' in message && message.method === 'tools/call');
    const meta = (call as unknown as { params: { _meta: Record<string, string> } }).params._meta;
    expect(meta['traceparent']).toMatch(new RegExp(`^00-${appSpan.spanContext().traceId}-[0-9a-f]{16}-01$`));
  });

  it('Streamable HTTP, 2026-07-28: the same chain, alongside the per-request _meta envelope', async () => {
    const mcp = server();
    const handler = createStreamableHttpHandler({ onsession: (t) => mcp.connect(t) });
    const http = await startHttpServer(toNodeHandler(handler));
    cleanup.push(async () => {
      await handler.close();
      await http.close();
    });
    const client = new Client({ name: 'c', version: '1' }, { protocolVersion: 'modern' });
    client.use(tracing());
    await client.connect(new StreamableHttpClientTransport(`${http.url}/mcp`));
    cleanup.push(() => client.close());
    const appSpan = await traced(() => client.callTool({ name: 'echo', arguments: { text: 'hi' } }));
    assertChain(appSpan);
  });

  it('records a failed request on both sides as an error span', async () => {
    const mcp = server();
    const listener = await listenWebSocket({ port: 0, onsession: (t) => mcp.connect(t) });
    cleanup.push(() => listener.close());
    const client = new Client({ name: 'c', version: '1' });
    client.use(tracing());
    await client.connect(new WebSocketClientTransport(listener.url as URL));
    cleanup.push(() => client.close());
    await expect(client.request({ method: 'tools/call', params: { name: 'nope' } })).rejects.toThrow();
    const failed = exporter.getFinishedSpans().filter((span) => span.name === 'tools/call nope');
    expect(failed).toHaveLength(2);
    for (const span of failed) {
      expect(span.status.code).toBe(2); // SpanStatusCode.ERROR
      expect(span.attributes['rpc.jsonrpc.error_code']).toBe(-32602);
    }
  });

  it('without an SDK registered it costs no wire change beyond a no-op: nothing breaks', async () => {
    const mcp = new McpServer({ name: 'plain', version: '1' });
    mcp.registerTool('echo', { inputSchema: z.object({ text: z.string() }) }, ({ text }) => ({
      content: [{ type: 'text', text }],
    }));
    mcp.use(mcpTracing()); // global provider and propagator: the API's no-ops
    const listener = await listenWebSocket({ port: 0, onsession: (t) => mcp.connect(t) });
    cleanup.push(() => listener.close());
    const client = new Client({ name: 'c', version: '1' });
    client.use(mcpTracing());
    await client.connect(new WebSocketClientTransport(listener.url as URL));
    cleanup.push(() => client.close());
    await expect(client.callTool({ name: 'echo', arguments: { text: 'ok' } })).resolves.toMatchObject({
      content: [{ text: 'ok' }],
    });
    expect(trace.getActiveSpan()).toBeUndefined();
  });
});
