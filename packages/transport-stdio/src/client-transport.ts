import type { ChildProcess } from 'node:child_process';
import { PassThrough, type Readable } from 'node:stream';
import { fileURLToPath } from 'node:url';
import {
  BatchResponses,
  ConnectionClosedError,
  encodeJsonLine,
  ErrorCode,
  type JSONRPCMessage,
  JsonLineDecoder,
  McpError,
  type MessageExtraInfo,
  type Transport,
  type TransportSendOptions,
} from '@x/protocol';
import { deliverMessage } from '@x/protocol/internal';
import { type ShutdownTimeouts, shutDownChild } from './child-shutdown.js';
import { buildEnvironment } from './default-environment.js';
import { ProcessSpawnError } from './errors.js';
import { LineWriter } from './line-writer.js';
import { guardChild, releaseChild } from './orphan-guard.js';

/**
 * How the server process ended: an exit code, or the signal that killed it.
 *
 * @example
 * ```ts
 * transport.onclose = () => {
 *   const { code, signal } = transport.exitInfo ?? { code: null, signal: null };
 *   console.error(`server exited with ${signal ?? code}`);
 * };
 * ```
 */
export interface ExitInfo {
  readonly code: number | null;
  readonly signal: NodeJS.Signals | null;
}

/**
 * Options of `new StdioClientTransport(options)`; only `command` is required.
 *
 * @example
 * ```ts
 * const transport = new StdioClientTransport({
 *   command: 'npx',
 *   args: ['-y', '@modelcontextprotocol/server-everything'],
 *   env: { API_KEY: process.env['API_KEY'] }, // on top of getDefaultEnvironment()
 *   cwd: new URL('./servers/', import.meta.url),
 *   stderr: 'pipe',
 *   sigtermTimeoutMs: 5_000,
 * });
 * ```
 */
export interface StdioClientTransportOptions extends ShutdownTimeouts {
  /** The program to run. Spawned directly, never through a shell: arguments are not re-parsed. */
  command: string;
  args?: readonly string[] | undefined;
  /**
   * Variables set on top of the base environment; `undefined` removes one. The base is a short safe list
   * (`getDefaultEnvironment()`), not the parent's whole environment, unless `inheritEnv` is set.
   */
  env?: Readonly<Record<string, string | undefined>> | undefined;
  /** Start from the parent's entire environment (secrets included) instead of the safe list. */
  inheritEnv?: boolean | undefined;
  cwd?: string | URL | undefined;
  /**
   * Where the server's stderr (its logs) goes: our stderr (`'inherit'`, default), the `stderr` stream of
   * this transport (`'pipe'`; read it, or the server blocks once the pipe fills), or nowhere.
   */
  stderr?: 'inherit' | 'pipe' | 'ignore' | undefined;
  /** Longest line accepted from the server; longer ones are dropped and reported. Default 32 MiB. */
  maxLineBytes?: number | undefined;
  /** Bytes queued for the server before `send()` waits for the pipe to drain. Default 4 MiB. */
  maxBufferedBytes?: number | undefined;
  /**
   * Signal sent to a still-running server when this process exits without closing the transport;
   * `false` disables the hook. Default `'SIGTERM'`.
   */
  parentExitSignal?: NodeJS.Signals | false | undefined;
  /** Most messages one 2025-03-26 batch from the server may hold; larger ones get -32600. Default 1000. */
  maxBatchSize?: number | undefined;
}

type State = 'new' | 'starting' | 'open' | 'closed';

/**
 * The client side of stdio: spawns the server and speaks newline-delimited JSON-RPC over its stdin and
 * stdout. `close()` follows the spec's shutdown (close stdin → wait → `SIGTERM` → wait → `SIGKILL`) and
 * resolves once the process is gone; an exit of the server on its own fires `onclose` too, with the
 * reason in `exitInfo`.
 *
 * The client MUST support receiving JSON-RPC batches on 2025-03-26 (basic: "MUST support receiving
 * JSON-RPC batches"): once that version is negotiated (`setProtocolVersion`), a line holding an array
 * is delivered message by message and the answers to the server requests in it go back as one array
 * line. On any other version a batch is refused with one -32600 line (id null).
 *
 * @example
 * ```ts
 * const transport = new StdioClientTransport({ command: 'node', args: ['server.js'], stderr: 'pipe' });
 * transport.stderr?.on('data', (chunk) => log(String(chunk)));
 * await client.connect(transport);
 * // …
 * await transport.close();
 * console.log(transport.exitInfo); // { code: 0, signal: null }
 * ```
 */
