import type { SdkName, TransportName, WorkloadName } from './types.js';
import { SESSION_TRANSPORTS } from './types.js';

/** Cells that cannot run, with the reason the report prints. */
const MISSING: Partial<Record<SdkName, Partial<Record<TransportName, string>>>> = {
  v2: { 'legacy-sse': 'v2 ships no legacy HTTP+SSE server transport' },
  'x-mcp-modern': { 'legacy-sse': 'legacy HTTP+SSE carries only the 2024-11-05 era' },
};

export function unsupportedReason(sdk: SdkName, transport: TransportName): string | undefined {
  return MISSING[sdk]?.[transport];
}

/** W5 measures per-session memory, which only socket transports with sessions have. */
export function workloadApplies(workload: WorkloadName, transport: TransportName): boolean {
  return workload !== 'w5' || SESSION_TRANSPORTS.includes(transport);
}

/** The long warm-up runs compare x-mcp with raw only (they are not in the targets). */
export function sdkRuns(workload: WorkloadName, sdk: SdkName): boolean {
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
  "Young gen (W2, W5): the memory V8 has committed to the server's young generation (its two semi-spaces) at the end of the window. V8 doubles the semi-spaces, up to 16 MiB each, whenever the bytes that survived scavenges since the last doubling exceed their size, counting from start-up, and keeps them; once used they are resident. Importing zod alone doubles them twice, so a server built on zod schemas runs with a larger young generation than the raw server, and its peak RSS follows.",
  'Every client speaks the legacy era (`initialize` handshake, newest 2025 revision): the official clients default to it, x-mcp is pinned to it so all columns move the same messages.',
];
