import type { ServerTarget } from './adapters/types.js';
import type { SdkName } from './types.js';

/** What W7 hands one short-session client process (`short-session.ts`). */
export interface ShortSessionSpec {
  sdk: SdkName;
  target: ServerTarget;
  calls: number;
  /** The parent's wall clock (`performance.timeOrigin + performance.now()`) just before the spawn. */
  spawnedAt: number;
}

/** What the process reports; the parent times the whole process itself. */
export interface ShortSessionResult {
  /** From the spawn to the first `tools/call` answer, ms (wall clock, same host). */
  firstCallMs: number;
  /** This process's user + system CPU at the end, ms. */
  cpuMs: number;
}

export const SHORT_SESSION_RESULT_PREFIX = 'RESULT ';
