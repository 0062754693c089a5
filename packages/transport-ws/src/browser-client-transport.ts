import { ConnectionClosedError } from '@x/protocol/core';
import { BrowserWireSocket } from './browser-wire-socket.js';
import { type WebSocketClientCommonOptions, WebSocketClientTransportBase } from './client-transport-base.js';
import {
  DEFAULT_CLOSE_TIMEOUT_MS,
  DEFAULT_MAX_BUFFERED_BYTES,
  DEFAULT_MAX_MESSAGE_BYTES,
  DEFAULT_MAX_QUEUED_BYTES,
  DEFAULT_SEND_STALL_TIMEOUT_MS,
  MCP_SUBPROTOCOL,
} from './constants.js';
import { WebSocketHandshakeError } from './errors.js';
import type { WireSocket, WireSocketEvents } from './wire-socket.js';

/**
 * Browser client options: browsers allow neither custom headers nor pings from script.
 *
 * @example
 * ```ts
 * const transport = new WebSocketClientTransport('wss://mcp.example.com/mcp', {
 *   maxMessageBytes: 16 * 1024 * 1024,
 *   reconnect: { maxAttempts: 5 },
 * });
 * ```
 */
export type WebSocketClientTransportOptions = WebSocketClientCommonOptions;

/**
 * MCP client transport over the global `WebSocket` (browsers, Deno, Bun, workers); what the package's
 * `browser` export condition resolves to. Same class name and behaviour as the Node build, minus custom
 * headers and heartbeat. Imports nothing from Node.
 *
 * @example
 * ```ts
 * const transport = new WebSocketClientTransport(new URL('wss://example.com/mcp'), { reconnect: true });
 * await client.connect(transport);
 * ```
 */
export class WebSocketClientTransport extends WebSocketClientTransportBase {
  constructor(url: string | URL, options: WebSocketClientTransportOptions = {}) {
    super((events, signal) => openBrowserSocket(url, options, events, signal), options, url);
  }
}

function openBrowserSocket(
  url: string | URL,
  options: WebSocketClientTransportOptions,
  events: WireSocketEvents,
  signal: AbortSignal,
): Promise<WireSocket> {
  const WebSocketClass = globalThis.WebSocket;
  if (WebSocketClass === undefined) {
    return Promise.reject(new Error('No global WebSocket in this runtime; on Node use the default export'));
  }
  return new Promise((resolve, reject) => {
    const socket = new WebSocketClass(url, [MCP_SUBPROTOCOL]);
    socket.binaryType = 'arraybuffer';
    // Browsers hide why a handshake failed (status, body): only that it did.
    socket.onerror = () => reject(new Error(`WebSocket connection to ${String(url)} failed`));
    socket.onclose = (event) =>
      reject(
        new Error(`WebSocket connection to ${String(url)} closed during the handshake (code ${event.code})`),
      );
    const abort = (): void => {
      reject(new ConnectionClosedError('Transport closed while connecting'));
      socket.close();
    };
    signal.addEventListener('abort', abort, { once: true });
    socket.onopen = () => {
      signal.removeEventListener('abort', abort);
      if (socket.protocol !== MCP_SUBPROTOCOL) {
        reject(new WebSocketHandshakeError(101, 'Server did not select the "mcp" WebSocket subprotocol'));
        socket.close();
        return;
      }
      resolve(
        new BrowserWireSocket(socket, events, {
          maxMessageBytes: options.maxMessageBytes ?? DEFAULT_MAX_MESSAGE_BYTES,
          maxBufferedBytes: options.maxBufferedBytes ?? DEFAULT_MAX_BUFFERED_BYTES,
          maxQueuedBytes: options.maxQueuedBytes ?? DEFAULT_MAX_QUEUED_BYTES,
          sendStallTimeoutMs: options.sendStallTimeoutMs ?? DEFAULT_SEND_STALL_TIMEOUT_MS,
          closeTimeoutMs: options.closeTimeoutMs ?? DEFAULT_CLOSE_TIMEOUT_MS,
        }),
      );
    };
  });
}
