import { Client } from '@x/client';
import { ErrorCode, InMemoryTransport, McpError } from '@x/protocol';
import { McpServer, ResourceTemplate } from '@x/server';
import { afterEach, describe, expect, it } from 'vitest';
import { z } from 'zod';

// Issue 3: the feature surface end to end — x-mcp client ↔ x-mcp server over the in-memory pair, for
// every era the features exist in. Unit tests with wire assertions live in each package; here the two
// real halves have to agree.

const open: Array<{ close(): Promise<void> }> = [];
afterEach(async () => {
  await Promise.all(open.splice(0).map((c) => c.close()));
});

function createServer(): McpServer {
  const server = new McpServer(
    { name: 'surface', version: '1.0.0' },
    { listChangedDebounceMs: 0, pageSize: 2 },
  );
  server.registerTool(
    'weather',
    {
      description: 'Structured weather',
      inputSchema: z.object({ city: z.string() }),
      outputSchema: z.object({ city: z.string(), celsius: z.number() }),
    },
    ({ city }) => ({
      content: [{ type: 'text', text: `${city}: 21°C` }],
      structuredContent: { city, celsius: 21 },
    }),
  );
  server.registerTool(
    'slow',
    { description: 'Reports progress, honours cancellation' },
    async (_args, ctx) => {
      for (let step = 1; step <= 3; step++) {
        await ctx.sendProgress({ progress: step, total: 3 });
        if (ctx.signal.aborted) throw ctx.signal.reason;
      }
      await new Promise((resolve, reject) => {
        const timer = setTimeout(resolve, 5_000);
        ctx.signal.addEventListener('abort', () => {
          clearTimeout(timer);
          reject(ctx.signal.reason);
        });
      });
      return { content: [{ type: 'text', text: 'done' }] };
    },
  );
  server.registerTool('summarize', { description: 'Asks the client to sample' }, async (_args, ctx) => {
    const sampled = await ctx.sample({
      messages: [{ role: 'user', content: { type: 'text', text: 'summarize' } }],
      maxTokens: 50,
    });
    const roots = await ctx.listRoots();
    // 2025-11-25 sampling results may carry a list of blocks; this client answers with one.
    const block = Array.isArray(sampled.content) ? sampled.content[0] : sampled.content;
    const text = block?.type === 'text' ? block.text : '?';
    return { content: [{ type: 'text', text: `${text} / ${roots.roots.map((r) => r.uri).join(',')}` }] };
  });
  for (const extra of ['a', 'b', 'c']) {
    server.registerTool(`extra_${extra}`, { description: extra }, () => ({ content: [] }));
  }
  server.registerResource('readme', 'docs://readme', { mimeType: 'text/markdown' }, (uri) => ({
    contents: [{ uri: uri.toString(), mimeType: 'text/markdown', text: '# hi' }],
  }));
  server.registerResource(
    'user',
    new ResourceTemplate('users://{id}', {
      list: undefined,
      complete: { id: (v) => ['1', '2', '12'].filter((x) => x.startsWith(v)) },
    }),
    { mimeType: 'application/json' },
    (uri, vars) => ({ contents: [{ uri: uri.toString(), text: JSON.stringify({ id: vars['id'] }) }] }),
  );
  server.registerPrompt(
    'greet',
    {
      description: 'Greets',
      argsSchema: z.object({ name: z.string() }),
      complete: { name: (value) => ['Ada', 'Alan', 'Grace'].filter((n) => n.startsWith(value)) },
    },
    ({ name }) => ({ messages: [{ role: 'user', content: { type: 'text', text: `Hello ${name}` } }] }),
  );
  return server;
}

async function connect(server: McpServer, protocolVersion: 'legacy' | 'modern'): Promise<Client> {
  const [a, b] = InMemoryTransport.createLinkedPair();
  await server.connect(b);
  const client = new Client({ name: 'it', version: '1.0.0' }, { protocolVersion });
  client.setSamplingHandler(async () => ({
    role: 'assistant',
    model: 'test-model',
    content: { type: 'text', text: 'short' },
  }));
  client.setRootsHandler(async () => ({ roots: [{ uri: 'file:///work', name: 'work' }] }));
  await client.connect(a);
  open.push(client);
  return client;
}

