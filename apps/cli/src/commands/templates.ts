import { ExitCode } from '../exit-codes.js';
import { sanitize } from '../output/sanitize.js';
import { renderTable } from '../output/table.js';
import { type ClientCommand, expectPositionals } from './client-command.js';
import { collect, firstLine } from './collect.js';

/** `x-mcp templates`: every resource template (all pages). */
export const templates: ClientCommand = (input) => {
  expectPositionals(input, { max: 0 });
  return async ({ session, terminal, options, signal }) => {
    const list = await collect(session.client.iterateResourceTemplates({ signal }));
    if (options.json) {
      terminal.json({ resourceTemplates: list });
      return ExitCode.Ok;
    }
    if (list.length === 0) {
      terminal.out(terminal.style.dim('(no resource templates)'));
      return ExitCode.Ok;
    }
    const rows = list.map((template) => [
      terminal.style.cyan(sanitize(template.uriTemplate)),
      sanitize(template.name),
      sanitize(template.mimeType ?? ''),
      firstLine(template.description ?? template.title),
    ]);
    terminal.out(
      renderTable({
        headers: ['URI TEMPLATE', 'NAME', 'TYPE', 'DESCRIPTION'],
        rows,
        style: terminal.style,
        width: terminal.width,
      }),
    );
    return ExitCode.Ok;
  };
};
