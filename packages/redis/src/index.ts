export { connectRedis, DEFAULT_REDIS_CONNECTION } from './connect-redis.js';
export type { ConnectRedisOptions } from './connect-redis.js';
export { connectRedisCluster } from './connect-redis-cluster.js';
export type { ConnectRedisClusterOptions } from './connect-redis-cluster.js';
export { connectRedisSentinel } from './connect-redis-sentinel.js';
export type { ConnectRedisSentinelOptions } from './connect-redis-sentinel.js';
export { DEFAULT_PUB_SUB } from './pub-sub-mode.js';
export type { PubSubMode } from './pub-sub-mode.js';
export type {
  RedisClient,
  RedisClusterClient,
  RedisNodeClient,
  RedisSentinelClient,
  RedisStoreOptions,
} from './redis-client.js';
export { DEFAULT_EVENT_STREAM_TTL_MS, RedisEventStore } from './redis-event-store.js';
export type { RedisEventStoreOptions } from './redis-event-store.js';
export { RedisMessageBus } from './redis-message-bus.js';
export type { RedisMessageBusOptions } from './redis-message-bus.js';
export { RedisSessionStore } from './redis-session-store.js';
export type { RedisSessionStoreOptions } from './redis-session-store.js';
export { RedisSubscriptionFanOut } from './redis-subscription-fan-out.js';
export { RedisTaskStore } from './redis-task-store.js';
