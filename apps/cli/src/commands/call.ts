import type { CallToolResult, Tool } from '@x/protocol';
import { checkArguments } from '../args/check-arguments.js';
import { parseArguments } from '../args/tool-arguments.js';
import { ExitCode } from '../exit-codes.js';
import { ContentRenderer } from '../output/content-renderer.js';
import { ProgressBar, type ProgressUpdate } from '../output/progress-bar.js';
import type { Terminal } from '../output/terminal.js';
import { type ClientCommand, expectPositionals } from './client-command.js';
import { callTask, runsAsTask } from './task-call.js';

/** Whether some text block already shows `structured` (spec: tools SHOULD also return it as text). */
function shownAsText(result: CallToolResult): boolean {
  const expected = JSON.stringify(result.structuredContent);
  return result.content.some((block) => {
    if (block.type !== 'text') return false;
    try {
      return JSON.stringify(JSON.parse(block.text)) === expected;
    } catch {
      return false;
    }
  });
}

async function findTool(iterate: AsyncIterable<Tool>, name: string): Promise<Tool | undefined> {
  for await (const tool of iterate) if (tool.name === name) return tool;
  return undefined;
}

async function renderResult(
  result: CallToolResult,
  terminal: Terminal,
  options: { tool: string; out: string | undefined },
): Promise<void> {
  const renderer = new ContentRenderer({
    // An error result goes to stderr: sanitize for whichever terminal shows it.
    sanitizeText: result.isError === true ? terminal.stderrIsTty : terminal.stdoutIsTty,
    style: terminal.style,
    outDir: options.out,
    namePrefix: options.tool,
  });
  const write = result.isError === true ? (t: string) => terminal.err(t) : (t: string) => terminal.out(t);
  if (result.isError === true) terminal.err(terminal.errStyle.red(`Tool ${options.tool} reported an error:`));
  for (const block of result.content) write(await renderer.render(block as Record<string, unknown>));
  if (result.structuredContent !== undefined && !shownAsText(result)) {
    write(terminal.style.dim('structured content:'));
    write(JSON.stringify(result.structuredContent, null, 2));
  }
}

/**
 * `x-mcp call <tool> [key=value…]`: looks the tool up first (its input schema types the `key=value`
 * arguments, and the client checks `structuredContent` against its output schema), then calls it with
 * a progress bar on a terminal. A task-capable tool runs as a task to completion (2025-11-25 tasks, or
 * the 2026-07-28 extension when the server creates one), with a status line; Ctrl-C cancels the task.
 * A result with `isError` exits 1, its content on stderr.
 */
export const call: ClientCommand = (input) => {
  expectPositionals(input, { names: ['<tool>: the name of the tool to call (see x-mcp tools)'] });
  const [name = '', ...tokens] = input.positionals;
  const json = input.args.values.get('args')?.at(-1);
  // Shape errors (a token that is neither key=value nor JSON) surface before connecting.
  parseArguments({ tokens, json });
  return async ({ session, terminal, options, signal }) => {
    const { client } = session;
    const tool = await findTool(client.iterateTools({ signal }), name).catch(() => undefined);
    const args = parseArguments({ tokens, json, schema: tool?.inputSchema });
    // Required and enum arguments are checked here, before the call is sent (exit 2 on a mistake).
    if (tool !== undefined) checkArguments(args, tool.inputSchema, name);
    const bar =
      terminal.stderrIsTty && !options.json
        ? new ProgressBar({ stream: terminal.io.stderr, style: terminal.errStyle })
        : undefined;
    terminal.transient = bar;
    // Always ask for progress, bar or not: each notification restarts the --timeout clock (the
    // engine's resetTimeoutOnProgress), so a long call that reports progress is not cut off in a script.
    const onprogress = (progress: ProgressUpdate): void => bar?.update(progress);
    let result: CallToolResult;
    let lastStatus: string | undefined;
    try {
      result = runsAsTask(client, tool)
        ? await callTask({
            client,
            name,
            args,
            signal,
            terminal,
            onprogress,
            // A live status line on a terminal; one line per status otherwise (not with --json).
            status: (line) => {
              if (line === lastStatus) return;
              lastStatus = line;
              if (bar !== undefined) bar.status(line);
              else if (!options.json) terminal.err(line);
            },
          })
        : await client.callTool({ name, arguments: args }, { signal, onprogress });
    } finally {
      bar?.clear();
      terminal.transient = undefined;
    }
    if (options.json) terminal.json(result);
    else await renderResult(result, terminal, { tool: name, out: options.out });
    return result.isError === true ? ExitCode.ProtocolError : ExitCode.Ok;
  };
};
