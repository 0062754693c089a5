export { connectRedis, DEFAULT_REDIS_CONNECTION } from './connect-redis.js';
export type { ConnectRedisOptions } from './connect-redis.js';
export type {
  RedisClient,
  RedisClusterClient,
  RedisNodeClient,
  RedisStoreOptions,
} from './redis-client.js';
export { RedisEventStore } from './redis-event-store.js';
export type { RedisEventStoreOptions } from './redis-event-store.js';
export { RedisMessageBus } from './redis-message-bus.js';
export type { RedisMessageBusOptions } from './redis-message-bus.js';
export { RedisSessionStore } from './redis-session-store.js';
export type { RedisSessionStoreOptions } from './redis-session-store.js';
export { RedisSubscriptionFanOut } from './redis-subscription-fan-out.js';
export { RedisTaskStore } from './redis-task-store.js';
