// `@modelcontextprotocol/sdk/experimental/tasks/interfaces.js` of the official SDK 1.x (imported by
// its example `simpleTaskInteractive.js`): the task store and message queue contracts, `isTerminal`.
export type {
  CreateTaskRequestHandlerExtra,
  TaskRequestHandlerExtra,
  ToolTaskHandler,
} from './mcp-server-tasks.js';
export { isTerminal } from './task-store.js';
export type {
  BaseQueuedMessage,
  CreateTaskOptions,
  QueuedError,
  QueuedMessage,
  QueuedNotification,
  QueuedRequest,
  QueuedResponse,
  TaskMessageQueue,
  TaskStore,
} from './task-store.js';
