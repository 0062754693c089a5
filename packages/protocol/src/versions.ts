/**
 * Protocol revisions this SDK speaks, and the two eras they fall into (DESIGN §4).
 *
 * @example
 * ```ts
 * console.log(LATEST_PROTOCOL_VERSION); // '2026-07-28'
 * console.log(SUPPORTED_PROTOCOL_VERSIONS.includes('2025-06-18')); // true
 * ```
 */
export const LATEST_PROTOCOL_VERSION = '2026-07-28' as const;
/**
 * The newest revision that still uses the `initialize` handshake.
 *
 * @example
 * ```ts
 * // The version a legacy client puts in its `initialize` request.
 * const params = {
 *   protocolVersion: LATEST_LEGACY_PROTOCOL_VERSION,
 *   capabilities: {},
 *   clientInfo: { name: 'app', version: '1.0.0' },
 * };
 * ```
 */
export const LATEST_LEGACY_PROTOCOL_VERSION = '2025-11-25' as const;
/**
 * What a Streamable HTTP server assumes when `MCP-Protocol-Version` is absent (spec, 2025-06-18 on).
 *
 * @example
 * ```ts
 * const version = request.headers.get('mcp-protocol-version') ?? DEFAULT_NEGOTIATED_PROTOCOL_VERSION;
 * ```
 */
export const DEFAULT_NEGOTIATED_PROTOCOL_VERSION = '2025-03-26' as const;

/**
 * Revisions that open with the `initialize` handshake, newest first.
 *
 * @example
 * ```ts
 * // A server that still speaks only the two newest handshake revisions:
 * negotiateLegacyVersion('2024-11-05', LEGACY_PROTOCOL_VERSIONS.slice(0, 2)); // '2025-11-25'
 * ```
 */
export const LEGACY_PROTOCOL_VERSIONS = ['2025-11-25', '2025-06-18', '2025-03-26', '2024-11-05'] as const;
/**
 * Revisions of the stateless era (per-request `_meta`, `server/discover`), newest first.
 *
 * @example
 * ```ts
 * pickCommonVersion(MODERN_PROTOCOL_VERSIONS, ['2026-07-28', '2027-01-01']); // '2026-07-28'
 * ```
 */
export const MODERN_PROTOCOL_VERSIONS = ['2026-07-28'] as const;
/**
 * Newest first.
 *
 * @example
 * ```ts
 * const [newest] = SUPPORTED_PROTOCOL_VERSIONS; // '2026-07-28'
 * ```
 */
export const SUPPORTED_PROTOCOL_VERSIONS = [
  ...MODERN_PROTOCOL_VERSIONS,
  ...LEGACY_PROTOCOL_VERSIONS,
] as const;

/**
 * A revision that uses the `initialize` handshake.
 *
 * @example
 * ```ts
 * const version: LegacyProtocolVersion | undefined = isLegacyProtocolVersion(header) ? header : undefined;
 * ```
 */
export type LegacyProtocolVersion = (typeof LEGACY_PROTOCOL_VERSIONS)[number];
/**
 * A revision of the stateless era.
 *
 * @example
 * ```ts
 * const version: ModernProtocolVersion = '2026-07-28';
 * ```
 */
export type ModernProtocolVersion = (typeof MODERN_PROTOCOL_VERSIONS)[number];
/**
 * Any revision this SDK speaks.
 *
 * @example
 * ```ts
 * const version: ProtocolVersion = isSupportedProtocolVersion(requested) ? requested : '2025-11-25';
 * ```
 */
export type ProtocolVersion = LegacyProtocolVersion | ModernProtocolVersion;
/**
 * The two protocol eras: `legacy` (the `initialize` handshake) and `modern` (stateless, 2026-07-28 on).
 *
 * @example
 * ```ts
 * const era: Era = eraOf('2025-06-18'); // 'legacy'
 * ```
 */
export type Era = 'legacy' | 'modern';

/**
 * Whether a value is one of the revisions this SDK speaks (either era).
 *
 * @example
 * ```ts
 * isSupportedProtocolVersion('2025-06-18'); // true
 * isSupportedProtocolVersion('2023-01-01'); // false
 * ```
 */
export function isSupportedProtocolVersion(version: unknown): version is ProtocolVersion {
  return (SUPPORTED_PROTOCOL_VERSIONS as readonly unknown[]).includes(version);
}

/**
 * Whether a value is a supported revision of the `initialize` era.
 *
 * @example
 * ```ts
 * isLegacyProtocolVersion('2024-11-05'); // true
 * isLegacyProtocolVersion('2026-07-28'); // false
 * ```
 */
export function isLegacyProtocolVersion(version: unknown): version is LegacyProtocolVersion {
  return (LEGACY_PROTOCOL_VERSIONS as readonly unknown[]).includes(version);
}

/**
 * Whether a value is a supported revision of the stateless era.
 *
 * @example
 * ```ts
 * isModernProtocolVersion('2026-07-28'); // true
 * isModernProtocolVersion('2099-01-01'); // false: unknown, though `eraOf` calls it modern
 * ```
 */
export function isModernProtocolVersion(version: unknown): version is ModernProtocolVersion {
  return (MODERN_PROTOCOL_VERSIONS as readonly unknown[]).includes(version);
}

/**
 * The era of a revision string. Unknown date strings after the latest modern revision count as modern
 * (future revisions keep the stateless model); anything else counts as legacy.
 *
 * @example
 * ```ts
 * eraOf('2025-11-25'); // 'legacy'
 * eraOf('2026-07-28'); // 'modern'
 * eraOf('2030-01-01'); // 'modern' (a future revision)
 * ```
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
 *
 * @example
 * ```ts
 * negotiateLegacyVersion('2025-03-26'); // '2025-03-26'
 * negotiateLegacyVersion('2023-01-01'); // '2025-11-25', our newest handshake revision
 * ```
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
 *
 * @example
 * ```ts
 * pickCommonVersion(SUPPORTED_PROTOCOL_VERSIONS, ['2025-06-18', '2026-07-28']); // '2026-07-28'
 * pickCommonVersion(SUPPORTED_PROTOCOL_VERSIONS, ['2023-01-01']); // undefined
 * ```
 */
export function pickCommonVersion(ours: readonly string[], theirs: readonly string[]): string | undefined {
  return ours.find((v) => theirs.includes(v));
}
