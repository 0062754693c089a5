export { InMemoryTaskStore } from './in-memory-task-store.js';
export { pollTask } from './poll-task.js';
export type { PollTaskOptions, TaskPeer } from './poll-task.js';
export { relatedTaskOf, withRelatedTask } from './related-task.js';
export { delay, TaskReceiver } from './task-receiver.js';
export type { StartTaskOptions, TaskReceiverOptions, TaskRequest } from './task-receiver.js';
export { TaskRun } from './task-run.js';
export type { TaskDelivery } from './task-run.js';
export { isTerminalTaskStatus } from './task-status.js';
export type { StoredTask, TaskOutcome, TaskPage, TaskStore } from './task-store.js';
export {
  CreateTaskHandleSchema,
  DetailedTaskSchema,
  fromDetailedTask,
  TASKS_EXTENSION,
  toDetailedTask,
} from './extension-task.js';
export type { CreateTaskHandle, DetailedTask } from './extension-task.js';
