import type { ChildProcess } from 'node:child_process';
import { PassThrough, type Readable } from 'node:stream';
import { fileURLToPath } from 'node:url';
import {
  BatchResponses,
  ConnectionClosedError,
  encodeJsonLine,
  ErrorCode,
  isJSONRPCRequest,
  isJSONRPCResponse,
  type JSONRPCMessage,
  JsonLineDecoder,
  McpError,
  MessageTooLargeError,
  type MessageExtraInfo,
  type Transport,
  type TransportSendOptions,
} from '@x/protocol/core';
import { deliverMessage, renamedOption } from '@x/protocol/transport';
import { type ShutdownTimeouts, shutDownChild, terminateChild } from './child-shutdown.js';
import { buildEnvironment } from './default-environment.js';
import { ProcessSpawnError, ServerExitError } from './errors.js';
import { LineWriter } from './line-writer.js';
import { type RestartOptions, RestartPolicy } from './restart-policy.js';
import { guardChild, releaseChild } from './orphan-guard.js';
import { DEFAULT_STDERR_TAIL_BYTES, DEFAULT_STDERR_TAIL_LINES, StderrTail } from './stderr-tail.js';

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
   * With `'inherit'` the output is relayed through this process (so its last lines can be kept for
   * `ServerExitError`) unless `stderrTailLines` is 0, which hands the server our stderr itself.
   */
  stderr?: 'inherit' | 'pipe' | 'ignore' | undefined;
  /**
   * How many of the server's last stderr lines `ServerExitError` quotes when the server exits on its own.
   * Default `DEFAULT_STDERR_TAIL_LINES` (10); 0 keeps none. Not kept with `stderr: 'ignore'`.
   *
   * @default {@link DEFAULT_STDERR_TAIL_LINES}
   */
  stderrTailLines?: number | undefined;
  /**
   * Bytes of the server's stderr kept for those lines. Default `DEFAULT_STDERR_TAIL_BYTES` (4 KiB).
   *
   * @default {@link DEFAULT_STDERR_TAIL_BYTES}
   */
  stderrTailBytes?: number | undefined;
  /**
   * Longest line accepted from the server; longer ones are dropped and reported (-32600 naming
   * `maxMessageBytes`). Default `DEFAULT_MAX_LINE_BYTES` (8 MiB).
   *
   * @default {@link DEFAULT_MAX_LINE_BYTES}
   */
  maxMessageBytes?: number | undefined;
  /**
   * Longest line accepted from the server.
   *
   * @deprecated Use `maxMessageBytes`, the name of this limit on every transport; `maxMessageBytes`
   * wins when both are given. This alias goes in the next minor version.
   */
  maxLineBytes?: number | undefined;
  /**
   * Deepest JSON nesting accepted in a line from the server; deeper ones are dropped and reported
   * (-32700 naming `maxNestingDepth`) before `JSON.parse` builds them. Default 128.
   *
   * @default {@link DEFAULT_MAX_NESTING_DEPTH}
   */
  maxNestingDepth?: number | undefined;
  /**
   * Bytes queued for the server before `send()` waits for the pipe to drain. Default 8 MiB.
   *
   * @default {@link DEFAULT_MAX_BUFFERED_BYTES}
   */
  maxBufferedBytes?: number | undefined;
  /**
   * Bytes that may wait beyond `maxBufferedBytes` for a server that does not read its stdin; past them
   * the server counts as not reading: `onerror` gets `PeerNotReadingError`, the transport closes (the
   * server is shut down) and pending requests fail at once. Default 32 MiB (`DEFAULT_MAX_QUEUED_BYTES`).
   *
   * @default {@link DEFAULT_MAX_QUEUED_BYTES}
   */
  maxQueuedBytes?: number | undefined;
  /**
   * How long sends may wait for the server's stdin with no message leaving before the server counts as
   * not reading (as above). 0 disables. Default 30 s (`DEFAULT_SEND_STALL_TIMEOUT_MS`).
   *
   * @default {@link DEFAULT_SEND_STALL_TIMEOUT_MS}
   */
  sendStallTimeoutMs?: number | undefined;
  /**
   * Signal sent to a still-running server when this process exits without closing the transport;
   * `false` disables the hook. Default `'SIGTERM'`.
   *
   * @default 'SIGTERM'
   */
  parentExitSignal?: NodeJS.Signals | false | undefined;
  /**
   * Most messages one 2025-03-26 batch from the server may hold; larger ones get -32600. Default 1000.
   *
   * @default {@link DEFAULT_MAX_BATCH_SIZE}
   */
  maxBatchSize?: number | undefined;
  /**
   * Restart the server when it crashes (exits with a non-zero code or is killed; an exit with code 0 is
   * the server ending the session). `true`: `STDIO_RESTART_DEFAULTS` (5 restarts a minute, 100 ms
   * doubling to 5 s, jitter 0.5); an object overrides fields. Each crash goes to `onerror` as a
   * `ServerExitError` (exit code or signal, last stderr lines); requests in flight are rejected with a
   * `TransportLostError` (`transport: 'stdio'`, `data`: exit code, signal, last stderr lines, `cause`:
   * the `ServerExitError`) that a client retry policy may repeat; messages sent
   * meanwhile wait for the new process and its `onreconnect` (fired once it runs; a promise it returns,
   * the client's new handshake, is awaited before they go out) (the `Client` re-initializes, re-subscribes and re-sends
   * `subscriptions/listen`). One crash past `maxAttempts` within `windowMs` closes the transport with it.
   * Default: off.
   *
   * @default false
   */
  restart?: boolean | RestartOptions | undefined;
}

