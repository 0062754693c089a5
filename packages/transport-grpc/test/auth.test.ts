import { status } from '@grpc/grpc-js';
import { AuthError, bearerAuth } from '@x/auth';
import type { AuthInfo } from '@x/protocol/core';
import { describe, expect, it } from 'vitest';
import { GrpcStatusError, type GrpcSessionContext } from '../src/index.js';
import { connectClient, demoServer, textOf } from './helpers.js';
import { listenGrpc } from '../src/index.js';

const TOKENS = new Map<string, AuthInfo>([
  ['good', { token: 'good', clientId: 'grpc-client', scopes: ['mcp:tools'] }],
  ['narrow', { token: 'narrow', clientId: 'narrow-client', scopes: [] }],
]);

/** `bearerAuth` of @x/auth, unchanged, as the tunnel's `authenticate` hook. */
function authenticate() {
  return bearerAuth({
    resource: 'http://127.0.0.1/mcp',
    authorizationServers: ['https://auth.example.com'],
    requiredScopes: ['mcp:tools'],
    verify: async (token) => {
      const info = TOKENS.get(token);
      if (info === undefined) throw new AuthError('invalid_token', 'unknown token');
      return info;
    },
  });
}

async function startProtected() {
  const mcp = demoServer();
  const contexts: GrpcSessionContext[] = [];
  const listener = await listenGrpc({
    port: 0,
    keepAliveMs: 0,
    authenticate: authenticate(),
    onsession: (transport, context) => {
      contexts.push(context);
      return mcp.connect(transport);
    },
  });
  return { listener, contexts };
}

describe('bearer auth through call metadata', () => {
  it('a valid token reaches the tools as ctx.authInfo and onsession as context.authInfo', async () => {
    const { listener, contexts } = await startProtected();
    await using _ = listener;
    const { client } = await connectClient(listener.target, { headers: { authorization: 'Bearer good' } });
    try {
      expect(textOf(await client.callTool({ name: 'whoami', arguments: {} }))).toBe('grpc-client');
      expect(contexts[0]?.authInfo?.clientId).toBe('grpc-client');
      expect(contexts[0]?.clientAddress).toBe('127.0.0.1');
      expect(contexts[0]?.request.metadata.get('authorization')).toEqual(['Bearer good']);
    } finally {
      await client.close();
    }
  }, 30_000);

  it('no token: UNAUTHENTICATED with the WWW-Authenticate challenge; onUnauthorized may supply one and retry', async () => {
    const { listener } = await startProtected();
    await using _ = listener;
    const refused = (await connectClient(listener.target).catch(
      (error: unknown) => error,
    )) as GrpcStatusError;
    expect(refused).toBeInstanceOf(GrpcStatusError);
    expect(refused.status).toBe(status.UNAUTHENTICATED);
    expect(refused.message).toMatch(/UNAUTHENTICATED \(16\)/);
    expect(String(refused.trailers?.get('www-authenticate')[0])).toMatch(/^Bearer .*resource_metadata=/);

    // The shape of @x/auth's httpAuthOptions(provider): getHeaders + onUnauthorized.
    let token: string | undefined;
    const seen: Response[] = [];
    const { client } = await connectClient(listener.target, {
      getHeaders: () => (token === undefined ? {} : { authorization: `Bearer ${token}` }),
      onUnauthorized: (response) => {
        seen.push(response);
        token = 'good';
        return true;
      },
    });
    try {
      expect(seen.map((response) => response.status)).toEqual([401]);
      expect(seen[0]?.headers.get('www-authenticate')).toMatch(/^Bearer /);
      expect(textOf(await client.callTool({ name: 'whoami', arguments: {} }))).toBe('grpc-client');
    } finally {
      await client.close();
    }
  }, 30_000);

  it('a token without the required scope: PERMISSION_DENIED', async () => {
    const { listener } = await startProtected();
    await using _ = listener;
    const refused = (await connectClient(listener.target, {
      headers: { authorization: 'Bearer narrow' },
    }).catch((error: unknown) => error)) as GrpcStatusError;
    expect(refused.status).toBe(status.PERMISSION_DENIED);
    expect(refused.message).toMatch(/insufficient_scope|403/);
  }, 30_000);
});
