// `@modelcontextprotocol/sdk/experimental/tasks` of the official SDK 1.x.
export { InMemoryTaskMessageQueue } from './in-memory-task-message-queue.js';
export { InMemoryTaskStore } from './in-memory-task-store.js';
export { ExperimentalMcpServerTasks } from './mcp-server-tasks.js';
export type {
  CreateTaskRequestHandlerExtra,
  CreateTaskResult,
  TaskRequestHandlerExtra,
  TaskToolConfig,
  ToolTaskHandler,
} from './mcp-server-tasks.js';
export { isTerminal } from './task-store.js';
export type {
  CreateTaskOptions,
  BaseQueuedMessage,
  QueuedError,
  QueuedMessage,
  QueuedNotification,
  QueuedRequest,
  QueuedResponse,
  RequestTaskStore,
  TaskMessageQueue,
  TaskStore,
} from './task-store.js';
// The wire schemas and types of tasks, as 1.x re-exports them here from `types.js`.
export {
  CancelTaskRequestSchema,
  CancelTaskResultSchema,
  ClientTasksCapabilitySchema,
  CreateTaskResultSchema,
  GetTaskPayloadRequestSchema,
  GetTaskRequestSchema,
  GetTaskResultSchema,
  ListTasksRequestSchema,
  ListTasksResultSchema,
  RelatedTaskMetadataSchema,
  ServerTasksCapabilitySchema,
  TaskCreationParamsSchema,
  TaskSchema,
  TaskStatusNotificationParamsSchema,
  TaskStatusNotificationSchema,
} from '../../types.js';
export type {
  CancelTaskRequest,
  CancelTaskResult,
  GetTaskPayloadRequest,
  GetTaskRequest,
  GetTaskResult,
  ListTasksRequest,
  ListTasksResult,
  RelatedTaskMetadata,
  Task,
  TaskCreationParams,
  TaskStatusNotification,
  TaskStatusNotificationParams,
} from '../../types.js';
