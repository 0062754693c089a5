import type { Style } from './style.js';

export interface ProgressUpdate {
  readonly progress: number;
  readonly total?: number | undefined;
  readonly message?: string | undefined;
}

/**
 * A one-line progress bar redrawn in place on a terminal's stderr (only create it for a TTY: on a pipe
 * the carriage returns would be noise). `clear()` erases it before anything else is printed.
 *
 * @example
 * ```ts
 * const bar = new ProgressBar({ stream: process.stderr, style, width: 30 });
 * bar.update({ progress: 50, total: 100, message: 'halfway' }); // [███████████████···············]  50% halfway
 * bar.clear();
 * ```
 */
export class ProgressBar {
  readonly #stream: NodeJS.WritableStream;
  readonly #style: Style;
  readonly #width: number;
  #drawn = false;

  constructor(options: { stream: NodeJS.WritableStream; style: Style; width?: number | undefined }) {
    this.#stream = options.stream;
    this.#style = options.style;
    this.#width = options.width ?? 30;
  }

  update(update: ProgressUpdate): void {
    this.#stream.write(`\r\u001b[2K${ProgressBar.format(update, this.#width, this.#style)}`);
    this.#drawn = true;
  }

  /** Shows a status line (e.g. a task's state) in the bar's place. */
  status(line: string): void {
    this.#stream.write(`\r\u001b[2K${this.#style.cyan('…')} ${line}`);
    this.#drawn = true;
  }

  clear(): void {
    if (!this.#drawn) return;
    this.#stream.write('\r\u001b[2K');
    this.#drawn = false;
  }

  /** The bar as text; without a total (the spec makes it optional) only the count is shown. */
  static format(update: ProgressUpdate, width: number, style: Style): string {
    const message = update.message === undefined ? '' : ` ${update.message}`;
    const { progress, total } = update;
    if (total === undefined || !(total > 0)) return `${style.cyan('…')} ${progress}${message}`;
    const ratio = Math.min(1, Math.max(0, progress / total));
    const filled = Math.round(ratio * width);
    const bar = style.cyan('█'.repeat(filled)) + style.dim('·'.repeat(width - filled));
    return `[${bar}] ${String(Math.round(ratio * 100)).padStart(3)}%${message}`;
  }
}
