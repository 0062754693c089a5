import { ConnectionClosedError, InMemoryTransport, Protocol, type Transport } from '@x/protocol';
import { afterTurn, waitFor } from '@x/test-kit';
import { afterEach, describe, expect, it } from 'vitest';
import { Client, type FailoverEvent, FailoverTransport, TransportLostError } from '../src/index.js';
import { CLIENT_INFO, legacyHandshake } from './helpers.js';

/**
 * A server reachable through a factory: each `create()` is a fresh in-memory connection to a new
 * legacy `Protocol` (one per connection, as a real server has one session per connection). `down`
 * makes `start()` fail, `drop()` closes the live connection from the server side.
 */
class Endpoint {
  down = false;
  /** Connections whose `start()` succeeded. */
  starts = 0;
  readonly servers: Protocol[] = [];
  readonly methods: string[] = [];
  gate: Promise<void> | undefined;
  readonly #setup: (server: Protocol) => void;

  constructor(
    readonly name: string,
    setup: (server: Protocol) => void = () => {},
  ) {
    this.#setup = setup;
  }

  readonly create = async (): Promise<Transport> => {
    const [client, server] = InMemoryTransport.createLinkedPair();
    const start = client.start.bind(client);
    client.start = async () => {
      if (this.down) throw new ConnectionClosedError(`${this.name} is down`);
      await start();
      this.starts++;
    };
    const protocol = new Protocol({ ping: true });
    legacyHandshake(protocol);
    protocol.setRequestHandler('ping', async () => {
      this.methods.push('ping');
      await this.gate;
      return {};
    });
    this.#setup(protocol);
    const deliver = server.send.bind(server);
    server.send = (message, options) => deliver(message, options);
    await protocol.connect(server);
    const onmessage = server.onmessage;
    server.onmessage = (message, extra) => {
      if ('method' in message && message.method !== 'ping') this.methods.push(message.method);
      onmessage?.(message, extra);
    };
    this.servers.push(protocol);
    return client;
  };

  async drop(): Promise<void> {
    await this.servers.at(-1)?.close();
  }
}

const closers: Array<() => Promise<unknown>> = [];
afterEach(async () => {
  for (const close of closers.splice(0)) await close();
});

async function connected(endpoints: Endpoint[], options: { probe?: boolean } = {}) {
  const events: FailoverEvent[] = [];
  const transport = new FailoverTransport({
    transports: endpoints.map((e) => ({ name: e.name, create: e.create })),
    probe: options.probe === false ? false : { initialDelayMs: 5, maxDelayMs: 20 },
    onevent: (event) => events.push(event),
  });
  const client = new Client(CLIENT_INFO, { protocolVersion: 'legacy', retry: { initialDelayMs: 1 } });
  closers.push(() => client.close());
  await client.connect(transport);
  return { client, transport, events };
}

describe('FailoverTransport', () => {
  it('starts the first target that starts and probes the preferred one back', async () => {
    const ws = new Endpoint('ws');
    const http = new Endpoint('http');
    ws.down = true;
    const { client, transport, events } = await connected([ws, http]);
    expect(transport.activeName).toBe('http');
    await client.ping();
    ws.down = false;
    await waitFor(() => transport.activeName === 'ws', { what: 'restored' });
    expect(events.map((e) => e.type)).toContain('probing');
    expect(events.at(-1)).toMatchObject({ type: 'restored', from: 'http', to: 'ws' });
    // The preferred server got a fresh handshake before anything else.
    expect(ws.methods.slice(0, 2)).toEqual(['initialize', 'notifications/initialized']);
    await client.ping();
  });

  it('switches back only once no request is in flight', async () => {
    const ws = new Endpoint('ws');
    const http = new Endpoint('http');
    ws.down = true;
    const { client, transport } = await connected([ws, http]);
    let open: () => void = () => {};
    http.gate = new Promise((resolve) => {
      open = resolve;
    });
    const slow = client.ping();
    slow.catch(() => {});
    await waitFor(() => http.methods.includes('ping'), { what: 'the ping in flight' });
    ws.down = false;
    // The probe succeeds, but the ping on HTTP is still waiting: no switch yet.
    await waitFor(() => ws.starts === 1, { what: 'a probe connection' });
    await afterTurn();
    await afterTurn();
    expect(transport.activeName).toBe('http');
    open();
    await slow;
    await waitFor(() => transport.activeName === 'ws', { what: 'the switch back' });
    expect(http.methods.filter((m) => m === 'ping')).toHaveLength(1);
  });

  it('fails over when the active connection drops; requests made during the switch wait for it', async () => {
    const ws = new Endpoint('ws');
    const http = new Endpoint('http');
    const { client, transport, events } = await connected([ws, http], { probe: false });
    ws.down = true;
    await ws.drop();
    const during = client.ping();
    await during;
    expect(transport.activeName).toBe('http');
    expect(events).toMatchObject([{ type: 'switched', from: 'ws', to: 'http' }]);
    expect(http.methods.slice(0, 2)).toEqual(['initialize', 'notifications/initialized']);
  });

  it('a lost request not safe to repeat rejects with TransportLostError', async () => {
    const ws = new Endpoint('ws', (server) =>
      server.setRequestHandler('tools/call', () => new Promise(() => {})),
    );
    const http = new Endpoint('http');
    const { client } = await connected([ws, http], { probe: false });
    const call = client.callTool({ name: 'pay' }).catch((error: unknown) => error);
    await waitFor(() => ws.methods.includes('tools/call'), { what: 'the call in flight' });
    await ws.drop();
    const error = await call;
    expect(error).toBeInstanceOf(TransportLostError);
    expect(error).toBeInstanceOf(ConnectionClosedError);
    expect((error as TransportLostError).transport).toBe('ws');
    expect(http.methods).not.toContain('tools/call');
  });

  it('closes with a reason naming every target when none is left', async () => {
    const ws = new Endpoint('ws');
    const http = new Endpoint('http');
    const { client, transport } = await connected([ws, http], { probe: false });
    let closed = 0;
    client.onclose = () => closed++;
    ws.down = true;
    http.down = true;
    await ws.drop();
    await waitFor(() => closed === 1, { what: 'onclose' });
    expect(transport.closeReason?.message).toMatch(
      /ws was lost .* every transport failed \(http: http is down; ws: ws is down\)/,
    );
    await expect(client.ping()).rejects.toBeInstanceOf(ConnectionClosedError);
    expect(() => new FailoverTransport({ transports: [] })).toThrow(/at least one/);
  });
});
