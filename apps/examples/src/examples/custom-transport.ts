// Example: writing a transport of your own. `MessagePortTransport` carries MCP over a Web-standard
// `MessageChannel` (the same API links a page to a worker or an iframe). It is proven with the
// contract kit from `@x/protocol/testing` (ordering, 1 MiB messages, close from either side, 1 000
// concurrent requests, …), then an McpServer and a Client talk over it like over any other transport.
import assert from 'node:assert/strict';
import { Client } from '@x/client';
import { ConnectionClosedError, type JSONRPCMessage, type Transport } from '@x/protocol';
import { runTransportContract, transportContractScenarios } from '@x/protocol/testing';
import { McpServer } from '@x/server';
import { z } from 'zod';

/** What travels through the port: a message, or the goodbye that tells the peer we closed. */
type Frame = { kind: 'message'; message: JSONRPCMessage } | { kind: 'close' };

/** One end of a `MessageChannel`, as an MCP `Transport`. */
class MessagePortTransport implements Transport {
  readonly #port: MessagePort;
  #state: 'new' | 'open' | 'closed' = 'new';

  onmessage?: ((message: JSONRPCMessage) => void) | undefined;
  onerror?: ((error: Error) => void) | undefined;
  onclose?: (() => void) | undefined;

  static createPair(): [MessagePortTransport, MessagePortTransport] {
    const { port1, port2 } = new MessageChannel();
    return [new MessagePortTransport(port1), new MessagePortTransport(port2)];
  }

  constructor(port: MessagePort) {
    this.#port = port;
  }

  async start(): Promise<void> {
    if (this.#state !== 'new') throw new Error('MessagePortTransport already started');
    this.#state = 'open';
    // Frames posted before this point waited in the port: assigning onmessage starts delivery.
    // Only our peer holds the other end, so the frame shape is ours to trust.
    this.#port.onmessage = (event) => this.#receive(event.data as Frame);
    this.#port.onmessageerror = () => this.onerror?.(new Error('A frame could not be deserialized'));
    // Node (and newer browsers) also fire `close` when the peer goes away without a goodbye.
    this.#port.addEventListener('close', () => void this.close());
  }

  async send(message: JSONRPCMessage): Promise<void> {
    if (this.#state === 'closed') throw new ConnectionClosedError();
    // Structured clone: a value it cannot copy (a function) throws here, which rejects this send only.
    this.#port.postMessage({ kind: 'message', message } satisfies Frame);
  }

  async close(): Promise<void> {
    if (this.#state === 'closed') return;
    this.#state = 'closed';
    // A browser's MessagePort does not tell the other end it closed, so say goodbye before closing.
    this.#port.postMessage({ kind: 'close' } satisfies Frame);
    this.#port.close();
    this.onclose?.();
  }

  #receive(frame: Frame): void {
    if (this.#state !== 'open') return;
    if (frame.kind === 'close') void this.close();
    else this.onmessage?.(frame.message);
  }
}

const contract = await runTransportContract(async () => {
  const [client, server] = MessagePortTransport.createPair();
  return { client, server };
});
assert.equal(contract.passed.length, transportContractScenarios.length);
console.log(
  `contract kit: all ${contract.passed.length} scenarios passed (${contract.passed.slice(0, 3).join(', ')}, …)`,
);

const server = new McpServer({ name: 'message-port-example', version: '1.0.0' });
server.registerTool(
  'reverse',
  { description: 'Reverses a string', inputSchema: z.object({ text: z.string() }) },
  ({ text }) => ({ content: [{ type: 'text', text: [...text].reverse().join('') }] }),
);
const [clientEnd, serverEnd] = MessagePortTransport.createPair();
await server.connect(serverEnd);
const client = new Client({ name: 'message-port-client', version: '1.0.0' });
try {
  await client.connect(clientEnd);
  const result = await client.callTool({ name: 'reverse', arguments: { text: 'stressed' } });
  assert.deepEqual(result.content, [{ type: 'text', text: 'desserts' }]);
  console.log(
    `Client ⇄ McpServer over MessagePortTransport: ${client.era} (${client.protocolVersion}), reverse('stressed') = desserts`,
  );
} finally {
  await client.close();
  await server.close();
}
