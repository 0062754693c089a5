/**
 * Variables a spawned server inherits by default. A server needs enough to find programs and write to its
 * home directory, but not the parent's secrets (API keys, tokens) that happen to sit in its environment.
 *
 * @example
 * ```ts
 * // The names a POSIX server inherits unless `inheritEnv` is set:
 * console.log(DEFAULT_INHERITED_ENV_VARS.posix.join(' ')); // HOME LOGNAME PATH SHELL TERM USER …
 * ```
 */
export const DEFAULT_INHERITED_ENV_VARS: {
  readonly posix: readonly string[];
  readonly win32: readonly string[];
} = {
  posix: ['HOME', 'LOGNAME', 'PATH', 'SHELL', 'TERM', 'USER', 'LANG', 'LC_ALL', 'LC_CTYPE', 'TMPDIR', 'TZ'],
  win32: [
    'APPDATA',
    'COMSPEC',
    'HOMEDRIVE',
    'HOMEPATH',
    'LOCALAPPDATA',
    'PATH',
    'PATHEXT',
    'PROCESSOR_ARCHITECTURE',
    'PROGRAMDATA',
    'PROGRAMFILES',
    'PROGRAMFILES(X86)',
    'SYSTEMDRIVE',
    'SYSTEMROOT',
    'TEMP',
    'TMP',
    'USERDOMAIN',
    'USERNAME',
    'USERPROFILE',
    'WINDIR',
  ],
};

/**
 * Options of `getDefaultEnvironment()`: which platform's list, and where values come from.
 *
 * @example
 * ```ts
 * // What a Windows server would get, computed from a given environment (e.g. in a test).
 * const env = getDefaultEnvironment({ platform: 'win32', source: { PATH: 'C:\\Windows', SECRET: 'x' } });
 * // { PATH: 'C:\\Windows' }
 * ```
 */
export interface DefaultEnvironmentOptions {
  /** Which list to use. Default: the current platform. */
  platform?: NodeJS.Platform | undefined;
  /** Where to read values from. Default: `process.env`. */
  source?: NodeJS.ProcessEnv | Readonly<Record<string, string | undefined>> | undefined;
}

/**
 * The environment a server gets unless told otherwise: the platform's short list of harmless variables
 * ({@link DEFAULT_INHERITED_ENV_VARS}), copied from the parent where set.
 *
 * @example
 * ```ts
 * const env = { ...getDefaultEnvironment(), MY_SERVER_TOKEN: token };
 * ```
 */
export function getDefaultEnvironment(options: DefaultEnvironmentOptions = {}): Record<string, string> {
  const platform = options.platform ?? process.platform;
  const source = options.source ?? process.env;
  const names = platform === 'win32' ? DEFAULT_INHERITED_ENV_VARS.win32 : DEFAULT_INHERITED_ENV_VARS.posix;
  // Windows variable names are case-insensitive (`Path` vs `PATH`); `process.env` handles that itself,
  // but a plain object passed as `source` does not.
  const lookup = platform === 'win32' && source !== process.env ? caseInsensitive(source) : undefined;
  const env: Record<string, string> = {};
  for (const name of names) {
    const value = lookup === undefined ? source[name] : lookup.get(name.toUpperCase());
    // A value starting with `()` is an exported shell function: a classic injection vector, never needed.
    if (value === undefined || value.startsWith('()')) continue;
    env[name] = value;
  }
  return env;
}

function caseInsensitive(source: Readonly<Record<string, string | undefined>>): Map<string, string> {
  const map = new Map<string, string>();
  for (const [name, value] of Object.entries(source)) {
    if (value !== undefined) map.set(name.toUpperCase(), value);
  }
  return map;
}

/**
 * The environment for one spawn: the base (default list, or the whole parent environment when
 * `inheritAll`), then `overrides` on top; an override of `undefined` removes a variable.
 */
export function buildEnvironment(
  overrides: Readonly<Record<string, string | undefined>> | undefined,
  inheritAll: boolean,
): Record<string, string> {
  const env: Record<string, string> = {};
  if (inheritAll) {
    for (const [name, value] of Object.entries(process.env)) if (value !== undefined) env[name] = value;
  } else {
    Object.assign(env, getDefaultEnvironment());
  }
  if (overrides !== undefined) {
    for (const [name, value] of Object.entries(overrides)) {
      if (value === undefined) delete env[name];
      else env[name] = value;
    }
  }
  return env;
}
