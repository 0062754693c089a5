import {
  ConnectionClosedError,
  isJSONRPCRequest,
  isJSONRPCResponse,
  type JSONRPCMessage,
  type MessageExtraInfo,
  type RequestId,
  type ResolvedReconnectOptions,
  reconnectDelay,
  resolveReconnect,
  type Transport,
  type TransportSendOptions,
  TransportLostError,
} from '@x/protocol/core';
import {
  FAILOVER_PROBE_DEFAULTS,
  type FailoverEvent,
  type FailoverTarget,
  type FailoverTransportOptions,
} from './failover-options.js';

/** A request sent and not yet answered: its `send()` promise settles when it is, or fails with the loss. */
interface InFlight {
  readonly method: string;
  readonly resolve: () => void;
  readonly reject: (error: unknown) => void;
}

/** A message sent while switching, sent once the new transport and the session on it are ready. */
interface Held {
  readonly message: JSONRPCMessage;
  readonly options: TransportSendOptions | undefined;
  readonly resolve: (sent: Promise<void>) => void;
}

type State = 'new' | 'open' | 'switching' | 'closed';

const LISTEN = 'subscriptions/listen';

/**
 * A transport over an ordered list of transports (e.g. WebSocket, then Streamable HTTP, then legacy
 * HTTP+SSE) that a `Client` uses like any other. It starts the first that starts; when the active one
 * fails mid-session it moves to the next without the `Client` noticing a new connection, and fires
 * `onreconnect` so the client re-establishes its session there (legacy: `initialize`, then the
 * `resources/subscribe` URIs; 2026-07-28: the open `subscriptions/listen` streams). Requests in flight on
 * the lost transport fail with `TransportLostError`, which a retry policy (`ClientOptions.retry`) may
 * send again; messages sent during the switch wait for it. While a later transport is active the
 * preferred one is probed in the background, and once it starts the transport switches back at the
 * first moment no request is in flight (an open listen stream is re-opened, not dropped).
 *
 * `@x/client` imports no transport: the targets are factories of the caller's transports.
 *
 * @example
 * ```ts
 * const transport = new FailoverTransport({
 *   transports: [
 *     { name: 'websocket', create: () => new WebSocketClientTransport('ws://127.0.0.1:3000/mcp') },
 *     { name: 'streamable-http', create: () => new StreamableHttpClientTransport('http://127.0.0.1:3001/mcp') },
 *   ],
 *   onevent: ({ type, from, to, reason }) => console.warn(type, from, '→', to, reason?.message ?? ''),
 * });
 * const client = new Client({ name: 'app', version: '1.0.0' }, { retry: true });
 * await client.connect(transport);
 * ```
 */
export class FailoverTransport implements Transport {
  readonly #targets: readonly FailoverTarget[];
  readonly #probe: ResolvedReconnectOptions | undefined;
  readonly #onevent: ((event: FailoverEvent) => void) | undefined;
  readonly #inFlight = new Map<RequestId, InFlight>();
  #held: Held[] = [];
  #state: State = 'new';
  #active: Transport | undefined;
  #index = 0;
  #protocolVersion: string | undefined;
  #closeReason: Error | undefined;
  #probeTimer: ReturnType<typeof setTimeout> | undefined;
  #probeAttempt = 0;
  /** A started preferred transport waiting for a moment with nothing in flight. */
  #candidate: { transport: Transport; index: number } | undefined;

  onmessage?: ((message: JSONRPCMessage, extra?: MessageExtraInfo) => void) | undefined;
  onerror?: ((error: Error) => void) | undefined;
  onclose?: (() => void) | undefined;
  /** Fired after every switch, once the new transport is up; a promise it returns holds queued sends. */
  onreconnect?: (() => void) | undefined;

  constructor(options: FailoverTransportOptions) {
    if (options.transports.length === 0)
      throw new RangeError('FailoverTransport needs at least one transport');
    this.#targets = options.transports;
    this.#probe = resolveReconnect(options.probe, FAILOVER_PROBE_DEFAULTS, true);
    this.#onevent = options.onevent;
  }

  /** The name of the transport in use (the first target before `start()`). */
  get activeName(): string {
    return this.#targets[this.#index]!.name;
  }

