import { type Client, Metadata, type ServiceError, status as Status } from '@grpc/grpc-js';
import {
  isJSONRPCRequest,
  isJSONRPCResponse,
  type JSONRPCMessage,
  type RequestId,
  type Transport,
  type TransportSendOptions,
} from '@x/protocol/core';
import { MAX_AUTH_RETRIES } from '@x/protocol/http';
import {
  ConnectionClosedError,
  DEFAULT_MAX_MESSAGE_BYTES,
  DEFAULT_MAX_QUEUED_BYTES,
  deliverMessage,
  InFlightSet,
  type ResolvedReconnectOptions,
  reconnectDelay,
  resolveReconnect,
  TransportLostError,
  transportLostResponse,
} from '@x/protocol/transport';
import {
  channelCredentials,
  channelOptions,
  GRPC_RECONNECT_DEFAULTS,
  type GrpcClientTransportOptions,
  parseTarget,
} from './client-options.js';
import {
  DEFAULT_CONNECT_TIMEOUT_MS,
  DEFAULT_MAX_BUFFERED_BYTES,
  DEFAULT_SEND_STALL_TIMEOUT_MS,
  SESSION_METHOD_PATH,
} from './constants.js';
import { GrpcStatusError } from './errors.js';
import { openSession, type SessionStream, streamError } from './open-session.js';
import { tunnelClient } from './proto-files.js';
import { responseOf } from './session-auth.js';
import { type TunnelLimits, TunnelStream } from './tunnel-stream.js';

/** Statuses a reconnect cannot fix. */
const FINAL = new Set<number>([
  Status.UNAUTHENTICATED,
  Status.PERMISSION_DENIED,
  Status.UNIMPLEMENTED,
  Status.INVALID_ARGUMENT,
]);

/**
 * MCP over gRPC, client side: one `mcp.transport.v1.Mcp/Session` bidirectional stream is one session,
 * one JSON-RPC message per `JsonRpcLine` frame. `target` is `host:port`, `grpc://host:port` or
 * `grpcs://host:port` (TLS). Plaintext is refused off loopback unless `allowInsecure`.
 *
 * `start()` resolves once the server accepted the stream (its initial metadata, with `mcp-session-id`)
 * and rejects with `GrpcStatusError` when it refused it (after `onUnauthorized` had its chance on
 * `UNAUTHENTICATED`). A stream lost to the network ends the transport with `TransportLostError` (or,
 * with `reconnect`, fails the requests in flight with it and opens a new stream).
 *
 * @example
 * ```ts
 * const client = new Client({ name: 'app', version: '1.0.0' });
 * await client.connect(new GrpcClientTransport('127.0.0.1:50051'));
 * console.log(await client.listTools());
 * ```
 */
export class GrpcClientTransport implements Transport {
  readonly #options: GrpcClientTransportOptions;
  readonly #address: string;
  readonly #client: Client;
  readonly #limits: TunnelLimits;
  readonly #reconnect: ResolvedReconnectOptions | undefined;
  readonly #inFlight: InFlightSet<RequestId> | undefined;
  #state: 'new' | 'connecting' | 'open' | 'reconnecting' | 'closed' = 'new';
  #call: SessionStream | undefined;
  #tunnel: TunnelStream | undefined;
  #protocolVersion: string | undefined;
  #attempt = 0;
  #timer: ReturnType<typeof setTimeout> | undefined;
  #closeReason: Error | undefined;

  sessionId?: string | undefined;
  readonly network = true;
  onmessage?: ((message: JSONRPCMessage) => void) | undefined;
  onerror?: ((error: Error) => void) | undefined;
  onclose?: (() => void) | undefined;
  onreconnect?: (() => void) | undefined;

