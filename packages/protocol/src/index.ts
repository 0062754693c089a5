// Everything but the schemas (no zod at run time): see core.ts.
export * from './core.js';

// MCP message schemas of every revision (zod 4)
// Generated from the schema barrel (`pnpm gen`): every zod `…Schema` of it.
export * from './schemas/generated/schema-values.js';
export {
  clientNotificationSchemas,
  clientRequestSchemas,
  orInputRequired,
  serverNotificationSchemas,
  serverRequestSchemas,
} from './schemas/index.js';
// Tasks on 2026-07-28: the `io.modelcontextprotocol/tasks` extension (SEP-2663)
export { CreateTaskHandleSchema, DetailedTaskSchema } from './tasks/index.js';
