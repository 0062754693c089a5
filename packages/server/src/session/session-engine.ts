import {
  type ClientCapabilities,
  ConnectionClosedError,
  type FallbackNotificationHandler,
  type FallbackRequestHandler,
  type JSONRPCNotification,
  type JSONRPCRequest,
  MetaKey,
  type MessageExtraInfo,
  Protocol,
  type RequestContext,
  type Transport,
} from '@x/protocol/core';
import { hasCapabilities } from '../input-requests.js';
import { deliverLegacy } from '../legacy/deliver-legacy.js';
import { adoptLegacySession } from '../legacy/shared-session.js';
import { LegacySessionState } from '../legacy/legacy-session-state.js';
import { initializeLegacy, serveLegacy } from '../legacy/serve-legacy.js';
import { serveModern } from '../modern/serve-modern.js';
import { SubscriptionHub } from '../modern/subscription-hub.js';
import type { ChangeEvent, CoreSession, ServerCore } from '../server-core.js';
import type { ConnectOptions } from '../server-options.js';
import { ServerSession, type SessionEngineLink } from './server-session.js';
import type { SessionState } from './session-state.js';

/** Capabilities a server→client request needs on a legacy session. */
const OUTGOING_REQUIREMENTS: Record<string, ClientCapabilities> = {
  'sampling/createMessage': { sampling: {} },
  'elicitation/create': { elicitation: {} },
  'roots/list': { roots: {} },
};

/**
 * The protocol engine of one connection, and the one place a request is routed: its fallback handler
 * is the era switch (2026-07-28 `_meta` → `serveModern`; `initialize` → `initializeLegacy`; anything
 * else → `serveLegacy`), and the era module runs the handler from the server's routing table. It
 * registers no handler of its own, so creating one costs a few objects (DESIGN §5). Internal: users
 * hold its `ServerSession`.
 */
export class SessionEngine extends Protocol implements SessionState, SessionEngineLink, CoreSession {
  readonly session: ServerSession;
  readonly #core: ServerCore;
  #legacy: LegacySessionState | undefined;
  #legacyAssumed = false;
  #hub: SubscriptionHub | undefined;

  constructor(core: ServerCore) {
    // One options object per server (no ping handler: the era modules answer ping; the server's
    // interceptors), not a copy per session: a stateless server builds a session per request.
    super(core.engineOptions);
    this.shareInterceptors(core.interceptors);
    this.#core = core;
    this.session = new ServerSession(this);
    this.fallbackRequestHandler = SessionEngine.#dispatch;
    this.fallbackNotificationHandler = SessionEngine.#onNotification;
    this.onerror = SessionEngine.#report;
  }

  /**
   * Serves one more connection of `core`: assumes a legacy session when asked (`legacySession`) or when
   * the transport is a stateless legacy one, registers the session, connects the transport.
   */
  static async open(core: ServerCore, transport: Transport, options: ConnectOptions): Promise<ServerSession> {
    const engine = new SessionEngine(core);
    const stateless = transport.statelessLegacyVersion;
    const assumed =
      options.legacySession ??
      (stateless !== undefined && core.legacyVersions.includes(stateless)
        ? { protocolVersion: stateless }
        : undefined);
    if (assumed !== undefined) {
      if (!core.legacyVersions.includes(assumed.protocolVersion)) {
        throw new Error(`Cannot assume a legacy session of unsupported version ${assumed.protocolVersion}`);
      }
      const state = new LegacySessionState(
        core,
        assumed.protocolVersion,
        assumed.capabilities ?? {},
        assumed.clientInfo,
      );
      state.initialized = true;
      engine.beginLegacy(state, { assumed: true });
    } else if (core.options.sessionStore !== undefined && transport.sessionId !== undefined) {
      // A session another process opened: serve it from the shared store (DESIGN §9, no stickiness).
      const adopted = await adoptLegacySession(core, core.options.sessionStore, transport.sessionId);
      if (adopted !== undefined) engine.beginLegacy(adopted);
    }
    const previous = transport.onclose;
    transport.onclose = () => {
      previous?.();
      engine.detach();
    };
    core.sessions.add(engine);
    try {
      await engine.connect(transport);
    } catch (error) {
      engine.detach();
      throw error;
    }
    // A session adopted from the store began before it had a transport, so before its heartbeat could
    // start (one that runs `initialize` here starts it then, in `beginLegacy`).
    const heartbeat = core.heartbeat;
    if (heartbeat !== undefined && engine.#legacy !== undefined && !engine.#legacyAssumed) {
      engine.startHeartbeat(heartbeat);
    }
    return engine.session;
  }

  get legacy(): LegacySessionState | undefined {
    return this.#legacy;
  }

  get legacyAssumed(): boolean {
    return this.#legacyAssumed;
  }

  beginLegacy(state: LegacySessionState, options: { assumed?: boolean } = {}): void {
    if (this.#legacy !== undefined && !this.#legacyAssumed)
      throw new Error('The session is already initialized');
    this.#legacy = state;
    this.#legacyAssumed = options.assumed === true;
    // Only a session that ran `initialize` here is a connection worth watching: an assumed one is a
    // stateless HTTP request, and 2026-07-28 lets no server send requests (no ping to send).
    const heartbeat = this.#core.heartbeat;
    if (heartbeat !== undefined && !this.#legacyAssumed) this.startHeartbeat(heartbeat);
  }

  /**
   * No probe while there is no legacy session, nor while a Streamable HTTP session has no GET stream
   * here (`Transport.hasOpenStream`): a ping has no way to its client then, and a client may well never
   * open one. With a shared `sessionStore`, the process holding the GET stream is the one that pings.
   */
  protected override sendHeartbeat(timeoutMs: number): Promise<unknown> | undefined {
    if (this.#legacy === undefined || this.transport?.hasOpenStream === false) return undefined;
    return super.sendHeartbeat(timeoutMs);
  }

  get listenStreams(): number {
    return this.#hub?.size ?? 0;
  }

  get subscriptions(): SubscriptionHub {
    this.#hub ??= new SubscriptionHub(this.#core);
    return this.#hub;
  }

  /** Forwards a change to whichever side of this connection asked for it. */
  deliver(event: ChangeEvent): void {
    if (this.#legacy !== undefined) deliverLegacy(this.#core, this.session, this.#legacy, event);
    this.#hub?.deliver(event);
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
    this.#core.tasks?.sessionClosed(this.session);
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
    this: SessionEngine,
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

  /** The engine's faults (a transport error, a dead heartbeat) go to the server's `onerror`. */
  static readonly #report = function (this: SessionEngine, error: Error): void {
    this.#core.report(error);
  };

  static readonly #onNotification = function (
    this: SessionEngine,
    notification: JSONRPCNotification,
    _extra: MessageExtraInfo | undefined,
  ): void | Promise<void> {
    if (notification.method === 'notifications/initialized') {
      if (this.#legacy !== undefined) this.#legacy.initialized = true;
      return;
    }
    const handler = this.#core.notificationHandler(notification.method);
    return handler?.(notification.params ?? {}, this.session);
  } as FallbackNotificationHandler;
}
