// Proof of issue 39 with a real third-party server: the official `@modelcontextprotocol/server-everything`
// (pinned devDependency; it depends on the official SDK itself) run unchanged twice — on the genuine
// official SDK, and with its `@modelcontextprotocol/sdk` imports aliased to @x/compat (a `--import`
// resolve hook, as a bundler alias) — over stdio, Streamable HTTP and HTTP+SSE. The official Client asks both the
// same questions; the answers must be the same. Needs @x/compat built.
import { existsSync, realpathSync } from 'node:fs';
import { dirname, join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { Client } from '@modelcontextprotocol/sdk/client/index.js';
import { SSEClientTransport } from '@modelcontextprotocol/sdk/client/sse.js';
import { StdioClientTransport } from '@modelcontextprotocol/sdk/client/stdio.js';
import { StreamableHTTPClientTransport } from '@modelcontextprotocol/sdk/client/streamableHttp.js';
import type { Transport } from '@modelcontextprotocol/sdk/shared/transport.js';
import { beforeAll, describe, expect, it } from 'vitest';
import { startExampleServer } from './helpers/example-process.js';

const here = dirname(fileURLToPath(import.meta.url));
const compatDir = join(here, '..');
const everything = join(
  realpathSync(join(compatDir, 'node_modules', '@modelcontextprotocol', 'server-everything')),
  'dist',
  'index.js',
);
const alias = join(here, 'fixtures', 'alias-official-sdk.mjs');

beforeAll(() => {
  if (!existsSync(join(compatDir, 'dist', 'experimental', 'tasks', 'index.js')))
    throw new Error('@x/compat is not built: pnpm turbo run build --filter=@x/compat...');
});

/** The questions: every list, and a call of each tool, prompt and resource that needs no client feature. */
async function transcript(client: Client): Promise<Record<string, unknown>> {
  const answers: Record<string, unknown> = {};
  const ask = async (key: string, question: () => Promise<unknown>) => {
    try {
      answers[key] = await question();
    } catch (error) {
      answers[key] = { error: String(error) };
    }
  };
  answers.serverInfo = client.getServerVersion();
  answers.capabilities = client.getServerCapabilities();
  answers.instructions = client.getInstructions();
  await ask('tools', async () => (await client.listTools()).tools);
  await ask('prompts', async () => (await client.listPrompts()).prompts);
  await ask('resources', async () => await client.listResources());
  await ask('templates', async () => (await client.listResourceTemplates()).resourceTemplates);
  await ask('echo', () => client.callTool({ name: 'echo', arguments: { message: 'hi' } }));
  await ask('echo-invalid', () => client.callTool({ name: 'echo', arguments: {} }));
  await ask('get-sum', () => client.callTool({ name: 'get-sum', arguments: { a: 2, b: 3 } }));
  await ask('tiny-image', () => client.callTool({ name: 'get-tiny-image', arguments: {} }));
  await ask('structured', () =>
    client.callTool({ name: 'get-structured-content', arguments: { location: 'New York' } }),
  );
  await ask('annotated', () =>
    client.callTool({
      name: 'get-annotated-message',
      arguments: { messageType: 'error', includeImage: false },
    }),
  );
  await ask('links', () => client.callTool({ name: 'get-resource-links', arguments: { count: 2 } }));
  await ask('reference', () =>
    client.callTool({ name: 'get-resource-reference', arguments: { resourceType: 'Text', resourceId: 1 } }),
  );
  await ask('long-running', () =>
    client.callTool({ name: 'trigger-long-running-operation', arguments: { duration: 0.2, steps: 2 } }),
  );
  await ask('no-such-tool', () => client.callTool({ name: 'no-such-tool', arguments: {} }));
  await ask('simple-prompt', () => client.getPrompt({ name: 'simple-prompt' }));
  await ask('args-prompt', () => client.getPrompt({ name: 'args-prompt', arguments: { city: 'Paris' } }));
  await ask('read-template', () => client.readResource({ uri: 'demo://resource/dynamic/text/1' }));
  await ask('complete', () =>
    client.complete({
      ref: { type: 'ref/prompt', name: 'completable-prompt' },
      argument: { name: 'department', value: 'E' },
    }),
  );
  await ask('ping', () => client.ping());
  return answers;
}

/**
 * What may differ between two runs of the same server whatever SDK runs it: clock times and random ids
 * in texts.
 */
function normalized(answers: Record<string, unknown>): Record<string, unknown> {
  return JSON.parse(
    JSON.stringify(answers)
      .replace(/\d{4}-\d\d-\d\dT\d\d:\d\d:\d\d(\.\d+)?Z/g, '<time>')
      .replace(/\d{1,2}:\d\d:\d\d [AP]M/g, '<time>')
      .replace(/[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}/g, '<uuid>'),
  );
}

/**
 * The differences @x/compat documents (README, "differences from 1.x"), projected away so that
 * everything else must be equal: the JSON Schema dialect of tool schemas (x-mcp emits 2020-12, 1.x
 * draft-07), the texts of failed-call results (x-mcp's messages), and optional prompt arguments (x-mcp keeps their description and
 * leaves out `required: false`).
 */
function documentedDifferencesAside(answers: Record<string, unknown>): Record<string, unknown> {
  interface Listed {
    tools?: Array<{ inputSchema?: { $schema?: unknown }; outputSchema?: { $schema?: unknown } }>;
    prompts?: Array<{ arguments?: Array<{ required?: boolean; description?: string }> }>;
  }
  const copy = structuredClone(answers) as Record<string, unknown> & Listed;
  for (const tool of copy.tools ?? []) {
    delete tool.inputSchema?.$schema;
    delete tool.outputSchema?.$schema;
  }
  const invalid = copy['echo-invalid'] as { isError?: boolean } | undefined;
  copy['echo-invalid'] = {
    isError: invalid?.isError,
    namesTool: JSON.stringify(invalid).includes('Invalid arguments for tool echo'),
  };
  const unknown = copy['no-such-tool'] as { isError?: boolean } | undefined;
  copy['no-such-tool'] = {
    isError: unknown?.isError,
    namesTool: JSON.stringify(unknown).includes('no-such-tool'),
  };
  for (const prompt of copy.prompts ?? [])
    for (const argument of prompt.arguments ?? [])
      if (argument.required !== true) {
        delete argument.required;
        delete argument.description;
      }
  return copy;
}

async function askOver(transport: Transport): Promise<Record<string, unknown>> {
  const client = new Client({ name: 'compare', version: '1.0.0' });
  await client.connect(transport);
  try {
    return documentedDifferencesAside(normalized(await transcript(client)));
  } finally {
    await client.close();
  }
}

describe('server-everything 2026.8.31: genuine official SDK vs aliased onto @x/compat', () => {
  it('over stdio: the same answers', async () => {
    let compatStderr = '';
    const compatTransport = new StdioClientTransport({
      command: process.execPath,
      args: ['--import', alias, everything, 'stdio'],
      stderr: 'pipe',
    });
    compatTransport.stderr?.on('data', (chunk: Buffer) => (compatStderr += chunk.toString()));
    const compat = await askOver(compatTransport);
    expect(compatStderr).toContain('X_COMPAT_ALIAS active');
    const genuine = await askOver(
      new StdioClientTransport({ command: process.execPath, args: [everything, 'stdio'], stderr: 'ignore' }),
    );
    // The twelve tools, and the task tool registered once the client's capabilities are known.
    expect((genuine.tools as Array<{ name: string }>).map((tool) => tool.name)).toContain(
      'simulate-research-query',
    );
    expect((genuine.tools as unknown[]).length).toBeGreaterThanOrEqual(13);
    expect(compat).toEqual(genuine);
  }, 60_000);

  it('over Streamable HTTP: the same answers', async () => {
    const start = (nodeArgs: string[]) =>
      startExampleServer(everything, dirname(everything), { nodeArgs, args: ['streamableHttp'], port: 3001 });
    await using compatServer = await start(['--import', alias]);
    expect(compatServer.output()).toContain('X_COMPAT_ALIAS active');
    await using genuineServer = await start([]);
    const compat = await askOver(new StreamableHTTPClientTransport(compatServer.url));
    const genuine = await askOver(new StreamableHTTPClientTransport(genuineServer.url));
    expect(compat).toEqual(genuine);
  }, 60_000);

  it('over HTTP+SSE (its SSEServerTransport per GET on server/sse.js): the same answers', async () => {
    const start = (nodeArgs: string[]) =>
      startExampleServer(everything, dirname(everything), {
        nodeArgs,
        args: ['sse'],
        port: 3001,
        path: '/sse',
      });
    await using compatServer = await start(['--import', alias]);
    expect(compatServer.output()).toContain('X_COMPAT_ALIAS active');
    await using genuineServer = await start([]);
    const compat = await askOver(new SSEClientTransport(compatServer.url));
    const genuine = await askOver(new SSEClientTransport(genuineServer.url));
    expect(compat).toEqual(genuine);
    expect(compatServer.output()).not.toContain('No transport found');
  }, 60_000);
});
