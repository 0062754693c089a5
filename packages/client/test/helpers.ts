import {
  InMemoryTransport,
  type JSONRPCMessage,
  type JSONRPCNotification,
  type JSONRPCRequest,
  LATEST_LEGACY_PROTOCOL_VERSION,
  McpError,
  ErrorCode,
  Protocol,
  type Transport,
} from '@x/protocol';

/**
 * A scripted peer: a raw `Protocol` engine plays the server (the real `@x/server` is tested against this
 * client elsewhere) and every message the client put on the wire is recorded.
 */
export interface FakeServer {
  server: Protocol;
  /** The client's end, to hand to `client.connect()`. */
  transport: InMemoryTransport;
  /** Everything the client sent, in order (deep copies). */
  wire: JSONRPCMessage[];
  requests(method?: string): JSONRPCRequest[];
  notifications(method?: string): JSONRPCNotification[];
  /** Versions the client announced to the transport. */
  protocolVersions: string[];
}

export async function fakeServer(
  setup: (server: Protocol) => void,
  options: { ping?: boolean } = {},
): Promise<FakeServer> {
  const [clientSide, serverSide] = InMemoryTransport.createLinkedPair();
  const wire: JSONRPCMessage[] = [];
  const protocolVersions: string[] = [];
  const send = clientSide.send.bind(clientSide);
  clientSide.send = (message, opts) => {
    wire.push(structuredClone(message));
    return send(message, opts);
  };
  (clientSide as Transport).setProtocolVersion = (version) => {
    protocolVersions.push(version);
  };
  const server = new Protocol({ ping: options.ping ?? true });
  setup(server);
  await server.connect(serverSide);
  return {
    server,
    transport: clientSide,
    wire,
    protocolVersions,
    requests: (method) =>
      wire.filter(
        (m): m is JSONRPCRequest =>
          'method' in m && 'id' in m && (method === undefined || m.method === method),
      ),
    notifications: (method) =>
      wire.filter(
        (m): m is JSONRPCNotification =>
          'method' in m && !('id' in m) && (method === undefined || m.method === method),
      ),
  };
}

export const SERVER_INFO = { name: 'fake-server', version: '9.9.9' };
export const CLIENT_INFO = { name: 'test-client', version: '1.2.3' };

/** Answers `initialize` like a legacy server (and leaves `server/discover` unhandled → -32601). */
export function legacyHandshake(
  server: Protocol,
  answer: { protocolVersion?: string; capabilities?: Record<string, unknown>; instructions?: string } = {},
): void {
  server.setRequestHandler('initialize', () => ({
    protocolVersion: answer.protocolVersion ?? LATEST_LEGACY_PROTOCOL_VERSION,
    capabilities: answer.capabilities ?? { tools: { listChanged: true }, logging: {} },
    serverInfo: SERVER_INFO,
    ...(answer.instructions === undefined ? {} : { instructions: answer.instructions }),
  }));
}

/** Answers `server/discover` like a 2026-07-28 server; `initialize` is unknown to it. */
export function modernDiscover(
  server: Protocol,
  capabilities: Record<string, unknown> = { tools: {} },
): void {
  server.setRequestHandler('server/discover', () => ({
    resultType: 'complete',
    supportedVersions: ['2026-07-28'],
    capabilities,
    instructions: 'be modern',
    _meta: { 'io.modelcontextprotocol/serverInfo': SERVER_INFO },
    ttlMs: 60_000,
    cacheScope: 'public',
  }));
}

/** A transport that fails every send like an HTTP endpoint answering 404 (no MCP server there). */
export class NotFoundTransport implements Transport {
  onmessage?: Transport['onmessage'];
  onerror?: Transport['onerror'];
  onclose?: Transport['onclose'];
  closed = false;
  sent: JSONRPCMessage[] = [];
  readonly #status: number;

  /** `status`: what every POST fails with (404 by default: nothing MCP-shaped at the URL). */
  constructor(status = 404) {
    this.#status = status;
  }

  async start(): Promise<void> {}

  async send(message: JSONRPCMessage): Promise<void> {
    this.sent.push(message);
    const status = this.#status;
    throw Object.assign(new Error(`POST http://example.test/mcp failed with HTTP ${status}`), { status });
  }

  async close(): Promise<void> {
    if (this.closed) return;
    this.closed = true;
    this.onclose?.();
  }
}

export function methodNotFound(method: string): McpError {
  return new McpError(ErrorCode.MethodNotFound, `Method not found: ${method}`);
}

export const text = (value: string) => ({ type: 'text' as const, text: value });
