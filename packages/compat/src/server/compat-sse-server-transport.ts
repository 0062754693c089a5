import { randomUUID } from 'node:crypto';
import type { IncomingMessage, ServerResponse } from 'node:http';
import type { AuthInfo, JSONRPCMessage, MessageExtraInfo, Transport } from '@x/protocol/core';
import { createSseHandler, type SseServerTransport } from '@x/transport-sse';
import { toNodeHandler } from '@x/transport-sse/node';
import { rewriteFirstFrame } from './rewrite-first-frame.js';

/**
 * Options of the official 1.x `SSEServerTransport`. x-mcp's DNS-rebinding guard is always on (loopback
 * `Host`s on a loopback address, browser `Origin`s); these lists extend it.
 *
 * @example
 * ```ts
 * new SSEServerTransport('/messages', res, { allowedHosts: ['mcp.example.com'] });
 * ```
 */
export interface SSEServerTransportOptions {
  allowedHosts?: string[] | undefined;
  allowedOrigins?: string[] | undefined;
  enableDnsRebindingProtection?: boolean | undefined;
}

/**
 * The official 1.x `SSEServerTransport` (`server/sse.js`, the legacy 2024-11-05 HTTP+SSE transport) on
 * x-mcp's SSE handler: built on a GET's response, `start()` (called by `connect`) opens the event
 * stream, `handlePostMessage(req, res, body)` takes the client's POSTs. `sessionId` is known at once,
 * as in 1.x, so applications can route POSTs by it before connecting.
 *
 * @example
 * ```ts
 * app.get('/sse', async (req, res) => {
 *   const transport = new SSEServerTransport('/messages', res);
 *   transports[transport.sessionId] = transport;
 *   await server.connect(transport);
 * });
 * app.post('/messages', (req, res) => transports[req.query.sessionId].handlePostMessage(req, res, req.body));
 * ```
 */
export class SSEServerTransport implements Transport {
  onclose?: (() => void) | undefined;
  onerror?: ((error: Error) => void) | undefined;
  onmessage?: ((message: JSONRPCMessage, extra?: MessageExtraInfo) => void) | undefined;
  /** The id in the `endpoint` event's URL: applications route POSTs by it. */
  readonly sessionId: string = randomUUID();
  readonly #res: ServerResponse;
  readonly #node: ReturnType<typeof toNodeHandler>;
  #inner: SseServerTransport | undefined;
  #closed = false;

  constructor(endpoint: string, res: ServerResponse, options: SSEServerTransportOptions = {}) {
    this.#res = res;
    const guard = {
      ...(options.allowedHosts === undefined ? {} : { allowedHosts: options.allowedHosts }),
      ...(options.allowedOrigins === undefined ? {} : { allowedOrigins: options.allowedOrigins }),
    };
    const handler = createSseHandler({
      endpoint,
      dnsRebindingProtection: guard,
      // One session per instance, made by the application's own GET route: no per-caller limits here.
      sessionRateLimit: false,
      sessionIdleTimeoutMs: 0,
      onerror: (error) => this.onerror?.(error),
      onsession: async (inner) => {
        this.#inner = inner;
        inner.onmessage = (message, extra) => this.onmessage?.(message, extra);
        inner.onerror = (error) => this.onerror?.(error);
        inner.onclose = () => this.#finish();
        await inner.start();
        // x-mcp names the session in the `endpoint` event by its own id; the application knows this one.
        rewriteFirstFrame(res, inner.sessionId, this.sessionId);
      },
    });
    this.#node = toNodeHandler(handler);
  }

  /** Opens the event stream on the GET's response; called by `connect`. */
  async start(): Promise<void> {
    if (this.#inner !== undefined || this.#closed)
      throw new Error(
        'SSEServerTransport already started! If using Server class, note that connect() calls start() automatically.',
      );
    const res = this.#res;
    await this.#node(res.req, res);
    if (this.#inner === undefined) {
      // x-mcp writes a refusal at the end of the event-loop turn: its status is known once it went out.
      if (!res.writableFinished && !res.destroyed)
        await new Promise<void>((resolve) => {
          res.once('finish', resolve);
          res.once('close', resolve);
        });
      throw new Error(`SSEServerTransport: the event stream was refused (HTTP ${res.statusCode})`);
    }
  }

  /**
   * Takes one POST of the client (the body, or `parsedBody` a parser already read) and answers it 202;
   * the reply goes out on the event stream.
   */
  async handlePostMessage(
    req: IncomingMessage & { auth?: AuthInfo | undefined },
    res: ServerResponse,
    parsedBody?: unknown,
  ): Promise<void> {
    const inner = this.#inner;
    if (inner === undefined) {
      const message = 'SSE connection not established';
      res.writeHead(500).end(message);
      throw new Error(message);
    }
    // The application routed this POST here by `sessionId`; x-mcp's handler routes by its own id.
    const url = new URL(req.url ?? '/', 'http://localhost');
    url.searchParams.set('sessionId', inner.sessionId);
    req.url = url.pathname + url.search;
    if (parsedBody !== undefined) (req as IncomingMessage & { body?: unknown }).body = parsedBody;
    await this.#node(req, res);
  }

  /** Delivers a message that arrived by other means than a POST, as if the client had posted it. */
  async handleMessage(message: unknown, extra?: MessageExtraInfo): Promise<void> {
    this.onmessage?.(message as JSONRPCMessage, extra);
  }

  async send(message: JSONRPCMessage): Promise<void> {
    if (this.#inner === undefined) throw new Error('Not connected');
    await this.#inner.send(message);
  }

  setProtocolVersion(version: string): void {
    this.#inner?.setProtocolVersion(version);
  }

  async close(): Promise<void> {
    if (this.#inner === undefined) this.#finish();
    else await this.#inner.close();
  }

  #finish(): void {
    if (this.#closed) return;
    this.#closed = true;
    this.onclose?.();
  }
}
