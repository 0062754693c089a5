/**
 * Connecting failed before any MCP exchange could happen: refused, unreachable, timed out, or the server
 * process could not start. `x-mcp` exits 3 on it.
 */
export class ConnectError extends Error {
  override readonly name = 'ConnectError';
}
