// What each feature case does over the bridge, and how it reports the outcome (feature-cases.ts holds
// the outcomes the table shows). A run asserts what must hold for `✓`, and reports `✗ …` with what the
// client got when the feature did not cross.
import { McpError } from '@x/protocol/core';
import { expect, vi } from 'vitest';
import { z } from 'zod';
import type { CaseId } from './feature-cases.js';
import { type Harness, inputPath, methods } from './feature-harness.js';

/** How long a notification that may never come is waited for, before the case reports it missing. */
const NOTIFICATION_WAIT_MS = 10_000;

/** Resolves true once `check` passes, false when it still fails after `NOTIFICATION_WAIT_MS`. */
async function eventually(check: () => void): Promise<boolean> {
  try {
    await vi.waitFor(check, { timeout: NOTIFICATION_WAIT_MS, interval: 20 });
    return true;
  } catch {
    return false;
  }
}

/** What a failed call looks like in a cell: the JSON-RPC code and the first words of the message. */
function refusal(error: unknown): string {
  if (error instanceof McpError) return `✗ ${error.code}: ${error.message.split(/[:\n(]/)[0]?.trim()}`;
  return `✗ ${error instanceof Error ? error.name : String(error)}`;
}

/** The text of a tool result, or its error as a cell (an `isError` result). */
async function toolText(h: Harness, name: string): Promise<string> {
  const result = await h.client.callTool({ name, arguments: {} });
  const text = result.content.map((part) => (part.type === 'text' ? part.text : '')).join('');
  if (result.isError === true) throw new Error(text);
  return text;
}

/** `✓ how it crossed downstream ⇐ how it crossed upstream`, for an input request the upstream made. */
function inputCell(h: Harness, method: string): string {
  return `✓ ${inputPath(h.down, method)} ⇐ ${inputPath(h.up, method)}`;
}

async function inputCase(h: Harness, tool: string, method: string, expected: RegExp): Promise<string> {
  try {
    expect(await toolText(h, tool)).toMatch(expected);
    return inputCell(h, method);
  } catch (error) {
    if (error instanceof McpError) return refusal(error);
    return `✗ tool error: ${(error as Error).message.split(/[:\n(]/)[0]?.trim()}`;
  }
}

const HANDSHAKE = ['initialize', 'server/discover'];

