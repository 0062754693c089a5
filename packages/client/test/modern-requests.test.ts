import { ErrorCode, type JSONRPCRequest, McpError, type Protocol } from '@x/protocol';
import { afterEach, describe, expect, it, vi } from 'vitest';
import { Client, InputRoundsExceededError, MethodNotSupportedError } from '../src/index.js';
import { CLIENT_INFO, fakeServer, modernDiscover, text } from './helpers.js';
import { afterTimeouts } from '@x/test-kit';

async function modernClient(
  setup: (server: Protocol) => void,
  options: ConstructorParameters<typeof Client>[1] = {},
) {
  const peer = await fakeServer((server) => {
    modernDiscover(server);
    setup(server);
  });
  const client = new Client(CLIENT_INFO, options);
  return {
    client,
    ...peer,
    connect: async () => {
      await client.connect(peer.transport);
      peer.wire.length = 0;
    },
  };
}

const meta = (request: JSONRPCRequest | undefined) => request?.params?.['_meta'] as Record<string, unknown>;
const STATE = 'eyJrIjoidiJ9.c2lnbmF0dXJl+/==\u00e9 ';

describe('modern era requests', () => {
  afterEach(() => vi.useRealTimers());

  it('puts the _meta envelope on every request, with logLevel once set', async () => {
    const { client, connect, requests } = await modernClient((server) => {
      server.setRequestHandler('tools/list', () => ({
        resultType: 'complete',
        tools: [],
        ttlMs: 0,
        cacheScope: 'public',
      }));
      server.setRequestHandler('prompts/get', () => ({ resultType: 'complete', messages: [] }));
    });
    client.setSamplingHandler(() => ({ role: 'assistant', content: text('x'), model: 'm' }));
    await connect();
    await client.listTools();
    client.logLevel = 'debug';
    await client.getPrompt({ name: 'p', _meta: { traceparent: '00-abc-def-01' } });
    const [list, get] = [requests('tools/list')[0], requests('prompts/get')[0]];
    expect(meta(list)).toEqual({
      'io.modelcontextprotocol/protocolVersion': '2026-07-28',
      // Asked although no onprogress was given: progress keeps a long request alive.
      progressToken: list?.id,
      // The client follows task handles, so it declares the tasks extension (SEP-2663).
      'io.modelcontextprotocol/clientCapabilities': {
        sampling: {},
        extensions: { 'io.modelcontextprotocol/tasks': {} },
      },
      'io.modelcontextprotocol/clientInfo': CLIENT_INFO,
    });
    expect(meta(get)).toEqual({
      ...meta(list),
      progressToken: get?.id,
      'io.modelcontextprotocol/logLevel': 'debug',
      traceparent: '00-abc-def-01',
    });
  });

  it('refuses methods 2026-07-28 removed, before anything reaches the wire', async () => {
    const { client, connect, wire } = await modernClient(() => {});
    await connect();
    await expect(client.ping()).rejects.toBeInstanceOf(MethodNotSupportedError);
    await expect(client.setLoggingLevel('info')).rejects.toThrow(/client\.logLevel/);
    await expect(client.subscribeResource({ uri: 'a:1' })).rejects.toThrow(/listen/);
    await expect(client.unsubscribeResource({ uri: 'a:1' })).rejects.toBeInstanceOf(MethodNotSupportedError);
    await expect(client.sendRootsListChanged()).rejects.toBeInstanceOf(MethodNotSupportedError);
    await expect(
      client.request({
        method: 'initialize',
        params: { protocolVersion: 'x', capabilities: {}, clientInfo: CLIENT_INFO },
      }),
    ).rejects.toBeInstanceOf(MethodNotSupportedError);
    expect(wire).toEqual([]);
  });

  it('fulfils input_required through the handlers and retries with fresh ids and the exact requestState', async () => {
    const { client, connect, requests } = await modernClient((server) => {
      server.setRequestHandler('tools/call', (params) => {
        if (params['requestState'] === undefined) {
          return {
            resultType: 'input_required',
            inputRequests: {
              login: {
                method: 'elicitation/create',
                params: {
                  mode: 'form',
                  message: 'GitHub user?',
                  requestedSchema: {
                    type: 'object',
                    properties: { name: { type: 'string' }, org: { type: 'string', default: 'acme' } },
                  },
                },
              },
              roots: { method: 'roots/list' },
            },
            requestState: STATE,
          };
        }
        if (params['requestState'] === STATE)
          return { resultType: 'input_required', requestState: `${STATE}2` };
        return { resultType: 'complete', content: [text(JSON.stringify(params['inputResponses'] ?? null))] };
      });
    });
    client.setElicitationHandler(() => ({ action: 'accept', content: { name: 'octocat' } }));
    client.setRootsHandler(() => ({ roots: [{ uri: 'file:///src' }] }));
    await connect();
    const result = await client.callTool({ name: 'deploy', arguments: { env: 'prod' } });
    expect(result.content).toEqual([text('null')]);

    const calls = requests('tools/call');
    expect(calls.map((c) => c.id)).toEqual([1, 2, 3].map((n) => Number(calls[0]!.id) + n - 1));
    expect(calls[1]?.params).toEqual({
      name: 'deploy',
      arguments: { env: 'prod' },
      inputResponses: {
        login: { action: 'accept', content: { name: 'octocat', org: 'acme' } },
        roots: { roots: [{ uri: 'file:///src' }] },
      },
      requestState: STATE,
      _meta: { ...meta(calls[0]), progressToken: calls[1]?.id },
    });
    // A round without inputRequests is retried at once, echoing only the new state.
    expect(calls[2]?.params).toEqual({
      name: 'deploy',
      arguments: { env: 'prod' },
      requestState: `${STATE}2`,
      _meta: { ...meta(calls[0]), progressToken: calls[2]?.id },
    });
    expect(meta(calls[0])?.['io.modelcontextprotocol/clientCapabilities']).toEqual({
      elicitation: { form: {} },
      roots: {},
      extensions: { 'io.modelcontextprotocol/tasks': {} },
    });
  });

  it('gives up after maxInputRounds', async () => {
    const { client, connect, requests } = await modernClient(
      (server) =>
        server.setRequestHandler('tools/call', () => ({
          resultType: 'input_required',
          requestState: 'again',
        })),
      { maxInputRounds: 2 },
    );
    await connect();
    await expect(client.callTool({ name: 'loop' })).rejects.toBeInstanceOf(InputRoundsExceededError);
    expect(requests('tools/call')).toHaveLength(3);
  });

  it('rejects unknown result types and input_required on methods that may not use it', async () => {
    const { client, connect } = await modernClient((server) => {
      server.setRequestHandler('tools/call', () => ({ resultType: 'task', content: [] }));
      server.setRequestHandler('completion/complete', () => ({
        resultType: 'input_required',
        requestState: 's',
        completion: { values: [] },
      }));
    });
    await connect();
    // A task handle is valid for tools/call (SEP-2663), but this one is not a task.
    await expect(client.callTool({ name: 'x' })).rejects.toThrow(/Invalid task in the tools\/call result/);
    await expect(
      client.complete({ ref: { type: 'ref/prompt', name: 'p' }, argument: { name: 'a', value: '' } }),
    ).rejects.toThrow(/Invalid resultType "input_required"/);
  });

  it('retries once after -32022 with a version from the supported list', async () => {
    let refused = 0;
    const { client, connect, requests } = await modernClient((server) =>
      server.setRequestHandler('tools/call', () => {
        if (refused++ === 0) {
          throw new McpError(ErrorCode.UnsupportedProtocolVersion, 'Unsupported protocol version', {
            supported: ['2026-07-28', '2025-11-25'],
            requested: '2026-07-28',
          });
        }
        return { resultType: 'complete', content: [text('ok')] };
      }),
    );
    await connect();
    expect((await client.callTool({ name: 't' })).content).toEqual([text('ok')]);
    const calls = requests('tools/call');
    expect(calls).toHaveLength(2);
    expect(calls[0]?.id).not.toBe(calls[1]?.id);
    expect(meta(calls[1])?.['io.modelcontextprotocol/protocolVersion']).toBe('2026-07-28');
  });

  it('serves fresh cacheable results from memory until ttlMs passes or list_changed arrives', async () => {
    vi.useFakeTimers({ toFake: ['Date'] });
    let reads = 0;
    const { client, connect, requests, server } = await modernClient((s) => {
      s.setRequestHandler('tools/list', () => ({
        resultType: 'complete',
        tools: [],
        ttlMs: 1_000,
        cacheScope: 'public',
      }));
      s.setRequestHandler('resources/read', (p) =>
        reads++ === 0
          ? { resultType: 'input_required', requestState: 'r' }
          : {
              resultType: 'complete',
              contents: [{ uri: p['uri'], text: 'x' }],
              ttlMs: 60_000,
              cacheScope: 'private',
            },
      );
    });
    await connect();
    await client.listTools();
    await client.listTools();
    expect(requests('tools/list')).toHaveLength(1);
    vi.setSystemTime(Date.now() + 1_001);
    await client.listTools();
    expect(requests('tools/list')).toHaveLength(2);
    await server.notification({ method: 'notifications/tools/list_changed' });
    await afterTimeouts();
    await client.listTools();
    expect(requests('tools/list')).toHaveLength(3);
    await client.listTools({}, { fresh: true });
    expect(requests('tools/list')).toHaveLength(4);
    // A result reached through an input retry depends on inputs outside the key: never cached.
    await client.readResource({ uri: 'a:1' });
    await client.readResource({ uri: 'a:1' });
    expect(requests('resources/read')).toHaveLength(3);
  });

  it('drops tools with invalid x-mcp-header annotations, with a warning', async () => {
    const warnings: string[] = [];
    const schema = (properties: Record<string, unknown>) => ({ type: 'object', properties });
    const { client, connect } = await modernClient(
      (server) =>
        server.setRequestHandler('tools/list', () => ({
          resultType: 'complete',
          ttlMs: 0,
          cacheScope: 'public',
          tools: [
            {
              name: 'ok',
              inputSchema: schema({
                region: { type: 'string', 'x-mcp-header': 'Region' },
                q: { type: 'string' },
              }),
            },
            { name: 'space', inputSchema: schema({ a: { type: 'string', 'x-mcp-header': 'Bad Header' } }) },
            {
              name: 'dupe',
              inputSchema: schema({
                a: { type: 'string', 'x-mcp-header': 'Id' },
                b: { type: 'integer', 'x-mcp-header': 'ID' },
              }),
            },
            { name: 'number', inputSchema: schema({ a: { type: 'number', 'x-mcp-header': 'N' } }) },
            {
              name: 'nested',
              inputSchema: schema({ a: { type: 'array', items: { type: 'string', 'x-mcp-header': 'I' } } }),
            },
            {
              name: 'deep',
              inputSchema: schema({
                a: { type: 'object', properties: { b: { type: 'boolean', 'x-mcp-header': 'B' } } },
              }),
            },
          ],
        })),
      { onwarning: (message) => warnings.push(message) },
    );
    await connect();
    const { tools } = await client.listTools();
    expect(tools.map((t) => t.name)).toEqual(['ok', 'deep']);
    expect(warnings).toEqual([
      expect.stringMatching(/"space".*not a non-empty RFC 9110 token/),
      expect.stringMatching(/"dupe".*"ID" on "b" is not unique/),
      expect.stringMatching(/"number".*needs type string, integer or boolean/),
      expect.stringMatching(/"nested".*not statically reachable/),
    ]);
  });
});
