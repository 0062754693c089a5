export { type WaitForOptions, waitFor } from './wait-for.js';
export { afterMicrotasks, afterNextTick, afterTimeouts, afterTurn } from './scheduler.js';
export { type HttpServerHandle, startHttpServer } from './http-server.js';
export { type Browser, consentOverHttp, newBrowser } from './oauth-consent.js';
export { type RedisServerHandle, type StartRedisOptions, startRedis } from './redis-server.mjs';
