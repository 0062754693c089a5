export { ContractScenarioError, TransportContractError } from './contract-errors.js';
export type { SkippedScenario } from './contract-errors.js';
export type {
  TransportContractOptions,
  TransportContractResult,
  TransportContractScenario,
  TransportPair,
  TransportPairContext,
  TransportPairFactory,
} from './contract-types.js';
export { runTransportContract } from './run-transport-contract.js';
export { transportContractScenarios } from './transport-contract-scenarios.js';
/**
 * Whether a schema of `@x/protocol` (a facade that builds its zod schema on first use) has been
 * built yet; any other value counts as built. For tests that hold a program to building only the
 * schemas it uses.
 */
export { isSchemaBuilt } from '../schemas/lazy-schema.js';
