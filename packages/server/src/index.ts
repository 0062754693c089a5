export { Server } from './server.js';
export type { ParamsSchema, ServerNotificationHandler, ServerRequestHandler } from './server-core.js';
export { DEFAULT_MAX_SUBSCRIPTIONS } from './server-options.js';
export type { CacheHint, ConnectOptions, ServedEras, ServerInfo, ServerOptions } from './server-options.js';
export { ServerContext } from './server-context.js';
export type { LogEntry, RunAsTaskOptions, TaskHandle } from './server-context.js';
export type { ServerTaskOptions } from './tasks/server-tasks.js';
export type { InputOptions } from './input-requests.js';
export { ServerSession } from './session/server-session.js';
export type { LegacyHandshake } from './session/server-session.js';
export { DEFAULT_MAX_REQUEST_STATE_BYTES, DEFAULT_REQUEST_STATE_TTL_MS } from './modern/request-state.js';
export type { RequestStateOptions } from './modern/request-state.js';
export { UriTemplate, UriTemplateError, isUriTemplate } from './uri-template.js';
export type { UriTemplateValue, UriTemplateVariables } from './uri-template.js';
export { DEFAULT_LIST_CHANGED_DEBOUNCE_MS, McpServer } from './mcp-server.js';
export type { McpServerOptions } from './mcp-server.js';
export { ResourceTemplate } from './mcp/resource-template.js';
export type { CompleteCallback, ListResourcesCallback } from './mcp/resource-template.js';
export type {
  ReadResourceCallback,
  ReadTemplateCallback,
  RegisteredResource,
  ResourceMetadata,
} from './mcp/resource-registry.js';
export type { RegisteredTool, ToolConfig, ToolHandler, ToolResult, ToolUpdate } from './mcp/tool-config.js';
export type { PromptConfig, PromptHandler, RegisteredPrompt } from './mcp/prompt-registry.js';
export type {
  InferSchema,
  InferShape,
  JsonSchemaObject,
  RawShape,
  SchemaInput,
  StandardSchemaLike,
} from './mcp/schema-adapter.js';
export { callerKey, RATE_LIMITED, rateLimit } from './rate-limit.js';
export type { RateLimitOptions } from './rate-limit.js';
