import type {
  AuthInfo,
  Era,
  MessageExtraInfo,
  ParseOptions,
  SessionStore as SharedSessionStore,
} from '@x/protocol/core';
import type { InFlightSet } from '@x/protocol/transport';
import type { RateLimiter, SessionContext } from '@x/protocol/http';
import { type RequestExchange, RequestTransport } from './request-transport.js';
import type { SessionStore } from './legacy/session-store.js';
import type { SessionSettings } from './legacy/session-transport.js';
import type { StreamableHttpHandlerOptions, StreamableHttpServerTransport } from './options.js';
import type { ParamHeader } from '../shared/param-headers.js';

/** What the era handlers share: resolved options and the live transports (`StreamableHttpEndpoint`). */
export interface EndpointState {
  options: StreamableHttpHandlerOptions;
  settings: SessionSettings;
  sessionsEnabled: boolean;
  sessions: SessionStore;
  /** `sessionStore`: sessions shared with other processes; undefined for one process. */
  sharedSessions: SharedSessionStore | undefined;
  /** Whether an `Mcp-Session-Id` has the form of this handler's ids (else 404, no store lookup). */
  isSessionId(id: string): boolean;
  /** The `replies:<instanceId>` subscription (shared mode), awaited before a shared session is served. */
  sharedReady: Promise<unknown> | undefined;
  /** Adoptions of shared sessions under way, so concurrent requests of one session adopt it once. */
  adopting: Map<string, Promise<unknown>>;
  /** Per-request transports still answering (closed on shutdown). */
  live: InFlightSet<{ close(): Promise<void> }>;
  supported: readonly string[];
  /** `maxNestingDepth` for bodies. */
  parse: ParseOptions;
  /** `sessionRateLimit`; undefined when disabled. */
  sessionRate: RateLimiter | undefined;
  /** Open `subscriptions/listen` streams, at most `maxListenStreams`. */
  listenStreams: Set<object>;
  maxListenStreams: number;
  paramHeaders: ((toolName: string) => readonly ParamHeader[] | undefined) | undefined;
  newSessionId: () => string;
  /** Hands a new transport to the user; a throwing `onsession` closes it and yields a 500. */
  connect(transport: StreamableHttpServerTransport, context: SessionContext): Promise<Response | undefined>;
  onerror(error: unknown): void;
}

/**
 * Who sent a request: the principal of its `AuthInfo` (see `sessionPrincipal`) and its rate-limit key.
 * A legacy session serves only its creator's principal; session creation is rate-limited per caller.
 */
export interface Caller {
  principal: string | undefined;
  /** What `onsession` learns about the request, should it open a session. */
  context: SessionContext;
  /** The `callerKey` of the request, computed when asked (only session creation asks). */
  key(): string;
}

/** One POST/GET/DELETE after the common checks. */
export interface IncomingRequest {
  request: Request;
  extra: MessageExtraInfo;
  authInfo: AuthInfo | undefined;
}

/**
 * Serves one POST on a transport of its own (every modern request; legacy requests without sessions):
 * creates it, hands it to the user, and answers with what it makes of the exchange.
 */
export async function serveOnOwnTransport(
  state: EndpointState,
  era: Era,
  statelessLegacyVersion: string | undefined,
  exchange: RequestExchange,
  context: SessionContext,
): Promise<Response> {
  const transport: RequestTransport = new RequestTransport({
    era,
    statelessLegacyVersion,
    json: state.settings.json,
    keepAliveMs: state.settings.keepAliveMs,
    maxBufferedBytes: state.settings.maxBufferedBytes,
    onFinished: () => {
      state.live.delete(transport);
      state.listenStreams.delete(transport);
    },
  });
  state.live.add(transport);
  if (exchange.longLived) state.listenStreams.add(transport);
  const failed = await state.connect(transport, context);
  if (failed !== undefined) return failed;
  return transport.handle(exchange);
}
