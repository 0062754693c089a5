// `@modelcontextprotocol/sdk/server/webStandardStreamableHttp.js` of the official SDK 1.x.
export type { EventId, EventStore, StreamId } from './streamableHttp.js';
export { WebStandardStreamableHTTPServerTransport } from './compat-web-standard-streamable-http-server-transport.js';
export type {
  HandleRequestOptions,
  WebStandardStreamableHTTPServerTransportOptions,
} from './compat-web-standard-streamable-http-server-transport.js';
