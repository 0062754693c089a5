import { ConnectionClosedError } from '@x/protocol';
import type { IncomingMessage } from 'node:http';
import { type ClientOptions, WebSocket } from 'ws';
import { type WebSocketClientCommonOptions, WebSocketClientTransportBase } from './client-transport-base.js';
import {
  CloseCode,
  DEFAULT_CLOSE_TIMEOUT_MS,
  DEFAULT_HEARTBEAT_INTERVAL_MS,
  DEFAULT_MAX_BUFFERED_BYTES,
  DEFAULT_MAX_PAYLOAD,
  MCP_SUBPROTOCOL,
} from './constants.js';
import { WebSocketHandshakeError } from './errors.js';
import { NodeWireSocket } from './node-wire-socket.js';
import type { WireSocket, WireSocketEvents } from './wire-socket.js';

/**
 * Options of the Node `WebSocketClientTransport` (on `ws`): the common ones plus headers, pings and `ws` settings.
 *
 * @example
 * ```ts
 * const transport = new WebSocketClientTransport('wss://mcp.example.com/mcp', {
 *   headers: { authorization: `Bearer ${token}` },
 *   heartbeatIntervalMs: 15_000,
 *   handshakeTimeoutMs: 5_000,
 *   ws: { agent: new Agent({ keepAlive: true }) },
 * });
 * ```
 */
export interface WebSocketClientTransportOptions extends WebSocketClientCommonOptions {
  /** Extra headers on the upgrade request, e.g. `Authorization`. */
  headers?: Record<string, string> | undefined;
  /** Ping period; a server silent for a whole period after a ping is dropped. 0 disables. Default 30 s. */
  heartbeatIntervalMs?: number | undefined;
  /**
   * How long the opening handshake may take; past it `start()` rejects with a `WebSocketHandshakeError`
   * of status 0. Default 30 s (or `ws.handshakeTimeout`).
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
 *   headers: { authorization: `Bearer ${token}` },
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
    super((events, signal) => openNodeSocket(url, options, events, signal), options, url);
  }
}

function openNodeSocket(
  url: string | URL,
  options: WebSocketClientTransportOptions,
  events: WireSocketEvents,
  signal: AbortSignal,
): Promise<WireSocket> {
  return new Promise((resolve, reject) => {
    const handshakeTimeoutMs = options.handshakeTimeoutMs ?? options.ws?.handshakeTimeout ?? 30_000;
    const socket = new WebSocket(url, [MCP_SUBPROTOCOL], {
      ...options.ws,
      headers: { ...options.ws?.headers, ...options.headers },
      maxPayload: options.maxPayload ?? DEFAULT_MAX_PAYLOAD,
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
      // The server's reason is in the body (a JSON-RPC error from our listener): read a few KiB of it.
      readReason(response).then((reason) => {
        const why = reason === '' ? '' : `: ${reason}`;
        reject(
          new WebSocketHandshakeError(
            status,
            `WebSocket upgrade to ${String(url)} refused with HTTP ${status}${why}`,
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
          heartbeatIntervalMs: options.heartbeatIntervalMs ?? DEFAULT_HEARTBEAT_INTERVAL_MS,
          maxBufferedBytes: options.maxBufferedBytes ?? DEFAULT_MAX_BUFFERED_BYTES,
          closeTimeoutMs: options.closeTimeoutMs ?? DEFAULT_CLOSE_TIMEOUT_MS,
        }),
      );
    });
  });
}

const MAX_REASON_BYTES = 4096;

/**
 * The reason a refused upgrade gives: the `error.message` of a JSON-RPC body, else the text, from at
 * most the first 4 KiB (the rest is not read). Never rejects.
 */
function readReason(response: IncomingMessage): Promise<string> {
  return new Promise((resolve) => {
    let text = '';
    let done = false;
    const finish = (): void => {
      if (done) return;
      done = true;
      response.destroy();
      resolve(reasonOf(text.slice(0, MAX_REASON_BYTES)));
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

function reasonOf(text: string): string {
  try {
    const body = JSON.parse(text) as { error?: { message?: unknown } };
    if (typeof body.error?.message === 'string') return body.error.message;
  } catch {
    // Not JSON: the text itself, on one line.
  }
  return text.trim().replace(/\s+/g, ' ').slice(0, 200);
}
