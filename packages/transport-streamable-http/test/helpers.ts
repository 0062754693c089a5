import type { IncomingMessage, Server, ServerResponse } from 'node:http';
import {
  isJSONRPCRequest,
  isJSONRPCResponse,
  type JSONRPCMessage,
  type MessageExtraInfo,
  type RequestId,
  type Transport,
} from '@x/protocol';
import { request as undiciRequest } from 'undici';
import {
  createStreamableHttpHandler,
  type StreamableHttpHandler,
  type StreamableHttpHandlerOptions,
  type StreamableHttpServerTransport,
} from '../src/index.js';
import { toNodeHandler } from '../src/node/index.js';
import { startHttpServer } from '@x/test-kit';

/** What a responder handler may do while answering one request. */
export interface ResponderContext {
  extra: MessageExtraInfo | undefined;
  id: RequestId;
  notify(method: string, params?: Record<string, unknown>): Promise<void>;
  /** A server→client request sent on this request's stream; resolves with the client's answer. */
  request(method: string, params?: Record<string, unknown>): Promise<JSONRPCMessage>;
}

export type Handlers = Record<
  string,
  (params: Record<string, unknown> | undefined, ctx: ResponderContext) => unknown | Promise<unknown>
>;

export const DEFAULT_HANDLERS: Handlers = {
  initialize: (params) => ({
    protocolVersion: (params?.['protocolVersion'] as string | undefined) ?? '2025-11-25',
    capabilities: { tools: {} },
    serverInfo: { name: 'test-server', version: '1.0.0' },
  }),
  ping: () => ({}),
  echo: (params) => ({ echoed: params ?? null }),
};

/**
 * A tiny JSON-RPC server for one transport: answers requests from `handlers` (unknown method → -32601),
 * and routes the client's answers to server-initiated requests by id.
 */
export function attachResponder(transport: Transport, handlers: Handlers = DEFAULT_HANDLERS): void {
  const waiting = new Map<RequestId, (message: JSONRPCMessage) => void>();
  let nextId = 0;
  transport.onmessage = (message, extra) => {
    if (isJSONRPCResponse(message)) {
      const id = message.id;
      if (id !== undefined && id !== null) {
        waiting.get(id)?.(message);
        waiting.delete(id);
      }
      return;
    }
    if (!isJSONRPCRequest(message)) return;
    // Own properties only: a method named `toString` must be unknown here, not Object.prototype's.
    const handler = Object.hasOwn(handlers, message.method) ? handlers[message.method] : undefined;
    const id = message.id;
    const ctx: ResponderContext = {
      extra,
      id,
      notify: (method, params) =>
        transport.send(
          params === undefined ? { jsonrpc: '2.0', method } : { jsonrpc: '2.0', method, params },
          { relatedRequestId: id },
        ),
      request: (method, params) => {
        const requestId = `s-${nextId++}`;
        const answered = new Promise<JSONRPCMessage>((resolve) => waiting.set(requestId, resolve));
        const outgoing: JSONRPCMessage =
          params === undefined
            ? { jsonrpc: '2.0', id: requestId, method }
            : { jsonrpc: '2.0', id: requestId, method, params };
        transport.send(outgoing, { relatedRequestId: id }).catch(() => {});
        return answered;
      },
    };
    if (handler === undefined) {
      void transport
        .send({ jsonrpc: '2.0', id, error: { code: -32601, message: `Method not found: ${message.method}` } })
        .catch(() => {});
      return;
    }
    void (async () => {
      try {
        const result = (await handler(message.params, ctx)) as Record<string, unknown>;
        await transport.send({ jsonrpc: '2.0', id, result }, { relatedRequestId: id });
      } catch (error) {
        await transport
          .send({ jsonrpc: '2.0', id, error: { code: -32603, message: String(error) } })
          .catch(() => {});
      }
    })();
  };
}

export interface TestServer {
  url: string;
  port: number;
  handler: StreamableHttpHandler;
  transports: StreamableHttpServerTransport[];
  close(): Promise<void>;
  [Symbol.asyncDispose](): Promise<void>;
}

/** A node:http server on 127.0.0.1:<random> serving the handler at /mcp, responder attached. */
export async function startServer(
  options: Partial<StreamableHttpHandlerOptions> & {
    handlers?: Handlers;
    /** Sees every node request before the handler (e.g. to cut a connection in a test). */
    onRequest?: (req: IncomingMessage, res: ServerResponse) => void;
  } = {},
): Promise<TestServer> {
  const transports: StreamableHttpServerTransport[] = [];
  const { handlers, onRequest, ...rest } = options;
  const handler = createStreamableHttpHandler({
    onsession: async (transport) => {
      transports.push(transport);
      attachResponder(transport, handlers ?? DEFAULT_HANDLERS);
      await transport.start();
    },
    ...rest,
  });
  const node = toNodeHandler(handler);
  const http = await startHttpServer((req, res) => {
    onRequest?.(req, res);
    node(req, res);
  });
  const { port } = http;
  const close = async (): Promise<void> => {
    await handler.close();
    await http.close();
  };
  return {
    url: `${http.url}/mcp`,
    port,
    handler,
    transports,
    close,
    [Symbol.asyncDispose]: close,
  };
}

export async function closeServer(server: Server): Promise<void> {
  server.closeAllConnections();
  await new Promise<void>((resolve) => server.close(() => resolve()));
}

export interface RawReply {
  status: number;
  headers: Record<string, string>;
  text: string;
  json(): unknown;
}

