import { MCP_META_PREFIX, MetaKey } from '@x/protocol/core';

/**
 * The downstream request's `_meta` as the upstream request carries it: every key but the ones each
 * side's engine writes for itself. `progressToken` is the upstream `Client`'s own (the bridge relays
 * progress under the downstream's token), and the `io.modelcontextprotocol/` keys describe one hop
 * (2026-07-28 per-request protocol version, client capabilities and info, log level, subscription id):
 * the upstream `Client` sets them for its own era. Trace context (`traceparent`, `tracestate`,
 * `baggage`) and application keys go through unchanged.
 */
export function forwardedMeta(
  meta: Record<string, unknown> | undefined,
): Record<string, unknown> | undefined {
  if (meta === undefined) return undefined;
  let kept: Record<string, unknown> | undefined;
  for (const [key, value] of Object.entries(meta)) {
    if (key === MetaKey.ProgressToken || key.startsWith(MCP_META_PREFIX)) continue;
    kept ??= {};
    kept[key] = value;
  }
  return kept;
}
