import {
  type DiscoverResult,
  ErrorCode,
  McpError,
  type Implementation,
  isLegacyProtocolVersion,
  isModernProtocolVersion,
  LATEST_LEGACY_PROTOCOL_VERSION,
  LATEST_PROTOCOL_VERSION,
  LEGACY_PROTOCOL_VERSIONS,
  type LegacyProtocolVersion,
  type ModernProtocolVersion,
  type ProtocolVersion,
  type Transport,
} from '@x/protocol/core';
import type { ClientEngine } from '../client-engine.js';
import type { ClientHandlers } from '../client-handlers.js';
import { type EraSession, NegotiationError } from '../era-session.js';
import { initialize } from '../legacy/initialize.js';
import { LegacySession } from '../legacy/legacy-session.js';
import { discover } from '../modern/discover.js';
import { ModernSession } from '../modern/modern-session.js';
import type { RequestEnvelope } from '../modern/request-envelope.js';
import { isModernServerError, isTransportLevelFailure } from '../transport-failure.js';
import type { EraRecord } from './era-cache.js';

/**
 * Which protocol the client speaks: `'auto'` probes the modern era and falls back to `initialize`,
 * `'legacy'` and `'modern'` stay in one era (newest version first), a version string pins that version.
 *
 * @example
 * ```ts
 * const protocolVersion: VersionSelection = '2025-06-18'; // or 'auto' | 'legacy' | 'modern'
 * const client = new Client({ name: 'my-app', version: '1.0.0' }, { protocolVersion });
 * ```
 */
export type VersionSelection = 'auto' | 'legacy' | 'modern' | ProtocolVersion;

export interface NegotiateContext {
  engine: ClientEngine;
  envelope: RequestEnvelope;
  handlers: ClientHandlers;
  clientInfo: Implementation;
  selection: VersionSelection;
  maxInputRounds: number;
  /** How long the `server/discover` probe may stay unanswered before the server counts as legacy. */
  probeTimeout: number;
}

export interface NegotiatePlan {
  /** A remembered era for this target (auto mode only). */
  cached: EraRecord | undefined;
  /** False on a fallback transport: it is the legacy HTTP+SSE path, so auto goes straight to initialize. */
  probe: boolean;
}

/**
 * Settles the era on a connected transport (2026-07-28 basic/versioning, "Backward Compatibility";
 * transports/stdio and streamable-http, "Backward Compatibility"). In auto mode: probe `server/discover`
 * with the modern envelope; a `DiscoverResult` or a recognised modern error (-32022 → retry with a
 * version from `supported`) means modern; anything else — -32601, -32602, a result that is not a
 * `DiscoverResult`, no answer within `probeTimeout`, an HTTP 4xx without a modern error body — means
 * legacy: `initialize`. A cached legacy record skips the probe; if `initialize` then fails, the cached
 * assumption is stale and the probe runs after all.
 */
export async function negotiate(
  ctx: NegotiateContext,
  transport: Transport,
  plan: NegotiatePlan,
): Promise<EraSession> {
  const selection = ctx.selection;
  if (selection === 'legacy' || isLegacyProtocolVersion(selection)) {
    const pinned = selection === 'legacy' ? undefined : selection;
    return legacy(
      ctx,
      transport,
      pinned ?? LATEST_LEGACY_PROTOCOL_VERSION,
      pinned === undefined ? LEGACY_PROTOCOL_VERSIONS : [pinned],
    );
  }
  if (selection === 'modern' || isModernProtocolVersion(selection)) {
    const version = selection === 'modern' ? LATEST_PROTOCOL_VERSION : selection;
    const outcome = await discover({
      engine: ctx.engine,
      envelope: ctx.envelope,
      version,
      timeout: undefined,
    });
    if (outcome.kind === 'legacy') {
      throw new NegotiationError(
        `Server offers only initialize-era versions (${outcome.supported.join(', ')}); the client is set to modern`,
        outcome.supported,
      );
    }
    return modern(ctx, transport, outcome.version, outcome.result);
  }
  if (!plan.probe || plan.cached?.era === 'legacy') {
    try {
      return await legacy(ctx, transport, LATEST_LEGACY_PROTOCOL_VERSION, LEGACY_PROTOCOL_VERSIONS);
    } catch (error) {
      // A transport-level failure goes to the caller's fallback transport, not to the probe.
      if (!plan.probe || error instanceof NegotiationError || isTransportLevelFailure(error)) throw error;
    }
  }
  return probe(ctx, transport);
}

