import { ErrorCode, McpError } from '@x/protocol';
import { McpServer, ResourceTemplate, type ServerContext } from '@x/server';
import { z } from 'zod';
import { registerTaskTools } from './everything-tasks.js';

/**
 * The fixture server the MCP conformance suite drives (CONFORMANCE.md §3): every tool, resource and
 * prompt name with the texts and behaviours the scenarios check, for both protocol eras at once.
 */

/** A 1×1 red PNG. */
export const TEST_IMAGE_BASE64 =
  'iVBORw0KGgoAAAANSUhEUgAAAAEAAAABCAYAAAAfFcSJAAAADUlEQVR42mP8z8DwHwAFBQIAX8jx0gAAAABJRU5ErkJggg==';
/** A minimal 8 kHz mono WAV with one silent sample. */
export const TEST_AUDIO_BASE64 = 'UklGRiYAAABXQVZFZm10IBAAAAABAAEAQB8AAAB9AAACABAAZGF0YQIAAAA=';

/** A raw JSON Schema 2020-12 that `tools/list` must return verbatim (SEP-1613). */
export const JSON_SCHEMA_2020_12_INPUT_SCHEMA = {
  $schema: 'https://json-schema.org/draft/2020-12/schema',
  type: 'object',
  $defs: {
    address: {
      $anchor: 'address',
      type: 'object',
      properties: { street: { type: 'string' }, city: { type: 'string' } },
    },
  },
  properties: {
    name: { type: 'string' },
    address: { $ref: '#/$defs/address' },
    contact: {
      anyOf: [
        { type: 'string', format: 'email' },
        { type: 'string', pattern: '^\\+?[0-9 ]+$' },
      ],
    },
    kind: { type: 'string', enum: ['person', 'company'] },
    vat: { type: 'string' },
  },
  // Composition nested in composition, kept verbatim (SEP-2106); the anyOf admits every object.
  allOf: [
    { anyOf: [{ required: ['name'] }, { not: { required: ['name'] } }] },
    { not: { required: ['unused'] } },
  ],
  if: { properties: { kind: { const: 'company' } }, required: ['kind'] },
  // biome-ignore lint/suspicious/noThenProperty: the JSON Schema if/then/else keyword, kept verbatim
  then: { required: ['vat'] },
  else: {},
  additionalProperties: false,
};

const sleep = (ms: number) => new Promise((resolve) => setTimeout(resolve, ms));
const text = (value: string) => ({ content: [{ type: 'text' as const, text: value }] });
const nameSchema = (property: string) => ({
  type: 'object' as const,
  properties: { [property]: { type: 'string' as const } },
  required: [property],
});

export function createEverythingServer(): McpServer {
  const server = new McpServer(
    { name: 'x-mcp-everything-server', version: '1.0.0', title: 'x-mcp everything server' },
    {
      instructions: 'Conformance fixture server for x-mcp.',
      listChangedDebounceMs: 0,
      // Tasks in both eras: 2025-11-25 experimental tasks and the 2026-07-28 extension (SEP-2663).
      tasks: { pollIntervalMs: 500 },
    },
  );
  registerContentTools(server);
  registerInteractiveTools(server);
  registerModernTools(server);
  registerInputRequiredTools(server);
  registerTaskTools(server);
  registerResources(server);
  registerPrompts(server);
  return server;
}

