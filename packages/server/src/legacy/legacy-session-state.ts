import {
  type ClientCapabilities,
  ErrorCode,
  type Implementation,
  LOGGING_LEVELS,
  type LoggingLevel,
  McpError,
} from '@x/protocol/core';
import { hasCapabilities, type InputOptions, type InputRequestSpec } from '../input-requests.js';
import type { ServerCore } from '../server-core.js';
import type { EraBinding, LogEntry, ServerContext } from '../server-context.js';
import { canAugment, inputAsTask } from '../tasks/input-task.js';

/**
 * What a legacy session (2024-11-05 … 2025-11-25) learned from `initialize` and later requests:
 * the negotiated version, the client's capabilities, its log level and resource subscriptions. It is
 * also the era binding of every legacy request on the session, so a request costs no extra object.
 *
 * @example
 * ```ts
 * // Read-only from the outside: the session's handshake outcome.
 * const legacy = ctx.session.legacy;
 * if (legacy?.initialized)
 *   console.log(legacy.protocolVersion, legacy.clientInfo?.name, [...legacy.subscriptions]);
 * ```
 */
export class LegacySessionState implements EraBinding {
  readonly era = 'legacy' as const;
  readonly protocolVersion: string;
  readonly clientCapabilities: ClientCapabilities;
  readonly clientInfo: Implementation | undefined;
  /** True once `notifications/initialized` arrived. */
  initialized = false;
  /** Index into LOGGING_LEVELS of the lowest level the client wants; 0 (debug) until `logging/setLevel`. */
  #minLevel = 0;
  /** Created by the first `resources/subscribe`: most sessions never subscribe; a `Set` costs ~150 B. */
  #subscriptions: Set<string> | undefined;
  readonly #core: ServerCore;

  constructor(
    core: ServerCore,
    protocolVersion: string,
    capabilities: ClientCapabilities,
    clientInfo: Implementation | undefined,
  ) {
    this.#core = core;
    this.protocolVersion = protocolVersion;
    this.clientCapabilities = capabilities;
    this.clientInfo = clientInfo;
  }

  /** The resource URIs the client subscribed to: a snapshot (`resources/(un)subscribe` change them). */
  get subscriptions(): ReadonlySet<string> {
    return new Set(this.#subscriptions);
  }

  /** How many URIs the client is subscribed to. */
  get subscriptionCount(): number {
    return this.#subscriptions?.size ?? 0;
  }

  isSubscribed(uri: string): boolean {
    return this.#subscriptions?.has(uri) ?? false;
  }

  subscribe(uri: string): void {
    this.#subscriptions ??= new Set();
    this.#subscriptions.add(uri);
  }

  unsubscribe(uri: string): void {
    this.#subscriptions?.delete(uri);
  }

  setLevel(level: LoggingLevel): void {
    this.#minLevel = LOGGING_LEVELS.indexOf(level);
  }

  wantsLevel(level: LoggingLevel): boolean {
    return LOGGING_LEVELS.indexOf(level) >= this.#minLevel;
  }

  /** A real server→client request (spec ≤ 2025-11-25: client/sampling, client/elicitation, client/roots). */
  input(ctx: ServerContext, spec: InputRequestSpec, options: InputOptions | undefined): Promise<unknown> {
    if (!hasCapabilities(this.clientCapabilities, spec.required)) {
      return Promise.reject(missingCapability(spec));
    }
    if (options?.task !== undefined && canAugment(ctx, spec, options)) {
      return inputAsTask(ctx, spec, { ...options, task: options.task });
    }
    const request = { method: spec.method, params: spec.params };
    const timeout = options?.timeout;
    return ctx.request.sendRequest(
      request,
      spec.resultSchema,
      timeout === undefined ? undefined : { timeout },
    );
  }

  log(ctx: ServerContext, entry: LogEntry): Promise<void> {
    if (this.#core.capabilities.logging === undefined) return Promise.resolve();
    const store = this.#core.options.sessionStore;
    const sessionId = store === undefined ? undefined : ctx.sessionId;
    if (store !== undefined && sessionId !== undefined) {
      // `logging/setLevel` may have reached another process: the shared store holds the level.
      return store.get(sessionId).then((record) => {
        if (record?.logLevel !== undefined) this.setLevel(record.logLevel);
        return this.wantsLevel(entry.level) ? this.#sendLog(ctx, entry) : undefined;
      });
    }
    if (!this.wantsLevel(entry.level)) return Promise.resolve();
    return this.#sendLog(ctx, entry);
  }

  #sendLog(ctx: ServerContext, entry: LogEntry): Promise<void> {
    const params: Record<string, unknown> = { level: entry.level, data: entry.data };
    if (entry.logger !== undefined) params['logger'] = entry.logger;
    return ctx.request.sendNotification({ method: 'notifications/message', params });
  }
}

function missingCapability(spec: InputRequestSpec): McpError {
  const names = Object.entries(spec.required)
    .map(([name, sub]) => [name, ...Object.keys(sub as object)].join('.'))
    .join(', ');
  return new McpError(
    ErrorCode.InvalidRequest,
    `Cannot send ${spec.method}: the client did not declare the ${names} capability`,
    { requiredCapabilities: spec.required },
  );
}
