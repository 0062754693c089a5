// `@modelcontextprotocol/node` 2.x.
export { StreamableHTTPServerTransport as NodeStreamableHTTPServerTransport } from '../../server/compat-streamable-http-server-transport.js';
export type { StreamableHTTPServerTransportOptions } from '../../server/compat-streamable-http-server-transport.js';
export { toNodeHandler } from './to-node-handler.js';
export type { NodeMcpRequestHandler } from './to-node-handler.js';
export {
  hostHeaderValidation,
  localhostHostValidation,
  localhostOriginValidation,
  originValidation,
} from './header-validation.js';
export type { NodeRequestGuard } from './header-validation.js';
