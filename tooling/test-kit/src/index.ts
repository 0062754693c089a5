export { type WaitForOptions, waitFor } from './wait-for.js';
export { afterMicrotasks, afterNextTick, afterTimeouts, afterTurn } from './scheduler.js';
export { type HttpServerHandle, startHttpServer } from './http-server.js';
export { type Browser, consentOverHttp, newBrowser } from './oauth-consent.js';
export {
  type RedisClusterHandle,
  type RedisClusterNode,
  type RedisSentinelHandle,
  type RedisSentinelNode,
  type RedisServerHandle,
  type StartRedisClusterOptions,
  type StartRedisOptions,
  type StartRedisSentinelOptions,
  startRedis,
  startRedisCluster,
  startRedisSentinel,
} from './redis-server.mjs';
