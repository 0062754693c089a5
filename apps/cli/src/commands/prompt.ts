import { parseArguments } from '../args/tool-arguments.js';
import { ExitCode } from '../exit-codes.js';
import { ContentRenderer } from '../output/content-renderer.js';
import { type ClientCommand, expectPositionals } from './client-command.js';

/** `x-mcp prompt <name> [key=value…]`: the prompt's messages, one block per message. */
export const prompt: ClientCommand = (input) => {
  expectPositionals(input, { names: ['<name>: the prompt to get (see x-mcp prompts)'] });
  const [name = '', ...tokens] = input.positionals;
  const raw = parseArguments({ tokens, json: input.args.values.get('args')?.at(-1), stringsOnly: true });
  // Prompt arguments are strings (server/prompts "Getting a Prompt"); JSON values are sent as text.
  const args = Object.fromEntries(
    Object.entries(raw).map(([k, v]) => [k, typeof v === 'string' ? v : JSON.stringify(v)]),
  );
  return async ({ session, terminal, options, signal }) => {
    const result = await session.client.getPrompt(
      Object.keys(args).length === 0 ? { name } : { name, arguments: args },
      { signal },
    );
    if (options.json) {
      terminal.json(result);
      return ExitCode.Ok;
    }
    const { style } = terminal;
    if (result.description !== undefined) terminal.out(style.dim(result.description));
    const renderer = new ContentRenderer({
      sanitizeText: terminal.stdoutIsTty,
      style,
      outDir: options.out,
      namePrefix: name,
    });
    for (const message of result.messages) {
      terminal.out(`${style.bold(`${message.role}:`)}`);
      const blocks = Array.isArray(message.content) ? message.content : [message.content];
      for (const block of blocks) {
        terminal.out((await renderer.render(block as Record<string, unknown>)).replace(/^/gm, '  '));
      }
    }
    return ExitCode.Ok;
  };
};
