import type {
  ClientRequestMap,
  ClientRequestMethod,
  Implementation,
  InitializeResult,
  ProtocolVersion,
  RequestOptions,
  ServerCapabilities,
  ZodSchema,
} from '@x/protocol/core';
import { deferredClientResultSchemaOf } from '@x/protocol/internal';
import type { ClientEngine } from '../client-engine.js';
import type { EraSession } from '../era-session.js';

/**
 * A connection on an `initialize`-era revision (≤ 2025-11-25): state was fixed by the handshake, so a
 * request is just the engine's request with the method's result schema.
 */
export class LegacySession implements EraSession {
  readonly era = 'legacy';
  readonly protocolVersion: ProtocolVersion;
  readonly serverCapabilities: ServerCapabilities;
  readonly serverInfo: Implementation;
  readonly instructions: string | undefined;
  readonly #engine: ClientEngine;
  /** Set while a re-run handshake (after a transport reconnect) is in flight. */
  #handshake: Promise<void> | undefined;

  constructor(engine: ClientEngine, init: InitializeResult & { protocolVersion: ProtocolVersion }) {
    this.#engine = engine;
    this.protocolVersion = init.protocolVersion;
    this.serverCapabilities = init.capabilities;
    this.serverInfo = init.serverInfo;
    this.instructions = init.instructions;
  }

  /** Holds requests back until `handshake` settles (it must not reject). */
  holdUntil(handshake: Promise<void>): void {
    const gate = handshake.then(() => {
      if (this.#handshake === gate) this.#handshake = undefined;
      if (this.#engine.handshake === gate) this.#engine.handshake = undefined;
    });
    this.#handshake = gate;
    // Retries of requests already past this gate wait for it too.
    this.#engine.handshake = gate;
  }

  request<M extends ClientRequestMethod>(
    method: M,
    params: Record<string, unknown> | undefined,
    options: RequestOptions | undefined,
  ): Promise<ClientRequestMap[M]['result']> {
    return this.requestAs<ClientRequestMap[M]['result']>(
      method,
      params,
      deferredClientResultSchemaOf(method),
      options,
    );
  }

  /**
   * A request whose answer `schema` validates instead of the method's usual result schema (a
   * task-augmented `tools/call` answers with a `CreateTaskResult`).
   */
  requestAs<T>(
    method: string,
    params: Record<string, unknown> | undefined,
    schema: ZodSchema,
    options: RequestOptions | undefined,
  ): Promise<T> {
    const handshake = this.#handshake;
    if (handshake !== undefined)
      return handshake.then(() => this.requestAs<T>(method, params, schema, options));
    const request = params === undefined ? { method } : { method, params };
    return this.#engine.send(request, schema, options) as Promise<T>;
  }
}
