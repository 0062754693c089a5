import { CreateTaskHandleSchema, DetailedTaskSchema } from '../tasks/extension-task.js';
import { lazySchema } from './lazy-schema.js';
import { orInputRequired } from './input-required.js';
import { GetPromptResultSchema } from './prompts.js';
import { ReadResourceResultSchema } from './resources.js';
import { CallToolResultSchema } from './tools.js';

/**
 * The module `deferred.ts` loads with `import()` the first time a value fails a deferred schema's check:
 * the zod schemas behind the client's and the server's deferred handles (the server's: the params it
 * reads, `initialize` among them, and the results of what it asks the client). A bundler puts it (and zod) in a chunk of its
 * own, which a browser fetches only if a server sends something unusual or malformed.
 */

export { CompleteRequestParamsSchema, CompleteResultSchema } from './completion.js';
export {
  CancelledNotificationParamsSchema,
  ProgressNotificationParamsSchema,
} from './notifications.js';
export {
  ElicitationCompleteNotificationParamsSchema,
  ElicitRequestParamsSchema,
  ElicitResultSchema,
} from './elicitation.js';
export { NotificationParamsSchema, ResultSchema } from './common.js';
export { DiscoverResultSchema, InitializeRequestParamsSchema, InitializeResultSchema } from './lifecycle.js';
export { LoggingMessageNotificationParamsSchema } from './logging.js';
export { InputRequiredResultSchema } from './input-required.js';
export { GetPromptResultSchema, ListPromptsResultSchema } from './prompts.js';
export {
  ListResourcesResultSchema,
  ListResourceTemplatesResultSchema,
  ReadResourceResultSchema,
  ResourceUpdatedNotificationParamsSchema,
} from './resources.js';
export { ListRootsRequestParamsSchema, ListRootsResultSchema } from './roots.js';
export { CreateMessageRequestParamsSchema, CreateMessageResultSchema } from './sampling.js';
export {
  SubscriptionsAcknowledgedNotificationParamsSchema,
  SubscriptionsListenRequestParamsSchema,
  SubscriptionsListenResultSchema,
} from './subscriptions.js';
export {
  CancelTaskResultSchema,
  CreateTaskResultSchema,
  GetTaskPayloadResultSchema,
  GetTaskResultSchema,
  ListTasksResultSchema,
  TaskStatusNotificationParamsSchema,
} from './tasks.js';
export { CallToolResultSchema, ListToolsResultSchema } from './tools.js';
export { CreateTaskHandleSchema, DetailedTaskSchema };

/**
 * Results of the methods that may answer `input_required` (2026-07-28 basic/patterns/mrtr, "Supported
 * Requests"); a `tools/call` may also answer with a task handle (SEP-2663).
 */
export const CallToolOutcomeSchema = lazySchema(() =>
  orInputRequired(CallToolResultSchema).or(CreateTaskHandleSchema),
);
export const GetPromptOutcomeSchema = lazySchema(() => orInputRequired(GetPromptResultSchema));
export const ReadResourceOutcomeSchema = lazySchema(() => orInputRequired(ReadResourceResultSchema));
