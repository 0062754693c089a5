import { LATEST_PROTOCOL_VERSION, type ProtocolVersion } from '@x/protocol/core';
import { revisionMethods } from '@x/protocol/internal';

/**
 * Every client→server method some revision defines. A method in this set that the request's revision
 * lacks is answered with -32601 (e.g. `ping` on 2026-07-28); methods outside it are the server's own
 * extensions and go to their handler on either era.
 */
export const STANDARD_CLIENT_METHODS: ReadonlySet<string> = new Set(
  Object.values(revisionMethods).flatMap((m) => m.clientRequests),
);

export const MODERN_REVISION: ProtocolVersion = LATEST_PROTOCOL_VERSION;
