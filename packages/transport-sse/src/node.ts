// The Node-only entry (`@x/transport-sse/node`): keeps `node:` imports out of the runtime-neutral barrel.
export { createNodeHandler } from './node/create-node-handler.js';
export type { NodeHandler, WebHandler } from './node/create-node-handler.js';
