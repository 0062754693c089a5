import { ExitCode } from '../exit-codes.js';
import { summarizeArguments } from '../output/argument-summary.js';
import { sanitize } from '../output/sanitize.js';
import { renderTable } from '../output/table.js';
import { type ClientCommand, expectPositionals } from './client-command.js';
import { collect, firstLine } from './collect.js';

/** `x-mcp tools`: every tool (all pages), with its arguments. */
export const tools: ClientCommand = (input) => {
  expectPositionals(input, { max: 0 });
  return async ({ session, terminal, options, signal }) => {
    const list = await collect(session.client.iterateTools({ signal }));
    if (options.json) {
      terminal.json({ tools: list });
      return ExitCode.Ok;
    }
    if (list.length === 0) {
      terminal.out(terminal.style.dim('(no tools)'));
      return ExitCode.Ok;
    }
    const rows = list.map((tool) => [
      terminal.style.cyan(sanitize(tool.name)),
      sanitize(summarizeArguments(tool.inputSchema)),
      firstLine(tool.description ?? tool.title),
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
