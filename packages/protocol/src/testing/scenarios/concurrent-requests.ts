import type { JSONRPCMessage, RequestId } from '../../jsonrpc.js';
import { defineScenario } from '../define-scenario.js';
import type { ScenarioContext } from '../scenario-context.js';
import type { TransportProbe } from '../transport-probe.js';
import { answerRequests, ECHO_METHOD, expectedReply, expectSame, request } from './messages.js';

/** Tracks one side's in-flight requests and fails on an unknown, duplicated or wrong reply. */
function trackReplies(context: ScenarioContext, probe: TransportProbe, sent: Map<RequestId, JSONRPCMessage>) {
  const answered = new Set<RequestId>();
  answerRequests(probe, (message) => {
    if (!('result' in message) && !('error' in message)) return;
    const id = message.id;
    const original = id === undefined || id === null ? undefined : sent.get(id);
    if (id === undefined || id === null || original === undefined) {
      context.fail(`${probe.side} received a reply to a request it never sent (id ${JSON.stringify(id)})`);
      return;
    }
    if (answered.has(id)) {
      context.fail(`${probe.side} received a second reply to request ${JSON.stringify(id)}`);
      return;
    }
    answered.add(id);
    expectSame(
      context,
      `the reply to ${probe.side} request ${JSON.stringify(id)}`,
      expectedReply(original),
      message,
    );
  });
  return answered;
}

export const concurrentRequestsScenario = defineScenario(
  'concurrent-requests',
  'A thousand requests in flight in each direction at once are each answered exactly once by an echo peer.',
  async (context) => {
    const count = context.options.concurrentRequests;
    // Numeric ids one way, string ids the other: both must survive, and a mix-up cannot pass by accident.
    const fromClient = new Map<RequestId, JSONRPCMessage>();
    const fromServer = new Map<RequestId, JSONRPCMessage>();
    for (let index = 0; index < count; index += 1) {
      fromClient.set(index + 1, request(index + 1, ECHO_METHOD, { index, from: 'client' }));
      fromServer.set(`s-${index}`, request(`s-${index}`, ECHO_METHOD, { index, from: 'server' }));
    }
    const clientAnswered = trackReplies(context, context.client, fromClient);
    const serverAnswered = trackReplies(context, context.server, fromServer);
    context.step(`sending ${count} requests each way without waiting for replies`);
    await Promise.all([
      ...[...fromClient.values()].map((message) => context.client.send(message)),
      ...[...fromServer.values()].map((message) => context.server.send(message)),
      context.waitUntil(
        () =>
          `client replies (${clientAnswered.size}/${count}) and server replies (${serverAnswered.size}/${count})`,
        () => clientAnswered.size === count && serverAnswered.size === count,
      ),
    ]);
    await context.settle();
    for (const probe of [context.client, context.server]) {
      if (probe.received.length !== count * 2) {
        context.fail(
          `${probe.side} received ${probe.received.length} messages; expected ${count} requests and ${count} replies`,
        );
      }
    }
  },
);