function registerContentTools(server: McpServer): void {
  server.registerTool('test_simple_text', { description: 'Tests simple text content response' }, () =>
    text('This is a simple text response for testing.'),
  );
  server.registerTool('test_image_content', { description: 'Tests image content response' }, () => ({
    content: [{ type: 'image', data: TEST_IMAGE_BASE64, mimeType: 'image/png' }],
  }));
  server.registerTool('test_audio_content', { description: 'Tests audio content response' }, () => ({
    content: [{ type: 'audio', data: TEST_AUDIO_BASE64, mimeType: 'audio/wav' }],
  }));
  server.registerTool(
    'test_embedded_resource',
    { description: 'Tests embedded resource content response' },
    () => ({
      content: [
        {
          type: 'resource',
          resource: {
            uri: 'test://embedded-resource',
            mimeType: 'text/plain',
            text: 'This is an embedded resource content.',
          },
        },
      ],
    }),
  );
  server.registerTool(
    'test_multiple_content_types',
    { description: 'Tests response with multiple content types (text, image, resource)' },
    () => ({
      content: [
        { type: 'text', text: 'Multiple content types test:' },
        { type: 'image', data: TEST_IMAGE_BASE64, mimeType: 'image/png' },
        {
          type: 'resource',
          resource: {
            uri: 'test://mixed-content-resource',
            mimeType: 'application/json',
            text: JSON.stringify({ test: 'data', value: 123 }),
          },
        },
      ],
    }),
  );
  server.registerTool('test_error_handling', { description: 'Tests error response handling' }, () => {
    throw new Error('This tool intentionally returns an error for testing');
  });
  server.registerTool(
    'json_schema_2020_12_tool',
    {
      description: 'Tool with JSON Schema 2020-12 features for conformance testing (SEP-1613)',
      inputSchema: JSON_SCHEMA_2020_12_INPUT_SCHEMA,
    },
    (args) => text(`JSON Schema 2020-12 tool called with: ${JSON.stringify(args)}`),
  );
  server.registerTool(
    'test_reconnection',
    { description: 'Tests SSE stream disconnection and client reconnection (SEP-1699)' },
    async (_args, ctx) => {
      // SEP-1699: close this request's SSE stream mid-call so the client must resume it (GET with
      // Last-Event-ID) to receive the result; a no-op where the transport has no such stream.
      ctx.request.extra?.closeSSEStream?.();
      await sleep(100);
      return text('Reconnection test completed successfully.');
    },
  );
}

function registerInteractiveTools(server: McpServer): void {
  server.registerTool(
    'test_tool_with_logging',
    { description: 'Tests tool that emits log messages during execution' },
    async (_args, ctx) => {
      await ctx.log('info', 'Tool execution started');
      await sleep(50);
      await ctx.log('info', 'Tool processing data');
      await sleep(50);
      await ctx.log('info', 'Tool execution completed');
      return text('Tool with logging executed successfully');
    },
  );
  server.registerTool(
    'test_tool_with_progress',
    { description: 'Tests tool that reports progress notifications' },
    async (_args, ctx) => {
      for (const progress of [0, 50, 100]) {
        await ctx.sendProgress({ progress, total: 100, message: `Completed step ${progress} of 100` });
        if (progress < 100) await sleep(50);
      }
      return text(String(ctx.progressToken ?? 0));
    },
  );
  server.registerTool(
    'test_sampling',
    {
      description: 'Tests server-initiated sampling (LLM completion request)',
      inputSchema: z.object({ prompt: z.string().describe('The prompt to send to the LLM') }),
    },
    async ({ prompt }, ctx) => {
      const result = await ctx.sample({
        messages: [{ role: 'user', content: { type: 'text', text: prompt } }],
        maxTokens: 100,
      });
      const content = Array.isArray(result.content) ? result.content[0] : result.content;
      return text(`LLM response: ${content?.type === 'text' ? content.text : 'No response'}`);
    },
  );
  server.registerTool(
    'test_elicitation',
    {
      description: 'Tests server-initiated elicitation (user input request)',
      inputSchema: z.object({ message: z.string().describe('The message to show the user') }),
    },
    async ({ message }, ctx) => {
      const result = await ctx.elicit({
        mode: 'form',
        message,
        requestedSchema: {
          type: 'object',
          properties: {
            username: { type: 'string', description: "User's username" },
            email: { type: 'string', description: "User's email address", format: 'email' },
          },
          required: ['username', 'email'],
        },
      });
      return text(`User response: action=${result.action}, content=${JSON.stringify(result.content ?? {})}`);
    },
  );
  server.registerTool(
    'test_elicitation_sep1034_defaults',
    { description: 'Tests elicitation with default values per SEP-1034' },
    async (_args, ctx) => {
      const result = await ctx.elicit({
        mode: 'form',
        message: 'Please review and update the form fields with defaults',
        requestedSchema: {
          type: 'object',
          properties: {
            name: { type: 'string', description: 'User name', default: 'John Doe' },
            age: { type: 'integer', description: 'User age', default: 30 },
            score: { type: 'number', description: 'User score', default: 95.5 },
            status: {
              type: 'string',
              description: 'User status',
              enum: ['active', 'inactive', 'pending'],
              default: 'active',
            },
            verified: { type: 'boolean', description: 'Verification status', default: true },
          },
          required: [],
        },
      });
      return text(
        `Elicitation completed: action=${result.action}, content=${JSON.stringify(result.content ?? {})}`,
      );
    },
  );
  server.registerTool(
    'test_elicitation_sep1330_enums',
    { description: 'Tests elicitation with enum schema improvements per SEP-1330' },
    async (_args, ctx) => {
      const result = await ctx.elicit({
        mode: 'form',
        message: 'Please select options from the enum fields',
        requestedSchema: {
          type: 'object',
          properties: {
            untitledSingle: {
              type: 'string',
              description: 'Select one option',
              enum: ['option1', 'option2', 'option3'],
            },
            titledSingle: {
              type: 'string',
              description: 'Select one option with titles',
              oneOf: [
                { const: 'value1', title: 'First Option' },
                { const: 'value2', title: 'Second Option' },
                { const: 'value3', title: 'Third Option' },
              ],
            },
            legacyEnum: {
              type: 'string',
              description: 'Select one option (legacy)',
              enum: ['opt1', 'opt2', 'opt3'],
              enumNames: ['Option One', 'Option Two', 'Option Three'],
            },
            untitledMulti: {
              type: 'array',
              description: 'Select multiple options',
              minItems: 1,
              maxItems: 3,
              items: { type: 'string', enum: ['option1', 'option2', 'option3'] },
            },
            titledMulti: {
              type: 'array',
              description: 'Select multiple options with titles',
              minItems: 1,
              maxItems: 3,
              items: {
                anyOf: [
                  { const: 'value1', title: 'First Choice' },
                  { const: 'value2', title: 'Second Choice' },
                  { const: 'value3', title: 'Third Choice' },
                ],
              },
            },
          },
          required: [],
        },
      });
      return text(
        `Elicitation completed: action=${result.action}, content=${JSON.stringify(result.content ?? {})}`,
      );
    },
  );
}

