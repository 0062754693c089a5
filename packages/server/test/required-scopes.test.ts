import { type AuthInfo, ErrorCode, isInsufficientScope, McpError } from '@x/protocol';
import { afterEach, describe, expect, it } from 'vitest';
import { z } from 'zod';
import { McpServer, ResourceTemplate } from '../src/index.js';
import { connect, initialize, modernMeta, type Wire } from './helpers.js';
import { session as taskSession, taskServer } from './tasks-fixture.js';

// Spec 2026-07-28 basic/authorization, "Runtime Insufficient Scope Errors": "When a client makes a
// request with an access token with insufficient scope during runtime operations, the server SHOULD
// respond with: HTTP 403 Forbidden … error="insufficient_scope" … scope="required_scope1
// required_scope2" - specifying the minimum scopes needed for the operation", and "servers SHOULD include
// all scopes required for the current operation in a single challenge". In-protocol the same facts ride
// in the error's data: -32600 with { error: 'insufficient_scope', requiredScopes, missingScopes }.

function auth(scopes: string[]): { authInfo: AuthInfo } {
  return { authInfo: { token: 'opaque', clientId: 'app', scopes } };
}

const text = (value: string) => ({ content: [{ type: 'text' as const, text: value }] });

let calls: string[] = [];
const open: Wire[] = [];

function build(): McpServer {
  calls = [];
  const server = new McpServer({ name: 'scoped', version: '1.0.0' });
  server.registerTool('open', {}, () => {
    calls.push('open');
    return text('open');
  });
  server.registerTool('wipe', { requiredScopes: ['mcp:admin', 'mcp:write'] }, () => {
    calls.push('wipe');
    return text('wiped');
  });
  server.registerTool('constructor', { requiredScopes: ['mcp:proto'] }, () => text('ctor'));
  server.registerPrompt(
    'secret',
    { argsSchema: z.object({ topic: z.string() }), requiredScopes: ['mcp:prompts'] },
    ({ topic }) => {
      calls.push('secret');
      return { messages: [{ role: 'user', content: { type: 'text', text: topic } }] };
    },
  );
  server.registerResource('payroll', 'file:///payroll.csv', { requiredScopes: ['hr:read'] }, (uri) => {
    calls.push('payroll');
    return { contents: [{ uri, text: 'a,b' }] };
  });
  server.registerResource(
    'user',
    new ResourceTemplate('users://{id}', { list: undefined }),
    { requiredScopes: ['users:read'] },
    (uri, { id }) => {
      calls.push(`user ${String(id)}`);
      return { contents: [{ uri, text: String(id) }] };
    },
  );
  return server;
}

async function session(server: McpServer, scopes?: string[]): Promise<Wire> {
  const wire = await connect(server, scopes === undefined ? {} : { extra: auth(scopes) });
  open.push(wire);
  await initialize(wire);
  return wire;
}

async function refusal(promise: Promise<unknown>): Promise<McpError> {
  const error = await promise.then(
    () => undefined,
    (e: unknown) => e,
  );
  expect(error).toBeInstanceOf(McpError);
  return error as McpError;
}

afterEach(async () => {
  for (const wire of open.splice(0)) await wire.client.close();
});

describe('requiredScopes in McpServer registrations', () => {
  it('refuses a tool call whose token lacks a scope, naming every required and missing scope, before the handler runs', async () => {
    const wire = await session(build(), ['mcp:write', 'mcp:read']);
    const error = await refusal(wire.call('tools/call', { name: 'wipe', arguments: {} }));
    expect(error.code).toBe(ErrorCode.InvalidRequest);
    expect(error.message).toContain('mcp:admin');
    expect(error.data).toEqual({
      error: 'insufficient_scope',
      requiredScopes: ['mcp:admin', 'mcp:write'],
      missingScopes: ['mcp:admin'],
    });
    expect(isInsufficientScope(error.data)).toBe(true);
    expect(calls).toEqual([]);
    // A tool without requiredScopes is untouched.
    await expect(wire.call('tools/call', { name: 'open' })).resolves.toMatchObject(text('open'));
  });

  it('runs the tool when the token carries every scope', async () => {
    const wire = await session(build(), ['mcp:read', 'mcp:write', 'mcp:admin']);
    await expect(wire.call('tools/call', { name: 'wipe' })).resolves.toMatchObject(text('wiped'));
    expect(calls).toEqual(['wipe']);
  });

  it('does not check callers without AuthInfo: scopes only mean something behind an authenticate hook', async () => {
    const wire = await session(build());
    await expect(wire.call('tools/call', { name: 'wipe' })).resolves.toMatchObject(text('wiped'));
  });

  it('checks 2026-07-28 requests the same way', async () => {
    const wire = await connect(build(), { extra: auth([]) });
    open.push(wire);
    const error = await refusal(wire.call('tools/call', { name: 'wipe', _meta: modernMeta() }));
    expect(error.data).toMatchObject({
      error: 'insufficient_scope',
      missingScopes: ['mcp:admin', 'mcp:write'],
    });
    expect(calls).toEqual([]);
  });

  it('checks prompts before their arguments are validated, and resources (fixed and templated) before read runs', async () => {
    const denied = await session(build(), ['mcp:read']);
    const prompt = await refusal(denied.call('prompts/get', { name: 'secret' }));
    expect(prompt.data).toMatchObject({ error: 'insufficient_scope', requiredScopes: ['mcp:prompts'] });
    const fixed = await refusal(denied.call('resources/read', { uri: 'file:///payroll.csv' }));
    expect(fixed.data).toMatchObject({ requiredScopes: ['hr:read'], missingScopes: ['hr:read'] });
    const templated = await refusal(denied.call('resources/read', { uri: 'users://42' }));
    expect(templated.data).toMatchObject({ requiredScopes: ['users:read'] });
    expect(calls).toEqual([]);

    const granted = await session(build(), ['mcp:prompts', 'hr:read', 'users:read']);
    await expect(
      granted.call('prompts/get', { name: 'secret', arguments: { topic: 'tax' } }),
    ).resolves.toMatchObject({ messages: [{ content: { text: 'tax' } }] });
    await expect(granted.call('resources/read', { uri: 'file:///payroll.csv' })).resolves.toMatchObject({
      contents: [{ text: 'a,b' }],
    });
    await expect(granted.call('resources/read', { uri: 'users://42' })).resolves.toMatchObject({
      contents: [{ text: '42' }],
    });
    expect(calls).toEqual(['secret', 'payroll', 'user 42']);
  });

  it('refuses a task-augmented call before any task exists', async () => {
    const { server } = taskServer();
    let ran = 0;
    server.registerTool(
      'audit',
      { execution: { taskSupport: 'optional' }, requiredScopes: ['audit'] },
      () => {
        ran += 1;
        return text('audited');
      },
    );
    const wire = await taskSession(server, { extra: auth(['mcp']) });
    open.push(wire);
    const error = await refusal(
      wire.call('tools/call', { name: 'audit', arguments: {}, task: { ttl: 1_000 } }),
    );
    expect(error.data).toMatchObject({ error: 'insufficient_scope', missingScopes: ['audit'] });
    expect(await wire.call('tasks/list')).toMatchObject({ tasks: [] });
    expect(ran).toBe(0);
  });

  it('does not publish requiredScopes in the lists', async () => {
    const wire = await session(build());
    const { tools } = (await wire.call('tools/list')) as { tools: Array<Record<string, unknown>> };
    expect(tools.find((t) => t['name'] === 'wipe')).not.toHaveProperty('requiredScopes');
    const { resources } = (await wire.call('resources/list')) as {
      resources: Array<Record<string, unknown>>;
    };
    expect(resources[0]).not.toHaveProperty('requiredScopes');
  });
});

