// The HTTP auth vocabulary over WebSocket: the listener's `authenticate` runs on the upgrade (a 401/403
// Response is the answer to it, an AuthInfo reaches every message), and the Node client's `getHeaders`
// / `onUnauthorized` / `onForbidden` ride on the upgrade request, at start and on every reconnect.
import type { AuthInfo, JSONRPCMessage, MessageExtraInfo } from '@x/protocol';
import { type HttpAuthenticate, MAX_AUTH_RETRIES } from '@x/protocol/http';
import { describe, expect, it } from 'vitest';
import { WebSocketClientTransport, WebSocketHandshakeError } from '../src/index.js';
import { listenWebSocket } from '../src/node.js';
import { defer } from './helpers.js';
import { waitFor } from '@x/test-kit';

const CHALLENGE = 'Bearer resource_metadata="http://127.0.0.1/.well-known/oauth-protected-resource"';

/** Accepts `Bearer <token>` for the tokens in `valid`; 401 with a challenge otherwise. */
function tokenAuth(valid: Set<string>): HttpAuthenticate {
  return (request) => {
    const token = /^Bearer (.+)$/.exec(request.headers.get('authorization') ?? '')?.[1];
    if (token !== undefined && valid.has(token)) return { token, clientId: 'c', scopes: ['mcp'] };
    return new Response(JSON.stringify({ error: 'invalid_token' }), {
      status: 401,
      headers: { 'www-authenticate': CHALLENGE, 'content-type': 'application/json' },
    });
  };
}

async function protectedServer(authenticate: HttpAuthenticate, onerror?: (error: Error) => void) {
  const extras: Array<MessageExtraInfo | undefined> = [];
  const sockets: Array<{ close(): Promise<void> }> = [];
  const listener = await listenWebSocket({
    port: 0,
    keepAliveMs: 0,
    authenticate,
    onerror,
    onsession: async (transport) => {
      sockets.push({ close: () => transport.closeWith(1012, 'restart') });
      transport.onmessage = (message: JSONRPCMessage, extra) => {
        extras.push(extra);
        if ('id' in message && 'method' in message)
          transport.send({ jsonrpc: '2.0', id: message.id, result: {} }).catch(() => {});
      };
      await transport.start();
    },
  });
  defer(() => listener.close());
  return { listener, url: listener.url!, extras, sockets };
}

const ping = (id: number): JSONRPCMessage => ({ jsonrpc: '2.0', id, method: 'ping' });

describe('WebSocketListener authenticate', () => {
  it('answers the upgrade with the 401 Response (WWW-Authenticate and body) before any WebSocket exists', async () => {
    const server = await protectedServer(tokenAuth(new Set(['good'])));
    const seen: Response[] = [];
    const client = new WebSocketClientTransport(server.url, {
      keepAliveMs: 0,
      onResponse: (response) => seen.push(response),
    });
    const error = await client.start().catch((e: unknown) => e);
    expect(error).toBeInstanceOf(WebSocketHandshakeError);
    const handshake = error as WebSocketHandshakeError;
    expect(handshake.status).toBe(401);
    expect(handshake.response?.headers.get('www-authenticate')).toBe(CHALLENGE);
    expect(await handshake.response?.json()).toEqual({ error: 'invalid_token' });
    expect(seen.map((response) => response.status)).toEqual([401]);
    expect(server.listener.sessionCount).toBe(0);
  });

  it('passes the verified AuthInfo to every message of the connection as extra.authInfo', async () => {
    const server = await protectedServer(tokenAuth(new Set(['good'])));
    const client = new WebSocketClientTransport(server.url, {
      keepAliveMs: 0,
      headers: { authorization: 'Bearer good' },
    });
    defer(() => client.close());
    await client.start();
    await client.send(ping(1));
    await client.send(ping(2));
    await waitFor(() => server.extras.length === 2);
    const expected: AuthInfo = { token: 'good', clientId: 'c', scopes: ['mcp'] };
    expect(server.extras.map((extra) => extra?.authInfo)).toEqual([expected, expected]);
    expect(server.extras[0]?.requestInfo?.headers?.['authorization']).toBe('Bearer good');
  });

  it('a throwing authenticate refuses the upgrade with 500 and reaches onerror', async () => {
    const errors: Error[] = [];
    const server = await protectedServer(
      () => {
        throw new Error('verifier down');
      },
      (error) => errors.push(error),
    );
    const client = new WebSocketClientTransport(server.url, { keepAliveMs: 0 });
    await expect(client.start()).rejects.toMatchObject({ status: 500 });
    expect(errors.map((error) => error.message)).toEqual(['verifier down']);
  });
});

