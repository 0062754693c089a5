import type { SdkName, TransportName } from '../types.js';

/**
 * The kinds of session W6 holds open: a WebSocket, a legacy Streamable HTTP session with its GET
 * stream, a 2026-07-28 `subscriptions/listen` stream over Streamable HTTP, a gRPC tunnel stream.
 */
export type W6Kind = 'ws' | 'http-get' | 'listen' | 'grpc';

/** What W6 hands one load process (`w6-load.ts`). */
export interface W6LoadSpec {
  sdk: SdkName;
  kind: W6Kind;
  port: number;
  /** Sessions this process opens and holds. */
  sessions: number;
  /** Opens in flight at once in this process. */
  concurrency: number;
}

/** What a load process reports once every session it was given is open (or failed). */
export interface W6LoadReport {
  opened: number;
  errors: number;
  /** The first few errors, for the cell's note. */
  samples: string[];
}

export const W6_LOAD_REPORT_PREFIX = 'OPENED ';

/** The kind of session a W6 cell holds: `w6-listen` is the listen stream, `w6` the transport's own. */
export function w6KindOf(workload: 'w6' | 'w6-listen', transport: TransportName): W6Kind {
  if (workload === 'w6-listen') return 'listen';
  switch (transport) {
    case 'ws':
      return 'ws';
    case 'http-sse':
      return 'http-get';
    case 'grpc':
      return 'grpc';
    default:
      throw new Error(`W6 does not run over ${transport}`);
  }
}
