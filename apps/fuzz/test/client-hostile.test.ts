import { fileURLToPath } from 'node:url';
import { Client } from '@x/client';
import type { Transport } from '@x/protocol';
import { SseClientTransport } from '@x/transport-sse';
import { StdioClientTransport } from '@x/transport-stdio';
import { StreamableHttpClientTransport } from '@x/transport-streamable-http';
import { WebSocketClientTransport } from '@x/transport-ws';
import fc from 'fast-check';
import { afterAll, describe, expect, it } from 'vitest';
import {
  hostileSseServer,
  hostileStreamableHttpServer,
  hostileWebSocketServer,
} from '../src/fake-servers.js';
import { readFuzzConfig } from '../src/fuzz-config.js';
import { type FuzzSummary, formatSummary, summaries } from '../src/fuzz-run.js';
import { MiB, settledHeap } from '../src/heap.js';
import type { Host } from '../src/hosts.js';
import { type ReplyPlan, replyPlanArbitrary, VALID_PLAN } from '../src/hostile-reply.js';
import { settleWithin } from '../src/settle-within.js';
import { watchUnhandled } from './watch-unhandled.js';

// Issue #24, "Prove it stays fixed", client side: the x-mcp Client over each transport against a hostile
// fake server (raw node:http, ws, a child process) that answers each tools/call as the generated plan
// says: garbage, wrong ids, deep nesting, malformed results and errors, duplicates, silence, server
// requests, prototype keys, batches, huge results, HTTP error statuses and cut connections. Every call
// settles (result or a typed error, within its timeout); the client stays usable; nothing is thrown
// unhandled; Object.prototype stays clean; the heap stays bounded.

const config = readFuzzConfig();
const unhandled = watchUnhandled();
afterAll(() => unhandled.stop());

const HOSTILE_STDIO = fileURLToPath(new URL('./fixtures/hostile-stdio-server.mjs', import.meta.url));
const CALL_TIMEOUT_MS = 150;

interface ClientTarget {
  transport: string;
  protocolVersion: 'legacy' | '2024-11-05';
  start(): Promise<Host | undefined>;
  connect(host: Host | undefined): Transport;
}

const targets: ClientTarget[] = [
  {
    transport: 'client over stdio',
    protocolVersion: 'legacy',
    start: async () => undefined,
    connect: () =>
      new StdioClientTransport({
        command: process.execPath,
        args: [HOSTILE_STDIO],
        stderr: 'ignore',
        maxLineBytes: 8 * MiB,
      }),
  },
  {
    transport: 'client over Streamable HTTP',
    protocolVersion: 'legacy',
    start: hostileStreamableHttpServer,
    connect: (host) => new StreamableHttpClientTransport(host!.url),
  },
  {
    transport: 'client over legacy SSE',
    protocolVersion: '2024-11-05',
    start: hostileSseServer,
    connect: (host) => new SseClientTransport(host!.url),
  },
  {
    transport: 'client over WebSocket',
    protocolVersion: 'legacy',
    start: hostileWebSocketServer,
    connect: (host) => new WebSocketClientTransport(new URL(host!.url.href)),
  },
];

const textOf = (value: unknown): unknown =>
  (value as { content?: { text?: unknown }[] } | undefined)?.content?.[0]?.text;

async function fuzzClient(target: ClientTarget): Promise<FuzzSummary> {
  const host = await target.start();
  let client: Client | undefined;
  let closed = false;
  const errors: string[] = [];
  const connect = async () => {
    client = new Client(
      { name: 'fuzz-client', version: '1.0.0' },
      { protocolVersion: target.protocolVersion },
    );
    closed = false;
    client.onclose = () => {
      closed = true;
    };
    client.onerror = () => undefined;
    await client.connect(target.connect(host));
  };
  const call = (plan: ReplyPlan, timeout = CALL_TIMEOUT_MS) =>
    settleWithin(client!.callTool({ name: 'hostile', arguments: { plan } }, { timeout }), timeout + 10_000);
  const started = performance.now();
  let inputs = 0;
  let reconnects = 0;
  await connect();
  const before = settledHeap();
  const details = await fc.check(
    fc.asyncProperty(
      fc.array(replyPlanArbitrary(config.large), { minLength: 1, maxLength: 6 }),
      async (plans) => {
        // The plans of a sequence run concurrently: interleaved hostile replies, and one timeout for all.
        // A correct reply must arrive even behind a concurrent 3 MiB one: only the others get a short timeout.
        const outcomes = await Promise.all(
          plans.map((plan) => call(plan, plan.kind === 'valid' ? 10_000 : CALL_TIMEOUT_MS)),
        );
        inputs += plans.length;
        for (const [index, plan] of plans.entries()) {
          const outcome = outcomes[index]!;
          const what = `${plan.kind}/${plan.http}${plan.http === 'status' ? plan.status : ''}`;
          if (outcome.settled === 'hung') throw new Error(`${what}: the call never settled`);
          if (outcome.settled === 'rejected' && !(outcome.error instanceof Error)) {
            throw new Error(`${what}: rejected with a non-Error: ${String(outcome.error)}`);
          }
          if (
            plan.kind === 'valid' &&
            (plan.http === 'json' || plan.http === 'sse') &&
            outcome.settled !== 'resolved'
          ) {
            throw new Error(
              `${what}: a valid reply was refused: ${String((outcome as { error?: unknown }).error)}`,
            );
          }
        }
        if (({} as Record<string, unknown>)['polluted'] !== undefined)
          throw new Error('Object.prototype polluted');
        if (closed) {
          // Cutting the connection is a fair answer to some plans (a destroyed socket); the client must
          // say so and be connectable again.
          reconnects++;
          await client?.close();
          await connect();
        }
        const control = await call(VALID_PLAN, 10_000);
        if (control.settled !== 'resolved' || textOf(control.value) !== 'ok') {
          const kinds = plans.map((plan) => `${plan.kind}/${plan.http}`).join(', ');
          throw new Error(
            `the client is unusable after [${kinds}]: ${JSON.stringify(control).slice(0, 300)}`,
          );
        }
      },
    ),
    { numRuns: Math.max(1, Math.ceil(config.clientInputs / 3)), seed: config.seed, endOnFailure: true },
  );
  if (details.failed) {
    const error = details.errorInstance;
    errors.push(
      `${error instanceof Error ? error.message : String(error)} (seed ${details.seed}, path ${details.counterexamplePath})`,
    );
  }
  await client?.close();
  const growth = (settledHeap() - before) / MiB;
  await host?.close();
  const bound = config.large ? 256 : 64;
  if (growth > bound) errors.push(`heap grew ${growth.toFixed(1)} MiB (bound ${bound})`);
  const summary: FuzzSummary = {
    transport: target.transport,
    generators: `replies (${reconnects} reconnects)`,
    inputs,
    sequences: details.numRuns,
    failures: errors,
    heapGrowthMiB: growth,
    seconds: (performance.now() - started) / 1000,
  };
  summaries.push(summary);
  console.log(formatSummary(summary));
  return summary;
}

describe('fuzz: the client against hostile servers', () => {
  for (const target of targets) {
    it(`${target.transport}: every call settles, the client stays usable`, {
      timeout: config.long ? 3_600_000 : 180_000,
    }, async () => {
      const summary = await fuzzClient(target);
      expect(summary.failures).toEqual([]);
      expect(unhandled.errors).toEqual([]);
    });
  }
});
