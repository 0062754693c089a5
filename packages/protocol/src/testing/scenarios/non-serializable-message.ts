import { defineScenario } from '../define-scenario.js';
import { exchangeGreetings, notification } from './messages.js';

/**
 * A message `JSON.stringify` cannot encode (a BigInt param) is a fault of that one message, not of the
 * connection: `send()` must reject or the fault must reach `onerror` (an in-process transport may also
 * just deliver the object), `send()` must not throw synchronously or hang, nothing may close, and both
 * directions must still work afterwards. Resolving while dropping the message silently fails.
 */
export const nonSerializableMessageScenario = defineScenario(
  'non-serializable-message',
  'A message holding a BigInt is refused (rejected send or onerror) without closing the transport, which keeps working.',
  async (context) => {
    context.allowErrors();
    for (const [sender, receiver] of [
      [context.client, context.server],
      [context.server, context.client],
    ] as const) {
      const errorsBefore = sender.errors.length + receiver.errors.length;
      const receivedBefore = receiver.received.length;
      context.step(`sending a BigInt from the ${sender.side}`);
      const outcome = await sender.sendAndObserve(
        notification('test/bigint', { value: 10n }),
        `${sender.side}.send() of a message holding a BigInt`,
      );
      await context.settle();
      const reported = sender.errors.length + receiver.errors.length > errorsBefore;
      const delivered = receiver.received.length > receivedBefore;
      if (outcome.state === 'resolved' && !reported && !delivered) {
        context.fail(
          `${sender.side}.send() of a message holding a BigInt resolved, yet the message was neither delivered nor reported through onerror (lost silently)`,
        );
      }
      await exchangeGreetings(context);
    }
  },
);
