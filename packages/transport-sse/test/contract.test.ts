import { transportContractScenarios } from '@x/protocol/testing';
import type { TransportPairFactory } from '@x/protocol/testing';
import { describe, it } from 'vitest';
import { SseClientTransport } from '../src/index.js';
import { startSseServer } from './helpers.js';

/** Our client and our server over real HTTP on 127.0.0.1. */
const createPair: TransportPairFactory = async () => {
  const cleanups: Array<() => Promise<void> | void> = [];
  const harness = await startSseServer((cleanup) => cleanups.push(cleanup));
  // The server end only exists once the client's GET arrived, so the factory starts both ends.
  const client = new SseClientTransport(harness.url);
  await client.start();
  const server = harness.sessions[0];
  if (server === undefined) throw new Error('no server session after the client connected');
  return {
    client,
    server,
    started: true,
    dispose: async () => {
      for (const cleanup of cleanups.reverse()) await cleanup();
    },
  };
};

// Every client message is its own ordered POST, so the 1,000-message scenarios are thousands of HTTP
// round trips: the timeout leaves room for a loaded CI machine, not for a slow transport.
const TIMEOUT_MS = 25_000;

describe('transport contract (@x/protocol/testing)', () => {
  for (const scenario of transportContractScenarios) {
    it(scenario.name, () => scenario.run(createPair, { timeoutMs: TIMEOUT_MS }), TIMEOUT_MS + 5_000);
  }
});
