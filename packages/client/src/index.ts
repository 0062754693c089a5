export { Client } from './client.js';
export type { ClientEventListener, ClientEventMap, ClientEventName } from './client-events.js';
export type {
  ElicitationHandler,
  ElicitationModes,
  RootsHandler,
  SamplingHandler,
} from './client-handlers.js';
export type { InputContext } from './input-context.js';
export {
  DEFAULT_MAX_INPUT_ROUNDS,
  DEFAULT_MAX_PAGES,
  DEFAULT_PROBE_TIMEOUT_MS,
} from './client-options.js';
export type { ClientOptions, ClientRequestOptions, ConnectOptions } from './client-options.js';
export type { ClientTaskOptions } from './legacy/client-tasks.js';
export type { TaskCallOptions, TaskRunOptions } from './legacy/task-requestor.js';
export { InMemoryEraCache } from './connect/era-cache.js';
export type { EraCache, EraRecord } from './connect/era-cache.js';
export type { VersionSelection } from './connect/negotiate.js';
export { fillElicitationDefaults } from './elicitation-defaults.js';
export { NegotiationError } from './era-session.js';
export { MethodNotSupportedError } from './method-availability.js';
export { InputRoundsExceededError } from './modern/input-round-trips.js';
export { Subscription } from './modern/subscription.js';
export type { ListenNotification } from './modern/subscription.js';
export type { JsonSchemaCheck, JsonSchemaCompiler } from './tool-registry.js';
export { isSafeToRepeat } from './retry/safe-to-repeat.js';
export type { RetryRequest } from './retry/safe-to-repeat.js';
export { isTransientError } from './retry/transient-error.js';
export { RETRY_DEFAULTS } from './retry/retry-options.js';
export type { RetryEvent, RetryOptions } from './retry/retry-options.js';
// Defined in @x/protocol (the transports raise it too); exported here where failover users look for it.
export { TransportLostError } from '@x/protocol/core';
export { FailoverTransport } from './failover/failover-transport.js';
export { FAILOVER_PROBE_DEFAULTS } from './failover/failover-options.js';
export type { FailoverEvent, FailoverTarget, FailoverTransportOptions } from './failover/failover-options.js';
