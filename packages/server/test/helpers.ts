import {
  InMemoryTransport,
  type JSONRPCMessage,
  type MessageExtraInfo,
  MetaKey,
  Protocol,
  ResultSchema,
  type TransportSendOptions,
} from '@x/protocol';
import type { ConnectOptions, McpServer, Server, ServerSession } from '../src/index.js';
import { afterTimeouts } from '@x/test-kit';

/** A raw engine playing the client, and every message the server put on the wire. */
export interface Wire {
  client: Protocol;
  session: ServerSession;
  /** Messages the server sent, in order. */
  sent: JSONRPCMessage[];
  /** Options the server passed with each sent message. */
  sendOptions: Array<TransportSendOptions | undefined>;
  serverTransport: InMemoryTransport;
  clientTransport: InMemoryTransport;
  /** Sends a request and resolves with the raw result object (or rejects with the McpError). */
  call(method: string, params?: Record<string, unknown>): Promise<Record<string, unknown>>;
  notifications(method?: string): Array<Record<string, unknown>>;
}

export async function connect(
  server: McpServer | Server,
  options: { extra?: MessageExtraInfo; connect?: ConnectOptions } = {},
): Promise<Wire> {
  const [clientTransport, serverTransport] = InMemoryTransport.createLinkedPair();
  if (options.extra !== undefined) serverTransport.extra = options.extra;
  const sent: JSONRPCMessage[] = [];
  const sendOptions: Array<TransportSendOptions | undefined> = [];
  const send = serverTransport.send.bind(serverTransport);
  serverTransport.send = (message, opts) => {
    sent.push(message);
    sendOptions.push(opts);
    return send(message, opts);
  };
  const session = await server.connect(serverTransport, options.connect);
  const client = new Protocol({ timeout: 5_000 });
  await client.connect(clientTransport);
  return {
    client,
    session,
    sent,
    sendOptions,
    serverTransport,
    clientTransport,
    call: (method, params) =>
      client.request(params === undefined ? { method } : { method, params }, ResultSchema) as Promise<
        Record<string, unknown>
      >,
    notifications: (method) =>
      sent
        .filter((m) => 'method' in m && !('id' in m) && (method === undefined || m.method === method))
        .map((m) => (m as { params?: Record<string, unknown> }).params ?? {}),
  };
}

export const LEGACY_CLIENT_INFO = { name: 'test-client', version: '1.0.0' };

/** initialize + notifications/initialized, the legacy handshake. */
export async function initialize(
  wire: Wire,
  options: { protocolVersion?: string; capabilities?: Record<string, unknown> } = {},
): Promise<Record<string, unknown>> {
  const result = await wire.call('initialize', {
    protocolVersion: options.protocolVersion ?? '2025-11-25',
    capabilities: options.capabilities ?? {},
    clientInfo: LEGACY_CLIENT_INFO,
  });
  await wire.client.notification({ method: 'notifications/initialized' });
  await afterTimeouts(5);
  return result;
}

/** The `_meta` every 2026-07-28 request carries. */
export function modernMeta(
  capabilities: Record<string, unknown> = {},
  extra: Record<string, unknown> = {},
): Record<string, unknown> {
  return {
    [MetaKey.ProtocolVersion]: '2026-07-28',
    [MetaKey.ClientCapabilities]: capabilities,
    [MetaKey.ClientInfo]: { name: 'modern-client', version: '1.0.0' },
    ...extra,
  };
}

/** The response the server sent for request `id`. */
export function responseTo(wire: Wire, id: number | string): JSONRPCMessage | undefined {
  return wire.sent.find((m) => 'id' in m && m.id === id && !('method' in m));
}
