import { colorEnabled, createStyle, type Style } from './style.js';

/** The process streams a command writes to, injectable so output can be tested without a process. */
export interface Io {
  readonly stdout: NodeJS.WritableStream & { isTTY?: boolean | undefined; columns?: number | undefined };
  readonly stderr: NodeJS.WritableStream & { isTTY?: boolean | undefined };
  readonly stdin: NodeJS.ReadableStream & { isTTY?: boolean | undefined };
  readonly env: NodeJS.ProcessEnv;
}

/**
 * Where output goes: results on stdout (plain or JSON), everything else — progress, logs, warnings,
 * questions, errors — on stderr, so `x-mcp … | jq` only ever sees results.
 */
export class Terminal {
  readonly io: Io;
  /** Styling for stdout. */
  readonly style: Style;
  /** Styling for stderr (colored independently: `x-mcp tools … > file` still colors its errors). */
  readonly errStyle: Style;
  /** A line redrawn in place on stderr (the progress bar): erased before anything else is printed. */
  transient: { clear(): void } | undefined;

  constructor(io: Io) {
    this.io = io;
    this.style = createStyle(colorEnabled(io.stdout, io.env));
    this.errStyle = createStyle(colorEnabled(io.stderr, io.env));
  }

  /** Terminal width of stdout, or undefined when it is not a terminal (then nothing is truncated). */
  get width(): number | undefined {
    return this.io.stdout.isTTY === true ? this.io.stdout.columns : undefined;
  }

  /** A person is there to answer questions: both stdin and stderr are terminals. */
  get interactive(): boolean {
    return this.io.stdin.isTTY === true && this.io.stderr.isTTY === true;
  }

  /** Server text printed to a terminal is sanitized; into a pipe or file it stays byte for byte. */
  get stdoutIsTty(): boolean {
    return this.io.stdout.isTTY === true;
  }

  /** Live progress bars only make sense on a terminal. */
  get stderrIsTty(): boolean {
    return this.io.stderr.isTTY === true;
  }

  out(text: string): void {
    this.io.stdout.write(text.endsWith('\n') ? text : `${text}\n`);
  }

  err(text: string): void {
    this.transient?.clear();
    this.io.stderr.write(text.endsWith('\n') ? text : `${text}\n`);
  }

  /** Pretty JSON; `compact` for line-per-event streams (`listen --json`). */
  json(value: unknown, compact = false): void {
    this.io.stdout.write(`${JSON.stringify(value, null, compact ? undefined : 2)}\n`);
  }

  warn(text: string): void {
    this.err(`${this.errStyle.yellow('warning:')} ${text}`);
  }
}
