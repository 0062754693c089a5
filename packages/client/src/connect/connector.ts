import type { Transport } from '@x/protocol/core';
import type { ClientEngine } from '../client-engine.js';
import type { ConnectOptions } from '../client-options.js';
import type { EraSession } from '../era-session.js';
import { shouldFallBackToSse } from '@x/protocol/http';
import type { EraCache } from './era-cache.js';
import { type NegotiateContext, type NegotiatePlan, negotiate } from './negotiate.js';

/**
 * `Client.connect()`: era selection (see `negotiate`) over the given transport, then over the fallback
 * transport when the first failed at the transport level (an HTTP 4xx without a modern error body:
 * 2025-11-25 transports, "Backwards Compatibility" — Streamable HTTP → HTTP+SSE), with the era cached
 * per `cacheKey`. A failed attempt leaves its transport closed.
 */
export class Connector {
  readonly #engine: ClientEngine;
  readonly #negotiation: NegotiateContext;
  readonly #eraCache: EraCache;
  /** Called before each attempt: per-connection state (caches, tool schemas) starts over. */
  readonly #reset: () => void;

  constructor(options: {
    negotiation: NegotiateContext;
    eraCache: EraCache;
    reset: () => void;
  }) {
    this.#engine = options.negotiation.engine;
    this.#negotiation = options.negotiation;
    this.#eraCache = options.eraCache;
    this.#reset = options.reset;
  }

  async connect(transport: Transport, options: ConnectOptions): Promise<EraSession> {
    if (this.#engine.transport !== undefined)
      throw new Error('Client is already connected; close() it first');
    const key = options.cacheKey;
    const cached =
      key === undefined || this.#negotiation.selection !== 'auto' ? undefined : await this.#eraCache.get(key);
    let session: EraSession;
    try {
      session = await this.#attempt(transport, { cached, probe: true });
    } catch (error) {
      if (options.fallback === undefined || !shouldFallBackToSse(error)) {
        if (key !== undefined && cached !== undefined) await this.#eraCache.delete(key);
        throw error;
      }
      session = await this.#attempt(await options.fallback(), { cached: undefined, probe: false });
    }
    if (key !== undefined) {
      await this.#eraCache.set(key, { era: session.era, protocolVersion: session.protocolVersion });
    }
    return session;
  }

  async #attempt(transport: Transport, plan: NegotiatePlan): Promise<EraSession> {
    this.#reset();
    await this.#engine.connect(transport);
    try {
      return await negotiate(this.#negotiation, transport, plan);
    } catch (error) {
      await this.#engine.close().catch(() => {});
      throw error;
    }
  }
}
