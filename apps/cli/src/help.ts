import { CLIENT_COMMANDS, COMMANDS, type CommandSpec, OPTIONS } from './cli-spec.js';
import type { Style } from './output/style.js';

const optionLabel = (o: (typeof OPTIONS)[number]): string =>
  `${o.short === undefined ? '    ' : `-${o.short}, `}--${o.name}${o.value === undefined ? '' : ` ${o.value}`}`;

function optionLines(command: string | undefined): string[] {
  const options = OPTIONS.filter((o) =>
    command === undefined
      ? o.commands === undefined || o.commands === CLIENT_COMMANDS
      : o.commands === undefined || o.commands.includes(command),
  );
  const width = Math.max(...options.map((o) => optionLabel(o).length));
  return options.map((o) => `  ${optionLabel(o).padEnd(width)}  ${o.description}`);
}

const EXIT_CODES = [
  'Exit codes:',
  '  0  success',
  '  1  the server answered with an error (JSON-RPC error, tool isError, timeout)',
  '  2  usage error',
  '  3  connection failure (refused, unreachable, authorization failed, server did not start, connection lost)',
  '  130  interrupted (Ctrl-C), except for listen',
];

/** `x-mcp --help`: every command, the target forms, the common options, the exit codes. */
export function renderHelp(style: Style): string {
  const width = Math.max(...COMMANDS.map((c) => c.name.length));
  return [
    `${style.bold('x-mcp')} — talk to any MCP server from the command line`,
    '',
    `${style.bold('Usage:')} x-mcp <command> [options] <target>`,
    '',
    style.bold('Targets:'),
    '  http://… https://…   Streamable HTTP, falling back to legacy HTTP+SSE',
    '  ws://… wss://…       WebSocket',
    '  -- <command> [args…] a stdio server this process starts (must come last)',
    '',
    style.bold('Commands:'),
    ...COMMANDS.map((c) => `  ${c.name.padEnd(width)}  ${c.summary}`),
    '',
    style.bold('Options:'),
    ...optionLines(undefined),
    '',
    ...EXIT_CODES,
    '',
    `Run ${style.bold('x-mcp help <command>')} for a command's options and examples.`,
    '',
  ].join('\n');
}

/** `x-mcp help <command>`: usage line, summary, options that apply, examples. */
export function renderCommandHelp(spec: CommandSpec, style: Style): string {
  return [
    `${style.bold('Usage:')} x-mcp ${spec.usage}`,
    '',
    spec.summary,
    '',
    style.bold('Options:'),
    ...optionLines(spec.name),
    '',
    style.bold('Examples:'),
    ...spec.examples.map((e) => `  ${e}`),
    '',
  ].join('\n');
}
