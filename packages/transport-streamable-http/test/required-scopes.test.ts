import type { JSONRPCMessage } from '@x/protocol';
import { describe, expect, it } from 'vitest';
import type { StreamableHttpHandlerOptions } from '../src/index.js';
import { initializeRequest, POST_HEADERS, raw, sseMessages, startServer } from './helpers.js';

// Spec 2026-07-28 (and 2025-11-25) basic/authorization, "Runtime Insufficient Scope Errors": "When a
// client makes a request with an access token with insufficient scope during runtime operations, the
// server SHOULD respond with: HTTP 403 Forbidden status code (per RFC 6750 Section 3.1); WWW-Authenticate
// header with the Bearer scheme and additional parameters: error="insufficient_scope" …
// scope="required_scope1 required_scope2" - specifying the minimum scopes needed for the operation;
// resource_metadata - the URI of the Protected Resource Metadata document".

const M = '2026-07-28';
const META = {
  'io.modelcontextprotocol/protocolVersion': M,
  'io.modelcontextprotocol/clientCapabilities': {},
};
const PRM = 'http://127.0.0.1/.well-known/oauth-protected-resource/mcp';

/** `Authorization: Bearer a,b` grants scopes a and b; no header → anonymous (no AuthInfo). */
const authenticate: StreamableHttpHandlerOptions['authenticate'] = (request) => {
  const header = request.headers.get('authorization');
  if (header === null) return undefined;
  const scopes = header.slice('Bearer '.length).split(',').filter(Boolean);
  return { token: 't', clientId: 'c', scopes };
};

const requiredScopes: StreamableHttpHandlerOptions['requiredScopes'] = ({ method, name }) =>
  method === 'tools/call' && name === 'wipe' ? ['mcp:admin', 'mcp:write'] : undefined;

function scoped(calls: string[], options: Partial<StreamableHttpHandlerOptions> = {}) {
  return startServer({
    authenticate,
    requiredScopes,
    resourceMetadataUrl: PRM,
    handlers: {
      initialize: () => ({
        protocolVersion: '2025-11-25',
        capabilities: {},
        serverInfo: { name: 's', version: '1' },
      }),
      'tools/call': (params) => {
        calls.push(String(params?.['name']));
        return { content: [] };
      },
    },
    ...options,
  });
}

function expectChallenge(
  reply: { status: number; headers: Record<string, string>; json(): unknown },
  id: number,
) {
  expect(reply.status).toBe(403);
  const challenge = reply.headers['www-authenticate'] ?? '';
  expect(challenge).toMatch(/^Bearer /);
  expect(challenge).toContain('error="insufficient_scope"');
  // All the scopes the operation needs, in one challenge, not only the missing one.
  expect(challenge).toContain('scope="mcp:admin mcp:write"');
  expect(challenge).toContain(`resource_metadata="${PRM}"`);
  expect(reply.headers['content-type']).toBe('application/json');
  expect(reply.json()).toEqual({
    jsonrpc: '2.0',
    id,
    error: {
      code: -32600,
      message: 'Insufficient scope: missing mcp:admin',
      data: {
        error: 'insufficient_scope',
        requiredScopes: ['mcp:admin', 'mcp:write'],
        missingScopes: ['mcp:admin'],
      },
    },
  });
}

