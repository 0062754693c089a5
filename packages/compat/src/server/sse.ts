// `@modelcontextprotocol/sdk/server/sse.js` of the official SDK 1.x.
export { SSEServerTransport } from './compat-sse-server-transport.js';
export type { SSEServerTransportOptions } from './compat-sse-server-transport.js';
