/**
 * `@x/protocol/internal`: the engine internals the x-mcp packages share (hot-path helpers, the
 * per-revision method tables, the task receiver). NOT covered by semver: names and signatures change
 * in any release, like tRPC's `unstable-core-do-not-import`. Import from the root (`@x/protocol`) or
 * `@x/protocol/json-schema` instead; if you need something from here, open an issue.
 */
export { CancelHandle } from './cancel-handle.js';
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
} from './engine/index.js';
export type { CancelledParams, ParamsParser, ProgressParams } from './engine/index.js';
export { transportLossOf } from './errors.js';
export { InFlightMap, InFlightSet } from './in-flight-map.js';
export { randomUuid } from './random-uuid.js';
// Exact zod-free checks of every exported `…Schema` (`isCallToolResult`, …), typed as guards.
export * from './schemas/generated/guards.js';
export {
  fastAccepts,
  isPlainCallToolResult,
  lazySchema,
  methodsOf,
  realSchema,
  registerFastCheck,
  revisionMethods,
  revisionSchemas,
} from './schemas/index.js';
export type {
  MethodSchemaEntry,
  RevisionDefinitionName,
  RevisionMethods,
  RevisionMethodSets,
  RevisionSchemas,
} from './schemas/index.js';
export { delay, pollTask, relatedTaskOf, TaskReceiver, TaskRun, withRelatedTask } from './tasks/index.js';
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
export { deliverMessage } from './transports/deliver-message.js';
export { negotiateLegacyVersion, pickCommonVersion } from './versions.js';
