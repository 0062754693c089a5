import {
  type DiscoverResult,
  ErrorCode,
  isLegacyProtocolVersion,
  McpError,
  ResultType,
  type ModernProtocolVersion,
} from '@x/protocol/core';
import { DeferredDiscoverResultSchema } from '@x/protocol/internal';
import type { ClientEngine } from '../client-engine.js';
import { NegotiationError } from '../era-session.js';
import { supportedVersionsOf } from '../transport-failure.js';
import { pickModernVersion } from './modern-session.js';
import type { RequestEnvelope } from './request-envelope.js';

/** Where a `server/discover` exchange leaves the client. */
export type DiscoverOutcome =
  | { kind: 'modern'; version: ModernProtocolVersion; result: DiscoverResult }
  /** A modern-aware server whose versions in common with ours are all `initialize`-era. */
  | { kind: 'legacy'; supported: readonly string[] };

/**
 * `server/discover` with the modern envelope (2026-07-28 server/discover). A -32022 answer names the
 * server's versions: retry once with ours in that list ("Do not fall back to initialize", transports/stdio
 * "Backward Compatibility"). Any other failure is thrown for the caller to judge (probe → legacy).
 */
export async function discover(options: {
  engine: ClientEngine;
  envelope: RequestEnvelope;
  version: ModernProtocolVersion;
  timeout: number | undefined;
}): Promise<DiscoverOutcome> {
  const { engine, envelope } = options;
  const requestOptions = options.timeout === undefined ? undefined : { timeout: options.timeout };
  let version = options.version;
  for (let attempt = 0; ; attempt++) {
    envelope.version = version;
    let result: DiscoverResult;
    try {
      result = await engine.request(
        { method: 'server/discover', params: envelope.apply(undefined) },
        DeferredDiscoverResultSchema,
        requestOptions,
      );
    } catch (error) {
      const supported = supportedVersionsOf(error);
      if (supported === undefined) throw error;
      const next = pickModernVersion(supported, version);
      if (next !== undefined && attempt === 0) {
        version = next;
        continue;
      }
      return legacyOrFail(supported, error);
    }
    // Unknown result types MUST be treated as invalid (basic/index "ResultType"), and discover never asks for input.
    const resultType = result.resultType;
    if (resultType !== undefined && resultType !== ResultType.Complete) {
      throw new McpError(
        ErrorCode.InternalError,
        `Invalid result for server/discover: resultType "${String(resultType).slice(0, 64)}" (expected "complete")`,
      );
    }
    if (result.supportedVersions.includes(version)) return { kind: 'modern', version, result };
    const next = pickModernVersion(result.supportedVersions, undefined);
    if (next !== undefined) return { kind: 'modern', version: next, result };
    return legacyOrFail(result.supportedVersions, undefined);
  }
}

function legacyOrFail(supported: readonly string[], cause: unknown): DiscoverOutcome {
  if (supported.some(isLegacyProtocolVersion)) return { kind: 'legacy', supported };
  throw new NegotiationError(
    `Server supports protocol versions ${supported.join(', ') || '(none)'}, none of which this client speaks`,
    supported,
    cause === undefined ? undefined : { cause },
  );
}
