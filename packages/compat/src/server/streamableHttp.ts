// `@modelcontextprotocol/sdk/server/streamableHttp.js` of the official SDK 1.x.
export { StreamableHTTPServerTransport } from './compat-streamable-http-server-transport.js';
export type { StreamableHTTPServerTransportOptions } from './compat-streamable-http-server-transport.js';
// The event store of resumable streams: x-mcp's interface has 1.x's members (`storeEvent`,
// `replayEventsAfter`, optional `getStreamIdForEventId`), so a 1.x store plugs in as it is.
export type { EventStore } from '@x/protocol/core';
/** An event's id in an `EventStore`. */
export type EventId = string;
/** A stream's id in an `EventStore`. */
export type StreamId = string;
