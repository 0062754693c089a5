import { ExitCode } from '../exit-codes.js';
import { sanitize } from '../output/sanitize.js';
import { renderTable } from '../output/table.js';
import { type ClientCommand, expectPositionals } from './client-command.js';
import { collect, firstLine } from './collect.js';

/** `x-mcp resources`: every resource (all pages). */
export const resources: ClientCommand = (input) => {
  expectPositionals(input, { max: 0 });
  return async ({ session, terminal, options, signal }) => {
    const list = await collect(session.client.iterateResources({ signal }));
    if (options.json) {
      terminal.json({ resources: list });
      return ExitCode.Ok;
    }
    if (list.length === 0) {
      terminal.out(terminal.style.dim('(no resources)'));
      return ExitCode.Ok;
    }
    const rows = list.map((resource) => [
      terminal.style.cyan(sanitize(resource.uri)),
      sanitize(resource.name),
      sanitize(resource.mimeType ?? ''),
      firstLine(resource.description ?? resource.title),
    ]);
    terminal.out(
      renderTable({
        headers: ['URI', 'NAME', 'TYPE', 'DESCRIPTION'],
        rows,
        style: terminal.style,
        width: terminal.width,
      }),
    );
    return ExitCode.Ok;
  };
};
