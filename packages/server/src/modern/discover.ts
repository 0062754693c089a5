import { type DiscoverResult, type ServerCapabilities, TASKS_EXTENSION } from '@x/protocol/core';
import type { ServerCore } from '../server-core.js';

const cache = new WeakMap<ServerCapabilities, DiscoverResult>();

/**
 * `server/discover` (spec 2026-07-28: server/discover): every version the server speaks (both eras,
 * newest first), its capabilities, instructions, identity in `_meta` and a cache hint. Built once per
 * capability set: `registerCapabilities()` replaces the object, which drops the cached answer.
 */
export function discover(core: ServerCore): DiscoverResult {
  const capabilities = core.capabilities;
  let result = cache.get(capabilities);
  if (result === undefined) {
    result = {
      resultType: 'complete',
      supportedVersions: [...core.supportedVersions],
      // SEP-2663: a server with tasks advertises the extension (never a 2025-11-25 `tasks` slot).
      capabilities: core.tasks === undefined ? capabilities : withTasksExtension(capabilities),
      ttlMs: core.discoverCache.ttlMs,
      cacheScope: core.discoverCache.cacheScope,
    };
    if (core.instructions !== undefined) result.instructions = core.instructions;
    result._meta = core.serverInfoMeta ?? { 'io.modelcontextprotocol/serverInfo': core.info };
    cache.set(capabilities, result);
  }
  return result;
}

function withTasksExtension(capabilities: ServerCapabilities): ServerCapabilities {
  const { tasks: _legacy, ...rest } = capabilities;
  return { ...rest, extensions: { ...rest.extensions, [TASKS_EXTENSION]: {} } };
}
