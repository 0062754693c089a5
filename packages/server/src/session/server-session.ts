import {
  type ClientCapabilities,
  ErrorCode,
  type Implementation,
  McpError,
  type NotificationOptions,
  type OutgoingNotification,
  type OutgoingRequest,
  type Protocol,
  type RequestOptions,
  type SchemaOutput,
  type Transport,
  type ZodSchema,
} from '@x/protocol/core';

/**
 * What a legacy session (2024-11-05 … 2025-11-25) learned from `initialize` and later requests.
 *
 * @example
 * ```ts
 * const legacy = ctx.session.legacy;
 * if (legacy?.initialized) console.log(legacy.protocolVersion, legacy.clientInfo?.name, [...legacy.subscriptions]);
 * ```
 */
export interface LegacyHandshake {
  readonly protocolVersion: string;
  readonly clientCapabilities: ClientCapabilities;
  readonly clientInfo: Implementation | undefined;
  /** True once `notifications/initialized` arrived. */
  readonly initialized: boolean;
  /** The resource URIs the client subscribed to: a snapshot. */
  readonly subscriptions: ReadonlySet<string>;
}

/**
 * The engine a session talks through (the server's session engine implements it): a `Protocol` plus
 * the legacy handshake state. Internal: users hold the `ServerSession`, never the engine.
 */
export interface SessionEngineLink extends Pick<Protocol, 'request' | 'notification' | 'transport'> {
  readonly legacy: LegacyHandshake | undefined;
  readonly legacyAssumed: boolean;
  /** Open `subscriptions/listen` streams; 0 without creating anything when there are none. */
  readonly listenStreams: number;
  close(): Promise<void>;
}

/**
 * One connection of a `Server`, as its users see it: who the client is (legacy handshake), requests
 * and notifications to the client, and `close()`. It *has* a protocol engine rather than being one, so
 * nobody can install a handler that bypasses the server's routing (and its initialize and era checks).
 *
 * Era classification, per request (done by the engine): a request whose `_meta` carries
 * `io.modelcontextprotocol/protocolVersion` is served as 2026-07-28, statelessly, with the
 * capabilities from its own `_meta` (spec 2026-07-28 basic/versioning "A dual-era server selects its
 * behavior from how the client opens"); otherwise `initialize` starts a legacy session and anything
 * else is a legacy request that needs `initialize` + `initialized` first.
 *
 * @example
 * ```ts
 * const session = await server.connect(transport);
 * if (session.clientCapabilities?.roots) {
 *   const { roots } = await session.request({ method: 'roots/list' }, ListRootsResultSchema);
 * }
 * ```
 */
export class ServerSession {
  readonly #engine: SessionEngineLink;

  /** Built by `Server.connect()`; not constructed by users. */
  constructor(engine: SessionEngineLink) {
    this.#engine = engine;
  }

  /** The legacy handshake; undefined until `initialize` (or a `legacySession` connect option). */
  get legacy(): LegacyHandshake | undefined {
    return this.#engine.legacy;
  }

  /**
   * Whether the legacy state was assumed from the connection (`legacySession` connect option, a
   * stateless transport) rather than negotiated by `initialize` here.
   */
  get legacyAssumed(): boolean {
    return this.#engine.legacyAssumed;
  }

  /** How many `subscriptions/listen` streams (2026-07-28) are open on this connection. */
  get listenStreams(): number {
    return this.#engine.listenStreams;
  }

  /** Legacy: the version negotiated by `initialize`. */
  get protocolVersion(): string | undefined {
    return this.#engine.legacy?.protocolVersion;
  }

  /** Legacy: the capabilities the client declared in `initialize`. */
  get clientCapabilities(): ClientCapabilities | undefined {
    return this.#engine.legacy?.clientCapabilities;
  }

  /** Legacy: the `clientInfo` of `initialize`. */
  get clientInfo(): Implementation | undefined {
    return this.#engine.legacy?.clientInfo;
  }

  /** The transport this session is connected through; undefined once closed. */
  get transport(): Transport | undefined {
    return this.#engine.transport;
  }

  /** The transport's session id (Streamable HTTP `Mcp-Session-Id`), if it has one. */
  get sessionId(): string | undefined {
    return this.#engine.transport?.sessionId;
  }

  /**
   * Sends a request to the client and validates its result (legacy sessions: sampling, elicitation,
   * roots need the client's capability; 2026-07-28 uses `input_required` from handlers instead).
   *
   * @example
   * ```ts
   * const { roots } = await session.request({ method: 'roots/list' }, ListRootsResultSchema, { timeout: 5_000 });
   * ```
   */
  request<S extends ZodSchema>(
    request: OutgoingRequest,
    resultSchema: S,
    options?: RequestOptions,
  ): Promise<SchemaOutput<S>> {
    return this.#engine.request(request, resultSchema, options);
  }

  /**
   * Sends a notification to the client.
   *
   * @example
   * ```ts
   * await session.notification({ method: 'notifications/message', params: { level: 'info', data: 'hi' } });
   * ```
   */
  notification(notification: OutgoingNotification, options?: NotificationOptions): Promise<void> {
    return this.#engine.notification(notification, options);
  }

  /**
   * Tells the client an out-of-band URL elicitation finished (2025-11-25, client/elicitation "URL mode":
   * `notifications/elicitation/complete`), typically from a callback long after the tool returned.
   * Refused when this is not a legacy session whose client declared URL-mode elicitation.
   *
   * @example
   * ```ts
   * const session = ctx.session; // remember it while handling the tool call
   * oauthCallback.on('done', (id) => session.sendElicitationComplete(id));
   * ```
   */
  async sendElicitationComplete(elicitationId: string): Promise<void> {
    const elicitation = this.#engine.legacy?.clientCapabilities.elicitation as
      | Record<string, unknown>
      | undefined;
    if (elicitation?.['url'] === undefined) {
      throw new McpError(
        ErrorCode.InvalidRequest,
        'Cannot send notifications/elicitation/complete: the client did not declare URL-mode elicitation',
      );
    }
    await this.notification({ method: 'notifications/elicitation/complete', params: { elicitationId } });
  }

  /** Ends the session: open subscriptions get their graceful final response first. */
  close(): Promise<void> {
    return this.#engine.close();
  }
}
