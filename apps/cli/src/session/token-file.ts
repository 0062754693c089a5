import { homedir } from 'node:os';
import { join } from 'node:path';

/**
 * The folder x-mcp keeps its state in: `$X_MCP_CONFIG_DIR`, else `$XDG_CONFIG_HOME/x-mcp`, else
 * `~/.config/x-mcp` (`%APPDATA%\x-mcp` on Windows).
 *
 * @example
 * ```ts
 * configDir({ X_MCP_CONFIG_DIR: '/tmp/x' }); // '/tmp/x'
 * ```
 */
export function configDir(env: NodeJS.ProcessEnv = process.env): string {
  const own = env['X_MCP_CONFIG_DIR'];
  if (own !== undefined && own !== '') return own;
  const xdg = env['XDG_CONFIG_HOME'];
  if (xdg !== undefined && xdg !== '') return join(xdg, 'x-mcp');
  const appData = env['APPDATA'];
  if (process.platform === 'win32' && appData !== undefined) return join(appData, 'x-mcp');
  return join(homedir(), '.config', 'x-mcp');
}

/**
 * The token cache: one 0600 JSON file, one entry per MCP server URL.
 *
 * @example
 * ```ts
 * tokenFile({ XDG_CONFIG_HOME: '/home/ada/.config' }); // '/home/ada/.config/x-mcp/tokens.json'
 * ```
 */
export function tokenFile(env: NodeJS.ProcessEnv = process.env): string {
  return join(configDir(env), 'tokens.json');
}
