import type {
  JSONRPCErrorResponse,
  JSONRPCNotification,
  JSONRPCRequest,
  JSONRPCResultResponse,
  RequestId,
  Result,
  Task,
} from '@x/protocol/core';

/** The request a task wraps, as a 1.x store keeps it. */
export interface Request {
  method: string;
  params?: Record<string, unknown> | undefined;
}

/**
 * What a 1.x task handler asks of the store when it creates a task (`extra.taskStore.createTask`).
 *
 * @example
 * ```ts
 * const task = await extra.taskStore.createTask({ ttl: 60_000, pollInterval: 1_000 });
 * ```
 */
export interface CreateTaskOptions {
  ttl?: number | null | undefined;
  pollInterval?: number | undefined;
  context?: Record<string, unknown> | undefined;
}

/**
 * The official 1.x `TaskStore` (`experimental/tasks`): where a 1.x task tool keeps its tasks and
 * results. `InMemoryTaskStore` is one; an application may bring its own.
 *
 * @example
 * ```ts
 * const server = new McpServer(info, { taskStore: new InMemoryTaskStore(), capabilities: { tasks: {} } });
 * ```
 */
export interface TaskStore {
  createTask(
    taskParams: CreateTaskOptions,
    requestId: RequestId,
    request: Request,
    sessionId?: string,
  ): Promise<Task>;
  getTask(taskId: string, sessionId?: string): Promise<Task | null>;
  storeTaskResult(
    taskId: string,
    status: 'completed' | 'failed',
    result: Result,
    sessionId?: string,
  ): Promise<void>;
  getTaskResult(taskId: string, sessionId?: string): Promise<Result>;
  updateTaskStatus(
    taskId: string,
    status: Task['status'],
    statusMessage?: string,
    sessionId?: string,
  ): Promise<void>;
  listTasks(cursor?: string, sessionId?: string): Promise<{ tasks: Task[]; nextCursor?: string }>;
}

/**
 * `extra.taskStore` of a 1.x task handler: the store bound to the request (its id, the request, the
 * session).
 *
 * @example
 * ```ts
 * await extra.taskStore.storeTaskResult(task.taskId, 'completed', { content: [] });
 * ```
 */
export interface RequestTaskStore {
  createTask(taskParams: CreateTaskOptions): Promise<Task>;
  getTask(taskId: string): Promise<Task>;
  storeTaskResult(taskId: string, status: 'completed' | 'failed', result: Result): Promise<void>;
  getTaskResult(taskId: string): Promise<Result>;
  updateTaskStatus(taskId: string, status: Task['status'], statusMessage?: string): Promise<void>;
  listTasks(cursor?: string): Promise<{ tasks: Task[]; nextCursor?: string }>;
}

/** What every queued message has. */
export interface BaseQueuedMessage {
  type: string;
  timestamp: number;
}

/** A request queued for a task's requestor. */
export interface QueuedRequest extends BaseQueuedMessage {
  type: 'request';
  message: JSONRPCRequest;
}

/** A notification queued for a task's requestor. */
export interface QueuedNotification extends BaseQueuedMessage {
  type: 'notification';
  message: JSONRPCNotification;
}

/** A result queued for a task's requestor. */
export interface QueuedResponse extends BaseQueuedMessage {
  type: 'response';
  message: JSONRPCResultResponse;
}

/** An error queued for a task's requestor. */
export interface QueuedError extends BaseQueuedMessage {
  type: 'error';
  message: JSONRPCErrorResponse;
}

/**
 * A message a 1.x `TaskMessageQueue` holds for a task's requestor.
 *
 * @example
 * ```ts
 * await queue.enqueue(taskId, { type: 'notification', timestamp: Date.now(), message: { jsonrpc: '2.0', method: 'notifications/message' } });
 * ```
 */
export type QueuedMessage = QueuedRequest | QueuedNotification | QueuedResponse | QueuedError;

/**
 * The official 1.x `TaskMessageQueue`. Accepted by `McpServer`; x-mcp delivers a task's requests to
 * the client itself, so the queue is not used (see the README).
 *
 * @example
 * ```ts
 * new McpServer(info, { taskStore, taskMessageQueue: new InMemoryTaskMessageQueue() });
 * ```
 */
export interface TaskMessageQueue {
  enqueue(taskId: string, message: QueuedMessage, sessionId?: string, maxSize?: number): Promise<void>;
  dequeue(taskId: string, sessionId?: string): Promise<QueuedMessage | undefined>;
  dequeueAll(taskId: string, sessionId?: string): Promise<QueuedMessage[]>;
}

/**
 * Whether a task status is final (`completed`, `failed`, `cancelled`).
 *
 * @example
 * ```ts
 * if (isTerminal(task.status)) clearInterval(poller);
 * ```
 */
export function isTerminal(status: Task['status']): boolean {
  return status === 'completed' || status === 'failed' || status === 'cancelled';
}
