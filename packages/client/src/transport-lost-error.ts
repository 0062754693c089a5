import { transportLossOf } from '@x/protocol/internal';

/**
 * True for a request lost with its connection (`TransportLostError`, from `@x/protocol`): what the
 * WebSocket client with `reconnect`, the stdio client with `restart` and `FailoverTransport` reject
 * such requests with, also when an `outgoingRequest` interceptor replaced that error with its own (the
 * engine marks it). Only a transport can raise it; a server's -32000 answer is not one.
 */
export function isTransportLoss(error: unknown): boolean {
  return transportLossOf(error) !== undefined;
}
