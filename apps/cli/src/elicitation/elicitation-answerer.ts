import type { ElicitationHandler } from '@x/client';
import type { ElicitRequestFormParams, ElicitResult } from '@x/protocol';
import type { Terminal } from '../output/terminal.js';
import { FormPrompter } from './form-prompter.js';
import { LineReader } from './line-reader.js';
import { sanitize } from '../output/sanitize.js';

/**
 * Answers form-mode elicitations: interactively when a person is at the terminal (stdin and stderr are
 * TTYs), one form at a time; otherwise it declines, saying why on stderr, since nobody can answer and
 * waiting would hang a script.
 *
 * @example
 * ```ts
 * const answerer = new ElicitationAnswerer(terminal);
 * client.setElicitationHandler(answerer.handler);
 * // …
 * answerer.close();
 * ```
 */
export class ElicitationAnswerer {
  readonly #terminal: Terminal;
  #reader: LineReader | undefined;
  /** Servers may ask several questions at once (2026-07-28 multiple input requests): ask in turn. */
  #turn: Promise<unknown> = Promise.resolve();

  constructor(terminal: Terminal) {
    this.#terminal = terminal;
  }

  readonly handler: ElicitationHandler = (params, ctx) => {
    const terminal = this.#terminal;
    if (params.mode === 'url') {
      // Only form mode is declared, so conforming servers never get here.
      return { action: 'decline' };
    }
    if (!terminal.interactive) {
      terminal.err(
        `${terminal.errStyle.yellow("x-mcp: declined the server's request for input:")} ${sanitize(params.message)}\n` +
          '  (stdin is not a terminal, so nobody can answer; run x-mcp in a terminal to answer it)',
      );
      return { action: 'decline' };
    }
    const answer = this.#turn.then(() => this.#ask(params, ctx.signal));
    this.#turn = answer.catch(() => {});
    return answer;
  };

  /** Lets go of stdin (a form still open is cancelled), so the process can exit. */
  close(): void {
    this.#reader?.close();
    this.#reader = undefined;
  }

  /**
   * One form on a reader of its own, closed right after: while readline holds the terminal it takes
   * Ctrl-C for itself, and outside a form Ctrl-C must reach the process (cancel the request, exit 130).
   */
  async #ask(params: ElicitRequestFormParams, signal: AbortSignal): Promise<ElicitResult> {
    const terminal = this.#terminal;
    const reader = new LineReader({ input: terminal.io.stdin, output: terminal.io.stderr, terminal: true });
    this.#reader = reader;
    try {
      return await new FormPrompter({ reader, output: terminal.io.stderr, style: terminal.errStyle }).prompt(
        params,
        signal,
      );
    } finally {
      reader.close();
      if (this.#reader === reader) this.#reader = undefined;
    }
  }
}
