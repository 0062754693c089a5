/**
 * `@x/protocol/node`: the Node request adapter shared by the HTTP transports' `./node` entries. The one
 * place in `@x/protocol` that imports `node:` modules (DESIGN §1); nothing under the root or `./http`
 * reaches it, so those stay runtime-neutral (`tooling/repo-check` enforces it).
 */
export { BadRequestUrlError, NodeIncoming } from './node-incoming.js';
export { sendJsonRpcError } from './send-json-rpc-error.js';
export { connectionInfo, failNodeRequest, toNodeHandler } from './to-node-handler.js';
export type { NodeHandler } from './to-node-handler.js';
export { writeResponse } from './write-response.js';
export { writeWebResponse } from './write-web-response.js';
