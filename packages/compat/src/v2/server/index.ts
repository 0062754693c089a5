// `@modelcontextprotocol/server` 2.x (its main entry), for a bundler alias; `@x/compat` itself is the
// union of this entry, `./v2/client` and `./v2/node` (for `npm:` aliases).
export * from '../shared.js';
export { McpServer } from './mcp-server.js';
export type { McpServerOptions, PromptConfig, ToolConfig } from './mcp-server.js';
export { ResourceTemplate } from './resource-template.js';
export type { ListResourcesCallback } from './resource-template.js';
export type { HandlerContext as ServerContext } from './handler-context.js';
export { createMcpHandler } from './create-mcp-handler.js';
export type {
  CreateMcpHandlerOptions,
  McpHttpHandler,
  McpRequestContext,
  McpServerFactory,
} from './create-mcp-handler.js';
export { acceptedContent, inputRequired, inputResponse, isInputRequiredResult } from './input-required.js';
export type { InputRequest, InputRequiredResult, InputResponseView } from './input-required.js';
export { completable, isCompletable } from '../../server/mark-completable.js';
export { WebStandardStreamableHTTPServerTransport } from '../../server/compat-web-standard-streamable-http-server-transport.js';
export type {
  HandleRequestOptions,
  WebStandardStreamableHTTPServerTransportOptions,
} from '../../server/compat-web-standard-streamable-http-server-transport.js';
export type { EventId, StreamId } from '../../server/streamableHttp.js';
export type { RegisteredPrompt, RegisteredResource, RegisteredTool, ResourceMetadata } from '@x/server';
