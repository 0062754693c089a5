// `@modelcontextprotocol/sdk/shared/transport.js` of the official SDK 1.x: x-mcp's `Transport` has the
// same members (`start`, `send`, `close`, `onmessage`, `onclose`, `onerror`, `sessionId`,
// `setProtocolVersion`), so a 1.x custom transport plugs into x-mcp unchanged.
export type { Transport, TransportSendOptions } from '@x/protocol/core';
export type { FetchLike } from '@x/protocol/http';
