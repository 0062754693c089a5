// `@modelcontextprotocol/sdk/server/index.js` (and `…/server`) of the official SDK 1.x.
export { Server } from './compat-server.js';
export type { ServerOptions } from './compat-server.js';
export type { RequestHandlerExtra } from '../shared/request-handler-extra.js';