describe.each(['legacy', 'modern'] as const)('feature surface (%s era)', (era) => {
  it('lists every page of tools and calls one with validated structured output', async () => {
    const client = await connect(createServer(), era);
    const names: string[] = [];
    for await (const tool of client.iterateTools()) names.push(tool.name);
    expect(names).toEqual(['weather', 'slow', 'summarize', 'extra_a', 'extra_b', 'extra_c']);
    const first = await client.listTools();
    expect(first.tools).toHaveLength(2);
    expect(first.nextCursor).toBeTypeOf('string');

    const result = await client.callTool({ name: 'weather', arguments: { city: 'Oslo' } });
    expect(result.structuredContent).toEqual({ city: 'Oslo', celsius: 21 });
    const bad = await client.callTool({ name: 'weather', arguments: { city: 7 } });
    expect(bad.isError).toBe(true);
  });

  it('reports progress and cancels a running tool', async () => {
    const client = await connect(createServer(), era);
    const controller = new AbortController();
    const progress: number[] = [];
    const call = client.callTool(
      { name: 'slow', arguments: {} },
      {
        signal: controller.signal,
        onprogress: (update) => {
          progress.push(update.progress);
          if (update.progress === 3) controller.abort(new Error('user stopped it'));
        },
      },
    );
    await expect(call).rejects.toThrow('user stopped it');
    expect(progress).toEqual([1, 2, 3]);
  });

  it('round-trips sampling and roots through the client handlers', async () => {
    const client = await connect(createServer(), era);
    const result = await client.callTool({ name: 'summarize', arguments: {} });
    expect(result.content).toEqual([{ type: 'text', text: 'short / file:///work' }]);
  });

  it('reads fixed and templated resources, and completes template variables and prompt arguments', async () => {
    const client = await connect(createServer(), era);
    const readme = await client.readResource({ uri: 'docs://readme' });
    expect(readme.contents).toEqual([{ uri: 'docs://readme', mimeType: 'text/markdown', text: '# hi' }]);
    const user = await client.readResource({ uri: 'users://12' });
    expect(JSON.parse((user.contents[0] as { text: string }).text)).toEqual({ id: '12' });
    const templates = await client.listResourceTemplates();
    expect(templates.resourceTemplates.map((t) => t.uriTemplate)).toEqual(['users://{id}']);

    const missing = await client.readResource({ uri: 'docs://nope' }).catch((e: unknown) => e);
    expect(missing).toBeInstanceOf(McpError);
    // Legacy answers -32002; 2026-07-28 answers -32602 (SEP-2164); both carry the uri.
    expect((missing as McpError).code).toBe(
      era === 'legacy' ? ErrorCode.ResourceNotFound : ErrorCode.InvalidParams,
    );
    expect((missing as McpError).data).toMatchObject({ uri: 'docs://nope' });

    const ids = await client.complete({
      ref: { type: 'ref/resource', uri: 'users://{id}' },
      argument: { name: 'id', value: '1' },
    });
    expect(ids.completion.values).toEqual(['1', '12']);
    const names = await client.complete({
      ref: { type: 'ref/prompt', name: 'greet' },
      argument: { name: 'name', value: 'A' },
    });
    expect(names.completion.values).toEqual(['Ada', 'Alan']);
    const prompt = await client.getPrompt({ name: 'greet', arguments: { name: 'Ada' } });
    expect(prompt.messages).toEqual([{ role: 'user', content: { type: 'text', text: 'Hello Ada' } }]);
  });
});

describe('legacy-only surface', () => {
  it('delivers resource updates to the subscribed session only, and log messages at the chosen level', async () => {
    const server = createServer();
    server.registerTool('noisy', { description: 'logs' }, async (_args, ctx) => {
      await ctx.log('debug', 'hidden');
      await ctx.log('warning', 'shown');
      return { content: [] };
    });
    const subscriber = await connect(server, 'legacy');
    const bystander = await connect(server, 'legacy');
    const seen: string[] = [];
    const notSeen: string[] = [];
    subscriber.on('resourceUpdated', (params) => seen.push(params.uri));
    bystander.on('resourceUpdated', (params) => notSeen.push(params.uri));
    await subscriber.subscribeResource({ uri: 'docs://readme' });
    server.sendResourceUpdated('docs://readme');
    await expect.poll(() => seen).toEqual(['docs://readme']);
    expect(notSeen).toEqual([]);

    const logs: unknown[] = [];
    subscriber.on('log', (params) => logs.push(params.data));
    await subscriber.setLoggingLevel('info');
    await subscriber.callTool({ name: 'noisy', arguments: {} });
    await expect.poll(() => logs).toEqual(['shown']);
  });

  it('tells every connected client about tool list changes', async () => {
    const server = createServer();
    const one = await connect(server, 'legacy');
    const two = await connect(server, 'legacy');
    let changes = 0;
    one.on('toolsListChanged', () => changes++);
    two.on('toolsListChanged', () => changes++);
    const handle = server.registerTool('late', { description: 'late' }, () => ({ content: [] }));
    await expect.poll(() => changes).toBe(2);
    handle.remove();
    await expect.poll(() => changes).toBe(4);
  });
});
