import { createServer } from 'node:http';
import type { AddressInfo } from 'node:net';
import type { HttpAuthenticate } from '@x/protocol/http';
import { createStreamableHttpHandler } from '@x/transport-streamable-http';
import { toNodeHandler } from '@x/transport-streamable-http/node';
import { createFuzzServer } from './fuzz-server.js';

/** A protected MCP endpoint whose `authenticate` hook a test swaps per run. */
export interface AuthHost {
  /** `http://127.0.0.1:<port>/mcp`. */
  readonly url: URL;
  /** The hook in force (a fresh `bearerAuth` per run keeps key and answer caches from leaking across). */
  authenticate: HttpAuthenticate;
  close(): Promise<void>;
}

/**
 * Largest request head the host reads. Far above Node's 16 KiB default so that huge tokens reach the
 * verifier (a deployment's proxy would stop them earlier; the verifier must hold without one).
 */
export const AUTH_HOST_MAX_HEADER_BYTES = 4 * 1024 * 1024;

/**
 * An McpServer on Streamable HTTP at `/mcp` of 127.0.0.1 (port 0) behind a swappable `authenticate`
 * hook: the real handler decides the status (a hook that throws becomes its 500).
 *
 * @example
 * ```ts
 * const host = await startAuthHost(bearerAuth({ resource, authorizationServers, jwks }));
 * const response = await fetch(host.url, { method: 'POST', headers: { authorization: 'Bearer x' } });
 * ```
 */
export async function startAuthHost(initial: HttpAuthenticate): Promise<AuthHost> {
  const state = { authenticate: initial };
  const server = createFuzzServer();
  const handler = createStreamableHttpHandler({
    onsession: (transport) => server.connect(transport),
    authenticate: (request) => state.authenticate(request),
  });
  const node = toNodeHandler(handler);
  const http = createServer({ maxHeaderSize: AUTH_HOST_MAX_HEADER_BYTES }, (req, res) => void node(req, res));
  await new Promise<void>((resolve) => http.listen(0, '127.0.0.1', resolve));
  const { port } = http.address() as AddressInfo;
  return {
    url: new URL(`http://127.0.0.1:${port}/mcp`),
    get authenticate() {
      return state.authenticate;
    },
    set authenticate(hook: HttpAuthenticate) {
      state.authenticate = hook;
    },
    close: async () => {
      await handler.close();
      http.closeAllConnections();
      await new Promise<void>((resolve) => http.close(() => resolve()));
    },
  };
}
