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
  QueuedMessage,
  RequestTaskStore,
  TaskMessageQueue,
  TaskStore,
} from './task-store.js';
