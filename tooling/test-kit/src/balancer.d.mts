/** A round-robin HTTP balancer for tests and demos: no stickiness, streams piped both ways. */
export interface Balancer extends AsyncDisposable {
  /** `http://127.0.0.1:<port>/mcp`. */
  url: string;
  /**
   * One entry per request, in arrival order: the backend port it went to (the last one tried), its
   * method and session id, and how many draining backends (503 + Retry-After) passed it on.
   */
  served: Array<{ port: number; method: string; session: string | undefined; retried?: number }>;
  close(): Promise<void>;
}

/**
 * Sends request n to backend n mod count (like any balancer without session affinity), skipping a
 * backend that refuses the connection (a killed process) or answers 503 with `Retry-After` (draining).
 *
 * @example
 * await using balancer = await startBalancer(() => nodes.map((node) => node.port));
 * const transport = new StreamableHttpClientTransport(new URL(balancer.url));
 */
export function startBalancer(ports: () => readonly number[]): Promise<Balancer>;
