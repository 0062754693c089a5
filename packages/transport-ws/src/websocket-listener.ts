import { createServer, type IncomingMessage, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import type { Duplex } from 'node:stream';
import { type WebSocket, WebSocketServer } from 'ws';
import { CloseCode, DEFAULT_MAX_PAYLOAD, MCP_SUBPROTOCOL } from './constants.js';
import { isOriginAllowed } from './origin-policy.js';
import { onTransportClosed, WebSocketServerTransport } from './server-transport.js';

/**
 * Options of `new WebSocketListener(options)`, which attaches to an existing HTTP server.
 *
 * @example
 * ```ts
 * const httpServer = createServer().listen(8080, '127.0.0.1');
 * const listener = new WebSocketListener({
 *   server: httpServer,
 *   path: '/mcp',
 *   allowedOrigins: ['https://app.example.com'],
 *   onconnection: (transport, request) => mcpServer.connect(transport),
 *   onerror: (error) => console.error('ws:', error),
 * });
 * ```
 */
export interface WebSocketListenerOptions {
  /**
   * Called once per accepted connection with its own transport, not yet started: connect your MCP server
   * to it. A throw or rejection closes that connection (1011) and reaches `onerror`.
   */
  onconnection: (transport: WebSocketServerTransport, request: IncomingMessage) => unknown;
  /** An existing `node:http`/`node:https` server to attach to. Omit it to use `WebSocketListener.listen()`. */
  server?: Server | undefined;
  /**
   * Only upgrades to this exact pathname are handled (e.g. `'/mcp'`). Others are left to the server's
   * other `upgrade` listeners, or refused with 404 when there are none. Default: every path.
   */
  path?: string | undefined;
  /** Browser Origins allowed to connect (`'*'` for any). Default: see `isOriginAllowed`. */
  allowedOrigins?: readonly string[] | undefined;
  /** Largest incoming message in bytes; a bigger one closes the connection with 1009. Default 4 MiB. */
  maxPayload?: number | undefined;
  /** Ping period per connection; a peer silent for a whole period after a ping is dropped. Default 30 s. */
  heartbeatIntervalMs?: number | undefined;
  /** Unsent bytes per connection beyond which `send()` rejects. Default 8 MiB. */
  maxBufferedBytes?: number | undefined;
  /** Most messages one 2025-03-26 batch may hold; larger ones are refused with -32600. Default 1000. */
  maxBatchSize?: number | undefined;
  /** Faults outside any one transport (a failing `onconnection`, a refused upgrade's socket error). */
  onerror?: ((error: Error) => void) | undefined;
}

/**
 * Options of `WebSocketListener.listen(options)`, which starts an HTTP server of its own.
 *
 * @example
 * ```ts
 * const listener = await WebSocketListener.listen({
 *   port: 0, // any free port
 *   onconnection: (transport) => mcpServer.connect(transport),
 * });
 * console.log(listener.url); // e.g. ws://127.0.0.1:41234/
 * ```
 */
export interface WebSocketListenOptions extends Omit<WebSocketListenerOptions, 'server'> {
  /** Port for the listener's own HTTP server; 0 picks a free one. */
  port: number;
  /** Interface to bind. Default `'127.0.0.1'`: loopback unless you say otherwise. */
  host?: string | undefined;
}

/**
 * Accepts MCP WebSocket connections (subprotocol `mcp`, SEP-1288) and hands each one to `onconnection`
 * as its own `WebSocketServerTransport`, so one MCP server object serves many connections.
 *
 * The upgrade is refused before any WebSocket exists when the client does not offer `mcp` (400) or the
 * Origin is not allowed (403). `close()` ends every connection with 1001 (going away).
 *
 * @example
 * ```ts
 * // Attached to an existing HTTP server:
 * const listener = new WebSocketListener({
 *   server: httpServer,
 *   path: '/mcp',
 *   onconnection: (transport) => mcpServer.connect(transport),
 * });
 *
 * // Standalone, on its own port:
 * const standalone = await WebSocketListener.listen({ port: 8080, onconnection: (t) => mcpServer.connect(t) });
 * console.log(standalone.url); // ws://127.0.0.1:8080/
 * ```
 */
export class WebSocketListener {
  readonly #options: WebSocketListenerOptions;
  readonly #server: Server | undefined;
  #ownsServer = false;
  readonly #wss: WebSocketServer;
  readonly #connections = new Set<WebSocketServerTransport>();
  #closing: Promise<void> | undefined;

  constructor(options: WebSocketListenerOptions) {
    this.#options = options;
    this.#server = options.server;
    this.#wss = new WebSocketServer({
      noServer: true,
      clientTracking: false,
      perMessageDeflate: false,
      maxPayload: options.maxPayload ?? DEFAULT_MAX_PAYLOAD,
      handleProtocols: (protocols) => (protocols.has(MCP_SUBPROTOCOL) ? MCP_SUBPROTOCOL : false),
    });
    this.#server?.on('upgrade', this.#onupgrade);
  }

  /**
   * Starts a listener on its own HTTP server (which answers plain HTTP requests with 426).
   *
   * @example
   * ```ts
   * const listener = await WebSocketListener.listen({ port: 0, onconnection: (t) => mcpServer.connect(t) });
   * ```
   */
  static async listen(options: WebSocketListenOptions): Promise<WebSocketListener> {
    const server = createServer((_request, response) => {
      response.writeHead(426, { 'content-type': 'text/plain', upgrade: 'websocket' });
      response.end('This endpoint speaks MCP over WebSocket (subprotocol "mcp").\n');
    });
    const { port, host = '127.0.0.1', ...rest } = options;
    const listener = new WebSocketListener({ ...rest, server });
    listener.#ownsServer = true;
    await new Promise<void>((resolve, reject) => {
      server.once('error', reject);
      server.listen(port, host, () => {
        server.off('error', reject);
        resolve();
      });
    });
    return listener;
  }

  /** The bound address of the underlying HTTP server, once it listens. */
  get address(): AddressInfo | undefined {
    const address = this.#server?.address();
    return typeof address === 'object' && address !== null ? address : undefined;
  }

  /** `ws://host:port/path` of the listener, once its server listens. */
  get url(): URL | undefined {
    const address = this.address;
    if (address === undefined) return undefined;
    const host = address.family === 'IPv6' ? `[${address.address}]` : address.address;
    return new URL(this.#options.path ?? '/', `ws://${host}:${address.port}`);
  }

  /** Open connections. */
  get connections(): ReadonlySet<WebSocketServerTransport> {
    return this.#connections;
  }

  /**
   * Handles one upgrade request yourself, e.g. when routing upgrades between several endpoints.
   * The path option is not consulted here; every other check is.
   */
  handleUpgrade(request: IncomingMessage, socket: Duplex, head: Buffer): void {
    if (this.#closing !== undefined) {
      refuse(socket, 503, 'Server is shutting down');
      return;
    }
    if (!offersMcp(request.headers['sec-websocket-protocol'])) {
      refuse(socket, 400, `The "${MCP_SUBPROTOCOL}" WebSocket subprotocol is required`);
      return;
    }
    // The local address is read only for a browser (Origin) request: reading it caches an object on
    // the socket.
    const origin = request.headers.origin;
    if (
      origin !== undefined &&
      !isOriginAllowed(origin, request.socket.localAddress, this.#options.allowedOrigins)
    ) {
      refuse(socket, 403, 'Origin not allowed');
      return;
    }
    this.#wss.handleUpgrade(request, socket, head, (ws) => this.#accept(ws, request));
  }

  /** Closes every connection (1001), detaches from the HTTP server and, if it owns it, closes that too. */
  close(): Promise<void> {
    this.#closing ??= this.#close();
    return this.#closing;
  }

  async #close(): Promise<void> {
    this.#server?.off('upgrade', this.#onupgrade);
    await Promise.all(
      [...this.#connections].map((transport) =>
        transport.closeWith(CloseCode.GoingAway, 'Server shutting down'),
      ),
    );
    this.#wss.close();
    const server = this.#server;
    if (this.#ownsServer && server?.listening) {
      const closed = new Promise<void>((resolve) => server.close(() => resolve()));
      // Idle keep-alive HTTP connections would otherwise hold close() open.
      server.closeAllConnections();
      await closed;
    }
  }

  readonly #forget = (transport: WebSocketServerTransport): void => {
    this.#connections.delete(transport);
  };

  readonly #onupgrade = (request: IncomingMessage, socket: Duplex, head: Buffer): void => {
    const path = this.#options.path;
    if (path !== undefined && pathnameOf(request.url) !== path) {
      // Another upgrade listener may own this path; answer only when nobody else can.
      if (this.#server !== undefined && this.#server.listenerCount('upgrade') <= 1) {
        refuse(socket, 404, 'Not found');
      }
      return;
    }
    this.handleUpgrade(request, socket, head);
  };

  #accept(ws: WebSocket, request: IncomingMessage): void {
    const options = this.#options;
    const transport = new WebSocketServerTransport({
      socket: ws,
      request,
      heartbeatIntervalMs: options.heartbeatIntervalMs,
      maxBufferedBytes: options.maxBufferedBytes,
      maxBatchSize: options.maxBatchSize,
    });
    this.#connections.add(transport);
    onTransportClosed(transport, this.#forget);
    const fail = (error: unknown): void => {
      options.onerror?.(error instanceof Error ? error : new Error(String(error)));
      transport.closeWith(CloseCode.InternalError, 'Connection handler failed').catch(() => {});
    };
    try {
      const result = options.onconnection(transport, request);
      if (result instanceof Promise) result.catch(fail);
    } catch (error) {
      fail(error);
    }
  }
}

function offersMcp(header: string | undefined): boolean {
  if (header === undefined) return false;
  return header.split(',').some((protocol) => protocol.trim() === MCP_SUBPROTOCOL);
}

function pathnameOf(url: string | undefined): string {
  const raw = url ?? '/';
  const query = raw.indexOf('?');
  return query === -1 ? raw : raw.slice(0, query);
}

const STATUS_TEXT: Record<number, string> = {
  400: 'Bad Request',
  403: 'Forbidden',
  404: 'Not Found',
  503: 'Service Unavailable',
};

/** Answers an upgrade request with a plain HTTP error; no WebSocket is created. */
function refuse(socket: Duplex, status: number, message: string): void {
  const body = `${message}\n`;
  socket.on('error', () => {});
  socket.end(
    `HTTP/1.1 ${status} ${STATUS_TEXT[status] ?? 'Error'}\r\n` +
      'Connection: close\r\n' +
      'Content-Type: text/plain; charset=utf-8\r\n' +
      `Content-Length: ${Buffer.byteLength(body)}\r\n\r\n` +
      body,
  );
}
