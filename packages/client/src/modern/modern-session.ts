import {
  type ClientRequestMap,
  type ClientRequestMethod,
  type DiscoverResult,
  type Implementation,
  isModernProtocolVersion,
  MetaKey,
  MODERN_PROTOCOL_VERSIONS,
  type ModernProtocolVersion,
  type RequestOptions,
  type Result,
  type ServerCapabilities,
  type Transport,
} from '@x/protocol/core';
import type { EraSession } from '../era-session.js';
import { supportedVersionsOf } from '../transport-failure.js';
import { type RoundTripContext, requestWithInput } from './input-round-trips.js';

/**
 * A connection on a 2026-07-28+ revision: no handshake state, so every request carries the `_meta`
 * envelope; `input_required` answers are fulfilled and retried; an `UnsupportedProtocolVersionError`
 * (-32022) switches to a version from its `supported` list and retries once (basic/versioning).
 */
export class ModernSession implements EraSession {
  readonly era = 'modern';
  readonly serverCapabilities: ServerCapabilities;
  readonly serverInfo: Implementation | undefined;
  readonly instructions: string | undefined;
  readonly #ctx: RoundTripContext;
  readonly #transport: Transport;
  #version: ModernProtocolVersion;

  constructor(options: {
    ctx: RoundTripContext;
    transport: Transport;
    version: ModernProtocolVersion;
    discover: DiscoverResult | undefined;
  }) {
    this.#ctx = options.ctx;
    this.#transport = options.transport;
    this.#version = options.version;
    const discover = options.discover;
    this.serverCapabilities = discover?.capabilities ?? {};
    this.serverInfo = discover?._meta?.[MetaKey.ServerInfo];
    this.instructions = discover?.instructions;
    this.#adopt(options.version);
  }

  get protocolVersion(): ModernProtocolVersion {
    return this.#version;
  }

  /** What task requests of the extension (SEP-2663) go through: the engine, envelope and handlers. */
  get roundTrips(): RoundTripContext {
    return this.#ctx;
  }

  request<M extends ClientRequestMethod>(
    method: M,
    params: Record<string, unknown> | undefined,
    options: RequestOptions | undefined,
  ): Promise<ClientRequestMap[M]['result']> {
    // A promise chain, not `async`/`await`: the usual request costs one `catch` on the round's promise.
    let sent: Promise<Result>;
    try {
      sent = requestWithInput(this.#ctx, method, params, options);
    } catch (error) {
      sent = Promise.reject(error);
    }
    return sent.catch((error: unknown) => {
      const next = pickModernVersion(supportedVersionsOf(error), this.#version);
      if (next === undefined) throw error;
      this.#adopt(next);
      return requestWithInput(this.#ctx, method, params, options);
    }) as Promise<ClientRequestMap[M]['result']>;
  }

  #adopt(version: ModernProtocolVersion): void {
    this.#version = version;
    this.#ctx.envelope.version = version;
    this.#ctx.engine.version = version;
    this.#transport.setProtocolVersion?.(version);
  }
}

/**
 * Our newest modern version in `supported`, preferring one other than the version just refused; the
 * refused one itself when the server lists it anyway (the one retry then covers a transient refusal).
 */
export function pickModernVersion(
  supported: readonly string[] | undefined,
  refused: string | undefined,
): ModernProtocolVersion | undefined {
  if (supported === undefined) return undefined;
  const common = MODERN_PROTOCOL_VERSIONS.filter((v) => supported.includes(v) && isModernProtocolVersion(v));
  return common.find((v) => v !== refused) ?? common[0];
}
