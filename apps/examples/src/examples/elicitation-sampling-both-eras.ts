// Example: one tool that asks the user (elicitation) and the client's LLM (sampling), written once and
// served on both protocol eras. A legacy-pinned client answers them as server→client requests; a
// modern client gets `input_required` results and retries with the answers (spec 2026-07-28
// basic/patterns/mrtr). Same tool code, same client handlers, same result; a tap on the client's
// transport shows which mechanism each era used.
import assert from 'node:assert/strict';
import { Client, type ElicitationHandler, type SamplingHandler } from '@x/client';
import type { JSONRPCMessage, Transport } from '@x/protocol';
import { McpServer } from '@x/server';
import { StreamableHttpClientTransport } from '@x/transport-streamable-http';
import { z } from 'zod';
import { hostStreamableHttp } from '../hosting.js';

const server = new McpServer({ name: 'trip-planner', version: '1.0.0' });
server.registerTool(
  'plan_trip',
  { description: 'Plans a trip', inputSchema: z.object({ days: z.number().int().positive() }) },
  async ({ days }, ctx) => {
    // On 2026-07-28 this handler re-runs from the top on every retry; answers already given come back
    // at once (matched by `key`), so each question reaches the user only once.
    const where = await ctx.elicit(
      {
        mode: 'form',
        message: 'Where do you want to go?',
        requestedSchema: { type: 'object', properties: { city: { type: 'string' } }, required: ['city'] },
      },
      { key: 'city' },
    );
    if (where.action !== 'accept') return { content: [{ type: 'text', text: 'Trip cancelled.' }] };
    const city = String(where.content?.['city']);
    const plan = await ctx.sample(
      {
        messages: [{ role: 'user', content: { type: 'text', text: `Plan ${days} days in ${city}` } }],
        maxTokens: 200,
      },
      { key: 'plan' },
    );
    const block = Array.isArray(plan.content) ? plan.content[0] : plan.content;
    return { content: [{ type: 'text', text: `${city}: ${block?.type === 'text' ? block.text : '?'}` }] };
  },
);

// The client side: a user who always picks Lisbon, and a stand-in for an LLM.
const asked = { elicitation: 0, sampling: 0 };
const askUser: ElicitationHandler = () => {
  asked.elicitation++;
  return { action: 'accept', content: { city: 'Lisbon' } };
};
const llm: SamplingHandler = (params) => {
  asked.sampling++;
  const prompt = params.messages[0]?.content;
  const text = prompt !== undefined && !Array.isArray(prompt) && prompt.type === 'text' ? prompt.text : '';
  return { role: 'assistant', content: { type: 'text', text: `itinerary for "${text}"` }, model: 'stand-in' };
};

/** Forwards everything, and reports each message the client receives. */
function tap(inner: Transport, onreceive: (message: JSONRPCMessage) => void): Transport {
  const outer: Transport = {
    start: () => inner.start(),
    send: (message, options) => inner.send(message, options),
    close: () => inner.close(),
    setProtocolVersion: (version) => inner.setProtocolVersion?.(version),
    get sessionId() {
      return inner.sessionId;
    },
  };
  inner.onmessage = (message, extra) => {
    onreceive(message);
    outer.onmessage?.(message, extra);
  };
  inner.onerror = (error) => outer.onerror?.(error);
  inner.onclose = () => outer.onclose?.();
  return outer;
}

function mechanismOf(message: JSONRPCMessage): string | undefined {
  if ('method' in message && 'id' in message) return `request ${message.method}`;
  if ('result' in message && message.result['resultType'] === 'input_required') return 'input_required';
  return undefined;
}

const expected = 'Lisbon: itinerary for "Plan 3 days in Lisbon"';
const host = await hostStreamableHttp(server);
try {
  for (const protocolVersion of ['legacy', 'modern'] as const) {
    asked.elicitation = 0;
    asked.sampling = 0;
    const wire: string[] = [];
    const client = new Client({ name: `${protocolVersion}-client`, version: '1.0.0' }, { protocolVersion });
    client.setElicitationHandler(askUser);
    client.setSamplingHandler(llm);
    try {
      const transport = new StreamableHttpClientTransport(host.url);
      await client.connect(
        tap(transport, (message) => {
          const seen = mechanismOf(message);
          if (seen !== undefined) wire.push(seen);
        }),
      );
      const result = await client.callTool({ name: 'plan_trip', arguments: { days: 3 } });
      assert.deepEqual(result.content, [{ type: 'text', text: expected }]);
      assert.deepEqual(asked, { elicitation: 1, sampling: 1 });
      console.log(`${client.era} (${client.protocolVersion}): ${expected}`);
      console.log(`  how the server asked: ${wire.join(', ')}`);
      assert.deepEqual(
        wire,
        protocolVersion === 'legacy'
          ? ['request elicitation/create', 'request sampling/createMessage']
          : ['input_required', 'input_required'],
      );
    } finally {
      await client.close();
    }
  }
} finally {
  await host.close();
}
