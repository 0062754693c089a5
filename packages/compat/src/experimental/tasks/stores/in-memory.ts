// `@modelcontextprotocol/sdk/experimental/tasks/stores/in-memory.js` of the official SDK 1.x.
export { InMemoryTaskMessageQueue } from '../in-memory-task-message-queue.js';
export { InMemoryTaskStore } from '../in-memory-task-store.js';
