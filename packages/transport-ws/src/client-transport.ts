import { ConnectionClosedError } from '@x/protocol/core';
import type { HttpClientAuthOptions } from '@x/protocol/http';
import type { IncomingMessage } from 'node:http';
import { type ClientOptions, WebSocket } from 'ws';
import { type WebSocketClientCommonOptions, WebSocketClientTransportBase } from './client-transport-base.js';
import {
  CloseCode,
  DEFAULT_CLOSE_TIMEOUT_MS,
  DEFAULT_HANDSHAKE_TIMEOUT_MS,
  DEFAULT_KEEP_ALIVE_MS,
  DEFAULT_MAX_BUFFERED_BYTES,
  DEFAULT_MAX_MESSAGE_BYTES,
  DEFAULT_MAX_QUEUED_BYTES,
  DEFAULT_SEND_STALL_TIMEOUT_MS,
  MCP_SUBPROTOCOL,
} from './constants.js';
import { WebSocketHandshakeError } from './errors.js';
import { NodeWireSocket } from './node-wire-socket.js';
import type { WireSocket, WireSocketEvents } from './wire-socket.js';

/**
 * Options of the Node `WebSocketClientTransport` (on `ws`): the common ones, the HTTP auth options every
 * HTTP-based client transport shares, applied to the upgrade request (`headers`, `getHeaders`; a 401
 * or 403 answer to the upgrade goes to `onUnauthorized`/`onForbidden`, and when the hook returns true
 * the upgrade is tried once more; `onResponse` sees refused upgrades), pings and `ws` settings.
 *
 * @example
 * ```ts
 * const transport = new WebSocketClientTransport('wss://mcp.example.com/mcp', {
 *   getHeaders: async () => ({ authorization: `Bearer ${await tokens.current()}` }),
 *   onUnauthorized: () => tokens.refresh(), // true → the upgrade is tried again
 *   keepAliveMs: 15_000,
 *   handshakeTimeoutMs: 5_000,
 *   ws: { agent: new Agent({ keepAlive: true }) },
 * });
 * ```
 */
export interface WebSocketClientTransportOptions extends WebSocketClientCommonOptions, HttpClientAuthOptions {
  /**
   * Ping period; a server silent for a whole period after a ping is dropped. 0 disables. Default 30 s.
   *
   * @default {@link DEFAULT_KEEP_ALIVE_MS}
   */
  keepAliveMs?: number | undefined;
  /**
   * How long the opening handshake may take; past it `start()` rejects with a `WebSocketHandshakeError`
   * of status 0. Default 30 s (or `ws.handshakeTimeout`).
   *
   * @default {@link DEFAULT_HANDSHAKE_TIMEOUT_MS}
   */
  handshakeTimeoutMs?: number | undefined;
  /** Further `ws` client options (TLS, agent/proxy); the options above take precedence. */
  ws?: ClientOptions | undefined;
}

/**
 * MCP client transport over WebSocket (subprotocol `mcp`). On Node it runs on `ws`; the `browser` export
 * condition swaps in a same-named class built on the global `WebSocket`.
 *
 * @example
 * ```ts
 * const transport = new WebSocketClientTransport(new URL('ws://127.0.0.1:8080/mcp'), {
 *   ...httpAuthOptions(provider), // @x/auth: token on the upgrade, 401 → authorize, then reconnect
 *   reconnect: true,
 * });
 * // Modern-era clients need nothing more: every request carries its own `_meta`. A legacy session must
 * // be re-established by the caller, e.g. by reconnecting the Client.
 * transport.onreconnect = () => console.error('reconnected');
 * await client.connect(transport);
 * ```
 */
export class WebSocketClientTransport extends WebSocketClientTransportBase {
  constructor(url: string | URL, options: WebSocketClientTransportOptions = {}) {
    const target = new URL(url);
    super((events, signal) => openNodeSocket(target, options, events, signal), options, url, options);
  }
}

/**
 * The upgrade request's headers: `ws.headers`, then `headers`, then `getHeaders` for this GET. The hook
 * sees the request's HTTP target URI (`ws:` → `http:`, `wss:` → `https:`, RFC 6455 §3), what a server
 * checks a DPoP proof's `htu` and a token's resource against.
 */
async function upgradeHeaders(
  url: URL,
  options: WebSocketClientTransportOptions,
): Promise<Record<string, string>> {
  const target = new URL(url);
  if (target.protocol === 'ws:') target.protocol = 'http:';
  else if (target.protocol === 'wss:') target.protocol = 'https:';
  const computed = await options.getHeaders?.({ method: 'GET', url: target });
  return { ...(options.ws?.headers as Record<string, string> | undefined), ...options.headers, ...computed };
}

