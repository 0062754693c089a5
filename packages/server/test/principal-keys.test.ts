import type { JSONRPCRequest, RequestContext } from '@x/protocol';
import { describe, expect, it } from 'vitest';
import { callerKey } from '../src/index.js';
import { createTask, ErrorCode, errorOf, session, taskServer } from './tasks-fixture.js';

// Issue #35, finding 14: task owners and rate-limit callers were `auth:${clientId}:sub:${sub}` and
// `principal:${clientId}:${sub}`, so a chosen clientId or sub could spell another pair's key.

const as = (clientId: string, extra: Record<string, unknown>) => ({
  authInfo: { token: `token-${clientId}-${JSON.stringify(extra)}`, clientId, scopes: [], extra },
});

describe('task owners cannot collide', () => {
  it("a principal whose clientId and sub spell another's old key cannot reach that principal's task", async () => {
    const { server, gate } = taskServer();
    // Old key of both: auth:a:sub:b:sub:c
    const owner = await session(server, { extra: as('a:sub:b', { sub: 'c' }) });
    const forger = await session(server, { extra: as('a', { sub: 'b:sub:c' }) });
    const { taskId } = await createTask(owner, 'slow', { arguments: { text: 'secret' } });
    expect((await errorOf(forger.call('tasks/get', { taskId }))).code).toBe(ErrorCode.InvalidParams);
    expect(await forger.call('tasks/list')).toEqual({ tasks: [] });
    expect(await owner.call('tasks/get', { taskId })).toMatchObject({ taskId });
    gate.open();
  });

  it('binds a task to the user named by extra.userId too, as sessions are, across tokens', async () => {
    const { server, gate } = taskServer();
    const first = await session(server, {
      extra: { authInfo: { token: 'token-1', clientId: 'app', scopes: [], extra: { userId: 'u-1' } } },
    });
    const refreshed = await session(server, {
      extra: { authInfo: { token: 'token-2', clientId: 'app', scopes: [], extra: { userId: 'u-1' } } },
    });
    const other = await session(server, {
      extra: { authInfo: { token: 'token-3', clientId: 'app', scopes: [], extra: { userId: 'u-2' } } },
    });
    const { taskId } = await createTask(first, 'slow', { arguments: { text: 'x' } });
    expect(await refreshed.call('tasks/get', { taskId })).toMatchObject({ taskId });
    expect((await errorOf(other.call('tasks/get', { taskId }))).code).toBe(ErrorCode.InvalidParams);
    gate.open();
  });
});

describe('rateLimit callerKey cannot collide', () => {
  const request = { jsonrpc: '2.0', id: 1, method: 'tools/call' } as JSONRPCRequest;
  const ctx = (authInfo: RequestContext['authInfo'], sessionId?: string) =>
    ({ authInfo, sessionId }) as unknown as RequestContext;
  const auth = (clientId: string, sub?: string) => ({
    token: 't',
    clientId,
    scopes: [],
    ...(sub === undefined ? {} : { extra: { sub } }),
  });

  it('gives distinct (clientId, sub) pairs distinct keys, whatever they contain', () => {
    const keys = [
      callerKey(request, ctx(auth('a:b', 'c'))),
      callerKey(request, ctx(auth('a', 'b:c'))),
      callerKey(request, ctx(auth('a:b:c'))),
      callerKey(request, ctx(undefined, 'a:b:c')),
      callerKey(request, ctx(undefined)),
    ];
    expect(new Set(keys).size).toBe(keys.length);
    expect(callerKey(request, ctx(auth('app', 'alice')))).toBe('p:["app","alice"]');
    // A stateless anonymous request: the address the transport resolved, not one shared bucket.
    const anonymous = {
      authInfo: undefined,
      sessionId: undefined,
      requestInfo: { headers: {}, clientAddress: '203.0.113.7' },
    };
    expect(callerKey(request, anonymous as unknown as RequestContext)).toBe('a:203.0.113.7');
  });
});