  constructor(target: string, options: GrpcClientTransportOptions = {}) {
    const { address, secure } = parseTarget(target);
    this.#options = options;
    this.#address = address;
    const Tunnel = tunnelClient();
    this.#client = new Tunnel(address, channelCredentials(address, secure, options), channelOptions(options));
    this.#limits = {
      maxMessageBytes: options.maxMessageBytes ?? DEFAULT_MAX_MESSAGE_BYTES,
      maxBufferedBytes: options.maxBufferedBytes ?? DEFAULT_MAX_BUFFERED_BYTES,
      maxQueuedBytes: options.maxQueuedBytes ?? DEFAULT_MAX_QUEUED_BYTES,
      sendStallTimeoutMs: options.sendStallTimeoutMs ?? DEFAULT_SEND_STALL_TIMEOUT_MS,
      maxNestingDepth: options.maxNestingDepth,
    };
    this.#reconnect = resolveReconnect(options.reconnect, GRPC_RECONNECT_DEFAULTS, false);
    this.#inFlight = this.#reconnect === undefined ? undefined : new InFlightSet();
  }

  /** Why the transport ended, when the server or the network ended it. */
  get closeReason(): Error | undefined {
    return this.#closeReason;
  }

  async start(): Promise<void> {
    if (this.#state !== 'new') throw new Error('GrpcClientTransport already started');
    this.#state = 'connecting';
    try {
      await this.#connectWithAuth();
    } catch (error) {
      this.#state = 'closed';
      this.#client.close();
      throw error;
    }
  }

  setProtocolVersion(version: string): void {
    // Sent as `mcp-protocol-version` metadata on every later stream (a reconnect).
    this.#protocolVersion = version;
  }

  send(message: JSONRPCMessage, options?: TransportSendOptions): Promise<void> {
    const tunnel = this.#tunnel;
    if (this.#state !== 'open' || tunnel === undefined) {
      return Promise.reject(
        this.#state === 'reconnecting'
          ? new TransportLostError(`The gRPC stream to ${this.#address} is reconnecting`, {
              transport: 'grpc',
            })
          : new ConnectionClosedError(),
      );
    }
    const inFlight = this.#inFlight;
    if (inFlight === undefined || !isJSONRPCRequest(message)) return tunnel.send(message, options);
    inFlight.add(message.id);
    return tunnel.send(message, options).catch((error: unknown) => {
      inFlight.delete(message.id);
      throw error;
    });
  }

  async close(): Promise<void> {
    if (this.#state === 'closed') return;
    this.#state = 'closed';
    clearTimeout(this.#timer);
    this.#tunnel?.end(new ConnectionClosedError());
    // Half-close: the server ends its side with OK once it has read everything.
    this.#call?.end();
    this.#call = undefined;
    this.#inFlight?.clear();
    this.#client.close();
    this.onclose?.();
  }

  async #connectWithAuth(): Promise<void> {
    for (let round = 0; ; round++) {
      try {
        await this.#open();
        return;
      } catch (error) {
        if (!(error instanceof GrpcStatusError) || round >= MAX_AUTH_RETRIES) throw error;
        const hook =
          error.status === Status.UNAUTHENTICATED
            ? this.#options.onUnauthorized
            : error.status === Status.PERMISSION_DENIED
              ? this.#options.onForbidden
              : undefined;
        if (hook === undefined || !(await hook(responseOf(error.status, error.trailers)))) throw error;
      }
    }
  }

  async #metadata(): Promise<Metadata> {
    const metadata = new Metadata();
    const scheme = this.#options.tls || this.#options.credentials ? 'https' : 'http';
    const url = new URL(`${scheme}://${this.#address}${SESSION_METHOD_PATH}`);
    const computed = await this.#options.getHeaders?.({ method: 'POST', url });
    const entries = { ...this.#options.metadata, ...this.#options.headers, ...computed };
    for (const [key, value] of Object.entries(entries)) metadata.set(key.toLowerCase(), value);
    if (this.#protocolVersion !== undefined) metadata.set('mcp-protocol-version', this.#protocolVersion);
    return metadata;
  }

  /** Opens one stream; resolves once the server accepted it. */
  async #open(): Promise<void> {
    const metadata = await this.#metadata();
    const { call, accepted } = await openSession(this.#client, metadata, {
      address: this.#address,
      deadlineMs: this.#options.deadlineMs,
      connectTimeoutMs: this.#options.connectTimeoutMs ?? DEFAULT_CONNECT_TIMEOUT_MS,
    });
    this.sessionId = stringOf(accepted.get('mcp-session-id')[0]);
    this.#call = call;
    this.#tunnel = new TunnelStream(call, this.#limits, {
      message: (message) => this.#deliver(message),
      error: (error) => this.onerror?.(error),
      fail: (error) => {
        call.cancel();
        this.#drop(call, error);
      },
    });
    call.on('error', (error: ServiceError) => this.#drop(call, streamError(error, this.#address)));
    call.on('status', (status: { code: number }) => {
      if (status.code === Status.OK) this.#drop(call, undefined);
    });
    this.#state = 'open';
  }

  #deliver(message: JSONRPCMessage): void {
    if (this.#state !== 'open') return;
    if (this.#inFlight !== undefined && isJSONRPCResponse(message) && message.id != null) {
      this.#inFlight.delete(message.id);
    }
    deliverMessage(this, message);
  }

  /** The stream `call` ended: by the server (OK, `reason` undefined) or with an error. */
  #drop(call: SessionStream, reason: Error | undefined): void {
    if (call !== this.#call || this.#state !== 'open') return;
    this.#call = undefined;
    this.#tunnel?.end(reason ?? new ConnectionClosedError());
    this.#tunnel = undefined;
    const code = reason instanceof GrpcStatusError ? reason.status : undefined;
    if (reason === undefined || this.#reconnect === undefined || (code !== undefined && FINAL.has(code))) {
      this.#state = 'closed';
      this.#inFlight?.clear();
      this.#closeReason = reason;
      if (reason !== undefined) this.onerror?.(reason);
      this.#client.close();
      this.onclose?.();
      return;
    }
    this.#state = 'reconnecting';
    this.#failInFlight(reason);
    this.#attempt = 0;
    this.#schedule(reason);
  }

  /** Requests sent on the lost stream can never be answered: each fails now with `TransportLostError`. */
  #failInFlight(reason: Error): void {
    const inFlight = this.#inFlight;
    if (inFlight === undefined || inFlight.size === 0) return;
    const ids = [...inFlight];
    inFlight.clear();
    const lost =
      reason instanceof TransportLostError
        ? reason
        : new TransportLostError(`${reason.message}; the response never arrived (the request may have run)`, {
            transport: 'grpc',
            cause: reason,
          });
    for (const id of ids) {
      if (this.#state !== 'reconnecting') return;
      this.onmessage?.(transportLostResponse(id, lost));
    }
  }

  #schedule(lastError: Error): void {
    const policy = this.#reconnect;
    if (policy === undefined || this.#state !== 'reconnecting') return;
    this.#attempt++;
    if (this.#attempt > policy.maxAttempts) {
      this.#state = 'closed';
      this.#closeReason = new TransportLostError(
        `gRPC reconnect to ${this.#address} gave up after ${this.#attempt - 1} attempts: ${lastError.message}`,
        { transport: 'grpc', cause: lastError },
      );
      this.onerror?.(this.#closeReason);
      this.#client.close();
      this.onclose?.();
      return;
    }
    this.#timer = setTimeout(
      () => {
        this.#timer = undefined;
        void this.#reconnectNow();
      },
      reconnectDelay(policy, this.#attempt - 1),
    );
  }

  async #reconnectNow(): Promise<void> {
    try {
      await this.#connectWithAuth();
    } catch (error) {
      if (this.#state !== 'reconnecting') return;
      const failure = error instanceof Error ? error : new Error(String(error));
      if (failure instanceof GrpcStatusError && FINAL.has(failure.status)) {
        this.#attempt = Number.POSITIVE_INFINITY;
      }
      this.#schedule(failure);
      return;
    }
    if (this.#state === 'closed') return;
    this.#attempt = 0;
    try {
      const resync = this.onreconnect?.() as unknown;
      if (resync instanceof Promise) await resync.catch(() => {});
    } catch (error) {
      this.onerror?.(error instanceof Error ? error : new Error(String(error)));
    }
  }
}

function stringOf(value: unknown): string | undefined {
  return typeof value === 'string' ? value : undefined;
}
