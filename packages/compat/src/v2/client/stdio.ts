// `@modelcontextprotocol/client/stdio` 2.x.
export { DEFAULT_INHERITED_ENV_VARS, getDefaultEnvironment, StdioClientTransport } from '@x/transport-stdio';
export type { StdioClientTransportOptions as StdioServerParameters } from '@x/transport-stdio';
