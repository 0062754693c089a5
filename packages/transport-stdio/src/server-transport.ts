import type { Readable, Writable } from 'node:stream';
import {
  BatchResponses,
  ConnectionClosedError,
  encodeJsonLine,
  ErrorCode,
  type JSONRPCErrorResponse,
  type JSONRPCMessage,
  JsonLineDecoder,
  McpError,
  type MessageExtraInfo,
  type RequestId,
  type Transport,
  type TransportSendOptions,
} from '@x/protocol/core';
import { deliverMessage, renamedOption } from '@x/protocol/transport';
import { redirectConsoleToStderr, restoreConsole } from './console-redirect.js';
import { LineWriter } from './line-writer.js';

/**
 * Options of `new StdioServerTransport(options)`; all optional, for `process.stdin`/`stdout` by default.
 *
 * @example
 * ```ts
 * // The server keeps a timer alive, so exit explicitly once the client hangs up.
 * const transport = new StdioServerTransport({ exitOnClose: true, maxLineBytes: 1024 * 1024 });
 * await mcpServer.connect(transport);
 * ```
 */
export interface StdioServerTransportOptions {
  /**
   * Where messages come from. Default `process.stdin`.
   *
   * @default process.stdin
   */
  stdin?: Readable | undefined;
  /**
   * Where messages go. Default `process.stdout`; nothing but messages is ever written to it.
   *
   * @default process.stdout
   */
  stdout?: Writable | undefined;
  /**
   * Longest line accepted from the client; longer ones are dropped and answered with -32600 (id null)
   * naming `maxMessageBytes`. Default `DEFAULT_MAX_LINE_BYTES` (8 MiB).
   *
   * @default {@link DEFAULT_MAX_LINE_BYTES}
   */
  maxMessageBytes?: number | undefined;
  /**
   * Longest line accepted from the client.
   *
   * @deprecated Use `maxMessageBytes`, the name of this limit on every transport; `maxMessageBytes`
   * wins when both are given. This alias goes in the next minor version.
   */
  maxLineBytes?: number | undefined;
  /**
   * Deepest JSON nesting accepted in a line; deeper ones are refused with -32700 (id null) naming
   * `maxNestingDepth` before `JSON.parse` builds them. Default `DEFAULT_MAX_NESTING_DEPTH` (128).
   *
   * @default {@link DEFAULT_MAX_NESTING_DEPTH}
   */
  maxNestingDepth?: number | undefined;
  /**
   * While the transport is open on the process's own stdout, `console.log`/`info`/`debug`/`dir`/`table`/
   * `group`/`count`/`time*` print to stderr instead, so stray logging cannot corrupt (or forge) protocol
   * messages; restored on close. Default: on when `stdout` is `process.stdout`. `false` opts out.
   */
  redirectConsole?: boolean | undefined;
  /**
   * Bytes queued for the client before `send()` waits for the pipe to drain. Default 8 MiB.
   *
   * @default {@link DEFAULT_MAX_BUFFERED_BYTES}
   */
  maxBufferedBytes?: number | undefined;
  /**
   * Bytes that may wait beyond `maxBufferedBytes` for a client that does not drain its pipe; past them
   * the client counts as not reading: `onerror` gets `PeerNotReadingError` and the transport closes.
   * Default 32 MiB (`DEFAULT_MAX_QUEUED_BYTES`).
   *
   * @default {@link DEFAULT_MAX_QUEUED_BYTES}
   */
  maxQueuedBytes?: number | undefined;
  /**
   * How long sends may wait for the pipe with no message leaving it before the client counts as not
   * reading (`PeerNotReadingError`, then close). 0 disables. Default 30 s (`DEFAULT_SEND_STALL_TIMEOUT_MS`).
   *
   * @default {@link DEFAULT_SEND_STALL_TIMEOUT_MS}
   */
  sendStallTimeoutMs?: number | undefined;
  /**
   * On `SIGTERM`, write out what is queued, close, then let the signal end the process as it would have
   * (unless another `SIGTERM` listener is installed, which then decides). Default: on when `stdout` is
   * the process's own.
   */
  handleSigterm?: boolean | undefined;
  /**
   * Call `process.exit()` once the transport has closed (stdin EOF, `SIGTERM` or `close()`) and its
   * output is flushed. Only needed when something else (a timer, a socket) would keep the process alive.
   * Default `false`: on EOF the transport lets go of stdin and the process ends by itself when idle.
   *
   * @default false
   */
  exitOnClose?: boolean | undefined;
  /**
   * End `stdout` on close, telling the peer we are done. Default: on unless it is `process.stdout`.
   * (After close, `process.stdin` is paused so the process can exit; any other input is drained unread.)
   */
  endOutputOnClose?: boolean | undefined;
  /**
   * Most messages one 2025-03-26 batch may hold; larger ones are refused with -32600. Default 1000.
   *
   * @default {@link DEFAULT_MAX_BATCH_SIZE}
   */
  maxBatchSize?: number | undefined;
}

