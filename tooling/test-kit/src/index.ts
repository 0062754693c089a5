export { type WaitForOptions, waitFor } from './wait-for.js';
export { afterMicrotasks, afterNextTick, afterTimeouts, afterTurn } from './scheduler.js';
export { type HttpServerHandle, startHttpServer } from './http-server.js';
