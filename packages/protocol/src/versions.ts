/**
 * Protocol revisions this SDK speaks, and the two eras they fall into (DESIGN §4).
 */
export const LATEST_PROTOCOL_VERSION = '2026-07-28' as const;
/** The newest revision that still uses the `initialize` handshake. */
export const LATEST_LEGACY_PROTOCOL_VERSION = '2025-11-25' as const;
/** What a Streamable HTTP server assumes when `MCP-Protocol-Version` is absent (spec, 2025-06-18 on). */
export const DEFAULT_NEGOTIATED_PROTOCOL_VERSION = '2025-03-26' as const;

export const LEGACY_PROTOCOL_VERSIONS = ['2025-11-25', '2025-06-18', '2025-03-26', '2024-11-05'] as const;
export const MODERN_PROTOCOL_VERSIONS = ['2026-07-28'] as const;
/** Newest first. */
export const SUPPORTED_PROTOCOL_VERSIONS = [
  ...MODERN_PROTOCOL_VERSIONS,
  ...LEGACY_PROTOCOL_VERSIONS,
] as const;

export type LegacyProtocolVersion = (typeof LEGACY_PROTOCOL_VERSIONS)[number];
export type ModernProtocolVersion = (typeof MODERN_PROTOCOL_VERSIONS)[number];
export type ProtocolVersion = LegacyProtocolVersion | ModernProtocolVersion;
export type Era = 'legacy' | 'modern';

export function isSupportedProtocolVersion(version: unknown): version is ProtocolVersion {
  return (SUPPORTED_PROTOCOL_VERSIONS as readonly unknown[]).includes(version);
}

export function isLegacyProtocolVersion(version: unknown): version is LegacyProtocolVersion {
  return (LEGACY_PROTOCOL_VERSIONS as readonly unknown[]).includes(version);
}

export function isModernProtocolVersion(version: unknown): version is ModernProtocolVersion {
  return (MODERN_PROTOCOL_VERSIONS as readonly unknown[]).includes(version);
}

/**
 * The era of a revision string. Unknown date strings after the latest modern revision count as modern
 * (future revisions keep the stateless model); anything else counts as legacy.
 */
export function eraOf(version: string): Era {
  if (isModernProtocolVersion(version)) return 'modern';
  if (isLegacyProtocolVersion(version)) return 'legacy';
  // Only a well-formed revision date later than ours is a future (stateless) revision.
  return /^\d{4}-\d{2}-\d{2}$/.test(version) && version > LATEST_PROTOCOL_VERSION ? 'modern' : 'legacy';
}

/**
 * Server-side answer to a legacy `initialize`: the client's version when we support it (and it is a
 * handshake-era version), otherwise the newest handshake-era version we support (spec: lifecycle,
 * "Version Negotiation").
 */
export function negotiateLegacyVersion(
  requested: string,
  supported: readonly string[] = LEGACY_PROTOCOL_VERSIONS,
): string {
  if (supported.includes(requested) && isLegacyProtocolVersion(requested)) return requested;
  const fallback = supported.find((v) => isLegacyProtocolVersion(v));
  if (fallback === undefined) throw new Error('No initialize-era protocol version is supported');
  return fallback;
}

/**
 * Picks the revision for a modern exchange: the newest version both sides list, or undefined when
 * there is none.
 */
export function pickCommonVersion(ours: readonly string[], theirs: readonly string[]): string | undefined {
  return ours.find((v) => theirs.includes(v));
}
