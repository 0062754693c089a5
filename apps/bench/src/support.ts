import type { SdkName, TransportName, WorkloadName } from './types.js';
import { SESSION_TRANSPORTS } from './types.js';
import { pinningOf } from './pinning.js';

/** Cells that cannot run, with the reason the report prints. */
const MISSING: Partial<Record<SdkName, Partial<Record<TransportName, string>>>> = {
  v1: { grpc: 'v1 ships no gRPC transport' },
  v2: { 'legacy-sse': 'v2 ships no legacy HTTP+SSE server transport', grpc: 'v2 ships no gRPC transport' },
  'x-mcp-modern': { 'legacy-sse': 'legacy HTTP+SSE carries only the 2024-11-05 era' },
};

/**
 * W6 measures each SDK's shipped server transports: the official SDKs' WebSocket servers (W1–W5 run
 * them over a 30-line `ws` adapter of the bench's) do not exist, nor does their 2026-07-28 era.
 */
const W6_MISSING: Partial<Record<SdkName, Partial<Record<'w6' | 'w6-listen', string>>>> = {
  v1: {
    w6: 'v1 ships no WebSocket server transport',
    'w6-listen': 'v1 has no 2026-07-28 `subscriptions/listen`',
  },
  v2: {
    w6: 'v2 ships no WebSocket server transport',
    'w6-listen': 'v2 has no 2026-07-28 `subscriptions/listen`',
  },
};

export function unsupportedReason(
  sdk: SdkName,
  transport: TransportName,
  workload?: WorkloadName,
): string | undefined {
  const missing = MISSING[sdk]?.[transport];
  if (missing !== undefined || workload === undefined || !isW6(workload)) return missing;
  if (workload === 'w6' && transport !== 'ws') return undefined;
  return W6_MISSING[sdk]?.[workload];
}

/** W6's workloads: many sessions held open at once (`w6`), or listen streams (`w6-listen`). */
export function isW6(workload: WorkloadName): workload is 'w6' | 'w6-listen' {
  return workload === 'w6' || workload === 'w6-listen';
}

/** The transports of W6 (issue #40 §4): WebSocket, Streamable HTTP with its GET stream, gRPC. */
const W6_TRANSPORTS: readonly TransportName[] = ['http-sse', 'ws', 'grpc'];

/** The transports of the pinned W1 runs: the two whose sequential calls take ~0.1 ms or less. */
const PINNED_TRANSPORTS: readonly TransportName[] = ['stdio', 'ws'];

/**
 * W5 measures per-session memory, which only socket transports with sessions have; the pinned W1 runs
 * are for the transports whose sequential calls move most with core placement.
 */
export function workloadApplies(workload: WorkloadName, transport: TransportName): boolean {
  if (pinningOf(workload) !== undefined) return PINNED_TRANSPORTS.includes(transport);
  // W7 times separate client processes: an in-process pair has no process to start.
  if (workload === 'w7') return transport !== 'in-memory';
  if (workload === 'w6') return W6_TRANSPORTS.includes(transport);
  // Listen streams are Streamable HTTP's (2026-07-28); the SSE-answering endpoint serves them.
  if (workload === 'w6-listen') return transport === 'http-sse';
  return workload !== 'w5' || SESSION_TRANSPORTS.includes(transport);
}

/** The long warm-up runs compare x-mcp with raw only (they are not in the targets). */
export function sdkRuns(workload: WorkloadName, sdk: SdkName): boolean {
  // W6's x-mcp server serves both eras; its listen streams are the 2026-07-28 client's already.
  if (isW6(workload)) return sdk !== 'x-mcp-modern';
  return !isWarmRun(workload) || sdk === 'raw' || sdk === 'x-mcp' || sdk === 'x-mcp-modern';
}

export function isWarmRun(workload: WorkloadName): boolean {
  return workload === 'w1-warm' || workload === 'w2-warm';
}

/** Notes printed under the tables: where a column is not the SDK's own code end to end. */
export const METHOD_NOTES: readonly string[] = [
  'WebSocket, v1 and v2: neither official SDK ships a WebSocket server transport (v2 none at all), so their `McpServer` runs over a 30-line `ws` transport (`src/adapters/plain-ws-transport.ts`); the v1 client uses its own `WebSocketClientTransport`, the v2 client the same 30-line transport.',
  'Legacy SSE, v2: v2 has only the client side; no cell.',
  'v1 and v2 servers follow their documented pattern of one `McpServer` + transport per session; x-mcp serves every session from one `McpServer`.',
  'In-memory W3: raw and the SDK pairs hand over object references, so MiB/s there measures per-call overhead, not bytes moved.',
  "Counts: W1, W4 (socket transports) and W5 are the issue's; W2 (2,000 calls), W3 (20 × 1 MiB), stdio W4 (10 spawns) and cold start (3 per repetition) are scaled so three repetitions fit in about ten minutes on two cores.",
  'W1 warm / W2 warm: the W1 and W2 windows measured after 15,000 warm-up calls instead of 300 / 320, raw and x-mcp only. The gap between a row there and the same row in W1 / W2 is JIT warm-up (V8 compiling the hot paths of both processes while the window runs, on two cores), not steady-state cost.',
  "W1 split / W1 shared (stdio and WebSocket): the W1 window with the client and server processes pinned (`taskset`), each to a core of its own or both to one core. Unpinned, a sequential call there takes ~0.05 ms when the scheduler keeps the two processes on one core and ~0.1 ms when every call wakes the other core, and which one a run gets moves its W1 row by up to 2×, for raw and every SDK; pinned rows do not move with placement. Split shows the cross-core wake-ups every call pays on a host with more cores; shared adds up both processes' CPU time per call.",
  "Young gen (W2, W5): the memory V8 has committed to the server's young generation (its two semi-spaces) at the end of the window. V8 doubles the semi-spaces, up to 16 MiB each, whenever the bytes that survived scavenges since the last doubling exceed their size, counting from start-up, and keeps them; once used they are resident. Importing zod alone doubles them twice, so a server built on zod schemas runs with a larger young generation than the raw server, and its peak RSS follows.",
  "W6 (many sessions, issue #40): one server process holds the sessions that client load processes (`dist/w6-load.js`, each the SDK's own client) open all at once: WebSockets, legacy Streamable HTTP sessions each with its GET stream (`http-sse`), gRPC tunnel streams, and (W6 listen) 2026-07-28 `subscriptions/listen` streams over Streamable HTTP. The server's event loop is watched with `monitorEventLoopDelay` (1 ms samples) from the start of the load until the last session is open; RSS and heap per session are read after `gc()` with all open; p50 / p99 are of sequential echo calls from a probe session opened before the load. x-mcp's WebSocket, gRPC and Streamable HTTP servers get `maxSessions` (and `maxListenStreams`) raised to the count and the per-caller rate limit off. The official SDKs ship no WebSocket server and no 2026-07-28 era, so they have only the `http-sse` row. W6 runs in the first repetition only.",
  'W7 (short sessions): each session is a fresh client process (`dist/short-session.js`) that connects, makes the calls one after another and closes; wall time is from its spawn to its exit, as the cell process sees it. Over stdio the client spawns the server (so it is in the time); over the network transports the server is already running. First call is from the spawn to the first `tools/call` answer. The target is judged on wall time.',
  'Every client speaks the legacy era (`initialize` handshake, newest 2025 revision): the official clients default to it, x-mcp is pinned to it so all columns move the same messages.',
];
