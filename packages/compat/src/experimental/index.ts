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
  QueuedMessage,
  RequestTaskStore,
  TaskMessageQueue,
  TaskRequestHandlerExtra,
  TaskStore,
  TaskToolConfig,
  ToolTaskHandler,
} from './tasks/index.js';
