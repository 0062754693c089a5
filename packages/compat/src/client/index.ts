// `@modelcontextprotocol/sdk/client/index.js` (and `…/client`) of the official SDK 1.x.
export { Client } from './compat-client.js';
export type { ClientOptions, ClientRequestExtra } from './compat-client.js';