async function probe(ctx: NegotiateContext, transport: Transport): Promise<EraSession> {
  let probeFailure: unknown;
  try {
    const outcome = await discover({
      engine: ctx.engine,
      envelope: ctx.envelope,
      version: LATEST_PROTOCOL_VERSION,
      timeout: ctx.probeTimeout,
    });
    if (outcome.kind === 'modern') return modern(ctx, transport, outcome.version, outcome.result);
    const requested = LEGACY_PROTOCOL_VERSIONS.find((v) => outcome.supported.includes(v));
    return legacy(ctx, transport, requested ?? LATEST_LEGACY_PROTOCOL_VERSION, LEGACY_PROTOCOL_VERSIONS);
  } catch (error) {
    // A modern server that refused us for another reason (-32020/-32021): falling back would be wrong.
    if (error instanceof NegotiationError || isModernServerError(error)) throw error;
    probeFailure = error;
  }
  try {
    return await legacy(ctx, transport, LATEST_LEGACY_PROTOCOL_VERSION, LEGACY_PROTOCOL_VERSIONS);
  } catch (error) {
    throw withProbeFailure(error, probeFailure);
  }
}

/**
 * When neither era worked, the error says both what `initialize` met and why `server/discover` did not
 * count as modern (a malformed discover result otherwise vanished behind the legacy error). Errors of
 * the transport itself pass unchanged: the caller's fallback transport decides on those.
 */
function withProbeFailure(error: unknown, probeFailure: unknown): unknown {
  if (!(error instanceof McpError) || !(probeFailure instanceof McpError) || isTransportLevelFailure(error)) {
    return error;
  }
  if (probeFailure.code === ErrorCode.MethodNotFound) return error; // a plain legacy server: nothing to add
  return new McpError(
    error.code,
    `${error.message} (initialize, tried after server/discover failed: ${probeFailure.message})`,
    error.data,
    { cause: error },
  );
}

async function legacy(
  ctx: NegotiateContext,
  transport: Transport,
  requested: LegacyProtocolVersion,
  accepted: readonly ProtocolVersion[],
): Promise<EraSession> {
  const init = await initialize(ctx.engine, transport, {
    clientInfo: ctx.clientInfo,
    capabilities: ctx.handlers.capabilities('legacy'),
    requested,
    accepted,
  });
  const session = new LegacySession(ctx.engine, init);
  rehandshakeOnReconnect(ctx, transport, session);
  return session;
}

/**
 * A transport that reconnects by itself reaches a server that has forgotten the session: re-run
 * `initialize` for the version already negotiated (2025-11-25 basic/lifecycle: initialization MUST be the
 * first interaction), so the caller's next request just works: the session holds requests back until
 * the new handshake is done (the server refuses anything but ping before `notifications/initialized`).
 */
function rehandshakeOnReconnect(ctx: NegotiateContext, transport: Transport, session: LegacySession): void {
  const previous = transport.onreconnect;
  const version = session.protocolVersion;
  transport.onreconnect = (() => {
    previous?.();
    const attempt: Promise<void> = initialize(ctx.engine, transport, {
      clientInfo: ctx.clientInfo,
      capabilities: ctx.handlers.capabilities('legacy'),
      requested: version,
      accepted: [version],
    }).then(() => undefined);
    const handshake = attempt.catch((error: unknown) => {
      transport.onerror?.(error instanceof Error ? error : new Error(String(error)));
    });
    session.holdUntil(handshake);
    // A transport that waits for it (FailoverTransport) holds what it queued until the session is back,
    // and takes a failed handshake for a failed transport; one that does not wait leaves it handled.
    return attempt;
  }) as () => void;
}

function modern(
  ctx: NegotiateContext,
  transport: Transport,
  version: ModernProtocolVersion,
  result: DiscoverResult,
): EraSession {
  return new ModernSession({
    ctx: {
      engine: ctx.engine,
      envelope: ctx.envelope,
      handlers: ctx.handlers,
      maxInputRounds: ctx.maxInputRounds,
    },
    transport,
    version,
    discover: result,
  });
}