type State = 'new' | 'open' | 'closed';

/**
 * The server side of stdio: reads newline-delimited JSON-RPC from stdin, writes it to stdout. The end of
 * stdin (the client's shutdown signal, spec lifecycle § Shutdown) closes the transport and releases
 * stdin, so the process can exit; a malformed line is answered with a JSON-RPC error (-32700 for bad
 * JSON, -32600 for JSON that is not a message, with the request's id when readable) and decoding goes on.
 *
 * A line holding a JSON array is a JSON-RPC batch (2025-03-26 stdio: "a JSON-RPC batch containing one or
 * more requests and/or notifications"). Once the session negotiated 2025-03-26 (`setProtocolVersion`),
 * each message is delivered and the answers go out as one array line; otherwise the batch is refused
 * with one -32600 line (id null).
 *
 * @example
 * ```ts
 * const transport = new StdioServerTransport();
 * transport.onclose = () => console.error('client went away');
 * await server.connect(transport);
 * ```
 */
export class StdioServerTransport implements Transport {
  readonly #stdin: Readable;
  readonly #stdout: Writable;
  readonly #writer: LineWriter;
  readonly #decoder: JsonLineDecoder;
  readonly #handleSigterm: boolean;
  readonly #exitOnClose: boolean;
  readonly #endOutputOnClose: boolean;
  readonly #maxBatchSize: number | undefined;
  readonly #redirectConsole: boolean;
  #consoleRedirected = false;
  readonly #batches = new BatchResponses({ write: (responses) => this.#writeLine(responses) });
  #protocolVersion: string | undefined;
  #state: State = 'new';
  #closing: Promise<void> | undefined;

  onmessage?: ((message: JSONRPCMessage, extra?: MessageExtraInfo) => void) | undefined;
  onerror?: ((error: Error) => void) | undefined;
  onclose?: (() => void) | undefined;

