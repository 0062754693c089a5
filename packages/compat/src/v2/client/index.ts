// `@modelcontextprotocol/client` 2.x (its main entry), for a bundler alias.
export * from '../shared.js';
export { Client } from './client.js';
export type { ClientContext, ClientOptions, ServerRequest } from './client.js';
export {
  StreamableHTTPClientTransport,
  StreamableHTTPError,
} from '../../client/compat-streamable-http-client-transport.js';
export type {
  StreamableHTTPClientTransportOptions,
  StreamableHTTPReconnectionOptions,
} from '../../client/compat-streamable-http-client-transport.js';
export { SSEClientTransport } from '../../client/compat-sse-client-transport.js';
export type { SSEClientTransportOptions } from '../../client/compat-sse-client-transport.js';
