import { type ChannelCredentials, type ChannelOptions, credentials as Credentials } from '@grpc/grpc-js';
import type { HttpClientAuthOptions } from '@x/protocol/http';
import type { ReconnectOptions, ResolvedReconnectOptions } from '@x/protocol/transport';
import {
  DEFAULT_KEEP_ALIVE_MS,
  DEFAULT_KEEP_ALIVE_TIMEOUT_MS,
  DEFAULT_MAX_MESSAGE_BYTES,
  FRAME_OVERHEAD_BYTES,
} from './constants.js';
import { InsecureTargetError } from './errors.js';

/**
 * Client-side TLS: `true` for the system's roots, or PEM material — `ca` to trust a private CA, `cert`
 * and `key` for mTLS, `servername` when the certificate names another host than the target.
 *
 * @example
 * ```ts
 * new GrpcClientTransport('mcp.example.com:443', { tls: { ca, cert, key } }); // mTLS
 * ```
 */
export interface GrpcClientTls {
  ca?: string | Buffer | undefined;
  cert?: string | Buffer | undefined;
  key?: string | Buffer | undefined;
  servername?: string | undefined;
}

/**
 * The shared reconnect policy of a gRPC client: like the WebSocket client's, off unless asked for.
 *
 * @example
 * ```ts
 * new GrpcClientTransport(target, { reconnect: { ...GRPC_RECONNECT_DEFAULTS, maxAttempts: 50 } });
 * ```
 */
export const GRPC_RECONNECT_DEFAULTS: ResolvedReconnectOptions = {
  initialDelayMs: 500,
  maxDelayMs: 30_000,
  factor: 2,
  maxAttempts: 10,
  jitter: 0.5,
};

/**
 * Options of a {@link GrpcClientTransport}. The HTTP client auth options (`headers`, `getHeaders`,
 * `onUnauthorized`, `onForbidden`) apply to the stream's metadata, so `@x/auth`'s `httpAuthOptions(...)`
 * spreads in unchanged: a bearer token goes out as `authorization` metadata, and a stream refused with
 * `UNAUTHENTICATED` reaches `onUnauthorized` as a 401 (with the server's `www-authenticate`).
 *
 * @example
 * ```ts
 * new GrpcClientTransport('grpcs://mcp.example.com:443', {
 *   ...httpAuthOptions(provider),
 *   deadlineMs: 3_600_000,
 *   reconnect: true,
 * });
 * ```
 */
export interface GrpcClientTransportOptions extends HttpClientAuthOptions {
  /** TLS; `grpcs://` targets default to `true`. Without it (and without `credentials`) plaintext. */
  tls?: GrpcClientTls | boolean | undefined;
  /** Ready-made channel credentials instead of `tls` (e.g. with call credentials composed in). */
  credentials?: ChannelCredentials | undefined;
  /**
   * Plaintext to a host that is not loopback (a service mesh that encrypts for you). Without it such a
   * target throws `InsecureTargetError`. Default false.
   *
   * @default false
   */
  allowInsecure?: boolean | undefined;
  /** Metadata on every stream (`mcp-client-info`, a tenant id …). */
  metadata?: Record<string, string> | undefined;
  /**
   * Deadline of each stream, in ms from its start: then `DEADLINE_EXCEEDED` ends it. Default none.
   *
   * @default none
   */
  deadlineMs?: number | undefined;
  /**
   * How long `start()` (and each reconnect) waits for the stream to be accepted. Default 10 s.
   *
   * @default {@link DEFAULT_CONNECT_TIMEOUT_MS}
   */
  connectTimeoutMs?: number | undefined;
  /**
   * HTTP/2 keepalive PING period; 0 disables. Default `DEFAULT_KEEP_ALIVE_MS` (30 s).
   *
   * @default {@link DEFAULT_KEEP_ALIVE_MS}
   */
  keepAliveMs?: number | undefined;
  /**
   * How long a keepalive PING may go unanswered. Default 10 s.
   *
   * @default {@link DEFAULT_KEEP_ALIVE_TIMEOUT_MS}
   */
  keepAliveTimeoutMs?: number | undefined;
  /**
   * Largest message either way, in bytes. Default `DEFAULT_MAX_MESSAGE_BYTES` (4 MiB).
   *
   * @default {@link DEFAULT_MAX_MESSAGE_BYTES}
   */
  maxMessageBytes?: number | undefined;
  /**
   * JSON nested deeper than this is refused before it is parsed. Default 128.
   *
   * @default {@link DEFAULT_MAX_NESTING_DEPTH}
   */
  maxNestingDepth?: number | undefined;
  /**
   * Bytes handed to gRPC and not yet taken by the server. Default 8 MiB.
   *
   * @default {@link DEFAULT_MAX_BUFFERED_BYTES}
   */
  maxBufferedBytes?: number | undefined;
  /**
   * Bytes of messages waiting behind them; past it the stream ends. Default 32 MiB.
   *
   * @default {@link DEFAULT_MAX_QUEUED_BYTES}
   */
  maxQueuedBytes?: number | undefined;
  /**
   * How long messages may wait without one leaving; then the stream ends. 0 disables. Default 30 s.
   *
   * @default {@link DEFAULT_SEND_STALL_TIMEOUT_MS}
   */
  sendStallTimeoutMs?: number | undefined;
  /**
   * Open a new stream when one is lost (not when the server ends it with OK or refuses it): requests in
   * flight fail with `TransportLostError`, then `onreconnect` runs (the Client's new handshake).
   * Default off; `true` takes {@link GRPC_RECONNECT_DEFAULTS}.
   *
   * @default false
   */
  reconnect?: boolean | ReconnectOptions | undefined;
  /** Further channel options (they win over the ones derived from the options above). */
  channelOptions?: ChannelOptions | undefined;
}

