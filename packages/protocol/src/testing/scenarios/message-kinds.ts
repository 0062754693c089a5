import type { JSONRPCMessage } from '../../jsonrpc.js';
import { defineScenario } from '../define-scenario.js';
import type { TransportContractScenario } from '../contract-types.js';
import type { Side } from '../transport-probe.js';
import {
  answerRequests,
  ECHO_METHOD,
  expectedReply,
  expectSame,
  FAIL_METHOD,
  notification,
  request,
} from './messages.js';

/** Every message shape an engine sends: ids of both types (0 included: it is falsy), params or none. */
function outgoing(from: Side): JSONRPCMessage[] {
  return [
    request(0, ECHO_METHOD, { a: 1, nested: { b: [1, 2, { c: null }] }, flag: false, ratio: -0.25 }),
    request(`${from}-string-id`, ECHO_METHOD),
    request(Number.MAX_SAFE_INTEGER, FAIL_METHOD, {}),
    request(-1, ECHO_METHOD, { _meta: { progressToken: `${from}-progress` }, empty: {}, list: [] }),
    notification('test/notice', { level: 'info', value: 1.5, from }),
    notification('test/bare'),
  ];
}

function directionScenario(from: Side): TransportContractScenario {
  const to: Side = from === 'client' ? 'server' : 'client';
  return defineScenario(
    `messages-${from}-to-${to}`,
    `Requests from the ${from} reach the ${to} unchanged and are answered with results and errors; notifications with and without params arrive.`,
    async (context) => {
      const sender = context[from];
      const receiver = context[to];
      answerRequests(receiver);
      const messages = outgoing(from);
      const replies = messages.map(expectedReply).filter((reply) => reply !== undefined);
      context.step(`sending every message kind from the ${from}`);
      await Promise.all([
        ...messages.map((message) => sender.send(message)),
        receiver.waitForMessages(messages.length),
        sender.waitForMessages(replies.length),
      ]);
      await context.settle();
      expectSame(context, `messages from the ${from}`, messages, receiver.received);
      // Replies may travel on different streams (e.g. one HTTP response per request): match them by id.
      const byId = new Map(sender.received.map((reply) => ['id' in reply ? reply.id : undefined, reply]));
      for (const reply of replies) {
        const id = 'id' in reply ? reply.id : undefined;
        expectSame(context, `the reply to request ${JSON.stringify(id)}`, reply, byId.get(id));
      }
      if (sender.received.length !== replies.length) {
        context.fail(
          `${from} received ${sender.received.length} messages; ${replies.length} replies were sent`,
        );
      }
    },
  );
}

export const clientToServerScenario = directionScenario('client');
export const serverToClientScenario = directionScenario('server');
