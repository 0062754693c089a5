// `@modelcontextprotocol/sdk/server/mcp.js` of the official SDK 1.x.
export { McpServer } from './compat-mcp-server.js';
export type { PromptConfig, ToolConfig } from './compat-mcp-server.js';
export { ResourceTemplate } from './compat-resource-template.js';
export type { ListResourcesCallback } from './compat-resource-template.js';
export type { RegisteredPrompt, RegisteredResource, RegisteredTool, ResourceMetadata } from '@x/server';
export type { RequestHandlerExtra } from '../shared/request-handler-extra.js';
export type {
  AnyToolHandler,
  BaseToolCallback,
  CompleteResourceTemplateCallback,
  McpServerOptions,
  PromptCallback,
  ReadResourceCallback,
  ReadResourceTemplateCallback,
  RegisteredResourceTemplate,
  ToolCallback,
} from './callback-types.js';
