import { readClientOptions, withEnvironmentToken } from './args/client-options.js';
import { closestName } from './args/closest-name.js';
import { parseArgs } from './args/parse-args.js';
import type { ParsedArgs } from './args/parsed-args.js';
import { describeTarget, resolveTarget } from './args/target.js';
import { UsageError } from './args/usage-error.js';
import { COMMANDS, type CommandSpec, OPTIONS } from './cli-spec.js';
import { reportFailure } from './errors/report-failure.js';
import { ExitCode } from './exit-codes.js';
import { renderCommandHelp, renderHelp } from './help.js';
import { type Io, Terminal } from './output/terminal.js';
import type { Session } from './session/open-session.js';
import { cliVersion } from './version.js';

/** Rejects options given to a command they do not apply to (`--port` on `tools`, `--args` on `read`). */
function checkOptionsApply(args: ParsedArgs, spec: CommandSpec): void {
  for (const name of [...args.values.keys(), ...args.flags]) {
    const option = OPTIONS.find((o) => o.name === name);
    if (option?.commands !== undefined && !option.commands.includes(spec.name)) {
      throw new UsageError(`option --${name} does not apply to ${spec.name}`, { command: spec.name });
    }
  }
}

function findCommand(name: string): CommandSpec {
  const spec = COMMANDS.find((c) => c.name === name);
  if (spec !== undefined) return spec;
  const guess = closestName(
    name,
    COMMANDS.map((c) => c.name),
  );
  throw new UsageError(
    `unknown command '${name}'${guess === undefined ? '' : ` (did you mean '${guess}'?)`}`,
  );
}

/**
 * Runs one `x-mcp` invocation and resolves with its exit code; never throws. Results go to stdout,
 * everything else to stderr. `signal` is Ctrl-C: requests are cancelled, and the run ends with 130
 * (`listen`, `serve` and `bridge`: 0, since Ctrl-C is how they are meant to end).
 *
 * @example
 * ```ts
 * process.exitCode = await runCli(process.argv.slice(2), { io: process, signal });
 * ```
 */
export async function runCli(
  argv: readonly string[],
  context: { io: Io; signal: AbortSignal },
): Promise<ExitCode> {
  const { io, signal } = context;
  const terminal = new Terminal(io);
  let parsed: ParsedArgs | undefined;
  let connecting = false;
  let targetName: string | undefined;
  let json = false;
  let session: Session | undefined;
  try {
    parsed = parseArgs(argv, OPTIONS);
    json = parsed.flags.has('json');
    if (parsed.flags.has('version')) {
      terminal.out(cliVersion());
      return ExitCode.Ok;
    }
    if (parsed.command === undefined || parsed.command === 'help') {
      const topic = parsed.command === 'help' ? parsed.positionals[0] : undefined;
      if (topic !== undefined) {
        terminal.out(renderCommandHelp(findCommand(topic), terminal.style));
        return ExitCode.Ok;
      }
      if (parsed.command === undefined && !parsed.flags.has('help')) {
        terminal.err(renderHelp(terminal.errStyle));
        return ExitCode.Usage;
      }
      terminal.out(renderHelp(terminal.style));
      return ExitCode.Ok;
    }
    const spec = findCommand(parsed.command);
    if (parsed.flags.has('help')) {
      terminal.out(renderCommandHelp(spec, terminal.style));
      return ExitCode.Ok;
    }
    checkOptionsApply(parsed, spec);
    if (spec.name === 'serve') {
      if (parsed.serverCommand !== undefined)
        throw new UsageError('serve takes no -- command', { command: 'serve' });
      const { prepareServe } = await import('./serve/serve-command.js');
      return await prepareServe(parsed)({ terminal, signal });
    }
    if (spec.name === 'bridge') {
      const { prepareBridge } = await import('./bridge/bridge-command.js');
      return await prepareBridge(parsed)({ terminal, signal });
    }
    if (spec.name === 'login' || spec.name === 'logout') {
      const { prepareLogin, prepareLogout } = await import('./session/login-command.js');
      const prepared = spec.name === 'login' ? prepareLogin(parsed) : prepareLogout(parsed);
      connecting = true;
      targetName = prepared.url?.href;
      return await prepared.run({ terminal, signal });
    }
    // Loaded only now, so --help, --version and usage errors do not wait for the protocol stack.
    const [{ CLIENT_COMMAND_IMPLEMENTATIONS }, { openSession }, { formatLog }] = await Promise.all([
      import('./commands/registry.js'),
      import('./session/open-session.js'),
      import('./output/format-log.js'),
    ]);
    const implementation = CLIENT_COMMAND_IMPLEMENTATIONS[spec.name];
    if (implementation === undefined) throw new UsageError(`'${spec.name}' is not available yet`);
    const { target, rest } = resolveTarget({
      positionals: parsed.positionals,
      serverCommand: parsed.serverCommand,
      command: spec.name,
    });
    const options = withEnvironmentToken(readClientOptions(parsed), target, terminal.io.env, spec.name);
    const run = implementation({ command: spec.name, positionals: rest, args: parsed, options });
    connecting = true;
    targetName = describeTarget(target);
    session = await openSession({ target, options, terminal, command: spec.name, signal });
    connecting = false;
    if (spec.name !== 'listen') {
      session.client.on('log', (params) => terminal.err(formatLog(params, terminal.errStyle)));
    }
    return await run({ session, terminal, options, signal });
  } catch (error) {
    if (signal.aborted) {
      terminal.err(terminal.errStyle.dim('interrupted'));
      return parsed?.command === 'listen' ? ExitCode.Ok : ExitCode.Interrupted;
    }
    const failure =
      error instanceof UsageError
        ? { exitCode: ExitCode.Usage, message: error.message }
        : (await import('./errors/failure.js')).describeFailure(error, { connecting, target: targetName });
    reportFailure(terminal, failure, {
      json,
      command: error instanceof UsageError ? error.command : undefined,
    });
    return failure.exitCode;
  } finally {
    await session?.close();
  }
}
