/**
 * The key under which a compat `Server` is handed the x-mcp server it wraps (the one inside an
 * `McpServer`) instead of building its own. Not exported from any entry: only this package uses it.
 */
export const INNER: unique symbol = Symbol('@x/compat inner server');

/**
 * The key of a compat transport that connects itself to an x-mcp server (Streamable HTTP: a session,
 * or a request when stateless, is made by x-mcp's handler, not by the application), and reports each
 * session it serves.
 */
export const ATTACH: unique symbol = Symbol('@x/compat attach');
