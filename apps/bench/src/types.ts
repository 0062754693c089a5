/**
 * The implementations a run can compare. `x-mcp-modern` (x-mcp on the 2026-07-28 era: no handshake,
 * `_meta` on every request, stateless HTTP) is opt-in (`--sdks`), so the default run stays the issue's.
 */
export const SDKS = ['raw', 'x-mcp', 'v1', 'v2', 'x-mcp-modern'] as const;
export type SdkName = (typeof SDKS)[number];
export const DEFAULT_SDKS: readonly SdkName[] = ['raw', 'x-mcp', 'v1', 'v2'];

/** Client and server are separate processes on every transport but `in-memory`. */
export const TRANSPORTS = [
  'in-memory',
  'stdio',
  'http-sse',
  'http-json',
  'legacy-sse',
  'ws',
  'grpc',
] as const;
export type TransportName = (typeof TRANSPORTS)[number];

/**
 * The five workloads, then W1 and W2 once more after a long warm-up (`-warm`, raw and x-mcp
 * only, not in the targets): the same window, measured after the JIT has settled; then W1 with client
 * and server pinned to CPUs (`w1-split`: a core each, `w1-shared`: one core for both; stdio and
 * WebSocket, not in the targets), which the scheduler's placement cannot move from run to run.
 * `w6` (issue #40): many sessions held open at once by client load in separate processes (WebSocket,
 * Streamable HTTP with its GET stream, gRPC); `w6-listen` the same with 2026-07-28 `subscriptions/listen`
 * streams over Streamable HTTP. `w7` (issue #40): short sessions, each a fresh client process timed
 * from spawn to exit.
 */
export const WORKLOADS = [
  'w1',
  'w2',
  'w3',
  'w4',
  'w5',
  'w1-warm',
  'w2-warm',
  'w1-split',
  'w1-shared',
  'w6',
  'w6-listen',
  'w7',
] as const;
export type WorkloadName = (typeof WORKLOADS)[number];

/** Transports that have sessions a server keeps per client (W5 runs only there). */
export const SESSION_TRANSPORTS: readonly TransportName[] = [
  'http-sse',
  'http-json',
  'legacy-sse',
  'ws',
  'grpc',
];

/** Iteration counts of one run; `--smoke` shrinks them to seconds. */
export interface Counts {
  w1Warmup: number;
  w1Calls: number;
  w2Warmup: number;
  w2Calls: number;
  w2InFlight: number;
  /** Calls before the window of `w1-warm` / `w2-warm` (instead of W1's and W2's warm-up). */
  longWarmup: number;
  w3Warmup: number;
  w3Calls: number;
  w4Connects: number;
  /** Spawning a process per connect is ~100× slower than a socket: stdio W4 gets its own count. */
  w4StdioConnects: number;
  w5Sessions: number;
  w5CallsPerSession: number;
  /** W6: sessions held open at once (over all load processes). */
  w6Sessions: number;
  /** W6: client load processes that open the sessions, each `w6Sessions / w6LoadProcesses`. */
  w6LoadProcesses: number;
  /** W6: sequential echo calls of the probe client while every session is open (p50 / p99 of these). */
  w6ProbeCalls: number;
  /** W6: repetitions that run W6 (its cells are long; later repetitions skip them). */
  w6Repetitions: number;
  /** W7: sequential calls each short-session client process makes. */
  w7Calls: number;
  /** W7: short-session client processes timed per cell (after one untimed, which warms the file cache). */
  w7Sessions: number;
  coldStarts: number;
}

/** What the orchestrator hands one cell process. */
export interface CellSpec {
  workload: WorkloadName;
  transport: TransportName;
  sdk: SdkName;
  counts: Counts;
}

/** Every figure a cell can report; each workload fills the ones it measures. */
export interface Metrics {
  callsPerSec?: number;
  p50Ms?: number;
  p99Ms?: number;
  mibPerSec?: number;
  connectsPerSec?: number;
  /** Client + server CPU time (user + system) per call, microseconds. */
  cpuPerCallUs?: number;
  /** Server process peak RSS (`resourceUsage().maxRSS`), MiB; client + server for in-memory. */
  serverPeakRssMiB?: number;
  /**
   * Memory V8 has committed to the server's young generation (both semi-spaces) at the end of the
   * window, MiB. V8 doubles it as objects survive scavenges and keeps it; once used it is resident.
   */
  serverYoungGenMiB?: number;
  /** Server RSS growth per open session after `gc()`, KiB. */
  rssPerSessionKiB?: number;
  /** Server heap growth per open session after `gc()`, KiB (less noisy than RSS). */
  heapPerSessionKiB?: number;
  /** W6: sessions the load processes held open (should be `w6Sessions`). */
  sessionsOpen?: number;
  /** W6: sessions that failed to open (or whose stream never opened). */
  sessionErrors?: number;
  /** W6: seconds from starting the load processes until every session was open. */
  openSeconds?: number;
  /**
   * W6: the server's longest event-loop stall while the sessions connected, ms: the largest delay
   * `monitorEventLoopDelay` saw, less its sampling interval.
   */
  loopStallMs?: number;
  /**
   * W7: wall time of a short-session client process, from its spawn to its exit (over stdio that
   * includes spawning the server), ms; median of the cell's sessions.
   */
  sessionWallMs?: number;
  /** W7: from the client process's spawn to the first `tools/call` answer it gets, ms. */
  firstCallMs?: number;
  /** W7: the client process's own CPU time (user + system), ms; the server's is not in it. */
  clientCpuMs?: number;
}
export type MetricName = keyof Metrics;

export interface CellResult {
  spec: Omit<CellSpec, 'counts'>;
  metrics: Metrics;
  /** What went wrong without failing the cell (e.g. W6 sessions that did not open); shown under its table. */
  warnings?: string[];
}

/** A cell that cannot run for a stated reason (e.g. the SDK has no such transport). */
export interface Unsupported {
  reason: string;
}
