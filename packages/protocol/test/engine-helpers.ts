import type { JSONRPCMessage } from '../src/jsonrpc.js';
import type { TransportSendOptions } from '../src/transport.js';
import { Protocol } from '../src/engine/index.js';
import type { ProtocolOptions } from '../src/engine/index.js';
import { InMemoryTransport } from '../src/transports/in-memory-transport.js';
import { afterMicrotasks } from '@x/test-kit';

/** One `send()` call as the transport saw it. */
export interface SentMessage {
  message: JSONRPCMessage;
  options: TransportSendOptions | undefined;
}

/** Records every message (and its send options) a transport is asked to send. */
export function recordSends(transport: InMemoryTransport): SentMessage[] {
  const sent: SentMessage[] = [];
  const send = transport.send.bind(transport);
  transport.send = (message, options) => {
    sent.push({ message, options });
    return send(message, options);
  };
  return sent;
}

/**
 * An engine wired to a bare transport end the test drives by hand, so it can assert exact wire
 * messages and inject anything a peer could send.
 */
export async function engineWithRawPeer<P extends Protocol = Protocol>(
  engine: P = new Protocol() as P,
): Promise<{
  engine: P;
  transport: InMemoryTransport;
  peer: InMemoryTransport;
  /** Messages the engine put on the wire (what the peer received). */
  wire: JSONRPCMessage[];
  sent: SentMessage[];
  errors: Error[];
  /** Sends a raw message to the engine and lets it be processed. */
  inject(message: JSONRPCMessage): Promise<void>;
}> {
  const [transport, peer] = InMemoryTransport.createLinkedPair();
  const wire: JSONRPCMessage[] = [];
  peer.onmessage = (message) => {
    wire.push(message);
  };
  const errors: Error[] = [];
  engine.onerror = (error) => {
    errors.push(error);
  };
  const sent = recordSends(transport);
  await peer.start();
  await engine.connect(transport);
  return {
    engine,
    transport,
    peer,
    wire,
    sent,
    errors,
    async inject(message) {
      await peer.send(message);
      await afterMicrotasks(20);
    },
  };
}

/** Two engines talking over a linked in-memory pair. */
export async function enginePair(
  options: { client?: ProtocolOptions; server?: ProtocolOptions } = {},
): Promise<{
  client: Protocol;
  server: Protocol;
  clientTransport: InMemoryTransport;
  serverTransport: InMemoryTransport;
  clientSent: SentMessage[];
  serverSent: SentMessage[];
  clientErrors: Error[];
  serverErrors: Error[];
}> {
  const [clientTransport, serverTransport] = InMemoryTransport.createLinkedPair();
  const client = new Protocol(options.client);
  const server = new Protocol(options.server);
  const clientErrors: Error[] = [];
  const serverErrors: Error[] = [];
  client.onerror = (error) => {
    clientErrors.push(error);
  };
  server.onerror = (error) => {
    serverErrors.push(error);
  };
  const clientSent = recordSends(clientTransport);
  const serverSent = recordSends(serverTransport);
  await server.connect(serverTransport);
  await client.connect(clientTransport);
  return {
    client,
    server,
    clientTransport,
    serverTransport,
    clientSent,
    serverSent,
    clientErrors,
    serverErrors,
  };
}