/** One raw HTTP exchange (undici `request` lets tests set Host and other headers fetch forbids). */
export async function raw(
  url: string,
  init: { method?: string; headers?: Record<string, string>; body?: unknown } = {},
): Promise<RawReply> {
  const body =
    init.body === undefined
      ? undefined
      : typeof init.body === 'string'
        ? init.body
        : JSON.stringify(init.body);
  const response = await undiciRequest(url, {
    method: (init.method ?? (body === undefined ? 'GET' : 'POST')) as 'GET',
    headers: init.headers ?? {},
    body: body ?? null,
  });
  const text = await response.body.text();
  const headers: Record<string, string> = {};
  for (const [name, value] of Object.entries(response.headers)) {
    if (value !== undefined) headers[name] = Array.isArray(value) ? value.join(', ') : value;
  }
  return { status: response.statusCode, headers, text, json: () => JSON.parse(text) };
}

export const POST_HEADERS = {
  'content-type': 'application/json',
  accept: 'application/json, text/event-stream',
} as const;

export function initializeRequest(id: RequestId = 1, protocolVersion = '2025-11-25'): JSONRPCMessage {
  return {
    jsonrpc: '2.0',
    id,
    method: 'initialize',
    params: { protocolVersion, capabilities: {}, clientInfo: { name: 'raw', version: '0' } },
  };
}

/** Parses a complete SSE body into events (id, data; comments dropped). */
export function parseSse(text: string): Array<{ id?: string; data: string; retry?: number }> {
  const events: Array<{ id?: string; data: string; retry?: number }> = [];
  for (const block of text.split('\n\n')) {
    if (block.trim() === '') continue;
    const event: { id?: string; data: string; retry?: number } = { data: '' };
    let sawField = false;
    for (const line of block.split('\n')) {
      if (line.startsWith(':')) continue;
      const colon = line.indexOf(':');
      const field = colon === -1 ? line : line.slice(0, colon);
      const value = colon === -1 ? '' : line.slice(colon + 1).replace(/^ /, '');
      sawField = true;
      if (field === 'id') event.id = value;
      else if (field === 'data') event.data = event.data === '' ? value : `${event.data}\n${value}`;
      else if (field === 'retry') event.retry = Number(value);
    }
    if (sawField) events.push(event);
  }
  return events;
}

/** The JSON-RPC messages of an SSE body (priming events skipped). */
export function sseMessages(text: string): JSONRPCMessage[] {
  return parseSse(text)
    .filter((e) => e.data !== '')
    .map((e) => JSON.parse(e.data) as JSONRPCMessage);
}

/** Opens a legacy session over raw HTTP; returns its id. */
export async function openSession(url: string, protocolVersion = '2025-11-25'): Promise<string> {
  const reply = await raw(url, { headers: POST_HEADERS, body: initializeRequest(1, protocolVersion) });
  const sessionId = reply.headers['mcp-session-id'];
  if (reply.status !== 200 || sessionId === undefined)
    throw new Error(`initialize failed: ${reply.status} ${reply.text}`);
  const ack = await raw(url, {
    headers: { ...POST_HEADERS, 'mcp-session-id': sessionId, 'mcp-protocol-version': protocolVersion },
    body: { jsonrpc: '2.0', method: 'notifications/initialized' },
  });
  if (ack.status !== 202) throw new Error(`initialized failed: ${ack.status}`);
  return sessionId;
}

/** A minimal client-side peer over a client transport: correlates responses, answers server requests. */
export interface MiniClient {
  received: JSONRPCMessage[];
  request(method: string, params?: Record<string, unknown>): Promise<JSONRPCMessage>;
  notify(method: string, params?: Record<string, unknown>): Promise<void>;
  /** Sends `initialize` + `notifications/initialized`. */
  initialize(protocolVersion?: string): Promise<JSONRPCMessage>;
}

export function miniClient(
  transport: Transport,
  onRequest: (
    method: string,
    params: Record<string, unknown> | undefined,
  ) => Record<string, unknown> = () => ({}),
): MiniClient {
  const received: JSONRPCMessage[] = [];
  const pending = new Map<RequestId, (message: JSONRPCMessage) => void>();
  let nextId = 1;
  transport.onmessage = (message) => {
    received.push(message);
    if (isJSONRPCResponse(message)) {
      const id = message.id;
      if (id !== undefined && id !== null) {
        pending.get(id)?.(message);
        pending.delete(id);
      }
    } else if (isJSONRPCRequest(message)) {
      void transport.send({
        jsonrpc: '2.0',
        id: message.id,
        result: onRequest(message.method, message.params),
      });
    }
  };
  const client: MiniClient = {
    received,
    request: async (method, params) => {
      const id = nextId++;
      const answered = new Promise<JSONRPCMessage>((resolve) => pending.set(id, resolve));
      await transport.send(
        params === undefined ? { jsonrpc: '2.0', id, method } : { jsonrpc: '2.0', id, method, params },
      );
      return answered;
    },
    notify: (method, params) =>
      transport.send(params === undefined ? { jsonrpc: '2.0', method } : { jsonrpc: '2.0', method, params }),
    initialize: async (protocolVersion = '2025-11-25') => {
      const result = await client.request('initialize', {
        protocolVersion,
        capabilities: {},
        clientInfo: { name: 'mini', version: '0' },
      });
      transport.setProtocolVersion?.(protocolVersion);
      await client.notify('notifications/initialized');
      return result;
    },
  };
  return client;
}
