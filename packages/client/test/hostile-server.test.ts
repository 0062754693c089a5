import {
  ErrorCode,
  InMemoryTransport,
  type JSONRPCMessage,
  type JSONRPCRequest,
  McpError,
} from '@x/protocol';
import { afterEach, describe, expect, it, vi } from 'vitest';
import { Client } from '../src/index.js';
import { CLIENT_INFO, SERVER_INFO } from './helpers.js';

/**
 * A server scripted message by message: `answer` gets each request the client sends and returns the raw
 * messages to put on the wire, so a test can send what no conforming server would (issue #24).
 */
async function scriptedServer(
  answer: (request: JSONRPCRequest, send: (message: unknown) => void) => unknown[] | undefined,
) {
  const [clientSide, serverSide] = InMemoryTransport.createLinkedPair();
  const send = (message: unknown) => void serverSide.send(message as JSONRPCMessage).catch(() => {});
  /** What the client answered to the server's requests. */
  const responses: JSONRPCMessage[] = [];
  serverSide.onmessage = (message) => {
    if (!('method' in message)) responses.push(message);
    if (!('method' in message) || !('id' in message)) return;
    for (const reply of answer(message, send) ?? []) send(reply);
  };
  await serverSide.start();
  return { transport: clientSide, send, responses };
}

const MODERN_META = { 'io.modelcontextprotocol/serverInfo': SERVER_INFO };

function discover(request: JSONRPCRequest) {
  return {
    jsonrpc: '2.0',
    id: request.id,
    result: {
      resultType: 'complete',
      supportedVersions: ['2026-07-28'],
      capabilities: { tools: {}, prompts: {}, resources: {} },
      _meta: MODERN_META,
      ttlMs: 0,
    },
  };
}

function initialize(request: JSONRPCRequest) {
  return {
    jsonrpc: '2.0',
    id: request.id,
    result: {
      protocolVersion: '2025-11-25',
      capabilities: { tools: {}, prompts: {}, resources: {} },
      serverInfo: SERVER_INFO,
    },
  };
}

type Era = 'modern' | 'legacy';

/** A client connected to a server that answers `method` with `result` (raw), in the given era. */
async function clientFacing(era: Era, results: Record<string, unknown>) {
  const errors: Error[] = [];
  const server = await scriptedServer((request) => {
    if (request.method === 'server/discover') {
      return era === 'modern'
        ? [discover(request)]
        : [{ jsonrpc: '2.0', id: request.id, error: { code: -32601, message: 'Method not found' } }];
    }
    if (request.method === 'initialize') return [initialize(request)];
    if (Object.hasOwn(results, request.method)) {
      return [{ jsonrpc: '2.0', id: request.id, result: results[request.method] }];
    }
    return [{ jsonrpc: '2.0', id: request.id, error: { code: -32601, message: 'Method not found' } }];
  });
  const client = new Client(CLIENT_INFO, { timeout: 5_000 });
  client.onerror = (error) => errors.push(error);
  await client.connect(server.transport);
  clients.push(client);
  return { client, errors, server };
}

const clients: Client[] = [];
afterEach(async () => {
  for (const client of clients.splice(0)) await client.close();
});

async function rejection(promise: Promise<unknown>): Promise<McpError> {
  const error = await promise.then(
    () => undefined,
    (e: unknown) => e,
  );
  expect(error).toBeInstanceOf(McpError);
  return error as McpError;
}

