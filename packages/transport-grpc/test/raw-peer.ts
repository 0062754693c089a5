import { type AddressInfo, connect, createServer, type Socket } from 'node:net';
import { fileURLToPath } from 'node:url';
import { type ClientDuplexStream, credentials, loadPackageDefinition, Metadata } from '@grpc/grpc-js';
import { loadSync } from '@grpc/proto-loader';

/** The shipped copy of the published tunnel proto (its bytes are checked in wire.test.ts). */
export const TUNNEL_PROTO = fileURLToPath(new URL('../proto/mcp.transport.v1.proto', import.meta.url));

interface Frame {
  line: string;
  related_request_id: string;
  resumption_token: string;
}

type RawClient = {
  Session(metadata: Metadata): ClientDuplexStream<Partial<Frame>, Frame>;
  close(): void;
};

/**
 * A bare @grpc/grpc-js client generated from the published proto, as any other language's peer would
 * be: nothing of this package is used.
 */
export function rawTunnelClient(target: string): RawClient {
  // Default proto-loader options (camelCase off by keepCase, as a stub generator keeps field names).
  const definition = loadSync(TUNNEL_PROTO, { keepCase: true, defaults: true });
  const root = loadPackageDefinition(definition) as unknown as {
    mcp: { transport: { v1: { Mcp: new (target: string, creds: unknown) => RawClient } } };
  };
  return new root.mcp.transport.v1.Mcp(target, credentials.createInsecure());
}

/** Opens a raw Session stream with optional metadata; resolves with the stream and its initial metadata. */
export async function rawSession(
  client: RawClient,
  entries: Record<string, string> = {},
): Promise<{ call: ClientDuplexStream<Partial<Frame>, Frame>; initial: Metadata }> {
  const metadata = new Metadata();
  for (const [key, value] of Object.entries(entries)) metadata.set(key, value);
  const call = client.Session(metadata);
  const initial = await new Promise<Metadata>((resolve, reject) => {
    call.once('metadata', resolve);
    call.once('error', reject);
  });
  return { call, initial };
}

/** The next `count` frames of a raw stream. */
export function nextFrames(call: ClientDuplexStream<Partial<Frame>, Frame>, count: number): Promise<Frame[]> {
  return new Promise((resolve, reject) => {
    const frames: Frame[] = [];
    const ondata = (frame: Frame) => {
      frames.push(frame);
      if (frames.length === count) {
        call.off('data', ondata);
        call.pause();
        resolve(frames);
      }
    };
    call.on('data', ondata);
    call.once('error', reject);
    call.resume();
  });
}

/**
 * A TCP relay in front of a server whose `freeze()` stops reading from the server: the client then
 * looks, to the server, like a peer that stopped reading (no HTTP/2 WINDOW_UPDATE comes back).
 */
export interface FreezableRelay extends AsyncDisposable {
  target: string;
  freeze(): void;
}

export async function startRelay(upstreamPort: number): Promise<FreezableRelay> {
  const sockets = new Set<Socket>();
  let frozen = false;
  const upstreams: Socket[] = [];
  const relay = createServer((downstream) => {
    const upstream = connect(upstreamPort, '127.0.0.1');
    sockets.add(downstream).add(upstream);
    upstreams.push(upstream);
    downstream.pipe(upstream);
    upstream.pipe(downstream);
    if (frozen) upstream.pause();
    for (const socket of [downstream, upstream]) socket.on('error', () => {});
  });
  await new Promise<void>((resolve) => relay.listen(0, '127.0.0.1', resolve));
  const { port } = relay.address() as AddressInfo;
  return {
    target: `127.0.0.1:${port}`,
    freeze: () => {
      frozen = true;
      for (const upstream of upstreams) {
        upstream.unpipe();
        upstream.pause();
      }
    },
    [Symbol.asyncDispose]: async () => {
      for (const socket of sockets) socket.destroy();
      await new Promise<void>((resolve) => relay.close(() => resolve()));
    },
  };
}
