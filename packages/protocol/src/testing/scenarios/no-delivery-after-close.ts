import { defineScenario } from '../define-scenario.js';
import { notification } from './messages.js';

/**
 * The hard case for byte-stream transports: `close()` called from inside `onmessage` while a burst is
 * still arriving (often in the very chunk being decoded). Nothing may be delivered on the closing end
 * after that call, nor on the other end after its `onclose`; the probes fail either as it happens.
 */
export const noDeliveryAfterCloseScenario = defineScenario(
  'no-delivery-after-close',
  'Once close() was called on an end (here from inside onmessage, mid-burst) or its onclose fired, it delivers no message.',
  async (context) => {
    const count = context.options.messageCount;
    const closeAt = Math.max(1, Math.min(10, Math.floor(count / 2)));
    context.client.listener = () => {
      if (context.client.received.length === closeAt) void context.client.close().catch(() => undefined);
    };
    context.step(`sending ${count} messages each way and closing the client after ${closeAt}`);
    for (let seq = 0; seq < count; seq += 1) {
      context.server.sendQuietly(notification('test/burst', { seq, from: 'server' }));
      context.client.sendQuietly(notification('test/burst', { seq, from: 'client' }));
    }
    await Promise.all([context.client.waitForClose(), context.server.waitForClose()]);
    await context.settle();
  },
);
