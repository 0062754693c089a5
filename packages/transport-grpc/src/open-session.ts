import {
  type Client,
  type ClientDuplexStream,
  type Metadata,
  type ServiceError,
  status as Status,
} from '@grpc/grpc-js';
import { TransportLostError } from '@x/protocol/transport';
import { GrpcStatusError, statusName } from './errors.js';
import type { JsonRpcLine } from './proto-files.js';

/** The client end of one `Session` stream. */
export type SessionStream = ClientDuplexStream<JsonRpcLine, JsonRpcLine>;

type SessionOpener = (metadata: Metadata, options: { deadline?: number }) => SessionStream;

/** Statuses that mean the connection, not the server's decision, ended an accepted stream. */
const LOST = new Set<number>([Status.UNAVAILABLE, Status.INTERNAL, Status.UNKNOWN, Status.CANCELLED]);

/**
 * Opens a `Session` stream and waits for the server to accept it (its initial metadata). Before
 * acceptance every status is a refusal (or no connection): `GrpcStatusError`, never a lost session.
 */
export async function openSession(
  client: Client,
  metadata: Metadata,
  options: { address: string; deadlineMs: number | undefined; connectTimeoutMs: number },
): Promise<{ call: SessionStream; accepted: Metadata }> {
  const what = `gRPC session to ${options.address}`;
  const call = (client as unknown as { Session: SessionOpener }).Session(
    metadata,
    options.deadlineMs === undefined ? {} : { deadline: Date.now() + options.deadlineMs },
  );
  const accepted = await new Promise<Metadata>((resolve, reject) => {
    const timer = setTimeout(() => {
      call.cancel();
      const details = `not accepted within ${options.connectTimeoutMs} ms (connectTimeoutMs)`;
      reject(new GrpcStatusError(what, Status.DEADLINE_EXCEEDED, details));
    }, options.connectTimeoutMs);
    call.once('metadata', (initial: Metadata) => {
      clearTimeout(timer);
      resolve(initial);
    });
    call.once('error', (error: ServiceError) => {
      clearTimeout(timer);
      const code = typeof error.code === 'number' ? error.code : Status.UNKNOWN;
      reject(
        new GrpcStatusError(what, code, error.details ?? error.message, {
          cause: error,
          trailers: error.metadata,
        }),
      );
    });
  });
  return { call, accepted };
}

/** Why an accepted stream ended with an error: `TransportLostError` for the network, else the status. */
export function streamError(error: ServiceError, address: string): GrpcStatusError | TransportLostError {
  const code = typeof error.code === 'number' ? error.code : Status.UNKNOWN;
  const details = error.details ?? error.message;
  const what = `gRPC session stream to ${address}`;
  if (LOST.has(code)) {
    return new TransportLostError(`${what} was lost: ${statusName(code)}: ${details}`, {
      transport: 'grpc',
      data: { grpcStatus: code, details },
      cause: error,
    });
  }
  return new GrpcStatusError(what, code, details, { cause: error, trailers: error.metadata });
}
