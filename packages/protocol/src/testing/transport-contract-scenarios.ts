import type { TransportContractScenario } from './contract-types.js';
import {
  closeBothSidesScenario,
  closeFromClientScenario,
  closeFromServerScenario,
  closeIdempotentScenario,
  sendAfterCloseScenario,
} from './scenarios/close-scenarios.js';
import { concurrentRequestsScenario } from './scenarios/concurrent-requests.js';
import { largeMessageScenario } from './scenarios/large-message.js';
import { clientToServerScenario, serverToClientScenario } from './scenarios/message-kinds.js';
import { noDeliveryAfterCloseScenario } from './scenarios/no-delivery-after-close.js';
import { nonSerializableMessageScenario } from './scenarios/non-serializable-message.js';
import { orderingScenario } from './scenarios/ordering.js';
import { unicodeScenario } from './scenarios/unicode.js';

/**
 * Every scenario of the transport contract (DESIGN §2), in run order: message delivery first, then
 * close semantics, then faults. Each `run` is self-contained, so a test runner can give every scenario
 * its own test case.
 *
 * @example
 * ```ts
 * import { transportContractScenarios } from '@x/protocol/testing';
 *
 * describe('MyTransport contract', () => {
 *   for (const scenario of transportContractScenarios) {
 *     it(scenario.name, () => scenario.run(createMyTransportPair));
 *   }
 * });
 * ```
 */
export const transportContractScenarios: readonly TransportContractScenario[] = Object.freeze([
  clientToServerScenario,
  serverToClientScenario,
  orderingScenario,
  largeMessageScenario,
  unicodeScenario,
  concurrentRequestsScenario,
  closeFromClientScenario,
  closeFromServerScenario,
  closeIdempotentScenario,
  closeBothSidesScenario,
  sendAfterCloseScenario,
  noDeliveryAfterCloseScenario,
  nonSerializableMessageScenario,
]);
