export { pipeTransports } from './pipe-transports.js';
export type { Pipe, PipeOptions } from './pipe-transports.js';
export { bridgeLimitError, peerLostError } from './bridge-errors.js';
export type { BridgeErrorData } from './bridge-errors.js';
export {
  DEFAULT_MAX_IN_FLIGHT_REQUESTS,
  DEFAULT_MAX_QUEUED_MESSAGES,
  DEFAULT_UPSTREAM_CONNECT_TIMEOUT_MS,
} from './constants.js';
export { createBridge } from './create-bridge.js';
export type { Bridge, BridgeOptions, BridgeSession, UpstreamReconnect } from './create-bridge.js';
