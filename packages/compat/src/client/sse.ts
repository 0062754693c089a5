// `@modelcontextprotocol/sdk/client/sse.js` of the official SDK 1.x.
export { SSEClientTransport } from './compat-sse-client-transport.js';
export type { SSEClientTransportOptions } from './compat-sse-client-transport.js';
