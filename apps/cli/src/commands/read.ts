import { ExitCode } from '../exit-codes.js';
import { ContentRenderer } from '../output/content-renderer.js';
import { sanitize } from '../output/sanitize.js';
import { type ClientCommand, expectPositionals } from './client-command.js';

/** `x-mcp read <uri>`: a resource's contents; binary ones as type and size, or saved with `--out`. */
export const read: ClientCommand = (input) => {
  expectPositionals(input, { names: ['<uri>: the resource to read (see x-mcp resources)'], max: 1 });
  const uri = input.positionals[0] ?? '';
  return async ({ session, terminal, options, signal }) => {
    const result = await session.client.readResource({ uri }, { signal });
    if (options.json) {
      terminal.json(result);
      return ExitCode.Ok;
    }
    const renderer = new ContentRenderer({
      sanitizeText: terminal.stdoutIsTty,
      style: terminal.style,
      outDir: options.out,
      namePrefix: 'resource',
    });
    const single = result.contents.length === 1;
    for (const contents of result.contents) {
      const rendered = await renderer.resource(contents as Record<string, unknown>);
      // One text resource prints bare, so `x-mcp read … > file` gets exactly its text.
      const text = contents['text'];
      terminal.out(
        single && typeof text === 'string' ? (terminal.stdoutIsTty ? sanitize(text) : text) : rendered,
      );
    }
    return ExitCode.Ok;
  };
};