async function openNodeSocket(
  url: URL,
  options: WebSocketClientTransportOptions,
  events: WireSocketEvents,
  signal: AbortSignal,
): Promise<WireSocket> {
  const headers = options.getHeaders === undefined ? undefined : await upgradeHeaders(url, options);
  if (signal.aborted) throw new ConnectionClosedError('Transport closed while connecting');
  return new Promise((resolve, reject) => {
    const handshakeTimeoutMs =
      options.handshakeTimeoutMs ?? options.ws?.handshakeTimeout ?? DEFAULT_HANDSHAKE_TIMEOUT_MS;
    const socket = new WebSocket(url, [MCP_SUBPROTOCOL], {
      ...options.ws,
      headers: headers ?? { ...options.ws?.headers, ...options.headers },
      maxPayload: options.maxMessageBytes ?? DEFAULT_MAX_MESSAGE_BYTES,
      // Our own timer instead: `ws` would set it as the TCP socket's idle timeout and only zero it once
      // open, leaving a dead timer that Node refreshes on every read and write of the connection.
      handshakeTimeout: undefined,
      perMessageDeflate: false,
    });
    // Stays attached: `ws` may report more errors after the attempt failed, and unheard ones would throw.
    socket.on('error', reject);
    const abort = (): void => {
      reject(new ConnectionClosedError('Transport closed while connecting'));
      socket.terminate();
    };
    signal.addEventListener('abort', abort, { once: true });
    const deadline = setTimeout(() => {
      reject(
        new WebSocketHandshakeError(
          0,
          `WebSocket opening handshake with ${String(url)} timed out after ${handshakeTimeoutMs} ms`,
        ),
      );
      socket.terminate();
    }, handshakeTimeoutMs);
    // The connecting socket keeps the process alive; the deadline alone should not.
    deadline.unref();
    socket.once('close', () => {
      clearTimeout(deadline);
      signal.removeEventListener('abort', abort);
    });
    socket.once('unexpected-response', (_request, response) => {
      const status = response.statusCode ?? 0;
      const answer = status >= 200 && status <= 599 ? webHeaders(response) : undefined;
      if (answer !== undefined) options.onResponse?.(new Response(null, { status, headers: answer }));
      // The server's reason is in the body (a JSON-RPC error from our listener): read a few KiB of it.
      readBody(response).then((text) => {
        const reason = reasonOf(text);
        const why = reason === '' ? '' : `: ${reason}`;
        reject(
          new WebSocketHandshakeError(
            status,
            `WebSocket upgrade to ${String(url)} refused with HTTP ${status}${why}`,
            answer === undefined ? undefined : new Response(text, { status, headers: answer }),
          ),
        );
        socket.terminate();
      });
    });
    socket.once('open', () => {
      clearTimeout(deadline);
      if (socket.protocol !== MCP_SUBPROTOCOL) {
        reject(new WebSocketHandshakeError(101, 'Server did not select the "mcp" WebSocket subprotocol'));
        socket.close(CloseCode.ProtocolError, 'The mcp subprotocol is required');
        return;
      }
      socket.off('error', reject);
      signal.removeEventListener('abort', abort);
      resolve(
        new NodeWireSocket(socket, events, {
          heartbeatIntervalMs: options.keepAliveMs ?? DEFAULT_KEEP_ALIVE_MS,
          maxBufferedBytes: options.maxBufferedBytes ?? DEFAULT_MAX_BUFFERED_BYTES,
          maxQueuedBytes: options.maxQueuedBytes ?? DEFAULT_MAX_QUEUED_BYTES,
          sendStallTimeoutMs: options.sendStallTimeoutMs ?? DEFAULT_SEND_STALL_TIMEOUT_MS,
          closeTimeoutMs: options.closeTimeoutMs ?? DEFAULT_CLOSE_TIMEOUT_MS,
        }),
      );
    });
  });
}

const MAX_REASON_BYTES = 4096;

function webHeaders(response: IncomingMessage): Headers {
  const headers = new Headers();
  for (const [name, value] of Object.entries(response.headers)) {
    if (Array.isArray(value)) for (const item of value) headers.append(name, item);
    else if (value !== undefined) headers.set(name, value);
  }
  return headers;
}

/** The first 4 KiB of a refused upgrade's body (the rest is not read). Never rejects. */
function readBody(response: IncomingMessage): Promise<string> {
  return new Promise((resolve) => {
    let text = '';
    let done = false;
    const finish = (): void => {
      if (done) return;
      done = true;
      response.destroy();
      resolve(text.slice(0, MAX_REASON_BYTES));
    };
    response.setEncoding('utf8');
    response.on('data', (chunk: string) => {
      text += chunk;
      if (text.length >= MAX_REASON_BYTES) finish();
    });
    response.on('end', finish);
    response.on('close', finish);
    response.on('error', finish);
  });
}

/** The reason a refused upgrade gives: the `error.message` of a JSON-RPC body, else the text. */
function reasonOf(text: string): string {
  try {
    const body = JSON.parse(text) as { error?: { message?: unknown } };
    if (typeof body.error?.message === 'string') return body.error.message;
  } catch {
    // Not JSON: the text itself, on one line.
  }
  return text.trim().replace(/\s+/g, ' ').slice(0, 200);
}
