import type { CompleteRequestParams } from '@x/protocol';
import { parseArguments } from '../args/tool-arguments.js';
import { UsageError } from '../args/usage-error.js';
import { ExitCode } from '../exit-codes.js';
import { type ClientCommand, expectPositionals } from './client-command.js';

/**
 * The completion reference from `prompt:<name>` or `resource:<uri-template>` (split at the first colon,
 * so a template's own `scheme://` stays whole).
 */
export function parseReference(text: string): CompleteRequestParams['ref'] {
  const colon = text.indexOf(':');
  const kind = colon === -1 ? '' : text.slice(0, colon);
  const value = text.slice(colon + 1);
  if (kind === 'prompt' && value !== '') return { type: 'ref/prompt', name: value };
  if (kind === 'resource' && value !== '') return { type: 'ref/resource', uri: value };
  throw new UsageError(
    `expected prompt:<name> or resource:<uri-template>, got '${text}' (e.g. prompt:greet, 'resource:file:///{path}')`,
    { command: 'complete' },
  );
}

/**
 * `x-mcp complete prompt:<name>|resource:<template> <argument> [<partial>] [name=value…]`: the server's
 * suggestions for one argument, one per line. `name=value` pairs are the already-filled arguments
 * (`context.arguments`, 2025-06-18+), which a server may use to narrow the suggestions.
 */
export const complete: ClientCommand = (input) => {
  expectPositionals(input, {
    names: [
      'prompt:<name> or resource:<uri-template>',
      '<argument>: the argument or template variable to complete',
    ],
  });
  const [refText = '', argument = '', ...rest] = input.positionals;
  const ref = parseReference(refText);
  // The partial value may be anything, `=` included; only the words after it are context pairs.
  const [partial = '', ...contextTokens] = rest;
  const context = parseArguments({ tokens: contextTokens, stringsOnly: true }) as Record<string, string>;
  const params: CompleteRequestParams = {
    ref,
    argument: { name: argument, value: partial },
    ...(contextTokens.length === 0 ? {} : { context: { arguments: context } }),
  };
  return async ({ session, terminal, options, signal }) => {
    const { completion } = await session.client.complete(params, { signal });
    if (options.json) {
      terminal.json(completion);
      return ExitCode.Ok;
    }
    for (const value of completion.values) terminal.out(value);
    const more = completion.total === undefined ? 0 : completion.total - completion.values.length;
    if (completion.values.length === 0) terminal.err(terminal.errStyle.dim('(no suggestions)'));
    else if (more > 0) terminal.err(terminal.errStyle.dim(`(${more} more)`));
    else if (completion.hasMore === true) terminal.err(terminal.errStyle.dim('(more available)'));
    return ExitCode.Ok;
  };
};