describe('WebSocketClientTransport HTTP auth options', () => {
  it('getHeaders is asked for the upgrade (GET + URL); a 401 runs onUnauthorized, then the upgrade is tried again', async () => {
    const valid = new Set<string>();
    const server = await protectedServer(tokenAuth(valid));
    let token = 'none';
    const asked: string[] = [];
    const challenges: string[] = [];
    const client = new WebSocketClientTransport(server.url, {
      keepAliveMs: 0,
      getHeaders: ({ method, url }) => {
        asked.push(`${method} ${url.href}`);
        return { authorization: `Bearer ${token}` };
      },
      onUnauthorized: (response) => {
        challenges.push(response.headers.get('www-authenticate') ?? '');
        token = 'fresh';
        valid.add('fresh');
        return true;
      },
    });
    defer(() => client.close());
    await client.start();
    // The upgrade's HTTP target URI (RFC 6455 §3), what a DPoP proof's htu names.
    const target = server.url.href.replace(/^ws:/, 'http:');
    expect(asked).toEqual([`GET ${target}`, `GET ${target}`]);
    expect(challenges).toEqual([CHALLENGE]);
    await client.send(ping(1));
    await waitFor(() => server.extras.length === 1);
    expect(server.extras[0]?.authInfo?.token).toBe('fresh');
  });

  it('a hook that returns false, or a 401 past MAX_AUTH_RETRIES (2) upgrades, ends start() with the 401', async () => {
    const server = await protectedServer(tokenAuth(new Set()));
    let calls = 0;
    const declined = new WebSocketClientTransport(server.url, {
      keepAliveMs: 0,
      onUnauthorized: () => {
        calls++;
        return false;
      },
    });
    await expect(declined.start()).rejects.toMatchObject({ status: 401 });
    const hopeful = new WebSocketClientTransport(server.url, {
      keepAliveMs: 0,
      onUnauthorized: () => {
        calls++;
        return true;
      },
    });
    await expect(hopeful.start()).rejects.toMatchObject({ status: 401 });
    expect(calls).toBe(1 + MAX_AUTH_RETRIES);
  });

  it('a 403 goes to onForbidden (step-up) and the upgrade is tried again when it returns true', async () => {
    let scopes = ['read'];
    const server = await protectedServer(() =>
      scopes.includes('write')
        ? { token: 't', clientId: 'c', scopes }
        : new Response(null, {
            status: 403,
            headers: { 'www-authenticate': 'Bearer error="insufficient_scope", scope="write"' },
          }),
    );
    const client = new WebSocketClientTransport(server.url, {
      keepAliveMs: 0,
      onForbidden: () => {
        scopes = ['read', 'write'];
        return true;
      },
    });
    defer(() => client.close());
    await client.start();
    expect(client.connected).toBe(true);
  });

  it('on a reconnect the token rides on the new upgrade, and a 401 then runs onUnauthorized before it succeeds', async () => {
    const valid = new Set(['first']);
    const server = await protectedServer(tokenAuth(valid));
    let token = 'first';
    let unauthorized = 0;
    const client = new WebSocketClientTransport(server.url, {
      keepAliveMs: 0,
      reconnect: { initialDelayMs: 10, maxDelayMs: 50, maxAttempts: 20 },
      getHeaders: () => ({ authorization: `Bearer ${token}` }),
      onUnauthorized: () => {
        unauthorized++;
        token = 'second';
        valid.add('second');
        return true;
      },
    });
    defer(() => client.close());
    let reconnects = 0;
    client.onreconnect = () => {
      reconnects++;
    };
    await client.start();
    // The first token is revoked, then the server drops the connection (1012: service restart).
    valid.delete('first');
    await server.sockets[0]?.close();
    await waitFor(() => reconnects === 1, { timeoutMs: 5_000, what: 'the reconnect' });
    expect(unauthorized).toBe(1);
    await client.send(ping(1));
    await waitFor(() => server.extras.length === 1);
    expect(server.extras[0]?.authInfo?.token).toBe('second');
  });
});
