import { type Metadata, type ServerDuplexStream, status as Status } from '@grpc/grpc-js';
import {
  type AuthInfo,
  isJSONRPCRequest,
  isJSONRPCResponse,
  type JSONRPCMessage,
  type MessageExtraInfo,
  type RequestId,
  type Transport,
  type TransportSendOptions,
} from '@x/protocol/core';
import {
  ConnectionClosedError,
  deliverMessage,
  InFlightSet,
  TransportLostError,
} from '@x/protocol/transport';
import { GrpcStatusError } from './errors.js';
import type { JsonRpcLine } from './proto-files.js';
import { type TunnelLimits, TunnelStream } from './tunnel-stream.js';

/** The server end of one `Session` stream. */
export type SessionCall = ServerDuplexStream<JsonRpcLine, JsonRpcLine>;

/** What a server transport is made from (built by the service, not by users). */
export interface GrpcServerTransportInit {
  call: SessionCall;
  sessionId: string;
  authInfo: AuthInfo | undefined;
  limits: TunnelLimits;
}

/**
 * The server end of one `mcp.transport.v1.Mcp/Session` stream: one stream is one MCP session. Made by
 * `listenGrpc` / `addMcpGrpcService` and handed to `onsession`, not yet started.
 *
 * `close()` ends the stream with status OK; a client that cancels or vanishes ends it with
 * `TransportLostError` as `closeReason`. Every incoming message carries the stream's `authInfo`.
 *
 * @example
 * ```ts
 * await listenGrpc({ port: 50051, onsession: (transport) => mcpServer.connect(transport) });
 * ```
 */
export class GrpcServerTransport implements Transport {
  readonly #call: SessionCall;
  readonly #tunnel: TunnelStream;
  readonly #authInfo: AuthInfo | undefined;
  /** Requests received and not yet answered: a drain waits for them. */
  readonly #unanswered = new InFlightSet<RequestId>();
  #state: 'new' | 'open' | 'closed' = 'new';
  /** Messages that arrived before `start()` (the client may write as soon as the stream is accepted). */
  #early: JSONRPCMessage[] = [];
  #closeReason: Error | undefined;
  #idle: (() => void) | undefined;

  readonly sessionId: string;
  readonly network = true;
  onmessage?: ((message: JSONRPCMessage, extra?: MessageExtraInfo) => void) | undefined;
  onerror?: ((error: Error) => void) | undefined;
  onclose?: (() => void) | undefined;

  /** @internal Made by `addMcpGrpcService` / `listenGrpc`. */
  constructor(init: GrpcServerTransportInit) {
    this.#call = init.call;
    this.sessionId = init.sessionId;
    this.#authInfo = init.authInfo;
    this.#tunnel = new TunnelStream(init.call, init.limits, {
      message: (message) => this.#deliver(message),
      error: (error) => this.onerror?.(error),
      fail: (error) => this.#fail(error),
    });
    init.call.on('end', () => {
      // The client half-closed: it ends the session (the tunnel's close from the client side).
      this.#finish(undefined);
      this.#endCall();
    });
    init.call.on('cancelled', () => {
      this.#finish(
        new TransportLostError('The gRPC client cancelled the session stream', { transport: 'grpc' }),
      );
    });
    init.call.on('error', (error: Error) => {
      this.#finish(
        new TransportLostError(`The gRPC session stream failed: ${error.message}`, {
          transport: 'grpc',
          cause: error,
        }),
      );
    });
  }

  /** Why the session ended, when the client or the network ended it. */
  get closeReason(): Error | undefined {
    return this.#closeReason;
  }

  /** The call metadata the client opened the stream with. */
  get metadata(): Metadata {
    return this.#call.metadata;
  }

  /** Requests received whose answer has not been sent. */
  get unansweredRequests(): number {
    return this.#unanswered.size;
  }

  async start(): Promise<void> {
    if (this.#state !== 'new') throw new Error('GrpcServerTransport already started');
    this.#state = 'open';
    const early = this.#early.splice(0);
    for (const message of early) this.#deliver(message);
  }

  send(message: JSONRPCMessage, options?: TransportSendOptions): Promise<void> {
    if (this.#state === 'closed') return Promise.reject(new ConnectionClosedError());
    if (isJSONRPCResponse(message) && message.id != null) {
      this.#unanswered.delete(message.id);
      if (this.#unanswered.size === 0) this.#idle?.();
    }
    return this.#tunnel.send(message, options);
  }

  async close(): Promise<void> {
    if (this.#state === 'closed') return;
    this.#finish(undefined);
    this.#endCall();
  }

  /** Resolves once no request is waiting for its answer (for a drain). */
  whenIdle(): Promise<void> {
    if (this.#unanswered.size === 0 || this.#state === 'closed') return Promise.resolve();
    return new Promise((resolve) => {
      this.#idle = resolve;
    });
  }

  /** Ends the stream with a status other than OK (`drain` past its timeout, a failed `onsession`). */
  abort(code: number, details: string): void {
    this.#finish(new GrpcStatusError('The server ended the session', code, details));
    this.#call.emit('error', { code, details });
  }

  #deliver(message: JSONRPCMessage): void {
    if (this.#state === 'closed') return;
    if (this.#state === 'new') {
      this.#early.push(message);
      return;
    }
    if (isJSONRPCRequest(message)) this.#unanswered.add(message.id);
    deliverMessage(this, message, this.#authInfo === undefined ? undefined : { authInfo: this.#authInfo });
  }

  #fail(error: Error): void {
    this.onerror?.(error);
    this.#finish(error);
    this.#call.emit('error', { code: Status.RESOURCE_EXHAUSTED, details: error.message });
  }

  #endCall(): void {
    // Messages already handed to gRPC are flushed before the OK status.
    if (!this.#call.writableEnded) this.#call.end();
  }

  #finish(reason: Error | undefined): void {
    if (this.#state === 'closed') return;
    this.#state = 'closed';
    this.#closeReason = reason;
    this.#tunnel.end(reason ?? new ConnectionClosedError());
    this.#unanswered.clear();
    this.#idle?.();
    this.onclose?.();
  }
}
