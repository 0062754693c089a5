import { createServer, type Server, type Socket } from 'node:net';
import { onJsonLines, writeJsonLine } from './line-socket.js';
import type { LoopDelay } from './loop-delay.js';
import type { ProcessStats } from './process-stats.js';

/** What a server process says once it listens. */
export interface ReadyMessage {
  type: 'ready';
  port?: number;
}

interface StatsMessage extends ProcessStats {
  type: 'stats';
}

interface LoopMessage extends Partial<LoopDelay> {
  type: 'loop';
}

/**
 * The cell's end of the side channel: the server process connects here (port passed in its argv),
 * reports its listening port, and answers stats requests. When this closes, the server exits.
 */
export class ControlServer {
  readonly #server: Server;
  #socket: Socket | undefined;
  #ready: Promise<ReadyMessage>;
  /** Answers come in the order of the requests, whatever their kind. */
  #waiters: Array<(answer: StatsMessage | LoopMessage) => void> = [];

  private constructor() {
    this.#server = createServer();
    this.#ready = new Promise((resolve, reject) => {
      this.#server.once('connection', (socket) => {
        this.#socket = socket;
        socket.on('error', () => {});
        onJsonLines(socket, (message) => {
          const typed = message as ReadyMessage | StatsMessage | LoopMessage;
          if (typed.type === 'ready') resolve(typed);
          else this.#waiters.shift()?.(typed);
        });
      });
      this.#server.once('error', reject);
    });
  }

  static async listen(): Promise<ControlServer> {
    const control = new ControlServer();
    await new Promise<void>((resolve) => control.#server.listen(0, '127.0.0.1', resolve));
    return control;
  }

  get port(): number {
    const address = this.#server.address();
    if (address === null || typeof address === 'string') throw new Error('control server not listening');
    return address.port;
  }

  /** Resolves when the server process is up (and listening, for socket transports). */
  ready(timeoutMs: number): Promise<ReadyMessage> {
    return withTimeout(this.#ready, timeoutMs, 'server process did not report ready');
  }

  /** The server's stats; with `collect`, after full GCs (which then cost CPU: not inside a CPU window). */
  stats(collect: boolean): Promise<ProcessStats> {
    return this.#ask({ type: 'stats', collect }) as Promise<StatsMessage>;
  }

  /** Switches the server's event-loop delay monitor on (W6, before its sessions connect). */
  async startLoopDelay(): Promise<void> {
    await this.#ask({ type: 'loop-start' });
  }

  /** Switches it off: what it saw since `startLoopDelay`. */
  async stopLoopDelay(): Promise<LoopDelay> {
    const { stallMs = 0, p99Ms = 0, samples = 0 } = (await this.#ask({ type: 'loop-stop' })) as LoopMessage;
    return { stallMs, p99Ms, samples };
  }

  #ask(request: object): Promise<StatsMessage | LoopMessage> {
    const socket = this.#socket;
    if (socket === undefined) return Promise.reject(new Error('server process not connected'));
    const answer = new Promise<StatsMessage | LoopMessage>((resolve) => this.#waiters.push(resolve));
    writeJsonLine(socket, request);
    return withTimeout(answer, 30_000, 'server process did not answer the side channel');
  }

  close(): void {
    this.#socket?.destroy();
    this.#server.close();
  }
}

function withTimeout<T>(promise: Promise<T>, ms: number, message: string): Promise<T> {
  let timer: NodeJS.Timeout | undefined;
  const timeout = new Promise<never>((_, reject) => {
    timer = setTimeout(() => reject(new Error(message)), ms);
  });
  return Promise.race([promise, timeout]).finally(() => clearTimeout(timer));
}
