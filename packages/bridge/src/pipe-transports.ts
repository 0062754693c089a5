import type { JSONRPCMessage, Transport } from '@x/protocol/core';
import { DEFAULT_MAX_IN_FLIGHT_REQUESTS, DEFAULT_MAX_QUEUED_MESSAGES } from './constants.js';
import { type PipeEnd, PipeDirection } from './pipe-direction.js';

/**
 * Options of `pipeTransports`.
 *
 * @example
 * ```ts
 * const options: PipeOptions = { upstreamName: 'stdio: node server.js', maxInFlightRequests: 100 };
 * ```
 */
export interface PipeOptions {
  /** Messages per direction whose `send` has not settled yet. Default `DEFAULT_MAX_QUEUED_MESSAGES` (1 000). */
  maxQueuedMessages?: number | undefined;
  /** Forwarded requests per direction not answered yet. Default `DEFAULT_MAX_IN_FLIGHT_REQUESTS` (1 000). */
  maxInFlightRequests?: number | undefined;
  /** Names the upstream in error answers (`data.name`). Default `'upstream'`. */
  upstreamName?: string | undefined;
  /** Names the downstream in error answers. Default `'downstream'`. */
  downstreamName?: string | undefined;
  /** Transport faults, sends that failed, notifications dropped at `maxQueuedMessages`. */
  onerror?: ((error: Error) => void) | undefined;
}

/**
 * A running pipe; closing it closes both transports.
 *
 * @example
 * ```ts
 * await using pipe = await pipeTransports(downstream, upstream);
 * await pipe.closed; // either side closed
 * ```
 */
export interface Pipe extends AsyncDisposable {
  /** Settles once both transports are closed (whichever side closed first). */
  readonly closed: Promise<void>;
  /** Requests forwarded and not answered yet: `[towards upstream, towards downstream]`. */
  readonly inFlight: readonly [number, number];
  close(): Promise<void>;
}

function positive(value: number | undefined, fallback: number, option: string): number {
  const chosen = value ?? fallback;
  if (!Number.isInteger(chosen) || chosen < 1) throw new RangeError(`${option} must be a positive integer`);
  return chosen;
}

/**
 * Raw mode: forwards every message between two transports unchanged, both ways, with no MCP engine in
 * between (no translation: both ends must speak the same revision). Bounded per direction
 * (`maxQueuedMessages`, `maxInFlightRequests`; a request past a bound is answered with -32000 naming the
 * option). Closing either transport closes the other, after every request the lost side still owed has
 * been answered with -32000 whose `data` names it (`{ bridge: true, side, name }`).
 * Starts both transports; resolves once both have started.
 *
 * @example
 * ```ts
 * import { StdioClientTransport } from '@x/transport-stdio';
 * import { StdioServerTransport } from '@x/transport-stdio';
 *
 * const upstream = new StdioClientTransport({ command: 'node', args: ['server.js'] });
 * const pipe = await pipeTransports(new StdioServerTransport(), upstream, { upstreamName: 'server.js' });
 * await pipe.closed;
 * ```
 */
export async function pipeTransports(
  downstream: Transport,
  upstream: Transport,
  options: PipeOptions = {},
): Promise<Pipe> {
  const report = (error: Error): void => options.onerror?.(error);
  const limits = {
    maxQueuedMessages: positive(options.maxQueuedMessages, DEFAULT_MAX_QUEUED_MESSAGES, 'maxQueuedMessages'),
    maxInFlightRequests: positive(
      options.maxInFlightRequests,
      DEFAULT_MAX_IN_FLIGHT_REQUESTS,
      'maxInFlightRequests',
    ),
    report,
  };
  const down: PipeEnd = {
    transport: downstream,
    side: 'downstream',
    name: options.downstreamName ?? 'downstream',
  };
  const up: PipeEnd = { transport: upstream, side: 'upstream', name: options.upstreamName ?? 'upstream' };
  const toUpstream = new PipeDirection(down, up, limits);
  const toDownstream = new PipeDirection(up, down, limits);

  const route = (message: JSONRPCMessage, onward: PipeDirection, back: PipeDirection): void => {
    if (!('method' in message) && message.id !== undefined && message.id !== null) back.settle(message.id);
    onward.forward(message);
  };
  downstream.onmessage = (message) => route(message, toUpstream, toDownstream);
  upstream.onmessage = (message) => route(message, toDownstream, toUpstream);
  downstream.onerror = report;
  upstream.onerror = report;

  let resolveClosed!: () => void;
  const closed = new Promise<void>((resolve) => {
    resolveClosed = resolve;
  });
  let open = { downstream: true, upstream: true };
  let closing: Promise<void> | undefined;
  const lose = (side: 'downstream' | 'upstream'): Promise<void> => {
    if (!open[side]) return closing ?? Promise.resolve();
    open = { ...open, [side]: false };
    const [survivor, owed] = side === 'upstream' ? [downstream, toUpstream] : [upstream, toDownstream];
    // Answer what the lost side owed before the survivor goes too (the answers travel on it).
    closing ??= owed
      .targetLost()
      .then(() => survivor.close())
      .catch((error: unknown) => report(error instanceof Error ? error : new Error(String(error))))
      .finally(resolveClosed);
    return closing;
  };
  downstream.onclose = () => void lose('downstream');
  upstream.onclose = () => void lose('upstream');

  try {
    await Promise.all([
      downstream.start().then(() => toDownstream.open()),
      upstream.start().then(() => toUpstream.open()),
    ]);
  } catch (error) {
    await Promise.allSettled([downstream.close(), upstream.close()]);
    throw error;
  }

  const close = async (): Promise<void> => {
    // Closed on purpose: nothing to answer, both sides go.
    open = { downstream: false, upstream: false };
    await Promise.allSettled([upstream.close(), downstream.close()]);
    resolveClosed();
    await closed;
  };
  return {
    closed,
    get inFlight(): readonly [number, number] {
      return [toUpstream.inFlight, toDownstream.inFlight];
    },
    close,
    [Symbol.asyncDispose]: close,
  };
}
