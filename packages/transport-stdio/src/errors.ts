import { ConnectionClosedError, ErrorCode, McpError } from '@x/protocol/core';

/**
 * The peer stopped reading what this side writes (its end of the pipe is full): more than
 * `maxQueuedBytes` waited beyond `maxBufferedBytes`, or writes waited with no message leaving for
 * `sendStallTimeoutMs`. The transport reports it through `onerror` and closes, so memory stays bounded
 * and pending requests fail at once instead of waiting out their timeout. `option` names the limit
 * that was hit.
 *
 * @example
 * ```ts
 * transport.onerror = (error) => {
 *   if (error instanceof PeerNotReadingError) console.error(`peer stuck (${error.option} ${error.limit})`);
 * };
 * ```
 */
export class PeerNotReadingError extends McpError {
  override readonly name = 'PeerNotReadingError';
  readonly option: 'maxQueuedBytes' | 'sendStallTimeoutMs';
  readonly limit: number;
  /** Bytes queued for the peer when it was given up. */
  readonly queuedBytes: number;

  constructor(details: {
    option: 'maxQueuedBytes' | 'sendStallTimeoutMs';
    limit: number;
    queuedBytes: number;
  }) {
    const what =
      details.option === 'maxQueuedBytes'
        ? `${details.queuedBytes} bytes are queued, over maxQueuedBytes (${details.limit}) beyond maxBufferedBytes`
        : `nothing left the pipe for sendStallTimeoutMs (${details.limit} ms) with ${details.queuedBytes} bytes queued`;
    super(ErrorCode.ConnectionClosed, `The peer is not reading: ${what}; closing`, { ...details });
    this.option = details.option;
    this.limit = details.limit;
    this.queuedBytes = details.queuedBytes;
  }
}

/**
 * The server process could not be started: the command was not found, is not executable, or the
 * working directory does not exist. `code` is the system error code (`ENOENT`, `EACCES`, …) when known.
 *
 * @example
 * ```ts
 * try {
 *   await transport.start();
 * } catch (error) {
 *   if (error instanceof ProcessSpawnError && error.code === 'ENOENT') console.error('Install the server first');
 * }
 * ```
 */
export class ProcessSpawnError extends Error {
  override readonly name = 'ProcessSpawnError';
  readonly command: string;
  readonly code: string | undefined;

  constructor(command: string, cause: unknown, cwd?: string) {
    const code = errorCode(cause);
    super(`Failed to start MCP server "${command}": ${explain(code, cause, cwd)}`, { cause });
    this.command = command;
    this.code = code;
  }
}

function errorCode(error: unknown): string | undefined {
  if (typeof error !== 'object' || error === null || !('code' in error)) return undefined;
  return typeof error.code === 'string' ? error.code : undefined;
}

function explain(code: string | undefined, cause: unknown, cwd: string | undefined): string {
  switch (code) {
    case 'ENOENT':
      return cwd === undefined
        ? 'command not found (ENOENT)'
        : `command not found, or the working directory "${cwd}" does not exist (ENOENT)`;
    case 'EACCES':
      return 'permission denied: the file is not executable (EACCES)';
    case 'EINVAL':
      // Node refuses `.cmd`/`.bat` files without a shell on Windows (CVE-2024-27980).
      return 'invalid command (EINVAL); on Windows, run batch files through "cmd.exe /c"';
    default:
      return cause instanceof Error ? cause.message : String(cause);
  }
}

/**
 * The server process ended while the connection was open (not through `close()`). Pending requests
 * reject with it, `onerror` receives it and `transport.closeReason` holds it. Its message names the
 * command, the exit code or signal, and the server's last stderr lines (see `stderrTailLines`).
 *
 * @example
 * ```ts
 * try {
 *   await client.callTool({ name: 'build' });
 * } catch (error) {
 *   if (error instanceof ServerExitError) console.error(error.exitCode, error.signal, error.stderrTail);
 * }
 * ```
 */
export class ServerExitError extends ConnectionClosedError {
  readonly command: string;
  readonly exitCode: number | null;
  readonly signal: NodeJS.Signals | null;
  readonly stderrTail: readonly string[];

  constructor(options: {
    command: string;
    args: readonly string[];
    exitCode: number | null;
    signal: NodeJS.Signals | null;
    stderrTail: readonly string[];
    /** Set when this crash was one past the `restart` budget. */
    gaveUp?: { restarts: number; maxAttempts: number; windowMs: number } | undefined;
  }) {
    const gaveUp = options.gaveUp;
    const how =
      options.signal !== null ? `was killed by ${options.signal}` : `exited with code ${options.exitCode}`;
    const tail =
      options.stderrTail.length === 0
        ? ''
        : `; last stderr lines:\n${options.stderrTail.map((line) => `  ${line}`).join('\n')}`;
    const limit =
      gaveUp === undefined
        ? ''
        : ` after ${gaveUp.restarts} restart(s); not restarted again: restart.maxAttempts (${gaveUp.maxAttempts}) crashes within restart.windowMs (${gaveUp.windowMs} ms)`;
    super(`MCP server "${commandLine(options.command, options.args)}" ${how}${limit}${tail}`);
    this.command = options.command;
    this.exitCode = options.exitCode;
    this.signal = options.signal;
    this.stderrTail = options.stderrTail;
  }
}

/** The command as a user would recognise it, cut short so a long argument list stays readable. */
function commandLine(command: string, args: readonly string[]): string {
  const text = [command, ...args].join(' ');
  return text.length <= 200 ? text : `${text.slice(0, 197)}...`;
}
