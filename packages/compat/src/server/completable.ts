// `@modelcontextprotocol/sdk/server/completable.js` of the official SDK 1.x.
export {
  COMPLETABLE_SYMBOL,
  completable,
  getCompleter,
  isCompletable,
  McpZodTypeKind,
  unwrapCompletable,
} from './mark-completable.js';
export type {
  CompletableDef,
  CompletableMeta,
  CompletableSchema,
  CompleteCallback,
} from './mark-completable.js';
