import { NegotiationError } from '@x/client';
import { ErrorCode, McpError } from '@x/protocol';
import { UsageError } from '../args/usage-error.js';
import { ExitCode } from '../exit-codes.js';
import { ConnectError } from '../session/connect-error.js';

/** How a failed run is reported: the exit code, one human line, and the `--json` form. */
export interface Failure {
  readonly exitCode: ExitCode;
  readonly message: string;
  /** JSON-RPC code, when the failure has one (printed so scripts and people can look it up). */
  readonly code?: number | undefined;
  readonly data?: unknown;
  /** Lines shown under the message (a dead stdio server's last stderr lines), and in `--json`. */
  readonly details?: readonly string[] | undefined;
}

const SYSTEM_CODES: Readonly<Record<string, string>> = {
  ECONNREFUSED: 'connection refused',
  ECONNRESET: 'connection reset',
  ENOTFOUND: 'host not found',
  EAI_AGAIN: 'host name lookup failed',
  EHOSTUNREACH: 'host unreachable',
  ENETUNREACH: 'network unreachable',
  ETIMEDOUT: 'connection timed out',
  UND_ERR_CONNECT_TIMEOUT: 'connection timed out',
  UND_ERR_SOCKET: 'connection lost',
};

/** How to trust a certificate Node does not know (Node reads extra CAs from this variable at start). */
const TRUST_HINT = "to trust it, set NODE_EXTRA_CA_CERTS to its CA certificate's PEM file";

/**
 * TLS failures, explained: what is wrong with the server's certificate and what to do about it.
 * Codes from OpenSSL's X509 verification, as Node reports them.
 */
const TLS_CODES: Readonly<Record<string, string>> = {
  DEPTH_ZERO_SELF_SIGNED_CERT: `TLS: the server's certificate is self-signed; ${TRUST_HINT}`,
  SELF_SIGNED_CERT_IN_CHAIN: `TLS: the server's certificate chain ends in a self-signed certificate; ${TRUST_HINT}`,
  UNABLE_TO_VERIFY_LEAF_SIGNATURE: `TLS: the server's certificate is signed by an unknown authority; ${TRUST_HINT}`,
  UNABLE_TO_GET_ISSUER_CERT: `TLS: the server's certificate is signed by an unknown authority; ${TRUST_HINT}`,
  UNABLE_TO_GET_ISSUER_CERT_LOCALLY: `TLS: the server's certificate is signed by an unknown authority; ${TRUST_HINT}`,
  CERT_HAS_EXPIRED: "TLS: the server's certificate has expired",
  CERT_NOT_YET_VALID: "TLS: the server's certificate is not valid yet (check this machine's clock)",
  ERR_TLS_CERT_ALTNAME_INVALID: "TLS: the server's certificate is not issued for this host name",
  ERR_SSL_WRONG_VERSION_NUMBER:
    'TLS handshake failed: the server does not speak TLS on this port (try http://)',
};

function isRecord(value: unknown): value is Record<string, unknown> {
  return typeof value === 'object' && value !== null;
}

/** Walks an error and its `cause`s (and AggregateError members, as undici reports dual-stack refusals). */
function* chain(error: unknown): Generator<Record<string, unknown>> {
  const queue: unknown[] = [error];
  for (let seen = 0; queue.length > 0 && seen < 16; seen++) {
    const current = queue.shift();
    if (!isRecord(current)) continue;
    yield current;
    queue.push(current['cause']);
    if (Array.isArray(current['errors'])) queue.push(...current['errors']);
  }
}

/** A short reason for a network-level failure ("connection refused (ECONNREFUSED)"), if there is one. */
export function networkReason(error: unknown): string | undefined {
  for (const link of chain(error)) {
    const code = link['code'];
    if (typeof code === 'string' && TLS_CODES[code] !== undefined) return `${TLS_CODES[code]} (${code})`;
    // OpenSSL 1.1 reported a plain-HTTP answer to a TLS hello as EPROTO "wrong version number".
    if (code === 'EPROTO' && String(link['message']).includes('wrong version number')) {
      return `${TLS_CODES['ERR_SSL_WRONG_VERSION_NUMBER']} (EPROTO)`;
    }
    if (typeof code === 'string' && SYSTEM_CODES[code] !== undefined)
      return `${SYSTEM_CODES[code]} (${code})`;
  }
  return undefined;
}

/** The HTTP status an HTTP transport attached to the error, if any. */
function httpStatus(error: unknown): number | undefined {
  for (const link of chain(error)) {
    const status = link['status'];
    if (typeof status === 'number' && status >= 100) return status;
  }
  return undefined;
}

/** The JSON-RPC error a server sent, directly or inside an HTTP error body. */
function wireError(error: unknown): { code: number; message: string; data?: unknown } | undefined {
  for (const link of chain(error)) {
    if (link instanceof McpError) return link;
    const rpc = link['rpcError'];
    if (isRecord(rpc) && typeof rpc['code'] === 'number' && typeof rpc['message'] === 'string') {
      return { code: rpc['code'], message: rpc['message'], data: rpc['data'] };
    }
  }
  return undefined;
}

function authError(error: unknown): { code: string; message: string } | undefined {
  for (const link of chain(error)) {
    if (
      link['name'] === 'AuthError' &&
      typeof link['code'] === 'string' &&
      typeof link['message'] === 'string'
    )
      return { code: link['code'], message: link['message'] };
  }
  return undefined;
}

