import type { TransportContractScenario } from '../contract-types.js';
import { defineScenario } from '../define-scenario.js';
import type { Side } from '../transport-probe.js';
import { exchangeGreetings, notification } from './messages.js';

/**
 * Closing one end closes the connection: both `onclose` callbacks fire exactly once (the probes fail a
 * second one as it happens; `settle()` gives a late duplicate time to show up), and neither end accepts
 * a send any more.
 */
function closeFrom(side: Side): TransportContractScenario {
  const other: Side = side === 'client' ? 'server' : 'client';
  return defineScenario(
    `close-from-${side}`,
    `close() on the ${side} fires onclose exactly once on both ends, after which send() rejects on both.`,
    async (context) => {
      await exchangeGreetings(context);
      context.step(`closing the ${side} end`);
      await context[side].close();
      context.step(`waiting for onclose on both ends after the ${side} closed`);
      await Promise.all([context.client.waitForClose(), context.server.waitForClose()]);
      await context.settle();
      context.step('sending on both closed ends');
      const late = notification('test/late', { from: side });
      await context[side].expectSendRejects(late, 'after close()');
      await context[other].expectSendRejects(late, `after the ${side} closed the connection`);
    },
  );
}

export const closeFromClientScenario = closeFrom('client');
export const closeFromServerScenario = closeFrom('server');

export const closeIdempotentScenario = defineScenario(
  'close-idempotent',
  'close() may be called repeatedly and concurrently on either end; every call resolves and onclose fires once per end.',
  async (context) => {
    await exchangeGreetings(context);
    context.step('closing the client end twice at once, then once more');
    await Promise.all([context.client.close(), context.client.close()]);
    await context.client.close();
    await context.client.waitForClose();
    context.step('closing the server end twice');
    await context.server.close();
    await context.server.close();
    await context.server.waitForClose();
    await context.settle();
  },
);

export const closeBothSidesScenario = defineScenario(
  'close-both-sides-at-once',
  'Both ends closing at the same moment still fire onclose exactly once each.',
  async (context) => {
    await exchangeGreetings(context);
    context.step('closing both ends at once');
    await Promise.all([context.client.close(), context.server.close()]);
    await Promise.all([context.client.waitForClose(), context.server.waitForClose()]);
    await context.settle();
  },
);

export const sendAfterCloseScenario = defineScenario(
  'send-after-close',
  'send() on an end that was closed returns a promise that rejects promptly; it neither hangs nor throws synchronously.',
  async (context) => {
    await exchangeGreetings(context);
    for (const side of ['client', 'server'] as const) {
      context.step(`closing the ${side} end and sending on it`);
      await context[side].close();
      await context[side].expectSendRejects(
        notification('test/late', { side }),
        'of a notification after close()',
      );
      await context[side].expectSendRejects(
        { jsonrpc: '2.0', id: `late-${side}`, method: 'test/late' },
        'of a request after close()',
      );
    }
  },
);
