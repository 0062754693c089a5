import type { JSONRPCMessage } from '../../jsonrpc.js';
import { defineScenario } from '../define-scenario.js';
import { notification } from './messages.js';

function sequenceOf(message: JSONRPCMessage): unknown {
  return 'params' in message ? message.params?.['seq'] : undefined;
}

/**
 * Both ends send at once without awaiting each send, the way an engine does; each receiver checks every
 * message against the next expected number, so a loss, duplicate or swap fails at the message it
 * happens on rather than at the timeout.
 */
export const orderingScenario = defineScenario(
  'ordering',
  'Many messages in each direction, sent without awaiting one another, arrive exactly once and in order.',
  async (context) => {
    const count = context.options.messageCount;
    for (const probe of [context.client, context.server]) {
      let expected = 0;
      probe.listener = (message) => {
        const sequence = sequenceOf(message);
        if (sequence !== expected) {
          const hint =
            typeof sequence === 'number' && sequence > expected
              ? 'lost or reordered'
              : 'repeated or reordered';
          context.fail(
            `${probe.side} received seq ${String(sequence)} where seq ${expected} was due (${hint})`,
          );
        }
        expected += 1;
      };
    }
    context.step(`sending ${count} messages each way`);
    const sends: Promise<void>[] = [];
    for (let seq = 0; seq < count; seq += 1) {
      sends.push(context.client.send(notification('test/ordering', { seq, from: 'client' })));
      sends.push(context.server.send(notification('test/ordering', { seq, from: 'server' })));
    }
    await Promise.all([
      ...sends,
      context.client.waitForMessages(count),
      context.server.waitForMessages(count),
    ]);
    await context.settle();
    for (const probe of [context.client, context.server]) {
      if (probe.received.length !== count) {
        context.fail(`${probe.side} received ${probe.received.length} messages; ${count} were sent`);
      }
    }
  },
);