function registerModernTools(server: McpServer): void {
  server.registerTool(
    'test_missing_capability',
    { description: 'Requires the sampling client capability (SEP-2575)' },
    (_args, ctx) => {
      if (ctx.clientCapabilities.sampling === undefined) {
        throw new McpError(
          ErrorCode.MissingRequiredClientCapability,
          'This tool needs the sampling capability',
          {
            requiredCapabilities: { sampling: {} },
          },
        );
      }
      return text('Sampling capability is declared');
    },
  );
  server.registerTool(
    'test_streaming_elicitation',
    { description: 'Its response stream carries only notifications, never independent requests (SEP-2575)' },
    async (_args, ctx) => {
      await ctx.sendProgress({ progress: 50, total: 100 });
      return text('Streaming complete');
    },
  );
  server.registerTool(
    'test_logging_tool',
    { description: 'Logs only when the request asks for a log level (SEP-2575)' },
    async (_args, ctx) => {
      await ctx.log('info', 'test_logging_tool executed');
      return text('Logged.');
    },
  );
  const dynamicTool = server.registerTool(
    'test_dynamic_tool',
    { description: 'Appears and disappears' },
    () => text('dynamic'),
  );
  dynamicTool.disable();
  server.registerTool(
    'test_trigger_tool_change',
    { description: 'Changes the tool list (notifications/tools/list_changed)' },
    () => {
      if (dynamicTool.enabled) dynamicTool.disable();
      else dynamicTool.enable();
      return text('Tool list changed');
    },
  );
  const dynamicPrompt = server.registerPrompt(
    'test_dynamic_prompt',
    { description: 'Appears and disappears' },
    () => ({
      messages: [],
    }),
  );
  dynamicPrompt.disable();
  server.registerTool(
    'test_trigger_prompt_change',
    { description: 'Changes the prompt list (notifications/prompts/list_changed)' },
    () => {
      if (dynamicPrompt.enabled) dynamicPrompt.disable();
      else dynamicPrompt.enable();
      return text('Prompt list changed');
    },
  );
  server.registerTool(
    'test_x_mcp_header',
    {
      description: 'Mirrors its region argument into the Mcp-Param-Region header (SEP-2243)',
      inputSchema: {
        type: 'object',
        properties: {
          region: { type: 'string', description: 'Deployment region', 'x-mcp-header': 'Region' },
        },
        required: ['region'],
      },
    },
    (args) => text(`region=${String(args['region'])}`),
  );
}

