import { ExitCode } from '../exit-codes.js';
import { summarizePromptArguments } from '../output/argument-summary.js';
import { sanitize } from '../output/sanitize.js';
import { renderTable } from '../output/table.js';
import { type ClientCommand, expectPositionals } from './client-command.js';
import { collect, firstLine } from './collect.js';

/** `x-mcp prompts`: every prompt (all pages), with its arguments. */
export const prompts: ClientCommand = (input) => {
  expectPositionals(input, { max: 0 });
  return async ({ session, terminal, options, signal }) => {
    const list = await collect(session.client.iteratePrompts({ signal }));
    if (options.json) {
      terminal.json({ prompts: list });
      return ExitCode.Ok;
    }
    if (list.length === 0) {
      terminal.out(terminal.style.dim('(no prompts)'));
      return ExitCode.Ok;
    }
    const rows = list.map((prompt) => [
      terminal.style.cyan(sanitize(prompt.name)),
      sanitize(summarizePromptArguments(prompt.arguments)),
      firstLine(prompt.description ?? prompt.title),
    ]);
    terminal.out(
      renderTable({
        headers: ['NAME', 'ARGUMENTS', 'DESCRIPTION'],
        rows,
        style: terminal.style,
        width: terminal.width,
      }),
    );
    return ExitCode.Ok;
  };
};
