export { mcpTracing, TRACE_CONTEXT_META_KEYS } from './mcp-tracing.js';
export type { McpTracingOptions } from './mcp-tracing.js';
