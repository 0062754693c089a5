/** ANSI styling that turns itself off: `NO_COLOR` (no-color.org), a stream that is not a terminal. */
export interface Style {
  readonly enabled: boolean;
  bold(text: string): string;
  dim(text: string): string;
  red(text: string): string;
  green(text: string): string;
  yellow(text: string): string;
  cyan(text: string): string;
}

/**
 * Whether to color a stream: `NO_COLOR` (any non-empty value) wins, then `FORCE_COLOR` (non-empty and
 * not `0`), then whether the stream is a TTY.
 */
export function colorEnabled(stream: { isTTY?: boolean | undefined }, env: NodeJS.ProcessEnv): boolean {
  if (env['NO_COLOR'] !== undefined && env['NO_COLOR'] !== '') return false;
  const force = env['FORCE_COLOR'];
  if (force !== undefined && force !== '' && force !== '0') return true;
  return stream.isTTY === true && env['TERM'] !== 'dumb';
}

/**
 * @example
 * ```ts
 * const style = createStyle(colorEnabled(process.stdout, process.env));
 * process.stdout.write(style.bold('Tools') + '\n');
 * ```
 */
export function createStyle(enabled: boolean): Style {
  const wrap =
    (open: number, close: number) =>
    (text: string): string =>
      enabled && text !== '' ? `\u001b[${open}m${text}\u001b[${close}m` : text;
  return {
    enabled,
    bold: wrap(1, 22),
    dim: wrap(2, 22),
    red: wrap(31, 39),
    green: wrap(32, 39),
    yellow: wrap(33, 39),
    cyan: wrap(36, 39),
  };
}

/** Text without ANSI escapes, for measuring how wide it prints. */
export function stripAnsi(text: string): string {
  // biome-ignore lint/suspicious/noControlCharactersInRegex: matching the escape character is the point
  return text.replace(/\u001b\[[0-9;]*m/g, '');
}
