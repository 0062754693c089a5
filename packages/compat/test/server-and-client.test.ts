import { Client as XClient } from '@x/client';
import { ErrorCode, InMemoryTransport, McpError } from '@x/protocol';
import { describe, expect, it } from 'vitest';
import * as z from 'zod';
import { Client } from '../src/client/index.js';
import { Server } from '../src/server/index.js';
import {
  CallToolRequestSchema,
  CreateMessageRequestSchema,
  LATEST_PROTOCOL_VERSION,
  ListToolsRequestSchema,
  LoggingMessageNotificationSchema,
  SUPPORTED_PROTOCOL_VERSIONS,
  ToolListChangedNotificationSchema,
} from '../src/types.js';

const EchoRequestSchema = z.object({
  method: z.literal('custom/echo'),
  params: z.object({ text: z.string() }),
});
const EchoResultSchema = z.object({ echoed: z.string() });

function lowLevelServer(): Server {
  const server = new Server(
    { name: 'low', version: '1.0.0' },
    { capabilities: { tools: { listChanged: true }, logging: {} } },
  );
  server.setRequestHandler(ListToolsRequestSchema, () => ({
    tools: [{ name: 'echo', inputSchema: { type: 'object', properties: { text: { type: 'string' } } } }],
  }));
  server.setRequestHandler(CallToolRequestSchema, async (request, extra) => {
    await extra.sendNotification({
      method: 'notifications/message',
      params: { level: 'info', data: 'calling' },
    });
    return {
      content: [
        { type: 'text', text: `${request.params.name}:${String(request.params.arguments?.['text'])}` },
      ],
    };
  });
  server.setRequestHandler(EchoRequestSchema, (request) => ({ echoed: request.params.text }));
  return server;
}

async function pair(server: Server, client: { connect(t: InMemoryTransport): Promise<void> }): Promise<void> {
  const [clientSide, serverSide] = InMemoryTransport.createLinkedPair();
  await server.connect(serverSide);
  await client.connect(clientSide);
}

describe('compat Server (server/index.js)', () => {
  it('keys handlers by the request schema and serves the x-mcp Client on the initialize era', async () => {
    const server = lowLevelServer();
    let initialized = 0;
    let closed = 0;
    server.oninitialized = () => initialized++;
    server.onclose = () => closed++;
    const client = new XClient({ name: 'x', version: '1.0.0' });
    await pair(server, client);
    expect(client.protocolVersion).toBe(LATEST_PROTOCOL_VERSION);
    await expect.poll(() => initialized).toBe(1);
    expect((await client.listTools()).tools.map((tool) => tool.name)).toEqual(['echo']);
    const logs: unknown[] = [];
    client.on('log', (entry) => logs.push(entry.data));
    expect((await client.callTool({ name: 'echo', arguments: { text: 'hi' } })).content).toEqual([
      { type: 'text', text: 'echo:hi' },
    ]);
    expect(logs).toEqual(['calling']);
    expect(server.getClientVersion()).toEqual({ name: 'x', version: '1.0.0' });
    await client.close();
    await expect.poll(() => closed).toBe(1);
    expect(server.transport).toBeUndefined();
  });

  it('answers a request its schema refuses with -32602 naming the field, and serves custom methods', async () => {
    const server = lowLevelServer();
    const client = new Client({ name: 'compat', version: '1.0.0' });
    await pair(server, client);
    expect(await client.request({ method: 'custom/echo', params: { text: 'ok' } }, EchoResultSchema)).toEqual(
      {
        echoed: 'ok',
      },
    );
    const refused = await client
      .request({ method: 'custom/echo', params: { text: 7 } }, EchoResultSchema)
      .catch((e) => e);
    expect(refused).toBeInstanceOf(McpError);
    expect(refused.code).toBe(ErrorCode.InvalidParams);
    expect(refused.message).toMatch(/params\.text/);
    // A result the caller's schema refuses is an InternalError naming the method, not a silent pass.
    const wrong = await client
      .request({ method: 'custom/echo', params: { text: 'x' } }, z.object({ n: z.number() }))
      .catch((e) => e);
    expect(wrong).toMatchObject({
      code: ErrorCode.InternalError,
      message: expect.stringMatching(/custom\/echo/),
    });
    await client.close();
  });

  it('refuses a schema without a method literal, and handlers of undeclared capabilities', () => {
    const server = new Server({ name: 'low', version: '1.0.0' });
    expect(() => server.setRequestHandler(z.object({ params: z.object({}) }), () => ({}))).toThrow(
      /method literal/,
    );
    expect(() => server.setRequestHandler(ListToolsRequestSchema, () => ({ tools: [] }))).toThrow(/tools/);
  });

  it('createMessage asks the connected client; before connect it fails with ConnectionClosed', async () => {
    const server = lowLevelServer();
    await expect(server.createMessage({ messages: [], maxTokens: 1 })).rejects.toMatchObject({
      code: ErrorCode.ConnectionClosed,
    });
    const client = new Client({ name: 'compat', version: '1.0.0' }, { capabilities: { sampling: {} } });
    client.setRequestHandler(CreateMessageRequestSchema, (request) => ({
      role: 'assistant',
      model: 'm',
      content: { type: 'text', text: `max ${request.params.maxTokens}` },
    }));
    await pair(server, client);
    expect((await server.createMessage({ messages: [], maxTokens: 5 })).content).toEqual({
      type: 'text',
      text: 'max 5',
    });
    await client.close();
  });
});

describe('compat Client (client/index.js)', () => {
  it('checks capabilities and methods in setRequestHandler as 1.x, with errors that say what to do', () => {
    const client = new Client({ name: 'compat', version: '1.0.0' });
    expect(() => client.setRequestHandler(CreateMessageRequestSchema, () => ({}))).toThrow(
      'Client does not support sampling capability (required for sampling/createMessage)',
    );
    expect(() => client.setRequestHandler(ListToolsRequestSchema, () => ({}))).toThrow(
      /no handler for tools\/list/,
    );
    expect(() => client.setNotificationHandler(z.object({ method: z.literal('x/y') }), () => {})).toThrow(
      /cannot handle x\/y/,
    );
  });

  it('delivers notifications through setNotificationHandler, the last handler of a method winning', async () => {
    const server = lowLevelServer();
    const client = new Client({ name: 'compat', version: '1.0.0' });
    await pair(server, client);
    const first: unknown[] = [];
    const second: unknown[] = [];
    client.setNotificationHandler(LoggingMessageNotificationSchema, (n) => first.push(n.params.data));
    client.setNotificationHandler(LoggingMessageNotificationSchema, (n) => second.push(n.params.data));
    const changed: string[] = [];
    client.setNotificationHandler(ToolListChangedNotificationSchema, (n) => changed.push(n.method));
    await client.callTool({ name: 'echo', arguments: { text: 'x' } });
    await server.sendToolListChanged();
    await expect.poll(() => changed).toEqual(['notifications/tools/list_changed']);
    expect(first).toEqual([]);
    expect(second).toEqual(['calling']);
    await client.close();
  });

  it('exports the 1.x protocol constants', () => {
    expect(LATEST_PROTOCOL_VERSION).toBe('2025-11-25');
    expect(SUPPORTED_PROTOCOL_VERSIONS).toContain('2024-11-05');
  });
});
