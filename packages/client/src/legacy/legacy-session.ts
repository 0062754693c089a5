import {
  type ClientRequestMap,
  type ClientRequestMethod,
  clientRequestSchemas,
  type Implementation,
  type InitializeResult,
  type ProtocolVersion,
  type RequestOptions,
  type ServerCapabilities,
} from '@x/protocol';
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

  constructor(engine: ClientEngine, init: InitializeResult & { protocolVersion: ProtocolVersion }) {
    this.#engine = engine;
    this.protocolVersion = init.protocolVersion;
    this.serverCapabilities = init.capabilities;
    this.serverInfo = init.serverInfo;
    this.instructions = init.instructions;
  }

  request<M extends ClientRequestMethod>(
    method: M,
    params: Record<string, unknown> | undefined,
    options: RequestOptions | undefined,
  ): Promise<ClientRequestMap[M]['result']> {
    return this.#engine.request(
      params === undefined ? { method } : { method, params },
      clientRequestSchemas[method].result,
      options,
    ) as Promise<ClientRequestMap[M]['result']>;
  }
}