describe.each(['modern', 'legacy'] as const)('a %s server sending malformed results', (era) => {
  const complete = (result: Record<string, unknown>) =>
    era === 'modern' ? { resultType: 'complete', _meta: MODERN_META, ...result } : result;

  it('tools/call, prompts/get, resources/read results that fail their schema are -32603 naming the method', async () => {
    const { client } = await clientFacing(era, {
      'tools/call': complete({ content: 'not-an-array' }),
      'prompts/get': complete({ messages: 'nope' }),
      'resources/read': complete({ contents: [{ uri: 7 }] }),
    });
    const tool = await rejection(client.callTool({ name: 'x', arguments: {} }));
    expect(tool.code).toBe(ErrorCode.InternalError);
    expect(tool.message).toMatch(/^Invalid result for tools\/call from the server: .*content/);
    const prompt = await rejection(client.getPrompt({ name: 'x' }));
    expect(prompt.code).toBe(ErrorCode.InternalError);
    expect(prompt.message).toMatch(/^Invalid result for prompts\/get from the server: .*messages/);
    const read = await rejection(client.readResource({ uri: 'test://x' }));
    expect(read.code).toBe(ErrorCode.InternalError);
    expect(read.message).toMatch(/^Invalid result for resources\/read from the server: /);
  });

  it.each([
    ['null', null],
    ['an array', []],
    ['a string', 'text'],
    ['a number', 42],
  ])('a result that is %s is -32603 naming the method and the server, not a TypeError', async (_, value) => {
    const { client } = await clientFacing(era, { 'tools/call': value, 'tools/list': value });
    for (const call of [() => client.callTool({ name: 'x', arguments: {} }), () => client.listTools()]) {
      const error = await rejection(call());
      expect(error.code).toBe(ErrorCode.InternalError);
      expect(error.message).toMatch(/^Invalid result for tools\/(call|list) from the server: /);
      expect(error.message).not.toMatch(/Cannot read properties/);
    }
  });

  it('an input_required result is accepted only when resultType says so', async () => {
    if (era === 'legacy') return;
    const { client } = await clientFacing(era, {
      'tools/call': { resultType: 'input_required', _meta: MODERN_META, inputRequests: 'nope' },
    });
    const error = await rejection(client.callTool({ name: 'x', arguments: {} }));
    expect(error.code).toBe(ErrorCode.InternalError);
    expect(error.message).toMatch(/^Invalid result for tools\/call from the server: .*inputRequests/);
  });
});

describe('a hostile server never crashes the client', () => {
  it('ignores (and reports) responses with unknown, huge or odd ids, and responses to notifications', async () => {
    const { client, errors, server } = await clientFacing('modern', {
      'tools/list': { resultType: 'complete', _meta: MODERN_META, tools: [], ttlMs: 0 },
    });
    const before = errors.length;
    server.send({ jsonrpc: '2.0', id: 123_456_789, result: {} });
    server.send({ jsonrpc: '2.0', id: 'x'.repeat(200_000), result: {} });
    server.send({ jsonrpc: '2.0', id: Number.MAX_SAFE_INTEGER * 4, result: {} });
    server.send({ jsonrpc: '2.0', id: -1, error: { code: -1, message: 'no' } });
    server.send({ jsonrpc: '2.0', id: null, error: { code: -32700, message: 'Parse error' } });
    server.send({ jsonrpc: '2.0', result: {} });
    await expect(client.listTools()).resolves.toMatchObject({ tools: [] });
    expect(errors.length).toBeGreaterThan(before);
    // A quoted huge id is not echoed whole into an error message.
    for (const error of errors) expect(error.message.length).toBeLessThan(1_000);
  });
});

describe('names a server chooses that are Object.prototype properties', () => {
  const HOSTILE = ['constructor', 'toString', '__proto__', 'hasOwnProperty', 'valueOf'];

  it('input request keys and elicitation fields by those names are answered as ordinary keys', async () => {
    // Built from text, as a wire transport would: `__proto__` becomes an own key.
    const hostile = JSON.parse(
      `{"resultType":"input_required","_meta":${JSON.stringify(MODERN_META)},"inputRequests":{${HOSTILE.map(
        (name) =>
          `${JSON.stringify(name)}:{"method":"elicitation/create","params":{"mode":"form","message":"Fill in","requestedSchema":{"type":"object","properties":{${HOSTILE.map(
            (field) => `${JSON.stringify(field)}:{"type":"string","default":"default-${field}"}`,
          ).join(',')}}}}}`,
      ).join(',')}}}`,
    );
    let retry: Record<string, unknown> | undefined;
    const server = await scriptedServer((request) => {
      if (request.method === 'server/discover') return [discover(request)];
      if (request.method !== 'tools/call') return [];
      if (request.params?.['inputResponses'] === undefined) {
        return [{ jsonrpc: '2.0', id: request.id, result: hostile }];
      }
      // What a wire transport would carry.
      retry = JSON.parse(JSON.stringify(request.params));
      return [
        {
          jsonrpc: '2.0',
          id: request.id,
          result: { resultType: 'complete', _meta: MODERN_META, content: [] },
        },
      ];
    });
    const client = new Client(CLIENT_INFO, { timeout: 5_000 });
    clients.push(client);
    client.setElicitationHandler(() => ({ action: 'accept', content: {} }));
    await client.connect(server.transport);
    await expect(client.callTool({ name: 'x', arguments: {} })).resolves.toMatchObject({ content: [] });
    const responses = retry?.['inputResponses'] as Record<string, { content: Record<string, unknown> }>;
    expect(Object.keys(responses).sort()).toEqual([...HOSTILE].sort());
    for (const name of HOSTILE) {
      expect(Object.hasOwn(responses, name)).toBe(true);
      const content = responses[name]!.content;
      expect(Object.keys(content).sort()).toEqual([...HOSTILE].sort());
      for (const field of HOSTILE)
        expect(Object.getOwnPropertyDescriptor(content, field)?.value).toBe(`default-${field}`);
    }
  });
});