describe('McpServer.requiredScopesFor', () => {
  it('answers per method and name, for fixed URIs and templates', () => {
    const server = build();
    expect(server.requiredScopesFor('tools/call', 'wipe')).toEqual(['mcp:admin', 'mcp:write']);
    expect(server.requiredScopesFor('tools/call', 'open')).toBeUndefined();
    expect(server.requiredScopesFor('prompts/get', 'secret')).toEqual(['mcp:prompts']);
    expect(server.requiredScopesFor('resources/read', 'file:///payroll.csv')).toEqual(['hr:read']);
    expect(server.requiredScopesFor('resources/read', 'users://7')).toEqual(['users:read']);
    expect(server.requiredScopesFor('resources/read', 'file:///other')).toBeUndefined();
    expect(server.requiredScopesFor('tools/list', undefined)).toBeUndefined();
    expect(server.requiredScopesFor('tools/call', undefined)).toBeUndefined();
    expect(server.requiredScopesFor('prompts/get', 'wipe')).toBeUndefined();
  });

  it('finds nothing through prototype names, and a tool really named constructor is found', async () => {
    const server = build();
    for (const name of ['toString', 'hasOwnProperty', '__proto__', 'valueOf']) {
      for (const method of ['tools/call', 'prompts/get', 'resources/read', '__proto__', 'constructor']) {
        expect(server.requiredScopesFor(method, name)).toBeUndefined();
      }
    }
    expect(server.requiredScopesFor('tools/call', 'constructor')).toEqual(['mcp:proto']);
    const wire = await session(server, []);
    const error = await refusal(wire.call('tools/call', { name: 'constructor' }));
    expect(error.data).toMatchObject({ missingScopes: ['mcp:proto'] });
    const unknown = await refusal(wire.call('tools/call', { name: 'toString' }));
    expect(unknown.code).toBe(ErrorCode.InvalidParams);
  });

  it('follows updates and disabling', () => {
    const server = new McpServer({ name: 's', version: '1' });
    const tool = server.registerTool('t', { requiredScopes: ['a'] }, () => text('t'));
    tool.update({ requiredScopes: ['a', 'b'] });
    expect(server.requiredScopesFor('tools/call', 't')).toEqual(['a', 'b']);
    tool.disable();
    expect(server.requiredScopesFor('tools/call', 't')).toBeUndefined();
    const resource = server.registerResource('r', 'x:///r', {}, (uri) => ({ contents: [{ uri, text: '' }] }));
    resource.update({ requiredScopes: ['r:read'] });
    expect(server.requiredScopesFor('resources/read', 'x:///r')).toEqual(['r:read']);
  });

  it('refuses requiredScopes that are not OAuth scope tokens at registration', () => {
    const server = new McpServer({ name: 's', version: '1' });
    expect(() => server.registerTool('a', { requiredScopes: ['two words'] }, () => text(''))).toThrow(
      /RFC 6749/,
    );
    expect(() => server.registerTool('b', { requiredScopes: [''] }, () => text(''))).toThrow(
      /requiredScopes/,
    );
    expect(() =>
      server.registerPrompt('c', { requiredScopes: 'mcp:x' as unknown as string[] }, () => ({
        messages: [],
      })),
    ).toThrow(/array/);
    expect(() =>
      server.registerResource('d', 'x:///d', { requiredScopes: ['say "hi"'] }, (uri) => ({
        contents: [{ uri, text: '' }],
      })),
    ).toThrow(/RFC 6749/);
  });
});
