import { CLIENT_COMMANDS, COMMANDS, type CommandSpec, OPTIONS } from './cli-spec.js';
import type { Style } from './output/style.js';

const optionLabel = (o: (typeof OPTIONS)[number]): string =>
  `${o.short === undefined ? '    ' : `-${o.short}, `}--${o.name}${o.value === undefined ? '' : ` ${o.value}`}`;

/** Without a command: the options every client command takes (those of `serve` etc. are in their help). */
function optionLines(command: string | undefined): string[] {
  const options = OPTIONS.filter((o) =>
    command === undefined
      ? o.commands === undefined || CLIENT_COMMANDS.every((c) => o.commands?.includes(c))
      : o.commands === undefined || o.commands.includes(command),
  );
  const width = Math.max(...options.map((o) => optionLabel(o).length));
  const describe = (o: (typeof OPTIONS)[number]): string =>
    (command === undefined ? undefined : o.descriptions?.[command]) ?? o.description;
  return options.map((o) => `  ${optionLabel(o).padEnd(width)}  ${describe(o)}`);
}

const EXIT_CODES = [
  'Exit codes:',
  '  0    success',
  '  1    the server answered with an error (JSON-RPC error, tool isError, timeout)',
  '  2    usage error (also: a tool argument that is missing or not one of its choices)',
  '  3    connection failure (refused, unreachable, TLS, authorization failed, server process did not',
  '       start or exited, connection lost; serve: cannot listen, e.g. the port is in use)',
  '  130  interrupted (Ctrl-C), except for listen and serve, which exit 0',
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
    '  http://… https://…   Streamable HTTP, falling back to legacy HTTP+SSE on 400/404/405',
    '  ws://… wss://…       WebSocket',
    '  grpc://… grpcs://…   gRPC (the JSON-RPC tunnel); grpcs is TLS: NODE_EXTRA_CA_CERTS trusts a private CA',
    '                       (GRPC_DEFAULT_SSL_ROOTS_FILE_PATH, when set, replaces the trusted roots)',
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