/**
 * How a stdio server process ended (`ServerExitError` of @x/transport-stdio, found by shape so that
 * package need not be loaded): its exit code or signal and its last stderr lines.
 */
function serverExit(
  error: unknown,
): { exitCode: number | null; signal: string | null; stderrTail: readonly string[] } | undefined {
  for (const link of chain(error)) {
    const tail = link['stderrTail'];
    if (!Array.isArray(tail) || typeof link['command'] !== 'string' || !('exitCode' in link)) continue;
    const exitCode = typeof link['exitCode'] === 'number' ? link['exitCode'] : null;
    const signal = typeof link['signal'] === 'string' ? link['signal'] : null;
    return { exitCode, signal, stderrTail: tail.filter((line): line is string => typeof line === 'string') };
  }
  return undefined;
}

const messageOf = (error: unknown): string => (error instanceof Error ? error.message : String(error));

/**
 * Sorts a failure into the documented exit codes: usage (2); connection (3: refused, unreachable, the
 * server process did not start, an HTTP-level refusal while connecting, the connection dropped); protocol
 * (1: a JSON-RPC error from the server, a timed-out request, no common protocol version).
 *
 * @example
 * ```ts
 * const failure = describeFailure(error, { connecting: true });
 * process.exitCode = failure.exitCode;
 * ```
 */
export function describeFailure(
  error: unknown,
  phase: { connecting: boolean; target?: string | undefined },
): Failure {
  const failure = classify(error, phase.connecting);
  if (!phase.connecting || phase.target === undefined || failure.exitCode !== ExitCode.ConnectionFailure) {
    return failure;
  }
  // These already say what they could not reach.
  // (`ProcessSpawnError` by name: loading the stdio transport just to test for it would slow every run.)
  if (error instanceof ConnectError || (error instanceof Error && error.name === 'ProcessSpawnError'))
    return failure;
  return { ...failure, message: `cannot connect to ${phase.target}: ${failure.message}` };
}

function classify(error: unknown, connecting: boolean): Failure {
  if (error instanceof UsageError) return { exitCode: ExitCode.Usage, message: error.message };
  const exit = serverExit(error);
  if (exit !== undefined) {
    const how = exit.signal !== null ? `was killed by ${exit.signal}` : `exited with code ${exit.exitCode}`;
    return {
      exitCode: ExitCode.ConnectionFailure,
      message: `the server process ${how}${exit.stderrTail.length === 0 ? ' (it wrote nothing to stderr)' : '; its last stderr lines:'}`,
      ...(exit.stderrTail.length === 0 ? {} : { details: exit.stderrTail }),
    };
  }
  if (error instanceof ConnectError) return { exitCode: ExitCode.ConnectionFailure, message: error.message };
  if (error instanceof NegotiationError) {
    return {
      exitCode: ExitCode.ProtocolError,
      message: `${error.message} (server offers: ${error.serverVersions.join(', ') || 'nothing'})`,
    };
  }
  // An OAuth failure (`AuthError` of @x/auth, by name so it need not be loaded): the server was not
  // reached with credentials, so it is a connection failure. Its messages never contain a token.
  const auth = authError(error);
  if (auth !== undefined) {
    return {
      exitCode: ExitCode.ConnectionFailure,
      message: `authorization failed (${auth.code}): ${auth.message}`,
    };
  }
  const wire = wireError(error);
  const status = httpStatus(error);
  // Refused at the HTTP level while connecting (401, 403, a 400/404 from something that is no MCP
  // endpoint): nothing MCP-shaped was reached, even when the body holds a JSON-RPC error.
  if (connecting && status !== undefined && status >= 400 && !(error instanceof McpError)) {
    const detail = wire === undefined ? messageOf(error) : `${wire.code} ${wire.message}`;
    return { exitCode: ExitCode.ConnectionFailure, message: `HTTP ${status}: ${detail}` };
  }
  if (wire !== undefined && wire.code === ErrorCode.ConnectionClosed) {
    const reason = networkReason(error);
    // A transport that names the peer wraps a refused connect in ConnectionClosedError; while
    // connecting, the network reason alone says it ("cannot connect to <url>: connection refused").
    if (connecting && reason !== undefined) return { exitCode: ExitCode.ConnectionFailure, message: reason };
    return {
      exitCode: ExitCode.ConnectionFailure,
      message: `connection closed${reason === undefined ? '' : `: ${reason}`}: ${wire.message}`,
      code: wire.code,
    };
  }
  if (wire !== undefined && wire.code === ErrorCode.RequestTimeout && connecting) {
    return {
      exitCode: ExitCode.ConnectionFailure,
      message: `no answer to the handshake: ${wire.message}`,
      code: wire.code,
    };
  }
  if (wire !== undefined) {
    return { exitCode: ExitCode.ProtocolError, message: wire.message, code: wire.code, data: wire.data };
  }
  const reason = networkReason(error);
  if (reason !== undefined) return { exitCode: ExitCode.ConnectionFailure, message: reason };
  if (status !== undefined) {
    return { exitCode: ExitCode.ConnectionFailure, message: `HTTP ${status}: ${messageOf(error)}` };
  }
  return {
    exitCode: connecting ? ExitCode.ConnectionFailure : ExitCode.ProtocolError,
    message: messageOf(error),
  };
}
