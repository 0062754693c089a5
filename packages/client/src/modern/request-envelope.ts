import { type ClientCapabilities, type Implementation, type LoggingLevel, MetaKey } from '@x/protocol/core';
import { copyWith } from '@x/protocol/internal';

/**
 * The per-request `_meta` of 2026-07-28 (basic/index, "Per-request protocol fields"): protocol version
 * and client capabilities (required), client info (SHOULD), log level (when the caller wants logs; servers
 * MUST NOT log for requests without it). Built once and reused until something in it changes.
 */
export class RequestEnvelope {
  readonly #clientInfo: Implementation;
  readonly #capabilities: () => ClientCapabilities;
  #version = '';
  #logLevel: LoggingLevel | undefined;
  #meta: Record<string, unknown> | undefined;

  constructor(clientInfo: Implementation, capabilities: () => ClientCapabilities) {
    this.#clientInfo = clientInfo;
    this.#capabilities = capabilities;
  }

  get version(): string {
    return this.#version;
  }

  set version(version: string) {
    this.#version = version;
    this.#meta = undefined;
  }

  get logLevel(): LoggingLevel | undefined {
    return this.#logLevel;
  }

  set logLevel(level: LoggingLevel | undefined) {
    this.#logLevel = level;
    this.#meta = undefined;
  }

  /** The capabilities changed (a handler was set): rebuild on next use. */
  invalidate(): void {
    this.#meta = undefined;
  }

  get meta(): Readonly<Record<string, unknown>> {
    if (this.#meta === undefined) {
      const meta: Record<string, unknown> = {
        [MetaKey.ProtocolVersion]: this.#version,
        [MetaKey.ClientCapabilities]: this.#capabilities(),
        [MetaKey.ClientInfo]: this.#clientInfo,
      };
      if (this.#logLevel !== undefined) meta[MetaKey.LogLevel] = this.#logLevel;
      this.#meta = meta;
    }
    return this.#meta;
  }

  /** `params` with the envelope in `_meta` (on a copy; a caller's own `_meta` keys are kept). */
  apply(params: Record<string, unknown> | undefined): Record<string, unknown> {
    const meta = this.meta;
    if (params === undefined) return { _meta: meta };
    const own = params['_meta'];
    const merged = typeof own === 'object' && own !== null ? copyWith(own, meta) : meta;
    return copyWith(params, { _meta: merged });
  }
}
