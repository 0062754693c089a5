import type { ClientOptions } from '../args/client-options.js';
import type { ParsedArgs } from '../args/parsed-args.js';
import { UsageError } from '../args/usage-error.js';
import type { ExitCode } from '../exit-codes.js';
import type { Terminal } from '../output/terminal.js';
import type { Session } from '../session/open-session.js';

/** A client command's command line, target already taken out. */
export interface CommandInput {
  readonly command: string;
  /** The command's own positionals (tool name, key=value pairs, URI…). */
  readonly positionals: readonly string[];
  readonly args: ParsedArgs;
  readonly options: ClientOptions;
}

/** What a prepared command runs with, once connected. */
export interface RunContext {
  readonly session: Session;
  readonly terminal: Terminal;
  readonly options: ClientOptions;
  /** Aborted on Ctrl-C: pass it to requests so the server sees a cancellation. */
  readonly signal: AbortSignal;
}

/**
 * A command that talks to a server, in two steps: checking its own arguments (before anything connects,
 * so a typo costs no connection) returns the step that runs against the connected session.
 *
 * @example
 * ```ts
 * export const ping: ClientCommand = (input) => {
 *   expectPositionals(input, { max: 0 });
 *   return async ({ session }) => { await session.client.ping(); return ExitCode.Ok; };
 * };
 * ```
 */
export type ClientCommand = (input: CommandInput) => (context: RunContext) => Promise<ExitCode>;

/** Checks how many positionals a command got; `names` label the missing ones in the message. */
export function expectPositionals(
  input: CommandInput,
  bounds: { names?: readonly string[]; max?: number },
): void {
  const names = bounds.names ?? [];
  const missing = names[input.positionals.length];
  if (missing !== undefined) throw new UsageError(`missing ${missing}`, { command: input.command });
  const max = bounds.max ?? Number.POSITIVE_INFINITY;
  if (input.positionals.length > max) {
    const extra = input.positionals.slice(max).join(' ');
    throw new UsageError(`unexpected argument${input.positionals.length - max > 1 ? 's' : ''}: ${extra}`, {
      command: input.command,
    });
  }
}
