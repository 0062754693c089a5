import type { ServeOptions } from '../types.js';

/**
 * Sessions beyond the workload's own a W6 server admits: the probe client's session and a few
 * reconnects. Only a workload that says how many sessions it holds (W6) changes a limit at all.
 */
export const SESSION_LIMIT_HEADROOM = 100;

/** The `maxSessions` (and `maxListenStreams`) a workload needs, or undefined to keep the default. */
export function sessionLimit(options: ServeOptions): number | undefined {
  return options.sessions === undefined ? undefined : options.sessions + SESSION_LIMIT_HEADROOM;
}
