import {
  DEFAULT_HEARTBEAT,
  eraOf,
  type OutgoingRequest,
  type ProgressToken,
  Protocol,
  type ProtocolOptions,
  type ProtocolVersion,
  type RequestId,
  type RequestOptions,
  type ZodSchema,
  type ResolvedHeartbeat,
  type Transport,
} from '@x/protocol/core';
import { methodsOf } from '@x/protocol/internal';
import { assertNotificationAvailable, assertRequestAvailable } from './method-availability.js';
import { requestWithRetry } from './retry/request-with-retry.js';
import { type ResolvedRetryOptions, type RetryOptions, resolveRetry } from './retry/retry-options.js';

/**
 * The client's JSON-RPC engine: the shared `Protocol` plus the one client rule that depends on the
 * negotiated revision, refusing methods that revision lacks (e.g. `ping` on 2026-07-28) before they reach
 * the wire. Internal: `Client` exposes a curated API on top.
 */
export class ClientEngine extends Protocol {
  #version: ProtocolVersion | undefined;
  /** The client requests of `#version`: checked on every request. */
  #requests: ReadonlySet<string> | undefined;
  /** Progress tokens the client routes itself (task-augmented calls); see `isExpectedProgressToken`. */
  expectsProgressToken: ((token: ProgressToken) => boolean) | undefined;
  /** The client's retry policy (`ClientOptions.retry`); undefined: only requests that ask are retried. */
  retry: ResolvedRetryOptions | undefined;
  /** Set while a legacy session re-runs its handshake after a reconnect: retries wait for it. */
  handshake: Promise<void> | undefined;
  /** Whether the last `tools/list` annotated a tool `readOnlyHint` or `idempotentHint`. */
  toolIsRepeatable: ((name: string) => boolean) | undefined;
  /** Sends the heartbeat's probe for the negotiated era (see `heartbeat-probe.ts`). */
  heartbeatProbe: ((timeoutMs: number) => Promise<unknown> | undefined) | undefined;
  /** Whether the `heartbeat` option was given (false included); unset means "on for network transports". */
  readonly #heartbeatSet: boolean;
  /** Retries waiting out their backoff: woken (to give up) when the connection closes. */
  readonly #retryWaits = new Set<() => void>();

  constructor(options: ProtocolOptions) {
    super(options);
    this.#heartbeatSet = options.heartbeat !== undefined;
  }

  /** The negotiated revision; undefined during the handshake and while disconnected. */
  get version(): ProtocolVersion | undefined {
    return this.#version;
  }

  set version(version: ProtocolVersion | undefined) {
    this.#version = version;
    this.#requests = version === undefined ? undefined : methodsOf(version).clientRequests;
  }

  /**
   * A request of the negotiated session, under the retry policy: the client's (`ClientOptions.retry`)
   * for requests safe to repeat, or the request's own (`ClientRequestOptions.retry`). Without either it
   * is `request()` itself (no extra promise).
   */
  send(request: OutgoingRequest, schema: ZodSchema, options: RequestOptions | undefined): Promise<unknown> {
    // `ClientRequestOptions.retry`, read here without importing the client's option types (no cycle).
    const own = (options as { retry?: boolean | RetryOptions } | undefined)?.retry;
    const base = this.retry;
    if (own === undefined && base === undefined) return this.request(request, schema, options);
    let policy: ResolvedRetryOptions | undefined;
    try {
      policy = own === undefined ? base : resolveRetry(own, base);
    } catch (error) {
      return Promise.reject(error);
    }
    if (policy === undefined) return this.request(request, schema, options);
    if (own === undefined && !policy.isRepeatable(request, this.#toolHint(request))) {
      return this.request(request, schema, options);
    }
    return requestWithRetry(this, policy, request, schema, options);
  }

  #toolHint(request: OutgoingRequest): boolean {
    if (request.method !== 'tools/call') return false;
    const name = request.params?.['name'];
    return typeof name === 'string' && this.toolIsRepeatable?.(name) === true;
  }

  /**
   * Calls `wake` when the connection closes (at once when it already has); returns what unregisters it.
   * A retry waiting out its backoff listens here, so `client.close()` ends it without waiting the delay.
   */
  onceClosed(wake: () => void): () => void {
    if (this.transport === undefined) {
      wake();
      return () => {};
    }
    this.#retryWaits.add(wake);
    return () => this.#retryWaits.delete(wake);
  }

  protected override connectionClosed(): void {
    if (this.#retryWaits.size === 0) return;
    const waits = [...this.#retryWaits];
    this.#retryWaits.clear();
    for (const wake of waits) wake();
  }

  /** Rejects an outgoing request the server ended on its own (e.g. a cancelled `subscriptions/listen`). */
  endPendingRequest(id: RequestId, error: unknown): boolean {
    return this.rejectPendingRequest(id, error);
  }

  /**
   * Unset, the heartbeat is on (`DEFAULT_HEARTBEAT`) for transports that say they cross a network
   * (`Transport.network`) and off for local ones (stdio: a dead server is a closed pipe and an exit
   * code, reported at once).
   */
  protected override heartbeatFor(transport: Transport): ResolvedHeartbeat | undefined {
    if (this.#heartbeatSet) return this.heartbeatOption;
    return transport.network === true ? DEFAULT_HEARTBEAT : undefined;
  }

  protected override sendHeartbeat(timeoutMs: number): Promise<unknown> | undefined {
    return this.heartbeatProbe?.(timeoutMs);
  }

  protected override get peerName(): string {
    return 'the server';
  }

  protected override assertCapabilityForMethod(method: string): void {
    // The everyday case, a method of the revision, in one set lookup.
    const requests = this.#requests;
    if (requests === undefined || requests.has(method)) return;
    assertRequestAvailable(this.#version, method);
  }

  /**
   * On 2026-07-28 over a transport with a stream per request (Streamable HTTP), closing that stream is
   * the cancellation (spec 2026-07-28 basic/transports/streamable-http): the engine aborts the
   * request's `requestSignal` and sends no `notifications/cancelled`.
   */
  protected override isCancellable(method: string): boolean {
    if (
      this.transport?.hasPerRequestStream === true &&
      this.version !== undefined &&
      eraOf(this.version) === 'modern'
    ) {
      return false;
    }
    return super.isCancellable(method);
  }

  protected override isExpectedProgressToken(token: ProgressToken): boolean {
    return this.expectsProgressToken?.(token) === true;
  }

  protected override assertNotificationCapability(method: string): void {
    assertNotificationAvailable(this.version, method);
  }
}