export class StdioClientTransport implements Transport {
  readonly #options: StdioClientTransportOptions;
  readonly #decoder: JsonLineDecoder;
  readonly #stderr: PassThrough | undefined;
  #state: State = 'new';
  #starting: Promise<void> | undefined;
  #child: ChildProcess | undefined;
  #writer: LineWriter | undefined;
  #exitInfo: ExitInfo | undefined;
  #exited: Promise<void> | undefined;
  #closing: Promise<void> | undefined;
  #closed: Promise<void> | undefined;
  #resolveClosed: (() => void) | undefined;
  #protocolVersion: string | undefined;
  readonly #batches = new BatchResponses({ write: (responses) => this.#writeLine(responses) });

  onmessage?: ((message: JSONRPCMessage, extra?: MessageExtraInfo) => void) | undefined;
  onerror?: ((error: Error) => void) | undefined;
  onclose?: (() => void) | undefined;

  constructor(options: StdioClientTransportOptions) {
    this.#options = options;
    this.#decoder = new JsonLineDecoder(
      {
        onmessage: (message) => this.#deliver(message),
        onerror: (error) => this.#report(error),
        onbatch: (values) => this.#onBatch(values),
      },
      { maxLineBytes: options.maxLineBytes },
    );
    // Created up front so listeners can be attached before `start()` and miss nothing.
    if (options.stderr === 'pipe') this.#stderr = new PassThrough();
  }

  /** The server's stderr when `stderr: 'pipe'` was asked for, else `null`. */
  get stderr(): Readable | null {
    return this.#stderr ?? null;
  }

  /** The server's process id once started. */
  get pid(): number | undefined {
    return this.#child?.pid;
  }

  /** How the server process ended; `undefined` while it runs (or before it started). */
  get exitInfo(): ExitInfo | undefined {
    return this.#exitInfo;
  }

  /** Spawns the server. Rejects with `ProcessSpawnError` when it cannot be started. */
  start(): Promise<void> {
    if (this.#state !== 'new') return Promise.reject(new Error('StdioClientTransport already started'));
    this.#state = 'starting';
    this.#starting = this.#spawn();
    return this.#starting;
  }

  async #spawn(): Promise<void> {
    const { command, cwd } = this.#options;
    const cwdText = cwd instanceof URL ? fileURLToPath(cwd) : cwd;
    // Loaded here, not at the top: a stdio server (which imports this package too) never needs it,
    // and node:child_process costs ~1.5 MiB of RSS to load.
    const { spawn } = await import('node:child_process');
    let child: ChildProcess;
    try {
      child = spawn(command, this.#options.args ?? [], {
        env: buildEnvironment(this.#options.env, this.#options.inheritEnv === true),
        cwd,
        stdio: ['pipe', 'pipe', this.#options.stderr ?? 'inherit'],
        shell: false,
        windowsHide: true,
      });
    } catch (error) {
      this.#state = 'closed';
      throw new ProcessSpawnError(command, error, cwdText);
    }
    this.#child = child;
    try {
      await new Promise<void>((resolve, reject) => {
        child.once('spawn', resolve);
        child.once('error', reject);
      });
    } catch (error) {
      this.#state = 'closed';
      this.#child = undefined;
      child.stdin?.destroy();
      child.stdout?.destroy();
      child.stderr?.destroy();
      this.#stderr?.end();
      throw new ProcessSpawnError(command, error, cwdText);
    }
    this.#attach(child);
    this.#state = 'open';
  }

  send(message: JSONRPCMessage, _options?: TransportSendOptions): Promise<void> {
    const held = this.#batches.take(message);
    if (held !== undefined) return held;
    return this.#writeLine(message);
  }

  /** The negotiated version: batches from the server are accepted only on 2025-03-26. */
  setProtocolVersion(version: string): void {
    this.#protocolVersion = version;
  }

  #writeLine(payload: JSONRPCMessage | readonly JSONRPCMessage[]): Promise<void> {
    if (this.#state !== 'open' || this.#writer === undefined) {
      return Promise.reject(new ConnectionClosedError('StdioClientTransport is not open'));
    }
    let line: string;
    try {
      line = encodeJsonLine(payload);
    } catch (error) {
      // Unencodable (a BigInt, a cycle): that message fails, the connection does not.
      return Promise.reject(error);
    }
    return this.#writer.write(line);
  }

  /** Shuts the server down (see the class notes) and resolves when it is gone. Idempotent. */
  close(): Promise<void> {
    this.#closing ??= this.#close();
    return this.#closing;
  }

  [Symbol.asyncDispose](): Promise<void> {
    return this.close();
  }

  async #close(): Promise<void> {
    this.#batches.clear();
    // A close racing `start()` shuts down whatever the start produced.
    await this.#starting?.catch(() => undefined);
    const child = this.#child;
    if (child === undefined || this.#closed === undefined || this.#exited === undefined) {
      // Never started, or failed to: nothing to shut down.
      this.#state = 'closed';
      this.onclose?.();
      return;
    }
    if (this.#exitInfo === undefined) await shutDownChild(child, this.#exited, this.#options);
    await this.#closed;
  }

  #attach(child: ChildProcess): void {
    const stdin = child.stdin!;
    const stdout = child.stdout!;
    this.#writer = new LineWriter(stdin, this.#options.maxBufferedBytes);
    this.#closed = new Promise((resolve) => {
      this.#resolveClosed = resolve;
    });
    this.#exited = new Promise((resolve) => {
      child.once('exit', (code, signal) => {
        this.#exitInfo = { code, signal };
        resolve();
        // A grandchild that inherited the server's stdout can hold the pipe open forever; 'close' waits
        // for every pipe, so stop waiting a moment after the server itself is gone.
        const timer = setTimeout(() => {
          stdout.destroy();
          child.stderr?.destroy();
        }, 500);
        timer.unref();
        child.once('close', () => clearTimeout(timer));
      });
    });
    child.once('close', () => this.#onChildClose(child));
    child.on('error', (error) => this.#report(error));
    stdout.on('data', (chunk: Buffer) => this.#decoder.push(chunk));
    stdout.on('error', (error) => this.#report(error));
    // EPIPE once the server has exited is expected; the exit itself is reported through `onclose`.
    stdin.on('error', (error) => {
      this.#writer?.fail(new ConnectionClosedError('Server stdin closed', { cause: error }));
      if (this.#exitInfo === undefined && this.#closing === undefined) this.#report(error);
    });
    if (this.#stderr !== undefined) child.stderr?.pipe(this.#stderr);
    const signal = this.#options.parentExitSignal ?? 'SIGTERM';
    if (signal !== false) guardChild(child, signal);
  }

  #onChildClose(child: ChildProcess): void {
    releaseChild(child);
    this.#batches.clear();
    if (this.#decoder.reset()) {
      this.#report(
        new McpError(ErrorCode.ConnectionClosed, 'Server output ended in the middle of a message'),
      );
    }
    const exit = this.#exitInfo;
    const reason = exit === undefined ? 'closed' : describeExit(exit);
    this.#writer?.fail(new ConnectionClosedError(`Server process ${reason}`));
    this.#state = 'closed';
    this.#resolveClosed?.();
    this.onclose?.();
  }

  #deliver(message: JSONRPCMessage): void {
    // Once close() was called nothing more is delivered, even from the chunk being decoded.
    if (this.#closing !== undefined) return;
    // A throwing handler must not cut off the rest of the chunk being decoded.
    deliverMessage(this, message, undefined, this.#report);
  }

  #onBatch(values: unknown[]): void {
    if (this.#closing !== undefined) return;
    this.#batches.receive(values, {
      protocolVersion: this.#protocolVersion,
      maxBatchSize: this.#options.maxBatchSize,
      deliver: (message) => this.#deliver(message),
      refuse: (error) => this.#writeLine(error),
      onerror: (error) => this.#report(error),
    });
  }

  readonly #report = (error: unknown): void => {
    try {
      this.onerror?.(error instanceof Error ? error : new Error(String(error)));
    } catch {
      // `onerror` must never throw into the stream machinery.
    }
  };
}

function describeExit(exit: ExitInfo): string {
  return exit.signal !== null ? `killed by ${exit.signal}` : `exited with code ${exit.code}`;
}
