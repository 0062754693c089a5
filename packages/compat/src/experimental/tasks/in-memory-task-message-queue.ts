import type { QueuedMessage, TaskMessageQueue } from './task-store.js';

/**
 * The official 1.x `InMemoryTaskMessageQueue`: a FIFO per task (and session). x-mcp does not read it
 * (a task's requests go to the client directly); it is here so 1.x code constructs and passes it.
 *
 * @example
 * ```ts
 * new McpServer(info, { taskStore: new InMemoryTaskStore(), taskMessageQueue: new InMemoryTaskMessageQueue() });
 * ```
 */
export class InMemoryTaskMessageQueue implements TaskMessageQueue {
  readonly #queues = new Map<string, QueuedMessage[]>();

  async enqueue(taskId: string, message: QueuedMessage, sessionId?: string, maxSize?: number): Promise<void> {
    const key = keyOf(taskId, sessionId);
    const queue = this.#queues.get(key) ?? [];
    if (maxSize !== undefined && queue.length >= maxSize)
      throw new Error(
        `Task message queue overflow: queue size (${queue.length}) exceeds maximum (${maxSize})`,
      );
    queue.push(message);
    this.#queues.set(key, queue);
  }

  async dequeue(taskId: string, sessionId?: string): Promise<QueuedMessage | undefined> {
    return this.#queues.get(keyOf(taskId, sessionId))?.shift();
  }

  async dequeueAll(taskId: string, sessionId?: string): Promise<QueuedMessage[]> {
    const key = keyOf(taskId, sessionId);
    const queue = this.#queues.get(key) ?? [];
    this.#queues.delete(key);
    return queue;
  }
}

function keyOf(taskId: string, sessionId: string | undefined): string {
  return sessionId === undefined ? taskId : `${sessionId}:${taskId}`;
}
