import { ErrorCode, McpError } from '@x/protocol/core';

/**
 * What the `data` of a bridge's own error answers holds: which side failed (`'upstream'` is the
 * server the bridge forwards to), its name, and for a limit the option to raise.
 */
export interface BridgeErrorData {
  readonly bridge: true;
  readonly side: 'upstream' | 'downstream';
  readonly name: string;
  readonly option?: string | undefined;
  readonly limit?: number | undefined;
}

/**
 * The typed error every request a bridge forwarded gets when the side that was to answer it is lost
 * (the upstream process died, its socket closed): -32000 (`ErrorCode.ConnectionClosed`), with `data`
 * naming that side, so a downstream client never hangs on a dead upstream.
 *
 * @example
 * ```ts
 * const error = peerLostError('upstream', 'stdio: node server.js');
 * // error.code === -32000, error.data.name === 'stdio: node server.js'
 * ```
 */
export function peerLostError(side: 'upstream' | 'downstream', name: string, cause?: Error): McpError {
  const data: BridgeErrorData = { bridge: true, side, name };
  // The cause's first line says how it was lost (exit code or signal, whether it is being restarted).
  const how = cause === undefined ? '' : `: ${cause.message.split('\n')[0]}`;
  return new McpError(
    ErrorCode.ConnectionClosed,
    `Bridge: the ${side} "${name}" was lost before it answered${how}`,
    data,
    cause === undefined ? undefined : { cause },
  );
}

/**
 * The error a bridge answers a request with when one of its bounds is full (`maxQueuedMessages`,
 * `maxInFlightRequests`): -32000 with `data.option` naming the option to raise.
 *
 * @example
 * ```ts
 * const error = bridgeLimitError('upstream', 'upstream', 'maxInFlightRequests', 1000);
 * ```
 */
export function bridgeLimitError(
  side: 'upstream' | 'downstream',
  name: string,
  option: string,
  limit: number,
): McpError {
  const data: BridgeErrorData = { bridge: true, side, name, option, limit };
  return new McpError(
    ErrorCode.ConnectionClosed,
    `Bridge: ${option} (${limit}) reached towards the ${side} "${name}"; raise ${option} or slow down`,
    data,
  );
}
