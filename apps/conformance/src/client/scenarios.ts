import type { Client } from '@x/client';
import { McpError } from '@x/protocol';

/** What a scenario handler gets: the connected client and the parsed `MCP_CONFORMANCE_CONTEXT`. */
export interface ScenarioContext {
  client: Client;
  context: Record<string, unknown>;
}

export type ScenarioHandler = (ctx: ScenarioContext) => Promise<void>;

/** `initialize` (and the basic auth flows): the handshake, then one request. */
const listTools: ScenarioHandler = async ({ client }) => {
  await client.listTools();
};

/**
 * The `auth/*` scenarios: list tools, then call the mock's `test-tool` (the step-up scenarios need a
 * second operation with a wider scope).
 */
const authorizedCalls: ScenarioHandler = async ({ client }) => {
  const { tools } = await client.listTools();
  if (tools.some((tool) => tool.name === 'test-tool'))
    await client.callTool({ name: 'test-tool', arguments: {} });
};

/** Calls one tool that the mock server must have listed. */
function callListedTool(name: string, args: Record<string, unknown> = {}): ScenarioHandler {
  return async ({ client }) => {
    const { tools } = await client.listTools();
    if (!tools.some((tool) => tool.name === name)) throw new Error(`the server does not list ${name}`);
    await client.callTool({ name, arguments: args });
  };
}

/**
 * Uses every listed tool, resource and prompt once, with empty arguments: what the header scenarios
 * (SEP-2243) watch is the request shape, so an error answer (say, a missing required argument) is
 * logged and passed over. Tools the client dropped for an invalid `x-mcp-header` annotation are not
 * listed, so they are never called.
 */
const exerciseEverything: ScenarioHandler = async ({ client }) => {
  const capabilities = client.serverCapabilities ?? {};
  for (const tool of (await client.listTools()).tools)
    await answered(client.callTool({ name: tool.name, arguments: {} }));
  if (capabilities.resources !== undefined) {
    for (const resource of (await client.listResources()).resources)
      await answered(client.readResource({ uri: resource.uri }));
  }
  if (capabilities.prompts !== undefined) {
    for (const prompt of (await client.listPrompts()).prompts)
      await answered(client.getPrompt({ name: prompt.name }));
  }
};

/** Waits for a request; a JSON-RPC error answer is logged, any other failure still throws. */
async function answered(request: Promise<unknown>): Promise<void> {
  try {
    await request;
  } catch (error) {
    if (!(error instanceof McpError)) throw error;
    console.error(`[client] server answered ${error.code}: ${error.message}`);
  }
}

/** `http-custom-headers`: the calls to make come in the context (SEP-2243 `Mcp-Param-*` mirroring). */
const contextToolCalls: ScenarioHandler = async ({ client, context }) => {
  await client.listTools();
  const calls = (context['toolCalls'] ?? []) as Array<{ name: string; arguments?: Record<string, unknown> }>;
  for (const call of calls) await client.callTool({ name: call.name, arguments: call.arguments ?? {} });
};

/** `json-schema-2020-12-preservation`: hand the focal tool's inputSchema back, untouched, to the echo tool. */
const echoSchema: ScenarioHandler = async ({ client }) => {
  const { tools } = await client.listTools();
  const focal = tools.find((tool) => tool.name === 'json_schema_2020_12_tool');
  if (focal === undefined) throw new Error('the server does not list json_schema_2020_12_tool');
  await client.callTool({ name: 'json_schema_echo', arguments: { schema: focal.inputSchema } });
};

/**
 * `sep-2322-client-request-state` (SEP-2322): the client library runs the input_required loop; the
 * unrelated call runs alongside the first one to show state does not leak between requests.
 */
const multiRoundTrip: ScenarioHandler = async ({ client }) => {
  client.setElicitationHandler(() => ({ action: 'accept', content: { confirmed: true } }));
  await client.listTools();
  const call = (name: string) => client.callTool({ name, arguments: {} });
  await Promise.all([call('test_mrtr_echo_state'), call('test_mrtr_unrelated')]);
  await call('test_mrtr_no_state');
  await call('test_mrtr_no_result_type');
};

// Authorization scenarios: the OAuth client has not landed, so these only connect (and fail at the
// 401); they are listed in the client baselines.
const AUTH_SCENARIOS = [
  'auth/metadata-default',
  'auth/metadata-var1',
  'auth/metadata-var2',
  'auth/metadata-var3',
  'auth/basic-cimd',
  'auth/scope-from-www-authenticate',
  'auth/scope-from-scopes-supported',
  'auth/scope-omitted-when-undefined',
  'auth/scope-step-up',
  'auth/scope-retry-limit',
  'auth/token-endpoint-auth-basic',
  'auth/token-endpoint-auth-post',
  'auth/token-endpoint-auth-none',
  'auth/pre-registration',
  'auth/2025-03-26-oauth-metadata-backcompat',
  'auth/2025-03-26-oauth-endpoint-fallback',
  'auth/resource-mismatch',
  'auth/offline-access-scope',
  'auth/offline-access-not-supported',
  'auth/authorization-server-migration',
  'auth/iss-supported',
  'auth/iss-not-advertised',
  'auth/iss-supported-missing',
  'auth/iss-wrong-issuer',
  'auth/iss-unexpected',
  'auth/iss-normalized',
  'auth/metadata-issuer-mismatch',
  'auth/client-credentials-jwt',
  'auth/client-credentials-basic',
  'auth/enterprise-managed-authorization',
  'auth/dpop',
  'auth/dpop-nonce',
  'auth/wif-jwt-bearer',
];

/** Scenario name (exactly as the suite spells it, CONFORMANCE.md §3) → what the client does. */
export const SCENARIOS: ReadonlyMap<string, ScenarioHandler> = new Map<string, ScenarioHandler>([
  ['initialize', listTools],
  ['tools_call', callListedTool('add_numbers', { a: 5, b: 3 })],
  ['elicitation-sep1034-client-defaults', callListedTool('test_client_elicitation_defaults')],
  ['sse-retry', callListedTool('test_reconnection')],
  ['request-metadata', listTools],
  ['sep-2322-client-request-state', multiRoundTrip],
  ['http-standard-headers', exerciseEverything],
  ['http-custom-headers', contextToolCalls],
  ['http-invalid-tool-headers', exerciseEverything],
  ['json-schema-ref-no-deref', listTools],
  ['json-schema-2020-12-preservation', echoSchema],
  // Skills extension (SEP-2640): a host that does not load skills must fetch nothing, so listing is all.
  ['sep-2640-client-no-prefetch', listTools],
  ['sep-2640-client-verify-digest', listTools],
  ['sep-2640-client-verify-size', listTools],
  ['sep-2640-client-verify-frontmatter', listTools],
  ...AUTH_SCENARIOS.map((name): [string, ScenarioHandler] => [name, authorizedCalls]),
]);