describe('requiredScopes: 403 insufficient_scope at the HTTP layer', () => {
  it('2026-07-28: reads the method and name the validated Mcp-Method/Mcp-Name headers carry', async () => {
    const calls: string[] = [];
    await using server = await scoped(calls);
    const call = (name: string, scopes: string, headerName = name) =>
      raw(server.url, {
        headers: {
          ...POST_HEADERS,
          'mcp-protocol-version': M,
          'mcp-method': 'tools/call',
          'mcp-name': headerName,
          authorization: `Bearer ${scopes}`,
        },
        body: { jsonrpc: '2.0', id: 7, method: 'tools/call', params: { name, _meta: META } },
      });
    expectChallenge(await call('wipe', 'mcp:write,mcp:read'), 7);
    expect(calls).toEqual([]);
    // A header naming another tool cannot dodge the check: the mismatch is refused first (400, -32020).
    const lying = await call('wipe', 'mcp:write', 'open');
    expect(lying.status).toBe(400);
    expect(calls).toEqual([]);
    expect((await call('open', 'mcp:write')).status).toBe(200);
    const granted = await call('wipe', 'mcp:write,mcp:admin');
    expect(granted.status).toBe(200);
    expect(calls).toEqual(['open', 'wipe']);
  });

  it('legacy: checks a single POSTed request inside a session; the in-protocol check keeps batches', async () => {
    const calls: string[] = [];
    await using server = await scoped(calls);
    const opened = await raw(server.url, {
      headers: { ...POST_HEADERS, authorization: 'Bearer mcp:write' },
      body: initializeRequest(),
    });
    expect(opened.status).toBe(200);
    const sessionId = opened.headers['mcp-session-id']!;
    const headers = (scopes: string) => ({
      ...POST_HEADERS,
      'mcp-protocol-version': '2025-11-25',
      'mcp-session-id': sessionId,
      authorization: `Bearer ${scopes}`,
    });
    const message = (id: number): JSONRPCMessage => ({
      jsonrpc: '2.0',
      id,
      method: 'tools/call',
      params: { name: 'wipe', arguments: {} },
    });
    expectChallenge(await raw(server.url, { headers: headers('mcp:write'), body: message(2) }), 2);
    expect(calls).toEqual([]);
    const granted = await raw(server.url, { headers: headers('mcp:admin,mcp:write'), body: message(3) });
    expect(granted.status).toBe(200);
    expect(sseMessages(granted.text)).toMatchObject([{ id: 3, result: { content: [] } }]);
    expect(calls).toEqual(['wipe']);
    // A batch (2025-03-26) is one HTTP exchange for many requests: no 403 for it; the server checks
    // each request in-protocol (McpServer answers -32600 insufficient_scope per element).
    const batch = await raw(server.url, {
      headers: { ...headers('mcp:write'), 'mcp-protocol-version': '2025-03-26' },
      body: [message(4), { jsonrpc: '2.0', id: 5, method: 'tools/call', params: { name: 'open' } }],
    });
    expect(batch.status).toBe(200);
    expect(calls).toEqual(['wipe', 'wipe', 'open']);
  });

  it('does not check requests without AuthInfo, nor methods the function has no scopes for', async () => {
    const calls: string[] = [];
    await using server = await scoped(calls, { sessions: false });
    const body = { jsonrpc: '2.0', id: 4, method: 'tools/call', params: { name: 'wipe' } };
    const anonymous = await raw(server.url, {
      headers: { ...POST_HEADERS, 'mcp-protocol-version': '2025-11-25' },
      body,
    });
    expect(anonymous.status).toBe(200);
    const unscoped = await raw(server.url, {
      headers: { ...POST_HEADERS, 'mcp-protocol-version': '2025-11-25', authorization: 'Bearer ' },
      body: { jsonrpc: '2.0', id: 5, method: 'tools/call', params: { name: 'open' } },
    });
    expect(unscoped.status).toBe(200);
    expect(calls).toEqual(['wipe', 'open']);
  });

  it('omits resource_metadata when no resourceMetadataUrl is given', async () => {
    await using server = await scoped([], { sessions: false, resourceMetadataUrl: undefined });
    const reply = await raw(server.url, {
      headers: { ...POST_HEADERS, 'mcp-protocol-version': '2025-11-25', authorization: 'Bearer x' },
      body: { jsonrpc: '2.0', id: 6, method: 'tools/call', params: { name: 'wipe' } },
    });
    expect(reply.status).toBe(403);
    expect(reply.headers['www-authenticate']).not.toContain('resource_metadata');
    expect(reply.headers['www-authenticate']).toContain('scope="mcp:admin mcp:write"');
  });
});