type State = 'new' | 'starting' | 'open' | 'restarting' | 'closed';

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
  readonly #stderrTail: StderrTail | undefined;
  #closeReason: ServerExitError | undefined;
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
  readonly #restart: RestartPolicy | undefined;
  #restartTimer: ReturnType<typeof setTimeout> | undefined;
  #restarts = 0;
  /** Set by `resetConnection` until the hung process it killed is gone: its exit is no crash to report. */
  #abandoned: Error | undefined;
  /**
   * Messages sent between a crash and the end of the new process's `onreconnect` (the client's new
   * handshake): sent then, in order. Bounded by the callers awaiting them.
   */
  #held: Array<{ message: JSONRPCMessage; resolve: (sent: Promise<void>) => void }> | undefined;

  onmessage?: ((message: JSONRPCMessage, extra?: MessageExtraInfo) => void) | undefined;
  onerror?: ((error: Error) => void) | undefined;
  onclose?: (() => void) | undefined;
  /**
   * Fires (with `restart`) once a crashed server runs again; a promise it returns is awaited (held
   * messages go out after it) and reports its own failure (the transport does not, again).
   */
  onreconnect?: (() => void | Promise<void>) | undefined;
  /**
   * Set with `restart` (`Transport.resetConnection`): the `Client`'s heartbeat calls it on a server that
   * stopped answering but did not exit (hung, pipes still open). The process is killed (`SIGTERM`, then
   * `SIGKILL` after `sigtermTimeoutMs`) and restarted like a crashed one, counted against the same
   * `restart` limits; requests in flight fail with a `TransportLostError` (`transport: 'stdio'`, `cause`:
   * `reason`). Without `restart`, undefined: the heartbeat closes the transport.
   */
  readonly resetConnection: ((reason: Error) => void) | undefined;

  constructor(options: StdioClientTransportOptions) {
    this.#options = options;
    const restart = options.restart;
    this.#restart = restart === undefined || restart === false ? undefined : new RestartPolicy(restart);
    this.resetConnection = this.#restart === undefined ? undefined : (reason) => this.#reset(reason);
    this.#decoder = new JsonLineDecoder(
      {
        onmessage: (message) => this.#deliverLine(message),
        onerror: (error) => this.#onBadLine(error),
        onbatch: (values) => this.#onBatch(values),
      },
      {
        maxLineBytes: renamedOption(options, 'maxMessageBytes', 'maxLineBytes', 'StdioClientTransport'),
        maxNestingDepth: options.maxNestingDepth,
      },
    );
    // Created up front so listeners can be attached before `start()` and miss nothing.
    if (options.stderr === 'pipe') this.#stderr = new PassThrough();
    const tailLines = options.stderrTailLines ?? DEFAULT_STDERR_TAIL_LINES;
    if (options.stderr !== 'ignore' && tailLines > 0) {
      this.#stderrTail = new StderrTail(tailLines, options.stderrTailBytes ?? DEFAULT_STDERR_TAIL_BYTES);
    }
  }

  /**
   * Why the connection ended when the server exited on its own (`undefined` after a `close()` or while
   * open): a `ServerExitError` naming the command, exit code or signal and the last stderr lines.
   */
  get closeReason(): ServerExitError | undefined {
    return this.#closeReason;
  }

  /** The server's stderr when `stderr: 'pipe'` was asked for, else `null`. */
  get stderr(): Readable | null {
    return this.#stderr ?? null;
  }

  /** How many times the server was restarted after a crash (see `restart`). */
  get restarts(): number {
    return this.#restarts;
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
        // 'inherit' with a tail is relayed by #attach, so its last lines are seen here.
        stdio: [
          'pipe',
          'pipe',
          this.#stderrTail === undefined ? (this.#options.stderr ?? 'inherit') : 'pipe',
        ],
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

  send(message: JSONRPCMessage, options?: TransportSendOptions): Promise<void> {
    const held = this.#batches.take(message);
    if (held !== undefined) return held;
    if (this.#held !== undefined && this.#state !== 'open') {
      const queue = this.#held;
      return new Promise((resolve) => queue.push({ message, resolve }));
    }
    if (this.#restart !== undefined && isJSONRPCRequest(message) && this.#state === 'open') {
      this.#restart.sent(message.id);
    }
    return this.#writeLine(message, options);
  }

  /** The negotiated version: batches from the server are accepted only on 2025-03-26. */
  setProtocolVersion(version: string): void {
    this.#protocolVersion = version;
  }

  #writeLine(
    payload: JSONRPCMessage | readonly JSONRPCMessage[],
    options?: TransportSendOptions,
  ): Promise<void> {
    if (this.#state !== 'open' || this.#writer === undefined) {
      if (this.#state === 'restarting') {
        // Never sent, so not lost: a plain -32000 a retry policy repeats once the new process runs.
        return Promise.reject(new ConnectionClosedError('The MCP server crashed and is being restarted'));
      }
      return Promise.reject(
        this.#closeReason ?? new ConnectionClosedError('StdioClientTransport is not open'),
      );
    }
    let line: string;
    try {
      line = encodeJsonLine(payload);
    } catch (error) {
      // Unencodable (a BigInt, a cycle): that message fails, the connection does not.
      return Promise.reject(error);
    }
    return this.#writer.write(line, payload, options);
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
    this.#restart?.clear();
    this.#releaseHeld(new ConnectionClosedError('StdioClientTransport closed while restarting the server'));
    if (this.#state === 'restarting' && this.#restartTimer !== undefined) {
      // Between a crash and its restart: no process to shut down.
      clearTimeout(this.#restartTimer);
      this.#restartTimer = undefined;
      this.#state = 'closed';
      this.#stderr?.end();
      this.onclose?.();
      return;
    }
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
    this.#writer = new LineWriter(stdin, {
      maxBufferedBytes: this.#options.maxBufferedBytes,
      maxQueuedBytes: this.#options.maxQueuedBytes,
      sendStallTimeoutMs: this.#options.sendStallTimeoutMs,
      onstall: (error) => {
        // The server stopped reading its stdin: report it and shut it down; what is pending fails at once.
        this.#report(error);
        void this.close();
      },
    });
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
    const stderr = child.stderr;
    if (stderr !== null) {
      if (this.#stderrTail !== undefined) stderr.on('data', this.#stderrTail.push);
      // A restarting transport keeps its stderr stream across processes.
      if (this.#stderr !== undefined) stderr.pipe(this.#stderr, { end: this.#restart === undefined });
      else if (this.#stderrTail !== undefined) relayToStderr(stderr);
    }
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
    if (this.#closing === undefined && exit !== undefined) {
      // The server went away by itself: say who, how, and what it last said (issue #24 item 14).
      this.#closeReason = new ServerExitError({
        command: this.#options.command,
        args: this.#options.args ?? [],
        exitCode: exit.code,
        signal: exit.signal,
        stderrTail: this.#stderrTail?.lines() ?? [],
      });
      this.#writer?.fail(this.#closeReason);
      const abandoned = this.#abandoned;
      this.#abandoned = undefined;
      // A clean exit (code 0) is how a server may end the session (close from the server side): that is
      // no fault, but its pending requests still learn how it ended through closeReason. A hung process
      // killed by `resetConnection` was reported (the heartbeat's error) before it was killed.
      if (exit.code !== 0 && abandoned === undefined) this.#report(this.#closeReason);
      if (exit.code !== 0 && this.#restart !== undefined && this.#scheduleRestart(this.#closeReason)) {
        this.#resolveClosed?.();
        return;
      }
      if (this.#restart !== undefined && exit.code !== 0) {
        this.#closeReason = new ServerExitError({
          command: this.#options.command,
          args: this.#options.args ?? [],
          exitCode: exit.code,
          signal: exit.signal,
          stderrTail: this.#closeReason.stderrTail,
          gaveUp: {
            restarts: this.#restarts,
            maxAttempts: this.#restart.maxAttempts,
            windowMs: this.#restart.windowMs,
          },
        });
      }
    } else {
      const reason = exit === undefined ? 'closed' : describeExit(exit);
      this.#writer?.fail(new ConnectionClosedError(`Server process ${reason}`));
    }
    this.#state = 'closed';
    this.#resolveClosed?.();
    if (this.#restart !== undefined) this.#stderr?.end();
    this.onclose?.();
  }

  /**
   * A crash with restarts left: the requests the dead server never answered get a -32000 answer now,
   * and a new process is spawned after the backoff delay. False when the window's budget is spent.
   */
  #scheduleRestart(exit: ServerExitError): boolean {
    const policy = this.#restart!;
    const delay = policy.nextDelay(Date.now());
    if (delay === undefined) return false;
    this.#state = 'restarting';
    this.#held ??= [];
    for (const answer of policy.lostAnswers(exit)) this.#deliver(answer);
    this.#restartTimer = setTimeout(() => {
      this.#restartTimer = undefined;
      const spawning = this.#respawn();
      this.#starting = spawning.then(() => undefined);
      void spawning.then((ok) => (ok ? this.#resync() : undefined));
    }, delay);
    return true;
  }

  /**
   * The heartbeat declared the server dead while it still runs (hung): its in-flight requests are lost
   * now, messages sent meanwhile wait for the new process, and the process is killed; its exit then
   * takes the crash path (`#onChildClose`), which restarts it within the `restart` limits or closes.
   */
  #reset(reason: Error): void {
    const child = this.#child;
    const exited = this.#exited;
    if (this.#state !== 'open' || this.#closing !== undefined || this.#exitInfo !== undefined) return;
    if (child === undefined || exited === undefined) return;
    this.#abandoned = reason;
    this.#state = 'restarting';
    this.#held ??= [];
    for (const answer of this.#restart!.abandonedAnswers(reason)) this.#deliver(answer);
    this.#writer?.fail(new ConnectionClosedError('The MCP server stopped answering and is being restarted'));
    terminateChild(child, exited, this.#options).catch(this.#report);
  }

  /** Spawns the server again; false (the transport closed with the crash) when that fails. */
  async #respawn(): Promise<boolean> {
    this.#state = 'starting';
    this.#exitInfo = undefined;
    const crash = this.#closeReason;
    this.#closeReason = undefined;
    try {
      await this.#spawn();
    } catch (error) {
      // Cannot start it again: the transport ends with the crash, the spawn failure reported.
      this.#closeReason = crash;
      this.#releaseHeld(crash ?? new ConnectionClosedError('The MCP server could not be restarted'));
      this.#report(error);
      this.#stderr?.end();
      this.onclose?.();
      return false;
    }
    this.#restarts++;
    return true;
  }

  /** The new process runs: the client re-establishes its session, then the held messages go out. */
  async #resync(): Promise<void> {
    let resync: Promise<void> | void | undefined;
    try {
      resync = this.onreconnect?.();
    } catch (error) {
      this.#report(error);
    }
    // A promise the hook returns (the Client's new handshake) reports its own failure through onerror;
    // reporting its rejection here as well would report one failed handshake twice.
    if (resync !== undefined) await resync.catch(() => {});
    const held = this.#held;
    this.#held = undefined;
    if (held === undefined) return;
    for (const { message, resolve } of held) resolve(this.send(message));
  }

  #releaseHeld(error: Error): void {
    const held = this.#held;
    this.#held = undefined;
    if (held === undefined) return;
    for (const { resolve } of held) resolve(Promise.reject(error));
  }

  #deliver(message: JSONRPCMessage): void {
    // Once close() was called nothing more is delivered, even from the chunk being decoded.
    if (this.#closing !== undefined) return;
    if (this.#restart !== undefined && isJSONRPCResponse(message) && message.id != null) {
      this.#restart.answered(message.id);
    }
    // A throwing handler must not cut off the rest of the chunk being decoded.
    deliverMessage(this, message, undefined, this.#report);
  }

  /** A single-message line: a request reusing the id of one awaiting its answer in a batch is refused. */
  #deliverLine(message: JSONRPCMessage): void {
    const refusal = this.#batches.duplicateAnswer(message);
    if (refusal === undefined) this.#deliver(message);
    else this.#writeLine(refusal).catch(this.#report);
  }

  /**
   * A line from the server that could not be used. A dropped response whose id showed settles its
   * request now with the reason (it would otherwise wait out its timeout: a lost message).
   */
  #onBadLine(error: McpError): void {
    this.#report(error);
    if (!(error instanceof MessageTooLargeError) || error.head?.kind !== 'response') return;
    this.#deliver({
      jsonrpc: '2.0',
      id: error.head.id,
      error: {
        code: ErrorCode.InternalError,
        message: `The server's response exceeds maxMessageBytes (${error.limit}) and was dropped; raise maxMessageBytes on the client to receive it`,
        data: { limit: 'maxMessageBytes', maxMessageBytes: error.limit },
      },
    });
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

/**
 * Copies the server's stderr to ours. A slow stderr of ours pauses the server's (backpressure) instead of
 * queueing its logs here without bound; not `pipe()`, which would add five listeners to `process.stderr`
 * per server (a warning past two servers) and end it with the first server.
 */
function relayToStderr(source: Readable): void {
  source.on('data', (chunk: Buffer) => {
    if (process.stderr.write(chunk)) return;
    source.pause();
    process.stderr.once('drain', () => source.resume());
  });
}

function describeExit(exit: ExitInfo): string {
  return exit.signal !== null ? `killed by ${exit.signal}` : `exited with code ${exit.code}`;
}
