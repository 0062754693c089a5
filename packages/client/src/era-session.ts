import type {
  ClientRequestMap,
  ClientRequestMethod,
  Era,
  Implementation,
  ProtocolVersion,
  RequestOptions,
  ServerCapabilities,
} from '@x/protocol/core';

/**
 * One negotiated connection, as the era-neutral `Client` sees it. `legacy/legacy-session.ts` and
 * `modern/modern-session.ts` implement it; nothing else in the client branches on the era.
 */
export interface EraSession {
  readonly era: Era;
  readonly protocolVersion: ProtocolVersion;
  readonly serverCapabilities: ServerCapabilities;
  readonly serverInfo: Implementation | undefined;
  readonly instructions: string | undefined;
  /** Sends one client request and resolves with its final, validated result. */
  request<M extends ClientRequestMethod>(
    method: M,
    params: Record<string, unknown> | undefined,
    options: RequestOptions | undefined,
  ): Promise<ClientRequestMap[M]['result']>;
}

/**
 * Thrown by `connect()` when client and server share no protocol version; the connection is closed.
 *
 * @example
 * ```ts
 * try { await client.connect(transport); }
 * catch (error) { if (error instanceof NegotiationError) console.error('server speaks', error.serverVersions); }
 * ```
 */
export class NegotiationError extends Error {
  override readonly name = 'NegotiationError';
  /** What the server offered (its `initialize` answer, or its supported list). */
  readonly serverVersions: readonly string[];

  constructor(message: string, serverVersions: readonly string[], options?: { cause?: unknown }) {
    super(message, options);
    this.serverVersions = serverVersions;
  }
}
