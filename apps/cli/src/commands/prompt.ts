import type { Prompt } from '@x/protocol';
import { parseArguments } from '../args/tool-arguments.js';
import { UsageError } from '../args/usage-error.js';
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
    // Required arguments are checked before the prompt is asked for (exit 2), as `call` does for tools.
    const declared = await findPrompt(session.client.iteratePrompts({ signal }), name).catch(() => undefined);
    const missing = (declared?.arguments ?? [])
      .filter((argument) => argument.required === true && !Object.hasOwn(args, argument.name))
      .map((argument) => argument.name);
    if (missing.length > 0) {
      throw new UsageError(
        `missing required argument${missing.length === 1 ? '' : 's'} ${missing.join(', ')} of prompt ${name} (x-mcp prompts lists them; * = required)`,
        { command: 'prompt' },
      );
    }
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

async function findPrompt(iterate: AsyncIterable<Prompt>, name: string): Promise<Prompt | undefined> {
  for await (const prompt of iterate) if (prompt.name === name) return prompt;
  return undefined;
}
