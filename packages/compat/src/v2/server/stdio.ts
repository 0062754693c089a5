// `@modelcontextprotocol/server/stdio` 2.x.
export { StdioServerTransport } from '../../server/compat-stdio-server-transport.js';
export { serveStdio } from './serve-stdio.js';
export type { ServeStdioOptions, StdioServerHandle } from './serve-stdio.js';
