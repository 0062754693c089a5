// `@modelcontextprotocol/sdk/server/stdio.js` of the official SDK 1.x.
export { StdioServerTransport } from './compat-stdio-server-transport.js';