const askName = (ctx: ServerContext, key: string, message: string) =>
  ctx.elicit({ mode: 'form', message, requestedSchema: nameSchema('name') }, { key });
const askCapital = (ctx: ServerContext, key: string, prompt: string, maxTokens: number) =>
  ctx.sample({ messages: [{ role: 'user', content: { type: 'text', text: prompt } }], maxTokens }, { key });

function samplingText(result: { content: unknown }): string {
  const block = Array.isArray(result.content) ? result.content[0] : result.content;
  return typeof block === 'object' && block !== null && 'text' in block ? String(block.text) : '';
}

function registerInputRequiredTools(server: McpServer): void {
  const prefix = 'test_input_required_result_';
  server.registerTool(
    `${prefix}elicitation`,
    { description: 'MRTR: one elicitation (SEP-2322)' },
    async (_args, ctx) => {
      const answer = await askName(ctx, 'user_name', 'What is your name?');
      return text(`Hello, ${String(answer.content?.['name'] ?? 'stranger')}!`);
    },
  );
  server.registerTool(
    `${prefix}sampling`,
    { description: 'MRTR: one sampling request (SEP-2322)' },
    async (_args, ctx) => {
      const answer = await askCapital(ctx, 'capital_question', 'What is the capital of France?', 100);
      return text(`Sampling result: ${samplingText(answer)}`);
    },
  );
  server.registerTool(
    `${prefix}list_roots`,
    { description: 'MRTR: one roots/list request (SEP-2322)' },
    async (_args, ctx) => {
      const { roots } = await ctx.listRoots({ key: 'client_roots' });
      return text(`Roots: ${roots.map((root) => root.uri).join(', ')}`);
    },
  );
  const confirm = async (ctx: ServerContext) => {
    const answer = await ctx.elicit(
      {
        mode: 'form',
        message: 'Please confirm',
        requestedSchema: { type: 'object', properties: { ok: { type: 'boolean' } }, required: ['ok'] },
      },
      { key: 'confirm' },
    );
    return text(`state-ok: confirmed=${String(answer.content?.['ok'])}`);
  };
  server.registerTool(
    `${prefix}request_state`,
    { description: 'MRTR: requestState round trip (SEP-2322)' },
    (_args, ctx) => confirm(ctx),
  );
  server.registerTool(
    `${prefix}tampered_state`,
    { description: 'MRTR: rejects a tampered requestState (SEP-2322)' },
    (_args, ctx) => confirm(ctx),
  );
  server.registerTool(
    `${prefix}multiple_inputs`,
    { description: 'MRTR: several input requests at once (SEP-2322)' },
    async (_args, ctx) => {
      const [name, greeting, { roots }] = await Promise.all([
        askName(ctx, 'user_name', 'What is your name?'),
        askCapital(ctx, 'greeting', 'Generate a greeting', 50),
        ctx.listRoots({ key: 'client_roots' }),
      ]);
      return text(`${samplingText(greeting)} ${String(name.content?.['name'])} (${roots.length} roots)`);
    },
  );
  server.registerTool(
    `${prefix}multi_round`,
    { description: 'MRTR: two rounds (SEP-2322)' },
    async (_args, ctx) => {
      const name = await askName(ctx, 'step1', 'Step 1: What is your name?');
      const color = await ctx.elicit(
        {
          mode: 'form',
          message: 'Step 2: What is your favorite color?',
          requestedSchema: nameSchema('color'),
        },
        { key: 'step2' },
      );
      return text(`${String(name.content?.['name'])} likes ${String(color.content?.['color'])}`);
    },
  );
  server.registerTool(
    `${prefix}capabilities`,
    { description: 'MRTR: asks only for declared capabilities (SEP-2322)' },
    async (_args, ctx) => {
      const caps = ctx.clientCapabilities;
      const asked: Array<Promise<unknown>> = [];
      if (caps.elicitation !== undefined) asked.push(askName(ctx, 'user_name', 'What is your name?'));
      if (caps.sampling !== undefined)
        asked.push(askCapital(ctx, 'capital_question', 'What is the capital of France?', 100));
      if (caps.roots !== undefined) asked.push(ctx.listRoots({ key: 'client_roots' }));
      await Promise.all(asked);
      return text(`Answered ${asked.length} input request(s)`);
    },
  );
}