describe('hostile requests and notifications from the server', () => {
  const JUNK: unknown[] = [
    null,
    5,
    'x',
    [],
    {},
    { constructor: 1 },
    { __proto__: null },
    { progressToken: {} },
  ];

  it.each(['modern', 'legacy'] as const)(
    '%s: junk requests are answered with errors, junk notifications are reported, and the client keeps working',
    async (era) => {
      const { client, errors, server } = await clientFacing(era, {
        'tools/list':
          era === 'modern'
            ? { resultType: 'complete', _meta: MODERN_META, tools: [], ttlMs: 0 }
            : { tools: [] },
      });
      client.setElicitationHandler(() => ({ action: 'decline' }));
      const answers = server.responses;
      const answeredIds = () => new Set(answers.map((answer) => ('id' in answer ? answer.id : undefined)));
      let id = 1000;
      const methods = [
        'sampling/createMessage',
        'elicitation/create',
        'roots/list',
        'ping',
        'constructor',
        '__proto__',
        'tasks/get',
        'tasks/result',
      ];
      const sentIds: number[] = [];
      for (const method of methods) {
        for (const params of JUNK) {
          sentIds.push(id);
          server.send({ jsonrpc: '2.0', id: id++, method, params });
        }
      }
      const notifications = [
        'notifications/progress',
        'notifications/cancelled',
        'notifications/message',
        'notifications/resources/updated',
        'notifications/tools/list_changed',
        'notifications/subscriptions/acknowledged',
        'notifications/tasks/status',
        'notifications/elicitation/complete',
        'toString',
      ];
      for (const method of notifications)
        for (const params of JUNK) server.send({ jsonrpc: '2.0', method, params });
      await expect(client.listTools()).resolves.toMatchObject({ tools: [] });
      await vi.waitFor(() => expect(sentIds.every((sent) => answeredIds().has(sent))).toBe(true));
      // Every junk request got exactly one answer.
      expect(answers.filter((answer) => 'id' in answer && Number(answer.id) >= 1000)).toHaveLength(
        sentIds.length,
      );
      for (const answer of answers) expect(answer).toHaveProperty('jsonrpc', '2.0');
      expect(errors.every((error) => error instanceof Error)).toBe(true);
    },
  );
});

describe('connecting to a server whose server/discover answer is malformed (issue #24 item 14)', () => {
  async function connectTo(discoverResult: unknown, initializeWorks: boolean) {
    const server = await scriptedServer((request) => {
      if (request.method === 'server/discover')
        return [{ jsonrpc: '2.0', id: request.id, result: discoverResult }];
      if (request.method === 'initialize' && initializeWorks) return [initialize(request)];
      return [
        {
          jsonrpc: '2.0',
          id: request.id,
          error: { code: -32601, message: `Method not found: ${request.method}` },
        },
      ];
    });
    const client = new Client(CLIENT_INFO, { timeout: 5_000 });
    clients.push(client);
    return client.connect(server.transport).then(
      () => client,
      (error: unknown) => error,
    );
  }
  const valid = { supportedVersions: ['2026-07-28'], capabilities: {}, _meta: MODERN_META };

  it.each([['input_required'], ['weird']])(
    'a discover result with resultType %s is not modern',
    async (resultType) => {
      const client = await connectTo({ ...valid, resultType }, true);
      expect(client).toBeInstanceOf(Client);
      expect((client as Client).protocolVersion).toBe('2025-11-25');
    },
  );

  it('when initialize fails too, the error names both failures', async () => {
    const error = await connectTo({ ...valid, capabilities: null }, false);
    expect(error).toBeInstanceOf(McpError);
    expect((error as McpError).code).toBe(ErrorCode.MethodNotFound);
    expect((error as McpError).message).toBe(
      'Method not found: initialize (initialize, tried after server/discover failed: Invalid result for server/discover from the server: capabilities: Invalid input: expected object, received null)',
    );
  });
});
