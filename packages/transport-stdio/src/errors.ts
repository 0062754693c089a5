/**
 * The server process could not be started: the command was not found, is not executable, or the
 * working directory does not exist. `code` is the system error code (`ENOENT`, `EACCES`, …) when known.
 *
 * @example
 * ```ts
 * try {
 *   await transport.start();
 * } catch (error) {
 *   if (error instanceof ProcessSpawnError && error.code === 'ENOENT') console.error('Install the server first');
 * }
 * ```
 */
export class ProcessSpawnError extends Error {
  override readonly name = 'ProcessSpawnError';
  readonly command: string;
  readonly code: string | undefined;

  constructor(command: string, cause: unknown, cwd?: string) {
    const code = errorCode(cause);
    super(`Failed to start MCP server "${command}": ${explain(code, cause, cwd)}`, { cause });
    this.command = command;
    this.code = code;
  }
}

function errorCode(error: unknown): string | undefined {
  if (typeof error !== 'object' || error === null || !('code' in error)) return undefined;
  return typeof error.code === 'string' ? error.code : undefined;
}

function explain(code: string | undefined, cause: unknown, cwd: string | undefined): string {
  switch (code) {
    case 'ENOENT':
      return cwd === undefined
        ? 'command not found (ENOENT)'
        : `command not found, or the working directory "${cwd}" does not exist (ENOENT)`;
    case 'EACCES':
      return 'permission denied: the file is not executable (EACCES)';
    case 'EINVAL':
      // Node refuses `.cmd`/`.bat` files without a shell on Windows (CVE-2024-27980).
      return 'invalid command (EINVAL); on Windows, run batch files through "cmd.exe /c"';
    default:
      return cause instanceof Error ? cause.message : String(cause);
  }
}
