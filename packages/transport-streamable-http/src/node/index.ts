// The Node-only entry (`@x/transport-streamable-http/node`): keeps `node:` imports out of the
// runtime-neutral main entry, which browsers and Workers bundle.
export { toNodeHandler } from './to-node-handler.js';
export type { NodeHandler } from '@x/protocol/node';