  /** Set when every transport failed: what the last one failed with. */
  get closeReason(): Error | undefined {
    return this.#closeReason;
  }

  get sessionId(): string | undefined {
    return this.#active?.sessionId;
  }

  get hasPerRequestStream(): boolean | undefined {
    return this.#active?.hasPerRequestStream;
  }

  /**
   * The active transport's `network` flag (`Transport.network`), so a `Client`'s heartbeat default
   * applies through the failover: on when the link in use crosses a network.
   */
  get network(): boolean | undefined {
    return this.#active?.network;
  }

  /**
   * Drops the active transport as dead and fails over to the next, as when it closes by itself: the
   * `Client`'s heartbeat calls it on a link that stopped answering (`Transport.resetConnection`), so
   * a silent link costs a switch, not the session. Ignored while no transport is active (switching).
   */
  resetConnection(reason: Error): void {
    const active = this.#active;
    if (active === undefined || this.#state !== 'open') return;
    active.onclose = undefined;
    active.onmessage = undefined;
    // #lost clears the active transport before its first await: nothing the dead one says gets through.
    void this.#lost(active, reason);
    active.close().catch(() => {});
  }

  setProtocolVersion(version: string): void {
    this.#protocolVersion = version;
    this.#active?.setProtocolVersion?.(version);
  }

  async start(): Promise<void> {
    if (this.#state !== 'new') throw new Error('FailoverTransport already started');
    this.#state = 'switching';
    const started = await this.#startFirst();
    if (started === undefined) {
      this.#state = 'closed';
      throw this.#closeReason;
    }
    this.#adopt(started.transport, started.index);
    this.#state = 'open';
    this.#scheduleProbe();
  }

  send(message: JSONRPCMessage, options?: TransportSendOptions): Promise<void> {
    if (this.#isClosed || this.#state === 'new') {
      return Promise.reject(this.#closeReason ?? new ConnectionClosedError('FailoverTransport is not open'));
    }
    if (this.#state === 'switching') {
      return new Promise((resolve) => this.#held.push({ message, options, resolve }));
    }
    return this.#sendNow(message, options);
  }

  async close(): Promise<void> {
    if (this.#isClosed) return;
    this.#state = 'closed';
    await this.#shutDown();
    this.onclose?.();
  }

  #sendNow(message: JSONRPCMessage, options: TransportSendOptions | undefined): Promise<void> {
    const transport = this.#active!;
    if (!isJSONRPCRequest(message)) {
      if ('method' in message && message.method === 'notifications/cancelled') {
        const id = (message.params as { requestId?: RequestId } | undefined)?.requestId;
        if (id !== undefined) this.#settle(id);
      }
      return transport.send(message, options);
    }
    const id = message.id;
    // Settles with the answer (or the loss of this transport), so a lost request fails with a typed error.
    const answered = new Promise<void>((resolve, reject) => {
      this.#inFlight.set(id, { method: message.method, resolve, reject });
    });
    // A per-request stream closed by the engine (timeout, abort) is an answer nobody will get.
    options?.requestSignal?.addEventListener('abort', () => this.#settle(id), { once: true });
    transport.send(message, options).catch((error: unknown) => {
      const entry = this.#inFlight.get(id);
      if (entry === undefined || this.#active !== transport) return;
      this.#inFlight.delete(id);
      entry.reject(error);
      this.#maybeRestore();
    });
    return answered;
  }

  #settle(id: RequestId): void {
    const entry = this.#inFlight.get(id);
    if (entry === undefined) return;
    this.#inFlight.delete(id);
    entry.resolve();
    this.#maybeRestore();
  }

  /** Starts the first target that starts, in order; undefined (with `closeReason` set) when none does. */
  async #startFirst(): Promise<{ transport: Transport; index: number } | undefined> {
    const failures: string[] = [];
    let last: unknown;
    for (let index = 0; index < this.#targets.length; index++) {
      if (this.#isClosed) return undefined;
      try {
        return { transport: await this.#open(index), index };
      } catch (error) {
        last = error;
        failures.push(
          `${this.#targets[index]!.name}: ${error instanceof Error ? error.message : String(error)}`,
        );
      }
    }
    const message =
      failures.length === 0
        ? 'no other transport to fail over to'
        : `every transport failed (${failures.join('; ')})`;
    this.#closeReason ??= new ConnectionClosedError(`FailoverTransport: ${message}`, { cause: last });
    return undefined;
  }

  async #open(index: number): Promise<Transport> {
    const transport = await this.#targets[index]!.create();
    // Nothing from a transport that is not (yet) the active one reaches the engine.
    transport.onmessage = undefined;
    transport.onclose = undefined;
    try {
      await transport.start();
    } catch (error) {
      await transport.close().catch(() => {});
      throw error;
    }
    if (this.#isClosed) {
      await transport.close().catch(() => {});
      throw new ConnectionClosedError('FailoverTransport closed');
    }
    return transport;
  }

  #adopt(transport: Transport, index: number): void {
    this.#active = transport;
    this.#index = index;
    if (this.#protocolVersion !== undefined) transport.setProtocolVersion?.(this.#protocolVersion);
    transport.onmessage = (message, extra) => {
      if (this.#active !== transport) return;
      if (isJSONRPCResponse(message) && message.id != null) this.#settle(message.id);
      this.onmessage?.(message, extra);
    };
    transport.onerror = (error) => {
      if (this.#active === transport) this.onerror?.(error);
    };
    transport.onclose = () => {
      if (this.#active === transport) void this.#lost(transport);
    };
  }

  /** The active transport failed: fail what was in flight on it, then move to the next that works. */
  async #lost(transport: Transport, why?: Error): Promise<void> {
    if (this.#isClosed) return;
    const lostIndex = this.#index;
    const from = this.#targets[lostIndex]!.name;
    const reason = why ?? transport.closeReason ?? new ConnectionClosedError(`${from} transport closed`);
    this.#active = undefined;
    this.#state = 'switching';
    this.#cancelProbe();
    this.#failInFlight(from, reason);
    const count = this.#targets.length;
    const failures: string[] = [];
    let last: unknown = reason;
    // Each target once, the lost one last (its server may be back already, e.g. restarted).
    for (let step = 1; step <= count; step++) {
      const index = (lostIndex + step) % count;
      if (this.#isClosed) return;
      const name = this.#targets[index]!.name;
      let next: Transport;
      try {
        next = await this.#open(index);
      } catch (error) {
        last = error;
        failures.push(`${name}: ${messageOf(error)}`);
        continue;
      }
      const failure = await this.#switchTo(next, index, 'switched', from, reason);
      if (failure === undefined) return;
      last = failure;
      failures.push(`${name}: ${messageOf(failure)}`);
    }
    if (this.#isClosed) return;
    this.#state = 'closed';
    this.#closeReason = new ConnectionClosedError(
      `FailoverTransport: ${from} was lost (${reason.message}) and every transport failed (${failures.join('; ')})`,
      { cause: last },
    );
    await this.#shutDown();
    this.onerror?.(this.#closeReason);
    this.onclose?.();
  }

  #failInFlight(name: string, reason: Error, only?: (method: string) => boolean): void {
    const lost = new TransportLostError(
      `The ${name} transport was lost (${reason.message}); the response never arrived (the request may have run)`,
      { transport: name, cause: reason },
    );
    for (const [id, entry] of this.#inFlight) {
      if (only !== undefined && !only(entry.method)) continue;
      this.#inFlight.delete(id);
      entry.reject(lost);
    }
  }

  /**
   * Makes `transport` the active one and lets the session re-establish itself on it (`onreconnect`;
   * what is sent from there goes straight out), then sends what was held during the switch, in order.
   * Resolves with the error when the session could not be re-established there (the transport is
   * then dropped again), else with undefined.
   */
  async #switchTo(
    transport: Transport,
    index: number,
    type: FailoverEvent['type'],
    from: string,
    reason: Error | undefined,
  ): Promise<Error | undefined> {
    if (this.#isClosed) {
      await transport.close().catch(() => {});
      return undefined;
    }
    this.#adopt(transport, index);
    this.#state = 'open';
    this.#emit({ type, from, to: this.#targets[index]!.name, reason });
    const failure = await this.#resync();
    if (this.#isClosed) return undefined;
    if (failure !== undefined) {
      // The server behind it does not answer (an HTTP transport starts without reaching it).
      this.#active = undefined;
      this.#state = 'switching';
      transport.onclose = undefined;
      this.#failInFlight(this.#targets[index]!.name, failure);
      await transport.close().catch(() => {});
      return failure;
    }
    const held = this.#held;
    this.#held = [];
    for (const { message, options, resolve } of held) resolve(this.send(message, options));
    this.#probeAttempt = 0;
    this.#scheduleProbe();
    return undefined;
  }

  /** Runs `onreconnect` and waits for what it returned; resolves with its failure, if any. */
  async #resync(): Promise<Error | undefined> {
    try {
      await (this.onreconnect as (() => unknown) | undefined)?.();
      return undefined;
    } catch (error) {
      return error instanceof Error ? error : new Error(String(error));
    }
  }

  #scheduleProbe(): void {
    const probe = this.#probe;
    if (probe === undefined || this.#index === 0 || this.#isClosed || this.#probeTimer !== undefined) {
      return;
    }
    if (this.#probeAttempt >= probe.maxAttempts) return;
    const delay = reconnectDelay(probe, this.#probeAttempt);
    this.#probeTimer = setTimeout(() => {
      this.#probeTimer = undefined;
      void this.#runProbe();
    }, delay);
  }

  async #runProbe(): Promise<void> {
    if (this.#state !== 'open' || this.#index === 0) return;
    this.#probeAttempt++;
    const from = this.#targets[this.#index]!.name;
    this.#emit({ type: 'probing', from, to: this.#targets[0]!.name, attempt: this.#probeAttempt });
    let transport: Transport;
    try {
      transport = await this.#open(0);
    } catch {
      this.#scheduleProbe();
      return;
    }
    if (this.#isClosed || this.#index === 0) {
      await transport.close().catch(() => {});
      return;
    }
    transport.onclose = () => {
      // The probe died before it could take over: probe again later.
      if (this.#candidate?.transport !== transport) return;
      this.#candidate = undefined;
      this.#scheduleProbe();
    };
    this.#candidate = { transport, index: 0 };
    this.#maybeRestore();
  }

  /** Switches to a waiting preferred transport once only listen streams are in flight. */
  #maybeRestore(): void {
    const candidate = this.#candidate;
    if (candidate === undefined || this.#state !== 'open') return;
    for (const entry of this.#inFlight.values()) if (entry.method !== LISTEN) return;
    this.#candidate = undefined;
    const old = this.#active!;
    const from = this.#targets[this.#index]!.name;
    this.#active = undefined;
    this.#state = 'switching';
    // Listen streams move with the session: failed here as lost, re-opened on the new transport.
    this.#failInFlight(from, new ConnectionClosedError(`switching back to ${this.#targets[0]!.name}`));
    old.onclose = undefined;
    old.onmessage = undefined;
    old.close().catch(() => {});
    void this.#switchTo(candidate.transport, candidate.index, 'restored', from, undefined).then((failure) => {
      // The preferred server came up but could not take the session: fail over as from any loss.
      if (failure !== undefined && !this.#isClosed) void this.#lost(candidate.transport, failure);
    });
  }

  #cancelProbe(): void {
    if (this.#probeTimer !== undefined) clearTimeout(this.#probeTimer);
    this.#probeTimer = undefined;
    const candidate = this.#candidate;
    this.#candidate = undefined;
    candidate?.transport.close().catch(() => {});
  }

  async #shutDown(): Promise<void> {
    this.#cancelProbe();
    const held = this.#held;
    this.#held = [];
    const closed = this.#closeReason ?? new ConnectionClosedError('FailoverTransport closed');
    for (const { resolve } of held) resolve(Promise.reject(closed));
    for (const entry of this.#inFlight.values()) entry.resolve();
    this.#inFlight.clear();
    const active = this.#active;
    this.#active = undefined;
    if (active !== undefined) {
      active.onclose = undefined;
      await active.close().catch(() => {});
    }
  }

  /** A getter, not a field test: the state changes across the awaits above, which narrowing ignores. */
  get #isClosed(): boolean {
    return this.#state === 'closed';
  }

  #emit(event: FailoverEvent): void {
    try {
      this.#onevent?.(event);
    } catch (error) {
      this.onerror?.(error instanceof Error ? error : new Error(String(error)));
    }
  }
}

function messageOf(error: unknown): string {
  return error instanceof Error ? error.message : String(error);
}