/** A target without its scheme, and whether the scheme asked for TLS. */
export function parseTarget(target: string): { address: string; secure: boolean | undefined } {
  const match = /^(grpcs?):\/\/(.*)$/.exec(target);
  if (match === null) return { address: target, secure: undefined };
  return { address: match[2]!.replace(/\/$/, ''), secure: match[1] === 'grpcs' };
}

const LOOPBACK = /^(?:localhost|127(?:\.\d{1,3}){3}|\[?::1\]?|\[?::ffff:127(?:\.\d{1,3}){3}\]?)$/i;

/** The host of `host:port`, `[v6]:port`, `dns:///host:port`. */
function hostOf(address: string): string {
  const bare = address.replace(/^(?:dns|ipv4|ipv6):(?:\/\/[^/]*\/)?/, '');
  const v6 = /^\[([^\]]+)\]/.exec(bare);
  if (v6 !== null) return v6[1]!;
  const cut = bare.lastIndexOf(':');
  return cut > 0 && bare.indexOf(':') === cut ? bare.slice(0, cut) : bare;
}

/** The channel credentials the options ask for, refusing plaintext off loopback unless allowed. */
export function channelCredentials(
  address: string,
  secure: boolean | undefined,
  options: GrpcClientTransportOptions,
): ChannelCredentials {
  if (options.credentials !== undefined) return options.credentials;
  const tls = options.tls ?? secure ?? false;
  if (tls === false) {
    if (options.allowInsecure !== true && !LOOPBACK.test(hostOf(address)))
      throw new InsecureTargetError(address);
    return Credentials.createInsecure();
  }
  const pem = tls === true ? {} : tls;
  return Credentials.createSsl(
    pem.ca === undefined ? null : Buffer.from(pem.ca),
    pem.key === undefined ? null : Buffer.from(pem.key),
    pem.cert === undefined ? null : Buffer.from(pem.cert),
  );
}

/** The channel options: message limits, keepalive, TLS server name. */
export function channelOptions(options: GrpcClientTransportOptions): ChannelOptions {
  const maxMessageBytes = options.maxMessageBytes ?? DEFAULT_MAX_MESSAGE_BYTES;
  const keepAliveMs = options.keepAliveMs ?? DEFAULT_KEEP_ALIVE_MS;
  const tls = typeof options.tls === 'object' ? options.tls : undefined;
  return {
    'grpc.max_receive_message_length': maxMessageBytes + FRAME_OVERHEAD_BYTES,
    'grpc.max_send_message_length': maxMessageBytes + FRAME_OVERHEAD_BYTES,
    ...(keepAliveMs > 0
      ? {
          'grpc.keepalive_time_ms': keepAliveMs,
          'grpc.keepalive_timeout_ms': options.keepAliveTimeoutMs ?? DEFAULT_KEEP_ALIVE_TIMEOUT_MS,
          'grpc.keepalive_permit_without_calls': 1,
        }
      : {}),
    ...(tls?.servername === undefined ? {} : { 'grpc.ssl_target_name_override': tls.servername }),
    ...options.channelOptions,
  };
}
