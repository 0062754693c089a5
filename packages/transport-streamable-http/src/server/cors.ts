import { Cors, type CorsOptions, type CorsPolicy } from '@x/protocol/http';

// One shape for every HTTP handler's `cors` option (legacy SSE has it too).
export type { CorsOptions };

/** What the Streamable HTTP endpoint admits cross-origin. */
const STREAMABLE_HTTP_CORS: CorsPolicy = {
  allowMethods: 'GET, POST, DELETE, OPTIONS',
  // A browser client must be able to read the session id and negotiated version (2025-11-25 sessions).
  exposeHeaders: 'Mcp-Session-Id, MCP-Protocol-Version, WWW-Authenticate',
  allowHeaders:
    'Content-Type, Accept, Authorization, Mcp-Session-Id, MCP-Protocol-Version, Last-Event-ID, Mcp-Method, Mcp-Name',
};

/** The `cors` option as the endpoint's {@link Cors}; undefined when it is off. */
export function streamableHttpCors(option: CorsOptions | boolean | undefined): Cors | undefined {
  return option === undefined || option === false
    ? undefined
    : new Cors(option === true ? {} : option, STREAMABLE_HTTP_CORS);
}
