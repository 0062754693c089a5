import { join } from 'node:path';
import {
  type ClientDuplexStream,
  credentials,
  loadPackageDefinition,
  Server,
  ServerCredentials,
  type ServerDuplexStream,
  type ServiceClientConstructor,
} from '@grpc/grpc-js';
import { loadSync } from '@grpc/proto-loader';
import { PROTO_DIR } from '@x/transport-grpc';
import type { BenchSession, ServerHandle, ServerTarget } from '../types.js';
import { respond } from './responder.js';
import { rawBig, rawEcho, rawHandshake, type RawResponse, RpcClient } from './rpc-client.js';

/** One frame of the published tunnel (`mcp.transport.v1.JsonRpcLine`); the raw side fills only `line`. */
interface Frame {
  line: string;
}

/** Same limit as x-mcp's gRPC server and client (4 MiB + frame overhead), so W3's 1 MiB fits both. */
const MAX_MESSAGE_BYTES = 4 * 1024 * 1024 + 64 * 1024;

let loaded: ServiceClientConstructor | undefined;

/**
 * The tunnel service from the `.proto` `@x/transport-grpc` ships: the same bytes on the wire as x-mcp.
 * Loaded once per process (W6's load processes open thousands of streams).
 */
function tunnel(): ServiceClientConstructor {
  loaded ??= loadTunnel();
  return loaded;
}

function loadTunnel(): ServiceClientConstructor {
  const definition = loadSync(join(PROTO_DIR, 'mcp.transport.v1.proto'), { keepCase: true, defaults: true });
  const root = loadPackageDefinition(definition) as unknown as {
    mcp: { transport: { v1: { Mcp: ServiceClientConstructor } } };
  };
  return root.mcp.transport.v1.Mcp;
}

/**
 * Raw gRPC server on bare `@grpc/grpc-js`: a bidi stream per connection, one JSON-RPC message per
 * frame, answered by the raw responder. No MCP layer, no limits, no session bookkeeping.
 */
export async function serveRawGrpc(): Promise<ServerHandle> {
  const server = new Server({
    'grpc.max_receive_message_length': MAX_MESSAGE_BYTES,
    'grpc.max_send_message_length': MAX_MESSAGE_BYTES,
  });
  server.addService(tunnel().service, {
    Session: (call: ServerDuplexStream<Frame, Frame>) => {
      call.on('data', (frame: Frame) => {
        const reply = respond(JSON.parse(frame.line));
        if (reply !== undefined) call.write({ line: JSON.stringify(reply) });
      });
      call.on('end', () => call.end());
      call.on('error', () => {});
    },
  });
  const port = await new Promise<number>((resolve, reject) =>
    server.bindAsync('127.0.0.1:0', ServerCredentials.createInsecure(), (error, bound) =>
      error === null ? resolve(bound) : reject(error),
    ),
  );
  return { port, close: () => new Promise<void>((resolve) => server.tryShutdown(() => resolve())) };
}

/** Raw gRPC client on bare `@grpc/grpc-js`: one bidi stream, JSON text in `line`. */
export async function connectRawGrpc(target: ServerTarget): Promise<BenchSession> {
  const Mcp = tunnel();
  const client = new Mcp(`127.0.0.1:${target.port}`, credentials.createInsecure(), {
    'grpc.max_receive_message_length': MAX_MESSAGE_BYTES,
    'grpc.max_send_message_length': MAX_MESSAGE_BYTES,
  });
  const call = (client['Session'] as () => ClientDuplexStream<Frame, Frame>)();
  const rpc = new RpcClient((message) => call.write({ line: JSON.stringify(message) }));
  call.on('data', (frame: Frame) => rpc.deliver(JSON.parse(frame.line) as RawResponse));
  call.on('error', (error: Error) => rpc.failAll(error));
  await rawHandshake(rpc);
  return {
    echo: () => rawEcho(rpc),
    big: () => rawBig(rpc),
    close: async () => {
      const ended = new Promise<void>((resolve) => call.once('status', () => resolve()));
      call.end();
      await ended;
      client.close();
    },
  };
}
