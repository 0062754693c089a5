import { createInterface, type Interface } from 'node:readline';

/** Thrown by `LineReader.ask()` when input ends (Ctrl-D) or the question is abandoned. */
export class InputClosedError extends Error {
  override readonly name = 'InputClosedError';
}

/**
 * Questions and answers over readline, one line each. Lines typed (or piped) before a question is asked
 * are queued, not lost, which plain `readline.question` would do.
 *
 * @example
 * ```ts
 * const reader = new LineReader({ input: process.stdin, output: process.stderr });
 * const name = await reader.ask('name: ');
 * reader.close();
 * ```
 */
export class LineReader {
  readonly #rl: Interface;
  readonly #output: NodeJS.WritableStream;
  readonly #lines: string[] = [];
  #waiter: { resolve: (line: string) => void; reject: (error: Error) => void } | undefined;
  #closed = false;

  constructor(options: { input: NodeJS.ReadableStream; output: NodeJS.WritableStream; terminal?: boolean }) {
    this.#output = options.output;
    this.#rl = createInterface({
      input: options.input,
      output: options.output,
      terminal: options.terminal ?? false,
    });
    this.#rl.on('line', (line) => {
      const waiter = this.#waiter;
      this.#waiter = undefined;
      if (waiter === undefined) this.#lines.push(line);
      else waiter.resolve(line);
    });
    // Ctrl-C inside a question cancels the form rather than killing the process mid-request.
    this.#rl.on('SIGINT', () => this.close());
    this.#rl.on('close', () => {
      this.#closed = true;
      const waiter = this.#waiter;
      this.#waiter = undefined;
      waiter?.reject(new InputClosedError('input closed'));
    });
  }

  ask(question: string, signal?: AbortSignal): Promise<string> {
    const queued = this.#lines.shift();
    this.#output.write(question);
    if (queued !== undefined) return Promise.resolve(queued);
    if (this.#closed) return Promise.reject(new InputClosedError('input closed'));
    if (signal?.aborted) return Promise.reject(new InputClosedError('question abandoned'));
    return new Promise((resolve, reject) => {
      const onAbort = (): void => {
        this.#waiter = undefined;
        reject(new InputClosedError('question abandoned'));
      };
      signal?.addEventListener('abort', onAbort, { once: true });
      this.#waiter = {
        resolve: (line) => {
          signal?.removeEventListener('abort', onAbort);
          resolve(line);
        },
        reject: (error) => {
          signal?.removeEventListener('abort', onAbort);
          reject(error);
        },
      };
    });
  }

  close(): void {
    this.#rl.close();
  }
}
