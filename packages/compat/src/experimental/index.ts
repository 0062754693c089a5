// `@modelcontextprotocol/sdk/experimental` of the official SDK 1.x: the tasks entry.
export {
  ExperimentalMcpServerTasks,
  InMemoryTaskMessageQueue,
  InMemoryTaskStore,
  isTerminal,
} from './tasks/index.js';
export type {
  CreateTaskOptions,
  CreateTaskRequestHandlerExtra,
  CreateTaskResult,
  BaseQueuedMessage,
  QueuedError,
  QueuedMessage,
  QueuedNotification,
  QueuedRequest,
  QueuedResponse,
  RequestTaskStore,
  TaskMessageQueue,
  TaskRequestHandlerExtra,
  TaskStore,
  TaskToolConfig,
  ToolTaskHandler,
} from './tasks/index.js';
// The wire schemas and types of tasks, as 1.x re-exports them here from `types.js`.
export {
  CancelTaskRequestSchema,
  CancelTaskResultSchema,
  CreateTaskResultSchema,
  GetTaskPayloadRequestSchema,
  GetTaskRequestSchema,
  GetTaskResultSchema,
  ListTasksRequestSchema,
  ListTasksResultSchema,
  RelatedTaskMetadataSchema,
  TaskSchema,
  TaskStatusNotificationParamsSchema,
  TaskStatusNotificationSchema,
} from '../types.js';
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
  TaskStatusNotification,
  TaskStatusNotificationParams,
} from '../types.js';
