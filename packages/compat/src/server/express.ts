// `@modelcontextprotocol/sdk/server/express.js` of the official SDK 1.x.
export { createMcpExpressApp } from './create-mcp-express-app.js';
export type { CreateMcpExpressAppOptions } from './create-mcp-express-app.js';
