import { closeSync, openSync, readSync } from 'node:fs';
import { UsageError } from './usage-error.js';

/** The largest token file x-mcp reads: a bearer token is a few KB at most; the rest is a mistake. */
export const MAX_TOKEN_FILE_BYTES = 16 * 1024;

/**
 * A token file's text without surrounding white space (an editor's final newline), for `--token-file`
 * and `serve --auth-token-file`: a secret in a file stays out of the process list. Errors name the
 * option and the path, never the content. At most `MAX_TOKEN_FILE_BYTES` + 1 bytes are read, so
 * `--token-file /dev/zero` is an error, not a hang.
 *
 * @example
 * ```ts
 * const token = readTokenFile('/run/secrets/mcp', { option: '--token-file', command: 'tools' });
 * ```
 */
export function readTokenFile(
  path: string,
  context: { option: string; command: string | undefined },
): string {
  const { option, command } = context;
  const buffer = Buffer.alloc(MAX_TOKEN_FILE_BYTES + 1);
  let length = 0;
  let fd: number | undefined;
  try {
    fd = openSync(path, 'r');
    for (;;) {
      const read = readSync(fd, buffer, length, buffer.length - length, null);
      length += read;
      if (read === 0 || length === buffer.length) break;
    }
  } catch (error) {
    const code = (error as NodeJS.ErrnoException).code ?? 'unreadable';
    throw new UsageError(`cannot read ${option} ${path} (${code})`, { command });
  } finally {
    if (fd !== undefined) closeSync(fd);
  }
  if (length > MAX_TOKEN_FILE_BYTES) {
    throw new UsageError(`${option} ${path} is larger than ${MAX_TOKEN_FILE_BYTES} bytes`, { command });
  }
  return buffer.subarray(0, length).toString('utf8').trim();
}
