// `@modelcontextprotocol/sdk/server/streamableHttp.js` of the official SDK 1.x.
export { StreamableHTTPServerTransport } from './compat-streamable-http-server-transport.js';
export type { StreamableHTTPServerTransportOptions } from './compat-streamable-http-server-transport.js';
