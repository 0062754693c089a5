// apps/examples publishes no `exports` map and emits no declarations, so the fixture is imported from
// its built file and typed here. Drop this file once @x/examples exports `./everything-server` with types.
declare module '@x/examples/dist/everything-server.js' {
  import type { McpServer } from '@x/server';

  /** The conformance fixture server (apps/examples/src/everything-server.ts). */
  export function createEverythingServer(): McpServer;
}
