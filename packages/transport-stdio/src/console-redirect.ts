import { Console } from 'node:console';

/**
 * The `console` methods that print to stdout. `warn`, `error`, `trace` and `assert` already print to
 * stderr and are left alone.
 */
const STDOUT_METHODS = [
  'log',
  'info',
  'debug',
  'dir',
  'dirxml',
  'table',
  'group',
  'groupCollapsed',
  'count',
  'time',
  'timeEnd',
  'timeLog',
] as const;

type StdoutMethod = (typeof STDOUT_METHODS)[number];
type ConsoleMethod = (...args: unknown[]) => void;

let owners = 0;
let saved: Map<StdoutMethod, ConsoleMethod> | undefined;
let installed: Map<StdoutMethod, ConsoleMethod> | undefined;

/**
 * While a stdio server owns `process.stdout`, every line on it must be a JSON-RPC message (stdio: "The
 * server MUST NOT write anything to its stdout that is not a valid MCP message"). A stray `console.log`
 * in a tool handler would otherwise reach the client as protocol input, and a line that happens to look
 * like a response to a pending request would be taken as one. So the stdout-printing `console` methods
 * print to stderr ("The server MAY write UTF-8 strings to its standard error for logging purposes")
 * until the last owner lets go. Counted, so two transports on the process's stdout share one redirect.
 */
export function redirectConsoleToStderr(): void {
  owners++;
  if (owners > 1) return;
  const target = new Console({ stdout: process.stderr, stderr: process.stderr });
  const global = console as unknown as Record<StdoutMethod, ConsoleMethod>;
  const replacements = target as unknown as Record<StdoutMethod, ConsoleMethod>;
  saved = new Map();
  installed = new Map();
  for (const name of STDOUT_METHODS) {
    const original = global[name];
    const replacement = replacements[name];
    if (typeof original !== 'function' || typeof replacement !== 'function') continue;
    saved.set(name, original);
    const bound = replacement.bind(target);
    installed.set(name, bound);
    global[name] = bound;
  }
}

/** Undoes `redirectConsoleToStderr` once every owner released it; a method replaced since is kept. */
export function restoreConsole(): void {
  if (owners === 0) return;
  owners--;
  if (owners > 0 || saved === undefined || installed === undefined) return;
  const global = console as unknown as Record<StdoutMethod, ConsoleMethod>;
  for (const [name, original] of saved) {
    // Someone else patched it after us (a test spy, a logger): theirs stays.
    if (global[name] === installed.get(name)) global[name] = original;
  }
  saved = undefined;
  installed = undefined;
}
