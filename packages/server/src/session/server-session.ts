import {
  type ClientCapabilities,
  ConnectionClosedError,
  copyWith,
  ErrorCode,
  type FallbackNotificationHandler,
  type FallbackRequestHandler,
  type Implementation,
  type JSONRPCNotification,
  type JSONRPCRequest,
  McpError,
  MetaKey,
  type MessageExtraInfo,
  Protocol,
  type ProtocolOptions,
  type RequestContext,
} from '@x/protocol';
import { hasCapabilities } from '../input-requests.js';
import { deliverLegacy } from '../legacy/deliver-legacy.js';
import type { LegacySessionState } from '../legacy/legacy-session-state.js';
import { initializeLegacy, serveLegacy } from '../legacy/serve-legacy.js';
import { serveModern } from '../modern/serve-modern.js';
import { SubscriptionHub } from '../modern/subscription-hub.js';
import type { ChangeEvent, ServerCore } from '../server-core.js';

const NO_PING = { ping: false } as const;

/** Capabilities a server→client request needs on a legacy session. */
const OUTGOING_REQUIREMENTS: Record<string, ClientCapabilities> = {
  'sampling/createMessage': { sampling: {} },
  'elicitation/create': { elicitation: {} },
  'roots/list': { roots: {} },
};

/**
 * One connection of a `Server`: a protocol engine whose requests all go to the server's shared handler
 * tables, so creating one costs a few objects and no handler registration (DESIGN §5).
 *
 * Era classification, per request: a request whose `_meta` carries
 * `io.modelcontextprotocol/protocolVersion` is served as 2026-07-28, statelessly, with the
 * capabilities from its own `_meta` (also on a connection that initialized: spec 2026-07-28
 * basic/versioning "A dual-era server selects its behavior from how the client opens"; an
 * `initialize` carrying it is a removed method, -32601); otherwise `initialize` starts a legacy
 * session and anything else is a legacy request that needs `initialize` + `initialized` first. A
 * legacy-only server treats modern `_meta` as ordinary metadata; a modern-only server serves
 * everything as 2026-07-28 (so `initialize` is -32601, naming the supported versions).
 *
 * @example
 * ```ts
 * const session = await server.connect(transport);
 * if (session.clientCapabilities?.roots) {
 *   const { roots } = await session.request({ method: 'roots/list' }, ListRootsResultSchema);
 * }
 * ```
 */
export class ServerSession extends Protocol {
  #legacy: LegacySessionState | undefined;
  readonly #core: ServerCore;
  #hub: SubscriptionHub | undefined;

  #legacyAssumed = false;

  constructor(core: ServerCore) {
    // copyWith, not `{ ...options, ping: false }` (V8's slow path): a stateless server builds a session
    // per request.
    super(copyWith(core.options.protocol, NO_PING) as ProtocolOptions);
    this.#core = core;
    this.fallbackRequestHandler = ServerSession.#dispatch;
    this.fallbackNotificationHandler = ServerSession.#onNotification;
  }

  /** The legacy handshake state; undefined until `initialize` (or a `legacySession` connect option). */
  get legacy(): LegacySessionState | undefined {
    return this.#legacy;
  }

  /**
   * Records the outcome of `initialize`; a session has at most one. A session only assumed from the
   * connection (`legacySession`, stateless transports) gives way to a real `initialize`.
   */
  beginLegacy(state: LegacySessionState, options: { assumed?: boolean } = {}): void {
    if (this.#legacy !== undefined && !this.#legacyAssumed)
      throw new Error('The session is already initialized');
    this.#legacy = state;
    this.#legacyAssumed = options.assumed === true;
  }

  /** Whether the legacy state was assumed from the connection rather than negotiated here. */
  get legacyAssumed(): boolean {
    return this.#legacyAssumed;
  }

  /** Legacy: the version negotiated by `initialize`. */
  get protocolVersion(): string | undefined {
    return this.#legacy?.protocolVersion;
  }

  /** Legacy: the capabilities the client declared in `initialize`. */
  get clientCapabilities(): ClientCapabilities | undefined {
    return this.#legacy?.clientCapabilities;
  }

  /** Legacy: the `clientInfo` of `initialize`. */
  get clientInfo(): Implementation | undefined {
    return this.#legacy?.clientInfo;
  }

  /** Open `subscriptions/listen` streams of 2026-07-28 clients on this connection. */
  get subscriptions(): SubscriptionHub {
    this.#hub ??= new SubscriptionHub(this.#core);
    return this.#hub;
  }

  /** Forwards a change to whichever side of this connection asked for it. */
  deliver(event: ChangeEvent): void {
    if (this.#legacy !== undefined) deliverLegacy(this.#core, this, this.#legacy, event);
    this.#hub?.deliver(event);
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
    const elicitation = this.#legacy?.clientCapabilities.elicitation as Record<string, unknown> | undefined;
    if (elicitation?.['url'] === undefined) {
      throw new McpError(
        ErrorCode.InvalidRequest,
        'Cannot send notifications/elicitation/complete: the client did not declare URL-mode elicitation',
      );
    }
    await this.notification({ method: 'notifications/elicitation/complete', params: { elicitationId } });
  }

  /** Ends the session: open subscriptions get their graceful final response first. */
  override async close(): Promise<void> {
    await this.#hub?.endAll();
    await super.close();
    this.detach();
  }

  /** Forgets the session in its server (called when the transport closes). */
  detach(): void {
    this.#core.sessions.delete(this);
    this.#hub?.dropAll(new ConnectionClosedError());
    this.#core.tasks?.sessionClosed(this);
  }

  protected override get peerName(): string {
    return 'the client';
  }

  protected override assertCapabilityForMethod(method: string): void {
    const required = Object.hasOwn(OUTGOING_REQUIREMENTS, method) ? OUTGOING_REQUIREMENTS[method] : undefined;
    if (required === undefined) return;
    const state = this.#legacy;
    if (state === undefined) {
      throw new Error(`Cannot send ${method}: no legacy session (2026-07-28 uses input_required instead)`);
    }
    if (!hasCapabilities(state.clientCapabilities, required)) {
      throw new Error(
        `Cannot send ${method}: the client did not declare ${Object.keys(required).join(', ')}`,
      );
    }
  }

  // The two fallbacks are shared by every session (the engine calls them with the session as `this`):
  // a pair of closures per session is memory a server with thousands of connections pays for.
  static readonly #dispatch = function (
    this: ServerSession,
    request: JSONRPCRequest,
    ctx: RequestContext,
  ): object | Promise<object> {
    const core = this.#core;
    const meta = request.params?.['_meta'];
    const modern =
      typeof meta === 'object' &&
      meta !== null &&
      (meta as Record<string, unknown>)[MetaKey.ProtocolVersion] !== undefined;
    if ((modern && core.servesModern) || !core.servesLegacy) return serveModern(core, this, request, ctx);
    if (request.method === 'initialize') return initializeLegacy(core, this, request);
    return serveLegacy(core, this, request, ctx);
  } as FallbackRequestHandler;

  static readonly #onNotification = function (
    this: ServerSession,
    notification: JSONRPCNotification,
    _extra: MessageExtraInfo | undefined,
  ): void | Promise<void> {
    if (notification.method === 'notifications/initialized') {
      if (this.#legacy !== undefined) this.#legacy.initialized = true;
      return;
    }
    const handler = this.#core.notificationHandler(notification.method);
    return handler?.(notification.params ?? {}, this);
  } as FallbackNotificationHandler;
}
