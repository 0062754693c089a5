// `@modelcontextprotocol/sdk/server/completable.js` of the official SDK 1.x.
export { COMPLETABLE_SYMBOL, completable, getCompleter, isCompletable } from './mark-completable.js';
export type { CompleteCallback } from './mark-completable.js';
