import { McpServer } from '@x/server';
import { describe, expect, it } from 'vitest';
import { z } from 'zod';
import { GrpcNativeClient, listenGrpc, NativeCallError } from '../src/index.js';

type Json = Record<string, unknown>;

/** A server whose tools ask the client: an elicitation, a sampling, a roots listing. */
function askingServer(): McpServer {
  const mcp = new McpServer({ name: 'asking', version: '1.0.0' });
  mcp.registerTool('greet', {}, async (_args, ctx) => {
    const answer = await ctx.elicit({
      mode: 'form',
      message: 'Your name?',
      requestedSchema: {
        type: 'object',
        properties: { name: { type: 'string', title: 'Name' }, subscribe: { type: 'boolean' } },
        required: ['name'],
      },
    });
    const name = answer.action === 'accept' ? String(answer.content?.['name']) : answer.action;
    return { content: [{ type: 'text', text: `hello ${name}` }] };
  });
  mcp.registerTool('summarize', { inputSchema: z.object({ text: z.string() }) }, async ({ text }, ctx) => {
    const sampled = await ctx.sample({
      messages: [{ role: 'user', content: { type: 'text', text: `summarize: ${text}` } }],
      maxTokens: 50,
    });
    const roots = await ctx.listRoots();
    const content = sampled.content as { type: string; text?: string };
    return {
      content: [{ type: 'text', text: `${content.text} by ${sampled.model} in ${roots.roots.length} roots` }],
    };
  });
  mcp.registerPrompt('whose', {}, async (_args, ctx) => {
    const { roots } = await ctx.listRoots();
    return {
      messages: [
        { role: 'user', content: { type: 'text', text: `roots: ${roots.map((r) => r.uri).join(' ')}` } },
      ],
    };
  });
  return mcp;
}

async function start() {
  const mcp = askingServer();
  return listenGrpc({
    port: 0,
    keepAliveMs: 0,
    onsession: (transport) => mcp.connect(transport),
    native: { connect: (transport) => mcp.connect(transport) },
  });
}

describe('native binding: dependent_requests / dependent_responses', () => {
  it('a tool that elicits: the request comes back as elicit_request, the answer completes the call', async () => {
    await using listener = await start();
    const asked: Json[] = [];
    const native = new GrpcNativeClient(listener.target, {
      handlers: {
        elicitation: (params) => {
          asked.push(params);
          return { action: 'accept', content: { name: 'Ada' } };
        },
      },
    });
    try {
      const result = await native.callTool('greet');
      expect(result['content']).toEqual([
        expect.objectContaining({ text: expect.objectContaining({ text: 'hello Ada' }) }),
      ]);
      expect(asked).toEqual([
        {
          message: 'Your name?',
          requestedSchema: {
            type: 'object',
            properties: { name: { type: 'string', title: 'Name' }, subscribe: { type: 'boolean' } },
            required: ['name'],
          },
        },
      ]);
    } finally {
      native.close();
    }
  }, 30_000);

  it('the wire shape: dependent_requests and resume_data on the response, request left out of the retry', async () => {
    await using listener = await start();
    const native = new GrpcNativeClient(listener.target);
    try {
      const first = await native.unary('CallTool', { common: {}, request: { name: 'greet', arguments: {} } });
      const common = first['common'] as Json;
      const dependent = common['dependent_requests'] as Record<string, Json>;
      const [key] = Object.keys(dependent);
      expect(dependent[key!]!['elicit_request']).toMatchObject({
        message: 'Your name?',
        required_fields: ['name'],
        requested_schema: {
          name: { string_schema: expect.objectContaining({ title: 'Name' }) },
          subscribe: { boolean_schema: expect.any(Object) },
        },
      });
      expect(first['content'] ?? []).toEqual([]);
      const retry = await native.unary('CallTool', {
        common: {
          resume_data: common['resume_data'],
          dependent_responses: { [key!]: { elicit_result: { type: 'TYPE_DECLINE' } } },
        },
      });
      expect(retry['content']).toEqual([
        expect.objectContaining({ text: expect.objectContaining({ text: 'hello decline' }) }),
      ]);
    } finally {
      native.close();
    }
  }, 30_000);

  it('sampling then roots: two rounds, each answered by its handler', async () => {
    await using listener = await start();
    const native = new GrpcNativeClient(listener.target, {
      handlers: {
        sampling: (params) => ({
          role: 'assistant',
          content: { type: 'text', text: `short(${JSON.stringify((params['messages'] as Json[]).length)})` },
          model: 'tiny-model',
        }),
        roots: () => ({ roots: [{ uri: 'file:///a', name: 'a' }, { uri: 'file:///b' }] }),
      },
    });
    try {
      const result = await native.callTool('summarize', { text: 'long text' });
      expect(result['content']).toEqual([
        expect.objectContaining({
          text: expect.objectContaining({ text: 'short(1) by tiny-model in 2 roots' }),
        }),
      ]);
    } finally {
      native.close();
    }
  }, 30_000);

  it('GetPrompt asks too: a prompt that lists roots completes after one round', async () => {
    await using listener = await start();
    const native = new GrpcNativeClient(listener.target, {
      handlers: { roots: () => ({ roots: [{ uri: 'file:///work' }] }) },
    });
    try {
      const prompt = await native.getPrompt('whose');
      expect(prompt['messages']).toEqual([
        expect.objectContaining({ text: expect.objectContaining({ text: 'roots: file:///work' }) }),
      ]);
    } finally {
      native.close();
    }
  }, 30_000);

  it('no handler for what the server asks: NativeCallError; a tampered resume_data: INVALID_ARGUMENT with mcp-error-code', async () => {
    await using listener = await start();
    const native = new GrpcNativeClient(listener.target);
    try {
      const unanswered = await native.callTool('greet').catch((error: unknown) => error);
      expect(unanswered).toBeInstanceOf(NativeCallError);
      expect((unanswered as NativeCallError).message).toMatch(/elicitation\/create/);
      const first = await native.unary('CallTool', { common: {}, request: { name: 'greet', arguments: {} } });
      const resume = (first['common'] as Json)['resume_data'] as { fields: Record<string, Json> };
      const forged = { fields: { ...resume.fields, requestState: { stringValue: 'forged' } } };
      const refused = await native
        .unary('CallTool', { common: { resume_data: forged, dependent_responses: {} } })
        .catch((error: unknown) => error);
      expect(refused).toBeInstanceOf(NativeCallError);
      expect((refused as NativeCallError).status).toBe(3);
      expect((refused as NativeCallError).mcpErrorCode).toBe(-32602);
    } finally {
      native.close();
    }
  }, 30_000);
});
