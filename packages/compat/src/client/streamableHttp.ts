// `@modelcontextprotocol/sdk/client/streamableHttp.js` of the official SDK 1.x.
export {
  StreamableHTTPClientTransport,
  StreamableHTTPError,
} from './compat-streamable-http-client-transport.js';
export type {
  StreamableHTTPClientTransportOptions,
  StreamableHTTPReconnectionOptions,
} from './compat-streamable-http-client-transport.js';