export const RUNS: Readonly<Record<CaseId, (h: Harness) => Promise<string>>> = {
  discover: async (h) => {
    expect(h.client.serverInfo?.name).toBe(`upstream-${h.direction.upstream}`);
    const down = methods(h.down.out).filter((m) => HANDSHAKE.includes(m));
    const up = methods(h.up.out).filter((m) => HANDSHAKE.includes(m));
    return `✓ ${down.join(' + ')} → ${up.join(' + ')}`;
  },
  tools: async (h) => {
    const { tools } = await h.client.listTools();
    expect(tools.map((tool) => tool.name)).toContain('echo');
    expect(await h.client.callTool({ name: 'echo', arguments: { text: 'x' } })).toMatchObject({
      content: [{ type: 'text', text: 'echo:x' }],
    });
    return '✓';
  },
  resources: async (h) => {
    const { resources } = await h.client.listResources();
    expect(resources.map((resource) => resource.uri)).toContain('file:///readme');
    const read = await h.client.readResource({ uri: 'file:///readme' });
    expect(read.contents[0]).toMatchObject({ text: 'read me' });
    return '✓';
  },
  templates: async (h) => {
    const { resourceTemplates } = await h.client.listResourceTemplates();
    expect(resourceTemplates.map((template) => template.uriTemplate)).toContain('users://{id}');
    const read = await h.client.readResource({ uri: 'users://7' });
    expect(read.contents[0]).toMatchObject({ text: 'user 7' });
    return '✓';
  },
  prompts: async (h) => {
    const { prompts } = await h.client.listPrompts();
    expect(prompts.map((prompt) => prompt.name)).toContain('greet');
    const prompt = await h.client.getPrompt({ name: 'greet', arguments: { who: 'Bo' } });
    expect(prompt.messages[0]).toMatchObject({ content: { text: 'Hi Bo' } });
    return '✓';
  },
  completion: async (h) => {
    try {
      const { completion } = await h.client.complete({
        ref: { type: 'ref/prompt', name: 'greet' },
        argument: { name: 'who', value: 'A' },
      });
      expect(completion.values).toEqual(['Ada', 'Alan']);
      return '✓';
    } catch (error) {
      return refusal(error);
    }
  },
  logging: async (h) => {
    const logs: unknown[] = [];
    h.client.on('log', ({ data }) => logs.push(data));
    if (h.client.era === 'legacy') await h.client.setLoggingLevel('info');
    await h.client.callTool({ name: 'log', arguments: {} });
    const delivered = await eventually(() => expect(logs).toContain('upstream-log'));
    return delivered ? '✓ notifications/message' : '✗ not delivered';
  },
  progress: async (h) => {
    const updates: number[] = [];
    const result = await h.client.callTool(
      { name: 'progress', arguments: {} },
      { onprogress: ({ progress }) => updates.push(progress) },
    );
    expect(result.content[0]).toMatchObject({ text: 'done' });
    return updates.join(',') === '1,2' ? '✓' : `✗ ${updates.length} of 2 notifications/progress`;
  },
  cancellation: async (h) => {
    const abort = new AbortController();
    const call = h.client.callTool({ name: 'wait', arguments: {} }, { signal: abort.signal });
    call.catch(() => undefined);
    // In flight upstream once the upstream got it (its request is on the upstream wire).
    await vi.waitFor(() => expect(methods(h.up.out)).toContain('tools/call'), { timeout: 20_000 });
    abort.abort();
    await expect(call).rejects.toThrow();
    const stopped = await eventually(() => expect(h.cancelled).toEqual([true]));
    const how = (out: string[]): string =>
      out.includes('notifications/cancelled') ? 'notifications/cancelled' : 'request stream closed';
    return stopped
      ? `✓ ${how(methods(h.down.out))} → ${how(methods(h.up.out))}`
      : '✗ the upstream handler kept running';
  },
  elicitation: (h) => inputCase(h, 'ask', 'elicitation/create', /^hello Ada$/),
  'input-required': async (h) => {
    const cell = await inputCase(h, 'ask', 'elicitation/create', /^hello Ada$/);
    if (!cell.startsWith('✓')) return cell;
    return `✓ upstream tool handler ran ${h.runs.get('ask') ?? 0}×`;
  },
  sampling: (h) => inputCase(h, 'sample', 'sampling/createMessage', /pong/),
  roots: (h) => inputCase(h, 'roots', 'roots/list', /^file:\/\/\/home\/ada$/),
  'list-changed': async (h) => {
    let changed = 0;
    if (h.client.era === 'legacy') {
      h.client.on('toolsListChanged', () => changed++);
    } else {
      const subscription = h.client.listen({ toolsListChanged: true });
      await subscription.acknowledged;
      void (async () => {
        for await (const notification of subscription) {
          if (notification.method === 'notifications/tools/list_changed') changed++;
        }
      })().catch(() => undefined);
    }
    h.upstream.registerTool('late', { inputSchema: z.object({}) }, () => ({ content: [] }));
    const relayed = await eventually(() => expect(changed).toBeGreaterThan(0));
    // A legacy upstream notifies its session; a 2026-07-28 one only on a `subscriptions/listen` stream.
    const up = methods(h.up.out).includes('subscriptions/listen')
      ? 'subscriptions/listen'
      : h.direction.upstream === '2026-07-28'
        ? 'no subscriptions/listen upstream'
        : 'session notification';
    return relayed
      ? `✓ ${h.client.era === 'legacy' ? 'session notification' : 'subscriptions/listen'} ⇐ ${up}`
      : `✗ not relayed (${up})`;
  },
  'resource-updated': async (h) => {
    const updated: string[] = [];
    const uri = 'file:///readme';
    if (h.client.era === 'legacy') {
      h.client.on('resourceUpdated', (params) => updated.push(params.uri));
      try {
        await h.client.subscribeResource({ uri });
      } catch (error) {
        return refusal(error);
      }
    } else {
      const subscription = h.client.listen({ resourceSubscriptions: [uri] });
      await subscription.acknowledged;
      void (async () => {
        for await (const notification of subscription) {
          if (notification.method === 'notifications/resources/updated')
            updated.push(notification.params.uri);
        }
      })().catch(() => undefined);
    }
    h.upstream.sendResourceUpdated(uri);
    const relayed = await eventually(() => expect(updated).toEqual([uri]));
    const down = h.client.era === 'legacy' ? 'resources/subscribe' : 'subscriptions/listen';
    const upMethods = methods(h.up.out);
    const up = upMethods.includes('subscriptions/listen')
      ? 'subscriptions/listen'
      : upMethods.includes('resources/subscribe')
        ? 'resources/subscribe'
        : 'no upstream subscription';
    return relayed ? `✓ ${down} → ${up}` : `✗ no update (${down} → ${up})`;
  },
  tasks: async (h) => {
    try {
      const result = await h.client.callToolInTask({ name: 'slow', arguments: {} });
      expect(result.content[0]).toMatchObject({ text: 'slow done' });
      const tasks = (out: string[]): string => {
        const seen = [...new Set(out.filter((m) => m.startsWith('tasks/')))];
        return seen.length === 0 ? 'plain tools/call' : `tools/call + ${seen.join(', ')}`;
      };
      return `✓ ${tasks(methods(h.down.out))} → ${tasks(methods(h.up.out))}`;
    } catch (error) {
      return refusal(error);
    }
  },
};
