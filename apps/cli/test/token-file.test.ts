import { homedir } from 'node:os';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { configDir, tokenFile } from '../src/session/token-file.js';

describe('where x-mcp keeps tokens', () => {
  it('X_MCP_CONFIG_DIR wins, then XDG_CONFIG_HOME/x-mcp, then ~/.config/x-mcp', () => {
    expect(configDir({ X_MCP_CONFIG_DIR: '/tmp/a', XDG_CONFIG_HOME: '/tmp/b' })).toBe('/tmp/a');
    expect(configDir({ XDG_CONFIG_HOME: '/tmp/b' })).toBe(join('/tmp/b', 'x-mcp'));
    // Empty values count as unset (a shell's `VAR= x-mcp …`).
    expect(configDir({ X_MCP_CONFIG_DIR: '', XDG_CONFIG_HOME: '' })).toBe(
      join(homedir(), '.config', 'x-mcp'),
    );
    expect(tokenFile({ X_MCP_CONFIG_DIR: '/tmp/a' })).toBe(join('/tmp/a', 'tokens.json'));
  });
});
