import { ContractScenarioError, type SkippedScenario, TransportContractError } from './contract-errors.js';
import type {
  TransportContractOptions,
  TransportContractResult,
  TransportPairFactory,
} from './contract-types.js';
import { resolveContractOptions } from './resolve-options.js';
import { transportContractScenarios } from './transport-contract-scenarios.js';
import { errorText } from './transport-probe.js';

/**
 * Runs every transport contract scenario against pairs from `factory`, one after another, each with a
 * fresh pair and its own timeout. Resolves with the passed and skipped scenario names; if any scenario
 * fails, rejects with a `TransportContractError` (an `AggregateError`) holding every failure.
 * Framework-agnostic: call it from vitest, jest, node:test or a plain script.
 *
 * @example
 * ```ts
 * import { runTransportContract } from '@x/protocol/testing';
 *
 * it('passes the transport contract', async () => {
 *   await runTransportContract(
 *     async () => {
 *       const [serverStream, clientStream] = createStreamPair();
 *       return {
 *         client: new MyClientTransport(clientStream),
 *         server: new MyServerTransport(serverStream),
 *         dispose: async () => serverStream.destroy(),
 *       };
 *     },
 *     { skip: { 'large-message': 'frames are capped at 64 KiB by design' } },
 *   );
 * });
 * ```
 */
export async function runTransportContract(
  factory: TransportPairFactory,
  options: TransportContractOptions = {},
): Promise<TransportContractResult> {
  const resolved = resolveContractOptions(options);
  const known = new Set(transportContractScenarios.map((scenario) => scenario.name));
  for (const [name, reason] of Object.entries(resolved.skip)) {
    if (!known.has(name)) {
      throw new TypeError(
        `Unknown transport contract scenario "${name}" in skip; known: ${[...known].join(', ')}`,
      );
    }
    if (typeof reason !== 'string' || reason.trim() === '') {
      throw new TypeError(`Skipping transport contract scenario "${name}" needs a reason`);
    }
  }
  const passed: string[] = [];
  const skipped: SkippedScenario[] = [];
  const failures: ContractScenarioError[] = [];
  for (const scenario of transportContractScenarios) {
    const reason = resolved.skip[scenario.name];
    if (reason !== undefined) {
      skipped.push({ name: scenario.name, reason });
      continue;
    }
    try {
      await scenario.run(factory, resolved);
      passed.push(scenario.name);
    } catch (error) {
      failures.push(
        error instanceof ContractScenarioError
          ? error
          : new ContractScenarioError(scenario.name, errorText(error), { cause: error }),
      );
    }
  }
  if (failures.length > 0) throw new TransportContractError(failures, passed, skipped);
  return { passed, skipped };
}
