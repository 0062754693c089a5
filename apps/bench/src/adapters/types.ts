import type { SdkName, TransportName } from '../types.js';

/** One connected client, driven by the workloads. */
export interface BenchSession {
  /** `tools/call` of the echo tool; rejects unless the echo came back. */
  echo(): Promise<void>;
  /** `tools/call` of the 1 MiB tool; resolves with the length of the text received. */
  big(): Promise<number>;
  close(): Promise<void>;
}

/** Where a client finds its server. */
export interface ServerTarget {
  transport: TransportName;
  /** Port of the server process (socket transports). */
  port?: number | undefined;
  /** How to spawn the server (stdio). */
  command?: { command: string; args: string[] } | undefined;
}

export type ConnectFn = (target: ServerTarget) => Promise<BenchSession>;

/** A running server inside the server process (or the cell process for in-memory). */
export interface ServerHandle {
  port?: number | undefined;
  close(): Promise<void>;
}

/** In-memory: server and client in one process, joined by the SDK's own in-process pair. */
export type InMemoryFactory = () => Promise<{
  connect: () => Promise<BenchSession>;
  close: () => Promise<void>;
}>;

export interface SdkAdapter {
  sdk: SdkName;
  inMemory: InMemoryFactory;
  connect: ConnectFn;
}

/**
 * Starts the server for a socket transport, or runs the stdio server on this process's stdio. Kept apart
 * from the client side so a server process never loads client code.
 */
export type ServeFn = (
  transport: Exclude<TransportName, 'in-memory'>,
  options?: ServeOptions,
) => Promise<ServerHandle>;

/** What a workload tells the server before it starts. */
export interface ServeOptions {
  /**
   * Sessions the workload will hold open at once (W6). A server whose defaults would refuse that many
   * (x-mcp: `maxSessions`, `maxListenStreams`, the per-caller session rate limit) raises them to fit.
   */
  sessions?: number | undefined;
}
