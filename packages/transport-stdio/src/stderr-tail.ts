/**
 * Default number of the server's last stderr lines kept for the error that reports its exit.
 *
 * @example
 * ```ts
 * const transport = new StdioClientTransport({ command: 'node', args: ['server.js'], stderrTailLines: 2 * DEFAULT_STDERR_TAIL_LINES });
 * ```
 */
export const DEFAULT_STDERR_TAIL_LINES = 10;

/**
 * Default bound on the bytes of the server's stderr kept for that error (the last lines are cut to it).
 *
 * @example
 * ```ts
 * const transport = new StdioClientTransport({ command: 'node', args: ['server.js'], stderrTailBytes: 16 * 1024 });
 * ```
 */
export const DEFAULT_STDERR_TAIL_BYTES = 4 * 1024;

/**
 * Keeps the last bytes a stream wrote, in bounded memory: chunks are kept as they came and dropped from the
 * front once more than the bound is held, so the cost per chunk is a push and rarely a shift; the text is
 * decoded only when someone asks for the lines.
 */
export class StderrTail {
  readonly #maxLines: number;
  readonly #maxBytes: number;
  readonly #chunks: Buffer[] = [];
  #bytes = 0;

  constructor(maxLines: number, maxBytes: number) {
    this.#maxLines = maxLines;
    this.#maxBytes = maxBytes;
  }

  readonly push = (chunk: Buffer | string): void => {
    const bytes = typeof chunk === 'string' ? Buffer.from(chunk) : chunk;
    this.#chunks.push(bytes);
    this.#bytes += bytes.length;
    while (this.#chunks.length > 1 && this.#bytes - this.#chunks[0]!.length >= this.#maxBytes) {
      this.#bytes -= this.#chunks.shift()!.length;
    }
  };

  /** The last non-empty lines (at most `maxLines`, at most `maxBytes` in all), oldest first. */
  lines(): string[] {
    if (this.#bytes === 0 || this.#maxLines <= 0) return [];
    let all = Buffer.concat(this.#chunks);
    let cut = false;
    if (all.length > this.#maxBytes) {
      all = all.subarray(all.length - this.#maxBytes);
      cut = true;
    }
    const lines = all
      .toString('utf8')
      .split(/\r?\n/)
      .filter((line) => line.trim() !== '');
    // A line cut by the byte bound is partial: drop it unless it is all we have.
    if (cut && lines.length > 1) lines.shift();
    return lines.slice(-this.#maxLines);
  }
}
