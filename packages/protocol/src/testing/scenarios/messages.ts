import type { JSONRPCMessage, JSONRPCNotification, JSONRPCRequest, RequestId } from '../../jsonrpc.js';
import { describeDifference } from '../describe-difference.js';
import type { ScenarioContext } from '../scenario-context.js';
import type { TransportProbe } from '../transport-probe.js';

export function notification(method: string, params?: Record<string, unknown>): JSONRPCNotification {
  return params === undefined ? { jsonrpc: '2.0', method } : { jsonrpc: '2.0', method, params };
}

export function request(id: RequestId, method: string, params?: Record<string, unknown>): JSONRPCRequest {
  return params === undefined ? { jsonrpc: '2.0', id, method } : { jsonrpc: '2.0', id, method, params };
}

export const ECHO_METHOD = 'test/echo';
export const FAIL_METHOD = 'test/fail';

/** The error every `test/fail` request is answered with: code, message and structured data. */
export const FAIL_ERROR = {
  code: -32602,
  message: 'Invalid params: the contract kit asked for an error',
  data: { reason: 'requested', detail: [1, 'two', null, true, { nested: 3.5 }] },
} as const;

/** What the echo responder answers to `message`, or `undefined` when it does not answer it. */
export function expectedReply(message: JSONRPCMessage): JSONRPCMessage | undefined {
  if (!('method' in message) || !('id' in message)) return undefined;
  if (message.method === ECHO_METHOD) {
    return { jsonrpc: '2.0', id: message.id, result: { echo: message.params ?? {} } };
  }
  if (message.method === FAIL_METHOD) {
    return { jsonrpc: '2.0', id: message.id, error: structuredCloneJson(FAIL_ERROR) };
  }
  return undefined;
}

/** Makes `probe` answer `test/echo` and `test/fail` requests, the way a minimal peer engine would. */
export function answerRequests(probe: TransportProbe, also?: (message: JSONRPCMessage) => void): void {
  probe.listener = (message) => {
    const reply = expectedReply(message);
    if (reply !== undefined) void probe.send(reply).catch(() => undefined);
    also?.(message);
  };
}

/** Fails the scenario with the first difference between what was sent and what arrived. */
export function expectSame(context: ScenarioContext, what: string, expected: unknown, actual: unknown): void {
  const difference = describeDifference(expected, actual);
  if (difference !== undefined) context.fail(`${what} arrived changed: ${difference}`);
}

/** One notification each way, to prove the pair is connected before a scenario closes it. */
export async function exchangeGreetings(context: ScenarioContext): Promise<void> {
  context.step('exchanging one message each way');
  const clientSeen = context.client.received.length;
  const serverSeen = context.server.received.length;
  await Promise.all([
    context.client.send(notification('test/hello', { from: 'client' })),
    context.server.send(notification('test/hello', { from: 'server' })),
    context.server.waitForMessages(serverSeen + 1),
    context.client.waitForMessages(clientSeen + 1),
  ]);
}

function structuredCloneJson<T>(value: T): T {
  return JSON.parse(JSON.stringify(value)) as T;
}
