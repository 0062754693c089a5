import { type ChildProcess, spawn } from 'node:child_process';
import { readFileSync } from 'node:fs';
import { fileURLToPath } from 'node:url';
import {
  isJSONRPCRequest,
  isJSONRPCResponse,
  type JSONRPCMessage,
  type JSONRPCRequest,
  McpError,
  type Transport,
} from '@x/protocol';
import { StdioClientTransport, type StdioClientTransportOptions } from '../src/index.js';

export function fixture(name: string): string {
  return fileURLToPath(new URL(`./fixtures/${name}`, import.meta.url));
}

const live = new Set<{ close(): unknown }>();

/** Registers something to close in `afterEach(cleanup)`. */
export function track<T extends { close(): unknown }>(resource: T): T {
  live.add(resource);
  return resource;
}

export async function cleanup(): Promise<void> {
  const resources = [...live];
  live.clear();
  await Promise.allSettled(resources.map(async (resource) => resource.close()));
}

/** A client transport running `fixtures/<name>` on this Node, tracked for cleanup. */
export function nodeFixture(
  name: string,
  args: string[] = [],
  options: Partial<StdioClientTransportOptions> = {},
): StdioClientTransport {
  return track(
    new StdioClientTransport({
      command: process.execPath,
      args: [fixture(name), ...args],
      stderr: 'ignore',
      ...options,
    }),
  );
}

/** A raw child process (for what the transport under test must not mediate), killed on cleanup. */
export function rawSpawn(name: string, args: string[] = []): ChildProcess {
  const child = spawn(process.execPath, [fixture(name), ...args], { stdio: ['pipe', 'pipe', 'ignore'] });
  track({
    close: () => {
      if (child.exitCode === null && child.signalCode === null) child.kill('SIGKILL');
    },
  });
  return child;
}

/** Minimal request correlation over a raw transport (the engine lives elsewhere). */
export class RpcPeer {
  readonly errors: Error[] = [];
  readonly received: JSONRPCMessage[] = [];
  readonly closed: Promise<void>;
  onrequest: ((request: JSONRPCRequest) => Record<string, unknown>) | undefined;
  readonly #transport: Transport;
  readonly #pending = new Map<
    string | number,
    { resolve(result: unknown): void; reject(error: Error): void }
  >();
  #nextId = 0;

  constructor(transport: Transport) {
    this.#transport = transport;
    transport.onerror = (error) => this.errors.push(error);
    transport.onmessage = (message) => {
      this.received.push(message);
      if (isJSONRPCResponse(message) && message.id !== undefined && message.id !== null) {
        const pending = this.#pending.get(message.id);
        this.#pending.delete(message.id);
        if ('result' in message) pending?.resolve(message.result);
        else pending?.reject(McpError.fromError(message.error));
      } else if (isJSONRPCRequest(message) && this.onrequest !== undefined) {
        void transport.send({ jsonrpc: '2.0', id: message.id, result: this.onrequest(message) });
      }
    };
    this.closed = new Promise((resolve) => {
      transport.onclose = () => {
        for (const pending of this.#pending.values()) pending.reject(new Error('closed'));
        this.#pending.clear();
        resolve();
      };
    });
  }

  request<T = Record<string, unknown>>(method: string, params: Record<string, unknown> = {}): Promise<T> {
    const id = this.#nextId++;
    const result = new Promise<T>((resolve, reject) => {
      this.#pending.set(id, { resolve: resolve as (result: unknown) => void, reject });
    });
    void this.#transport.send({ jsonrpc: '2.0', id, method, params }).catch((error: unknown) => {
      this.#pending.get(id)?.reject(error as Error);
    });
    return result;
  }
}

/**
 * Whether a process has ended. `kill(pid, 0)` also succeeds for a zombie, and an orphaned zombie stays
 * one for good where PID 1 does not reap (containers), so on Linux a `Z` state counts as gone.
 */
export function isProcessGone(pid: number): boolean {
  try {
    process.kill(pid, 0);
  } catch (error) {
    return (error as NodeJS.ErrnoException).code === 'ESRCH';
  }
  if (process.platform !== 'linux') return false;
  try {
    const stat = readFileSync(`/proc/${pid}/stat`, 'utf8');
    return stat.slice(stat.lastIndexOf(')') + 2).startsWith('Z');
  } catch {
    return true;
  }
}

/** Lines a raw child writes on stdout, parsed as JSON as they arrive. */
export function collectJsonLines(child: ChildProcess): unknown[] {
  const lines: unknown[] = [];
  let buffered = '';
  child.stdout?.setEncoding('utf8');
  child.stdout?.on('data', (chunk: string) => {
    buffered += chunk;
    let newline = buffered.indexOf('\n');
    while (newline !== -1) {
      lines.push(JSON.parse(buffered.slice(0, newline)));
      buffered = buffered.slice(newline + 1);
      newline = buffered.indexOf('\n');
    }
  });
  return lines;
}

export function exitOf(child: ChildProcess): Promise<{ code: number | null; signal: NodeJS.Signals | null }> {
  if (child.exitCode !== null || child.signalCode !== null) {
    return Promise.resolve({ code: child.exitCode, signal: child.signalCode });
  }
  return new Promise((resolve) => child.once('exit', (code, signal) => resolve({ code, signal })));
}
