import { type Era, eraOf, isSupportedProtocolVersion, type JSONRPCMessage } from '@x/protocol/core';
import { HEADER } from '../shared/headers.js';
import type { HeaderReader } from '@x/protocol/http';
import { metaProtocolVersion } from './modern/header-validation.js';

/**
 * Decides which era a POST belongs to, so one endpoint serves both (2026-07-28 versioning, "A dual-era
 * server selects its behavior from how the client opens: a request carrying modern per-request _meta is
 * served statelessly according to this revision; an initialize request selects legacy semantics").
 *
 * The rule, first match wins:
 * 1. A JSON array body is legacy: batches exist only in 2025-03-26.
 * 2. An `MCP-Protocol-Version` header names the era: a modern version (2026-07-28, or any later date)
 *    is modern — an `Mcp-Session-Id` beside it is ignored, as 2026-07-28 "Earlier Streamable HTTP
 *    Revisions" says; a known legacy version is legacy; an unknown value is modern when the message
 *    carries `_meta` protocolVersion and no session (answered -32022), else legacy (refused as such).
 * 3. Without the header: a message whose `_meta["io.modelcontextprotocol/protocolVersion"]` is modern
 *    and that carries no `Mcp-Session-Id` is modern; header validation then rejects it for the missing
 *    header (400, -32020), which tells the client exactly what is wrong.
 * 4. Everything else is legacy: `initialize`, `Mcp-Session-Id`, and a bare request, which legacy
 *    servers read as 2025-03-26 ("if the server does not receive an MCP-Protocol-Version header ... the
 *    server SHOULD assume protocol version 2025-03-26").
 */
export function classifyPost(headers: HeaderReader, body: JSONRPCMessage | readonly unknown[]): Era {
  if (Array.isArray(body)) return 'legacy';
  const header = headers.get(HEADER.protocolVersion);
  if (header !== null && (isSupportedProtocolVersion(header) || eraOf(header) === 'modern')) {
    return eraOf(header);
  }
  if (header !== null) {
    // A version we do not know at all: a request with per-request _meta and no session is a modern client
    // asking for a revision we lack, which the modern path answers with -32022 and our supported list.
    const meta = metaProtocolVersion(body as JSONRPCMessage);
    return typeof meta === 'string' && !headers.has(HEADER.sessionId) ? 'modern' : 'legacy';
  }
  if (headers.has(HEADER.sessionId)) return 'legacy';
  const meta = metaProtocolVersion(body as JSONRPCMessage);
  return typeof meta === 'string' && eraOf(meta) === 'modern' ? 'modern' : 'legacy';
}

/** GET and DELETE: only a modern `MCP-Protocol-Version` makes them modern (and so 405). */
export function classifyBodiless(headers: HeaderReader): Era {
  const header = headers.get(HEADER.protocolVersion);
  return header !== null && eraOf(header) === 'modern' ? 'modern' : 'legacy';
}
