export { StdioClientTransport } from './client-transport.js';
export type { ExitInfo, StdioClientTransportOptions } from './client-transport.js';
export { StdioServerTransport } from './server-transport.js';
export type { StdioServerTransportOptions } from './server-transport.js';
export { DEFAULT_INHERITED_ENV_VARS, getDefaultEnvironment } from './default-environment.js';
export type { DefaultEnvironmentOptions } from './default-environment.js';
export {
  DEFAULT_SIGTERM_TIMEOUT_MS,
  DEFAULT_STDIN_CLOSE_TIMEOUT_MS,
} from './child-shutdown.js';
export type { ShutdownTimeouts } from './child-shutdown.js';
export { PeerNotReadingError, ProcessSpawnError, ServerExitError } from './errors.js';
export { DEFAULT_STDERR_TAIL_BYTES, DEFAULT_STDERR_TAIL_LINES } from './stderr-tail.js';
export {
  DEFAULT_MAX_BUFFERED_BYTES,
  DEFAULT_MAX_QUEUED_BYTES,
  DEFAULT_SEND_STALL_TIMEOUT_MS,
} from './line-writer.js';
export type { LineWriterOptions } from './line-writer.js';
export { STDIO_RESTART_DEFAULTS } from './restart-policy.js';
export type { RestartOptions } from './restart-policy.js';
