/**
 * `@x/protocol/internal`: the engine internals `@x/client` and `@x/server` share (hot-path helpers, the
 * per-revision method tables, the task receiver). NOT covered by semver: names and signatures change
 * in any release, like tRPC's `unstable-core-do-not-import`. Import from the root (`@x/protocol`) or
 * `@x/protocol/json-schema` instead; if you need something from here, open an issue. A transport
 * package imports `@x/protocol/transport` (the semver-covered kit) instead: `tooling/repo-check`
 * refuses this entry in `packages/transport-*`.
 */
export { copyWith } from './copy-with.js';
export {
  CANCELLED_NOTIFICATION,
  formatIssues,
  InterceptorChain,
  parseParams,
  PROGRESS_NOTIFICATION,
  readCancelledParams,
  readProgressParams,
  resolveHeartbeat,
  resolveRequestLimits,
} from './engine/index.js';
export type { CancelledParams, ParamsParser, ProgressParams } from './engine/index.js';
export { transportLossOf } from './errors.js';
export { randomUuid } from './random-uuid.js';
export * from './schemas/deferred.js';
// Exact zod-free checks of every exported `…Schema` (`isCallToolResult`, …), typed as guards.
export * from './schemas/generated/guards.js';
export { deferredSchema, isDeferredUnloaded, schemaOrLoad } from './schemas/lazy-schema.js';
// Straight from each module, never through a barrel that also holds zod schemas: this entry is on a
// browser client's first download and must not reach zod (see core.ts).
export { fastAccepts, registerFastCheck } from './schemas/fast-check.js';
export { lazySchema, realSchema } from './schemas/lazy-schema.js';
export { methodsOf, revisionMethods } from './schemas/method-sets.js';
export type { MethodSchemaEntry, RevisionMethods, RevisionMethodSets } from './schemas/index.js';
// `revisionSchemas` (the exact schemas of each revision) is not here: it builds zod schemas, and this
// entry must stay zod-free for browser bundles (see core.ts). Tests import it from the source.
export { pollTask } from './tasks/poll-task.js';
export { relatedTaskOf, withRelatedTask } from './tasks/related-task.js';
export { delay, TaskReceiver } from './tasks/task-receiver.js';
export { TaskRun } from './tasks/task-run.js';
export type {
  PollTaskOptions,
  StartTaskOptions,
  TaskDelivery,
  TaskOutcome,
  TaskPage,
  TaskPeer,
  TaskReceiverOptions,
} from './tasks/index.js';
export { isThenable } from './thenable.js';
export { negotiateLegacyVersion, pickCommonVersion } from './versions.js';
