/**
 * A mistake on the command line: `x-mcp` prints the message (with a pointer to the help) and exits 2.
 *
 * @example
 * ```ts
 * throw new UsageError('missing <tool>', { command: 'call' });
 * ```
 */
export class UsageError extends Error {
  override readonly name = 'UsageError';
  /** The command whose help the message points to, when known. */
  readonly command: string | undefined;

  constructor(message: string, options: { command?: string | undefined } = {}) {
    super(message);
    this.command = options.command;
  }
}