  constructor(options: StdioServerTransportOptions = {}) {
    this.#stdin = options.stdin ?? process.stdin;
    this.#stdout = options.stdout ?? process.stdout;
    const ownStdout = this.#stdout === process.stdout;
    this.#handleSigterm = options.handleSigterm ?? ownStdout;
    this.#exitOnClose = options.exitOnClose ?? false;
    this.#endOutputOnClose = options.endOutputOnClose ?? !ownStdout;
    this.#maxBatchSize = options.maxBatchSize;
    this.#redirectConsole = ownStdout && options.redirectConsole !== false;
    this.#writer = new LineWriter(this.#stdout, {
      maxBufferedBytes: options.maxBufferedBytes,
      maxQueuedBytes: options.maxQueuedBytes,
      sendStallTimeoutMs: options.sendStallTimeoutMs,
      onstall: (error) => {
        // The client stopped reading our output: say so and end the session (memory stays bounded).
        this.#report(error);
        void this.close();
      },
    });
    this.#decoder = new JsonLineDecoder(
      {
        onmessage: (message) => this.#deliverLine(message),
        onerror: (error) => this.#onBadLine(error),
        onbatch: (values) => this.#onBatch(values),
      },
      {
        maxLineBytes: renamedOption(options, 'maxMessageBytes', 'maxLineBytes', 'StdioServerTransport'),
        maxNestingDepth: options.maxNestingDepth,
      },
    );
  }

  async start(): Promise<void> {
    if (this.#state !== 'new') throw new Error('StdioServerTransport already started');
    this.#state = 'open';
    this.#stdin.on('data', this.#onData);
    this.#stdin.on('end', this.#onEnd);
    this.#stdin.on('close', this.#onEnd);
    this.#stdin.on('error', this.#onInputError);
    this.#stdout.on('error', this.#onOutputError);
    if (this.#handleSigterm) process.on('SIGTERM', this.#onSigterm);
    if (this.#redirectConsole) {
      redirectConsoleToStderr();
      this.#consoleRedirected = true;
    }
    if (this.#stdin.readableEnded || this.#stdin.destroyed) queueMicrotask(this.#onEnd);
  }

  send(message: JSONRPCMessage, options?: TransportSendOptions): Promise<void> {
    const held = this.#batches.take(message);
    if (held !== undefined) return held;
    return this.#writeLine(message, options);
  }

  /** The negotiated version: batches are accepted only on 2025-03-26. */
  setProtocolVersion(version: string): void {
    this.#protocolVersion = version;
  }

  #writeLine(
    payload: JSONRPCMessage | readonly JSONRPCMessage[],
    options?: TransportSendOptions,
  ): Promise<void> {
    if (this.#state !== 'open') {
      return Promise.reject(new ConnectionClosedError('StdioServerTransport is not open'));
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

  /** Stops reading, writes out what is queued, then fires `onclose`. Idempotent. */
  close(): Promise<void> {
    this.#closing ??= this.#close();
    return this.#closing;
  }

  [Symbol.asyncDispose](): Promise<void> {
    return this.close();
  }

  async #close(): Promise<void> {
    const wasOpen = this.#state === 'open';
    this.#state = 'closed';
    this.#batches.clear();
    const stdin = this.#stdin;
    stdin.off('data', this.#onData);
    stdin.off('end', this.#onEnd);
    stdin.off('close', this.#onEnd);
    process.off('SIGTERM', this.#onSigterm);
    if (wasOpen) {
      // A paused process.stdin no longer keeps the event loop alive: with nothing else to do, the process
      // exits. Any other input keeps flowing into the void, so a peer still writing is never left blocked
      // on a full pipe while it waits for its own writes to flush.
      if (stdin === process.stdin) stdin.pause();
      else stdin.resume();
    }
    if (this.#decoder.reset()) {
      this.#report(new McpError(ErrorCode.ConnectionClosed, 'Input ended in the middle of a message'));
    }
    await this.#writer.flush();
    this.#writer.fail(new ConnectionClosedError('StdioServerTransport is closed'));
    if (this.#endOutputOnClose) this.#stdout.end();
    if (this.#consoleRedirected) {
      this.#consoleRedirected = false;
      restoreConsole();
    }
    this.onclose?.();
    if (this.#exitOnClose) process.exit();
  }

  readonly #onData = (chunk: Buffer | string): void => {
    this.#decoder.push(chunk);
  };

  readonly #onEnd = (): void => {
    void this.close();
  };

  readonly #onInputError = (error: Error): void => {
    this.#report(error);
    void this.close();
  };

  readonly #onOutputError = (error: Error): void => {
    // EPIPE: the client is gone, so nothing we write can arrive any more.
    this.#writer.fail(new ConnectionClosedError('Output stream failed', { cause: error }));
    this.#report(error);
    void this.close();
  };

  readonly #onSigterm = (): void => {
    void this.close().then(() => {
      // We replaced Node's default "exit on SIGTERM"; with nobody else listening, restore it and re-raise
      // so the process still ends, with the status a signal death reports.
      if (process.listenerCount('SIGTERM') === 0) process.kill(process.pid, 'SIGTERM');
    });
  };

  #deliver(message: JSONRPCMessage): void {
    // Once closing (close() from inside onmessage, say) the rest of the chunk is not delivered.
    if (this.#state !== 'open') return;
    // A throwing handler must not cut off the rest of the chunk being decoded.
    deliverMessage(this, message, undefined, this.#report);
  }

  /** A single-message line: a request reusing the id of one awaiting its answer in a batch is refused. */
  #deliverLine(message: JSONRPCMessage): void {
    const refusal = this.#batches.duplicateAnswer(message);
    if (refusal !== undefined) {
      this.#writeLine(refusal).catch(this.#report);
      return;
    }
    this.#deliver(message);
  }

  #onBatch(values: unknown[]): void {
    if (this.#state !== 'open') return;
    this.#batches.receive(values, {
      protocolVersion: this.#protocolVersion,
      maxBatchSize: this.#maxBatchSize,
      deliver: (message) => this.#deliver(message),
      refuse: (error) => this.#writeLine(error),
      onerror: (error) => this.#report(error),
    });
  }

  #onBadLine(error: McpError): void {
    this.#report(error);
    if (error.code !== ErrorCode.ParseError && error.code !== ErrorCode.InvalidRequest) return;
    // JSON-RPC 2.0 § 5: an unreadable request still gets an error response, with id null when the id
    // itself could not be read.
    const reply: JSONRPCErrorResponse = {
      jsonrpc: '2.0',
      id: readId(error.data),
      error: { code: error.code, message: error.message },
    };
    this.send(reply).catch((sendError: unknown) => this.#report(sendError));
  }

  readonly #report = (error: unknown): void => {
    try {
      this.onerror?.(error instanceof Error ? error : new Error(String(error)));
    } catch {
      // `onerror` must never throw into the stream machinery.
    }
  };
}

function readId(data: unknown): RequestId | null {
  if (typeof data !== 'object' || data === null || !('id' in data)) return null;
  const id = data.id;
  return typeof id === 'string' || typeof id === 'number' ? id : null;
}
