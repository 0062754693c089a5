import type { BenchSession, ServerTarget } from '../adapters/types.js';
import type { LoopDelay } from '../control/loop-delay.js';
import type { ProcessStats } from '../control/process-stats.js';
import type { Counts, SdkName, TransportName } from '../types.js';

/** What a workload gets from its cell: a way to connect, and the server's stats. */
export interface WorkloadContext {
  transport: TransportName;
  sdk: SdkName;
  counts: Counts;
  /** The client has no handshake (2026-07-28 era): W4 times connect + first request instead. */
  handshakeFree: boolean;
  connect(): Promise<BenchSession>;
  /** Where a separate client process finds the server (W7); undefined in-memory. */
  target: ServerTarget | undefined;
  /** Server process stats; undefined for in-memory (this process is the server). */
  serverStats(collect: boolean): Promise<ProcessStats | undefined>;
  /** Records something that went wrong without failing the cell; the report shows it under the table. */
  warn(text: string): void;
  /** The server process's event-loop delay monitor (W6); undefined in-memory. */
  loopDelay: { start(): Promise<void>; stop(): Promise<LoopDelay> } | undefined;
}