function registerResources(server: McpServer): void {
  server.registerResource(
    'static-text',
    'test://static-text',
    {
      title: 'Static Text Resource',
      description: 'A static text resource for testing',
      mimeType: 'text/plain',
    },
    (uri) => ({
      contents: [{ uri, mimeType: 'text/plain', text: 'This is the content of the static text resource.' }],
    }),
  );
  server.registerResource(
    'static-binary',
    'test://static-binary',
    {
      title: 'Static Binary Resource',
      description: 'A static binary resource (image) for testing',
      mimeType: 'image/png',
    },
    (uri) => ({ contents: [{ uri, mimeType: 'image/png', blob: TEST_IMAGE_BASE64 }] }),
  );
  server.registerResource(
    'template',
    new ResourceTemplate('test://template/{id}/data'),
    {
      title: 'Resource Template',
      description: 'A resource template with parameter substitution',
      mimeType: 'application/json',
    },
    (uri, { id }) => ({
      contents: [
        {
          uri,
          mimeType: 'application/json',
          text: JSON.stringify({ id, templateTest: true, data: `Data for ID: ${String(id)}` }),
        },
      ],
    }),
  );
  server.registerResource(
    'watched-resource',
    'test://watched-resource',
    { title: 'Watched Resource', description: 'A resource clients can subscribe to', mimeType: 'text/plain' },
    (uri) => ({ contents: [{ uri, mimeType: 'text/plain', text: 'Watched resource content' }] }),
  );
}

function registerPrompts(server: McpServer): void {
  server.registerPrompt(
    'test_simple_prompt',
    { title: 'Simple Test Prompt', description: 'A simple prompt without arguments' },
    () => ({
      messages: [{ role: 'user', content: { type: 'text', text: 'This is a simple prompt for testing.' } }],
    }),
  );
  server.registerPrompt(
    'test_prompt_with_arguments',
    {
      title: 'Prompt With Arguments',
      description: 'A prompt with required arguments',
      argsSchema: z.object({
        arg1: z.string().describe('First test argument'),
        arg2: z.string().describe('Second test argument'),
      }),
      complete: { arg1: (value) => ['hello', 'help', 'world'].filter((v) => v.startsWith(value)) },
    },
    ({ arg1, arg2 }) => ({
      messages: [
        {
          role: 'user',
          content: { type: 'text', text: `Prompt with arguments: arg1='${arg1}', arg2='${arg2}'` },
        },
      ],
    }),
  );
  server.registerPrompt(
    'test_prompt_with_embedded_resource',
    {
      title: 'Prompt With Embedded Resource',
      description: 'A prompt that includes an embedded resource',
      argsSchema: z.object({ resourceUri: z.string().describe('URI of the resource to embed') }),
    },
    ({ resourceUri }) => ({
      messages: [
        {
          role: 'user',
          content: {
            type: 'resource',
            resource: {
              uri: resourceUri,
              mimeType: 'text/plain',
              text: 'Embedded resource content for testing.',
            },
          },
        },
        { role: 'user', content: { type: 'text', text: 'Please process the embedded resource above.' } },
      ],
    }),
  );
  server.registerPrompt(
    'test_prompt_with_image',
    { title: 'Prompt With Image', description: 'A prompt that includes image content' },
    () => ({
      messages: [
        { role: 'user', content: { type: 'image', data: TEST_IMAGE_BASE64, mimeType: 'image/png' } },
        { role: 'user', content: { type: 'text', text: 'Please analyze the image above.' } },
      ],
    }),
  );
  server.registerPrompt(
    'test_input_required_result_prompt',
    { description: 'MRTR on prompts/get (SEP-2322)' },
    async (_args, ctx) => {
      const answer = await ctx.elicit(
        {
          mode: 'form',
          message: 'What context should the prompt use?',
          requestedSchema: nameSchema('context'),
        },
        { key: 'user_context' },
      );
      return {
        messages: [
          {
            role: 'user',
            content: { type: 'text', text: `Use this context: ${String(answer.content?.['context'])}` },
          },
        ],
      };
    },
  );
}
