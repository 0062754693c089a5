import { ExitCode } from '../exit-codes.js';
import type { Terminal } from '../output/terminal.js';
import type { Failure } from './failure.js';
import { sanitize } from '../output/sanitize.js';

/**
 * Prints a failure: `x-mcp: error <code>: <message>` (and its data) on stderr, a pointer to the help for
 * usage errors, and with `--json` also `{"error": {...}}` on stdout, so a script reading stdout sees why.
 */
export function reportFailure(
  terminal: Terminal,
  failure: Failure,
  context: { json: boolean; command: string | undefined },
): void {
  const { errStyle } = terminal;
  const code = failure.code === undefined ? '' : ` ${failure.code}`;
  terminal.err(`${errStyle.red(`x-mcp: error${code}:`)} ${sanitize(failure.message)}`);
  if (failure.data !== undefined) terminal.err(errStyle.dim(`  data: ${JSON.stringify(failure.data)}`));
  for (const line of failure.details ?? []) terminal.err(`  ${sanitize(line)}`);
  if (failure.exitCode === ExitCode.Usage) {
    terminal.err(`Run 'x-mcp help${context.command === undefined ? '' : ` ${context.command}`}' for usage.`);
  }
  if (context.json) {
    terminal.json({
      error: {
        ...(failure.code === undefined ? {} : { code: failure.code }),
        message: failure.message,
        ...(failure.data === undefined ? {} : { data: failure.data }),
        ...(failure.details === undefined ? {} : { details: failure.details }),
        exitCode: failure.exitCode,
      },
    });
  }
}
